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
	inputs := []string{"--tests", filepath.Join(camp, "labelcov", "queue")}
	if _, err := os.Stat(filepath.Join(camp, "labelcov", "crashes")); err == nil {
		inputs = append(inputs, "--tests", filepath.Join(camp, "labelcov", "crashes"))
	}
	rep2 := cover(inputs...)
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
