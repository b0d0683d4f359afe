package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// execCover runs the cover command in-process (it does not need the root
// command, so the test does not depend on how main wires it).
func execCover(args ...string) (stdout, stderr string, err error) {
	cmd := newCoverCmd()
	var out, errb bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err = cmd.Execute()
	return out.String(), errb.String(), err
}

const thermo = "../../testdata/tests/thermostat"

func TestCoverText(t *testing.T) {
	out, errs, err := execCover(thermo+"/thermostat.plan", "--criteria", "mcc,cc", "--tests", thermo)
	if err != nil || errs != "" {
		t.Fatalf("err %v stderr %q", err, errs)
	}
	for _, want := range []string{
		"plan main, 5 tests, 3 distinct traces",
		"mcc 5 6 83.3% 0 0 5 4.76 4.50",
		"all 11 12 91.7%",
		"branches 8/8 (100.0%)",
		"uncovered labels (1;",
		"thermostat.plan:9:12 4 mcc FF reached (and (< lo temp) (< temp hi)) (and (not (< lo temp)) (not (< temp hi)))",
	} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCoverJSONAndFiles(t *testing.T) {
	dir := t.TempDir()
	html, lcov := filepath.Join(dir, "c.html"), filepath.Join(dir, "c.info")
	// Tests as positional arguments after FILE, and one file named twice.
	out, _, err := execCover(thermo+"/thermostat.plan", "--json", "--html", html, "--lcov", lcov,
		"--tests", thermo+"/inside.args", thermo+"/narrow.args", thermo+"/inside.args")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Version  int
		Criteria map[string]struct{ Covered, Total int }
		Tests    []struct{ Name string }
		Coverage struct {
			Instructions, Branches struct{ Covered, Total int }
			Actions                *struct{}
		}
		Uncovered []struct{ Pos, Predicate string }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.Version != 2 || len(rep.Tests) != 2 || rep.Criteria["mcc"].Covered != 3 || rep.Criteria["mcc"].Total != 6 ||
		rep.Criteria["wm-ror"].Total != 12 || rep.Coverage.Actions != nil || rep.Coverage.Branches.Total != 8 {
		t.Errorf("report %+v", rep)
	}
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), `class="lu"`) {
		t.Errorf("html: %v", err)
	}
	info, err := os.ReadFile(lcov)
	if err != nil || !strings.HasPrefix(string(info), "TN:labelcov\nSF:"+thermo+"/thermostat.plan\n") {
		t.Errorf("lcov: %v %.80s", err, info)
	}
}

func TestCoverErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.args")
	if err := os.WriteFile(bad, []byte("1\n2\n3\n4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan := thermo + "/thermostat.plan"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{plan}, "no tests: give --tests DIR|FILE"},
		{[]string{plan, "--tests", bad}, bad + ":4:1: plan main takes 3 arguments (lo hi temp); this is argument 4"},
		{[]string{plan, "--tests", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{plan, "--tests", thermo, "--criteria", "xyz"}, `--criteria: unknown criterion "xyz"`},
		{[]string{plan, "--tests", thermo, "--world", filepath.Join(dir, "none.world")}, "none.world"},
		{[]string{plan, "--tests", thermo, "--max-steps", "0"}, "--max-steps must be positive"},
	}
	for _, c := range cases {
		_, _, err := execCover(c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.want)
		}
	}
}

// A truth.json beside the plan names the world (as in testdata/bench).
func TestCoverTruthWorld(t *testing.T) {
	dir := t.TempDir()
	world, err := filepath.Abs("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(dir, world)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"p.plan":     "(def-plan main () (if (> (length (all-objects)) 1) 'many 'few))\n",
		"truth.json": `{"world": "` + rel + `", "categories": []}`,
		"t/two.env":  "(environment (object milk (region table) (cell 3 3) (orientation 0)) (object bowl (region table) (cell 9 3) (orientation 0)))",
		"t/none.env": "(environment)",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, _, err := execCover(filepath.Join(dir, "p.plan"), "--criteria", "cc", "--tests", filepath.Join(dir, "t"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		World    string
		Criteria map[string]struct{ Covered, Total int }
		Coverage struct{ Actions *struct{ Total int } }
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(rep.World, "warehouse.world") || rep.Coverage.Actions == nil || rep.Coverage.Actions.Total == 0 ||
		rep.Criteria["cc"].Covered != 2 || rep.Criteria["cc"].Total != 2 {
		t.Errorf("report %+v", rep)
	}
}

// squeeze collapses runs of blanks within each line to one space.
func squeeze(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}
