package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// TestOneFigurePerCriterion: the same subject gives the same figure per
// criterion everywhere — cover in text, JSON and HTML, reduce, gentests,
// and the fuzzing yardstick compare reads: MC/DC in conditions (vectors
// apart, named as such), D0 never above its row's total, all the sum of
// the rows.
func TestOneFigurePerCriterion(t *testing.T) {
	const plan = "../../testdata/bench/temperature/temperature.plan"
	const tests = "../../testdata/bench/temperature/reproducers"
	dir := t.TempDir()
	crit := []string{"--criteria", "mcc,cc,mcdc"}
	cover := func(args ...string) *figureReport {
		t.Helper()
		return coverFigures(t, append(append(append([]string{"cover", plan}, crit...), args...), "--json")...)
	}
	page := filepath.Join(dir, "c.html")
	rep := cover("--tests", tests, "--html", page)
	all, fig := rep.All, rep.fig
	rep.check(t)
	checkTextAndHTML(t, rep, page, append([]string{"cover", plan, "--tests", tests}, crit...)...)

	code, out, errs := runCLI(append([]string{"reduce", plan, "--tests", tests, "--out", filepath.Join(dir, "r")}, crit...)...)
	want := fmt.Sprintf("mcc %s, cc %s, mcdc %s conditions, all %d/%d", fig("mcc"), fig("cc"), fig("mcdc"), all.Covered, all.Total)
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("reduce (exit %d) does not say %q:\n%s%s", code, want, out, errs)
	}
	code, out, errs = runCLI(append([]string{"gentests", plan, "--tests", tests, "--runs", "30", "--out", filepath.Join(dir, "g")}, crit...)...)
	if code != exitOK || !regexp.MustCompile(`(?m)^  mcdc +`+fig("mcdc")+` -> `).MatchString(out) || !regexp.MustCompile(`(?m)^  all +`+fmt.Sprintf("%d/%d", all.Covered, all.Total)+` -> `).MatchString(out) {
		t.Errorf("gentests (exit %d) does not start from cover's mcdc %s and all:\n%s%s", code, fig("mcdc"), out, errs)
	}

	// The fuzzing yardstick (what compare plots): its figures of a
	// campaign's inputs are cover's figures of the same inputs.
	camp := filepath.Join(dir, "camp")
	code, out, errs = runCLI("fuzz", plan, "--runs", "200", "--workers", "1", "--progress", "0", "--measure", "mcc,cc,mcdc",
		"--out", camp, "--allow-findings", "--json")
	var sum2 struct {
		Coverage map[string]struct{ Covered, Total int }
		ByKey    map[string]struct{ Covered, Total int } `json:"labels_by_criterion"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &sum2) != nil {
		t.Fatalf("fuzz: exit %d\n%s%s", code, out, errs)
	}
	// It measures the kept corpus, the queue (crashing inputs are
	// findings, not corpus).
	rep2 := cover("--tests", filepath.Join(camp, "labelcov", "queue"))
	rows2, all2 := rep2.Criteria, rep2.All
	for k, f := range sum2.ByKey {
		if r := rows2[k]; r.Covered != f.Covered || r.Total != f.Total {
			t.Errorf("%s: the yardstick says %d/%d, cover of its inputs %d/%d", k, f.Covered, f.Total, r.Covered, r.Total)
		}
	}
	if l := sum2.Coverage["labels"]; l.Covered != all2.Covered || l.Total != all2.Total || len(sum2.ByKey) != 3 {
		t.Errorf("the yardstick's labels %+v (by criterion %v), cover's all %d/%d", l, sum2.ByKey, all2.Covered, all2.Total)
	}
}

// TestOneFigurePerCriterionGo: for a Go fuzz target too, cover in text,
// JSON and HTML, reduce and gentests (its suite, before the campaign)
// give the same figure per criterion: MC/DC in conditions, vectors apart,
// D0 never above its row's total, all the sum of the rows.
func TestOneFigurePerCriterionGo(t *testing.T) {
	testenv.Long(t) // go builds: about 20 s
	needGo(t)
	dir := fuzzexpWithEntry(t, "hot", "go test fuzz v1\nint32(510)\nint32(50)\nint32(10)\n")
	crit := []string{"-C", dir, "--fuzz", "FuzzAlarm", "--criteria", "mcc,cc,mcdc"}
	page := filepath.Join(t.TempDir(), "c.html")
	rep := coverFigures(t, append(append([]string{"cover", "."}, crit...), "--per-test", "--json", "--html", page)...)
	all, fig := rep.All, rep.fig
	rep.check(t)
	allFig := fmt.Sprintf("%d/%d", all.Covered, all.Total)
	checkTextAndHTML(t, rep, page, append([]string{"cover", "."}, crit...)...)

	code, out, errs := runCLI(append([]string{"reduce", "."}, append(crit, "--out", t.TempDir())...)...)
	want := fmt.Sprintf("mcc %s, cc %s, mcdc %s conditions, all %s", fig("mcc"), fig("cc"), fig("mcdc"), allFig)
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("reduce (exit %d) does not say %q:\n%s%s", code, want, out, errs)
	}
	// gentests starts from the suite, the entries cover measured.
	code, out, errs = runCLI(append([]string{"gentests", "."}, append(crit, "--budget", "1s", "--seed", "1", "--out", t.TempDir())...)...)
	for _, k := range []string{"mcc", "cc", "mcdc", "all"} {
		f := allFig
		if k != "all" {
			f = fig(k)
		}
		if !regexp.MustCompile(`(?m)^  ` + k + ` +` + f + ` -> `).MatchString(out) {
			t.Errorf("gentests (exit %d) does not start from cover's %s %s:\n%s%s", code, k, f, out, errs)
		}
	}
}

// figureRow is a row of cover --json: covered/total and D0.
type figureRow struct {
	Covered, Total int
	Diversity      struct{ D0 float64 }
}

// figureReport is what TestOneFigurePerCriterion* read of cover --json.
type figureReport struct {
	Criteria map[string]figureRow
	All      figureRow
	MCDC     struct {
		Covered, Total int
		Vectors        struct{ Covered, Total int }
	}
}

// coverFigures runs labelcov with args (a cover --json command) and reads
// its figures.
func coverFigures(t *testing.T, args ...string) *figureReport {
	t.Helper()
	var rep figureReport
	code, out, errs := runCLI(args...)
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("%s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
	}
	return &rep
}

// fig is criterion k's figure, "covered/total".
func (rep *figureReport) fig(k string) string {
	return fmt.Sprintf("%d/%d", rep.Criteria[k].Covered, rep.Criteria[k].Total)
}

// check checks the figures of one report: D0 of every row its covered
// count (never above its total), all the sum of the rows, the mcdc row
// the MC/DC section's conditions with more vectors than conditions.
func (rep *figureReport) check(t *testing.T) {
	t.Helper()
	var sum figureRow
	for k, r := range rep.Criteria {
		if r.Diversity.D0 > float64(r.Total) || r.Diversity.D0 != float64(r.Covered) {
			t.Errorf("%s %d/%d: D0 %v", k, r.Covered, r.Total, r.Diversity.D0)
		}
		sum.Covered += r.Covered
		sum.Total += r.Total
	}
	if all := rep.All; len(rep.Criteria) != 3 || all.Covered != sum.Covered || all.Total != sum.Total || all.Diversity.D0 != float64(sum.Covered) {
		t.Errorf("all %+v, the rows %v sum to %d/%d", all, rep.Criteria, sum.Covered, sum.Total)
	}
	m, mc := rep.Criteria["mcdc"], rep.MCDC
	if m.Covered != mc.Covered || m.Total != mc.Total || m.Total == 0 || mc.Vectors.Total <= m.Total {
		t.Errorf("mcdc row %d/%d, MC/DC section %+v", m.Covered, m.Total, mc)
	}
}

// checkTextAndHTML checks that the text report of args (cover without
// --json) has the rows of rep, and that it and the HTML page say MC/DC's
// conditions and vectors as rep does.
func checkTextAndHTML(t *testing.T, rep *figureReport, page string, args ...string) {
	t.Helper()
	head := fmt.Sprintf("MC/DC: %s conditions", rep.fig("mcdc"))
	vectors := fmt.Sprintf("test vectors executed: %d/%d", rep.MCDC.Vectors.Covered, rep.MCDC.Vectors.Total)
	code, text, errs := runCLI(args...)
	rowRe := func(k string, r figureRow) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + k + ` +` + fmt.Sprint(r.Covered) + ` +` + fmt.Sprint(r.Total) + ` `)
	}
	if code != exitOK || !rowRe("mcdc", rep.Criteria["mcdc"]).MatchString(text) || !rowRe("mcc", rep.Criteria["mcc"]).MatchString(text) ||
		!rowRe("all", rep.All).MatchString(text) || !strings.Contains(text, head) || !strings.Contains(text, vectors) {
		t.Errorf("text report (exit %d, want rows as JSON, %q, %q):\n%s%s", code, head, vectors, text, errs)
	}
	if h, err := os.ReadFile(page); err != nil || !strings.Contains(string(h), head) || !strings.Contains(string(h), vectors) {
		t.Errorf("HTML report lacks %q, %q: %v", head, vectors, err)
	}
}

// TestOneFigurePerCriterionCompare: compare's figures of a campaign (its
// report.json's final coverage, what it plots and tests) are cover's
// figures of the campaign's kept inputs, per criterion and "labels" as
// cover's all row (dist and mcdc included when measured): for a plan
// benchmark and for a Go fuzz target.
func TestOneFigurePerCriterionCompare(t *testing.T) {
	testenv.Long(t) // campaigns of 1 s (plan) and 3 s (Go, plus its builds)
	t.Run("plan", func(t *testing.T) {
		out := filepath.Join(t.TempDir(), "cmp")
		code, stdout, errs := runCLI("compare", "--bench-dir", "../../testdata/bench", "--bench", "temperature", "--criteria", "none",
			"--runs", "1", "--budget", "1s", "--workers", "1", "--out", out)
		if code != exitOK {
			t.Fatalf("compare: exit %d\n%s%s", code, stdout, errs)
		}
		// The yardstick measures the kept corpus (the queue; crashing
		// inputs are findings, not corpus).
		queue := filepath.Join(out, "campaigns", "temperature", "none", "run-01", "labelcov", "queue")
		rep := coverFigures(t, "cover", "../../testdata/bench/temperature/temperature.plan", "--criteria", "mcc,cc,wm,mcdc", "--json", "--tests", queue)
		checkCompareFinal(t, compareFinal(t, out), rep, []string{"mcc", "cc", "wm", "mcdc"})
	})
	t.Run("go", func(t *testing.T) {
		needGo(t)
		out := filepath.Join(t.TempDir(), "cmp")
		// sensor.FuzzCalibrate's bug (a 64-bit constant) is not found in
		// 3 s: the campaign runs to its budget and keeps a corpus.
		code, stdout, errs := runCLI("compare", "--go", "../../testdata/gobench/...", "--bench", "sensor.FuzzCalibrate", "--criteria", "none",
			"--runs", "1", "--budget", "3s", "--workers", "1", "--fuzzminimizetime", "0s", "--out", out)
		if code != exitOK {
			t.Fatalf("compare --go: exit %d\n%s%s", code, stdout, errs)
		}
		// cover reads a fuzz cache laid out as go test's: ROOT/IMPORTPATH/FuzzX.
		kept := filepath.Join(out, "campaigns", "sensor.FuzzCalibrate", "none", "run-01", "labelcov", "cache", "FuzzCalibrate")
		root := t.TempDir()
		dst := filepath.Join(root, "example.com", "gobench", "sensor", "FuzzCalibrate")
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		ents, _ := os.ReadDir(kept)
		for _, e := range ents {
			copyFile(t, filepath.Join(kept, e.Name()), dst)
		}
		rep := coverFigures(t, "cover", "./sensor", "-C", "../../testdata/gobench", "--fuzz", "FuzzCalibrate", "--fuzz-cache", root,
			"--criteria", "all,dist,mcdc", "--json")
		checkCompareFinal(t, compareFinal(t, out), rep, []string{"mcc", "cc", "wm", "mcdc", "dist"})
	})
}

// compareFinal reads the final coverage of the one run of a compare
// grid's report.json.
func compareFinal(t *testing.T, out string) map[string]struct{ Covered, Total int } {
	t.Helper()
	var r struct {
		Results []struct {
			Runs []struct {
				Final map[string]struct{ Covered, Total int } `json:"final"`
			} `json:"runs"`
		} `json:"results"`
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil || json.Unmarshal(data, &r) != nil || len(r.Results) != 1 || len(r.Results[0].Runs) != 1 {
		t.Fatalf("report.json: %v\n%s", err, data)
	}
	return r.Results[0].Runs[0].Final
}

// checkCompareFinal checks compare's final figures against cover's rows
// (the wm operators summed into wm) and all, for the groups groups.
func checkCompareFinal(t *testing.T, final map[string]struct{ Covered, Total int }, rep *figureReport, groups []string) {
	t.Helper()
	sum := map[string]figureRow{}
	for k, r := range rep.Criteria {
		g := k
		if strings.HasPrefix(k, "wm-") {
			g = "wm"
		}
		s := sum[g]
		s.Covered += r.Covered
		s.Total += r.Total
		sum[g] = s
	}
	for _, g := range groups {
		f, ok := final["labels:"+g]
		if !ok || f.Covered != sum[g].Covered || f.Total != sum[g].Total {
			t.Errorf("labels:%s: compare %+v (present %v), cover %d/%d", g, f, ok, sum[g].Covered, sum[g].Total)
		}
	}
	if l := final["labels"]; l.Covered != rep.All.Covered || l.Total != rep.All.Total || l.Total == 0 {
		t.Errorf("compare's labels %+v, cover's all %d/%d", l, rep.All.Covered, rep.All.Total)
	}
}
