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
	type row struct {
		Covered, Total int
		Diversity      struct{ D0 float64 }
	}
	cover := func(args ...string) (map[string]row, row, struct {
		Covered, Total int
		Vectors        struct{ Covered, Total int }
	}) {
		t.Helper()
		var rep struct {
			Criteria map[string]row
			All      row
			MCDC     struct {
				Covered, Total int
				Vectors        struct{ Covered, Total int }
			}
		}
		code, out, errs := runCLI(append(append([]string{"cover", plan}, crit...), append(args, "--json")...)...)
		if code != exitOK {
			t.Fatalf("cover: exit %d\n%s", code, errs)
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep.Criteria, rep.All, rep.MCDC
	}
	page := filepath.Join(dir, "c.html")
	rows, all, mc := cover("--tests", tests, "--html", page)
	var sum row
	for k, r := range rows {
		if r.Diversity.D0 > float64(r.Total) || r.Diversity.D0 != float64(r.Covered) {
			t.Errorf("%s %d/%d: D0 %v", k, r.Covered, r.Total, r.Diversity.D0)
		}
		sum.Covered += r.Covered
		sum.Total += r.Total
	}
	if all.Covered != sum.Covered || all.Total != sum.Total || all.Diversity.D0 != float64(sum.Covered) {
		t.Errorf("all %+v, the rows sum to %d/%d", all, sum.Covered, sum.Total)
	}
	m := rows["mcdc"]
	if m.Covered != mc.Covered || m.Total != mc.Total || m.Total == 0 || mc.Vectors.Total <= m.Total {
		t.Errorf("mcdc row %d/%d, MC/DC section %+v", m.Covered, m.Total, mc)
	}
	fig := func(k string) string { return fmt.Sprintf("%d/%d", rows[k].Covered, rows[k].Total) }
	head := fmt.Sprintf("MC/DC: %s conditions", fig("mcdc"))
	vectors := fmt.Sprintf("test vectors executed: %d/%d", mc.Vectors.Covered, mc.Vectors.Total)

	code, text, errs := runCLI(append([]string{"cover", plan, "--tests", tests}, crit...)...)
	rowRe := func(k string) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + k + ` +` + fmt.Sprint(rows[k].Covered) + ` +` + fmt.Sprint(rows[k].Total) + ` `)
	}
	if code != exitOK || !rowRe("mcdc").MatchString(text) || !rowRe("mcc").MatchString(text) ||
		!regexp.MustCompile(`(?m)^all +`+fmt.Sprint(all.Covered)+` +`+fmt.Sprint(all.Total)+` `).MatchString(text) ||
		!strings.Contains(text, head) || !strings.Contains(text, vectors) {
		t.Errorf("text report (exit %d, want rows as JSON, %q, %q):\n%s%s", code, head, vectors, text, errs)
	}
	if h, err := os.ReadFile(page); err != nil || !strings.Contains(string(h), head) || !strings.Contains(string(h), vectors) {
		t.Errorf("HTML report lacks %q, %q: %v", head, vectors, err)
	}

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
	rows2, all2, _ := cover(inputs...)
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
	type row struct {
		Covered, Total int
		Diversity      struct{ D0 float64 }
	}
	var rep struct {
		Criteria map[string]row
		All      row
		MCDC     struct {
			Covered, Total int
			Vectors        struct{ Covered, Total int }
		}
	}
	page := filepath.Join(t.TempDir(), "c.html")
	code, out, errs := runCLI(append([]string{"cover", "."}, append(crit, "--per-test", "--json", "--html", page)...)...)
	if code != exitOK || json.Unmarshal([]byte(out), &rep) != nil {
		t.Fatalf("cover: exit %d\n%s%s", code, out, errs)
	}
	var sum row
	for k, r := range rep.Criteria {
		if r.Diversity.D0 > float64(r.Total) || r.Diversity.D0 != float64(r.Covered) {
			t.Errorf("%s %d/%d: D0 %v", k, r.Covered, r.Total, r.Diversity.D0)
		}
		sum.Covered += r.Covered
		sum.Total += r.Total
	}
	all := rep.All
	if len(rep.Criteria) != 3 || all.Covered != sum.Covered || all.Total != sum.Total || all.Diversity.D0 != float64(sum.Covered) {
		t.Errorf("all %+v, the rows %v sum to %d/%d", all, rep.Criteria, sum.Covered, sum.Total)
	}
	m := rep.Criteria["mcdc"]
	if m.Covered != rep.MCDC.Covered || m.Total != rep.MCDC.Total || m.Total == 0 || rep.MCDC.Vectors.Total <= m.Total {
		t.Errorf("mcdc row %d/%d, MC/DC section %+v", m.Covered, m.Total, rep.MCDC)
	}
	fig := func(k string) string { return fmt.Sprintf("%d/%d", rep.Criteria[k].Covered, rep.Criteria[k].Total) }
	allFig := fmt.Sprintf("%d/%d", all.Covered, all.Total)
	head := fmt.Sprintf("MC/DC: %s conditions", fig("mcdc"))
	vectors := fmt.Sprintf("test vectors executed: %d/%d", rep.MCDC.Vectors.Covered, rep.MCDC.Vectors.Total)

	code, text, errs := runCLI(append([]string{"cover", "."}, crit...)...)
	rowRe := func(k string, r row) *regexp.Regexp {
		return regexp.MustCompile(`(?m)^` + k + ` +` + fmt.Sprint(r.Covered) + ` +` + fmt.Sprint(r.Total) + ` `)
	}
	if code != exitOK || !rowRe("mcdc", m).MatchString(text) || !rowRe("mcc", rep.Criteria["mcc"]).MatchString(text) ||
		!rowRe("all", all).MatchString(text) || !strings.Contains(text, head) || !strings.Contains(text, vectors) {
		t.Errorf("text report (exit %d, want rows as JSON, %q, %q):\n%s%s", code, head, vectors, text, errs)
	}
	if h, err := os.ReadFile(page); err != nil || !strings.Contains(string(h), head) || !strings.Contains(string(h), vectors) {
		t.Errorf("HTML report lacks %q, %q: %v", head, vectors, err)
	}

	code, out, errs = runCLI(append([]string{"reduce", "."}, append(crit, "--out", t.TempDir())...)...)
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
