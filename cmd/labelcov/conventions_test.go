package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// execLabelcovStdin is execLabelcov with stdin.
func execLabelcovStdin(stdin string, args ...string) (code int, stdout, stderr string) {
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetArgs(args)
	root.SetIn(strings.NewReader(stdin))
	root.SetOut(&out)
	root.SetErr(&errb)
	if err := root.Execute(); err != nil {
		reportError(&errb, err)
		return exitUsage, out.String(), errb.String()
	}
	return exitOK, out.String(), errb.String()
}

func TestVersion(t *testing.T) {
	code, out, _ := execLabelcov("--version")
	if code != 0 || !strings.HasPrefix(out, "labelcov ") || !strings.Contains(out, "go1.") {
		t.Errorf("--version: code %d out %q", code, out)
	}
}

// annotate --help shows `… | labelcov run -`: every plan verb reads "-".
func TestStdinPlan(t *testing.T) {
	fib, err := os.ReadFile("../../testdata/plans/fib.plan")
	if err != nil {
		t.Fatal(err)
	}
	code, ann, errs := execLabelcov("annotate", "../../testdata/plans/fib.plan", "--criteria", "mcc,wm")
	if code != 0 {
		t.Fatalf("annotate: %s", errs)
	}
	if code, out, errs := execLabelcovStdin(ann, "run", "-", "--arg", "15"); code != 0 || out != "=> 610\n" {
		t.Errorf("annotate | run -: code %d out %q err %q", code, out, errs)
	}
	for _, verb := range [][]string{{"labels", "-"}, {"annotate", "-"}, {"fmt", "-"}, {"disasm", "-"}} {
		if code, out, errs := execLabelcovStdin(string(fib), verb...); code != 0 || out == "" {
			t.Errorf("%v: code %d err %q", verb, code, errs)
		}
	}
	// Errors name <stdin>, with the caret.
	code, _, errs = execLabelcovStdin("(def-plan main ()\n  (car 1 2))\n", "run", "-")
	if code != exitUsage || !strings.Contains(errs, "<stdin>:2:3: ") || !strings.Contains(errs, "^") {
		t.Errorf("error from stdin: code %d err %q", code, errs)
	}
	code, out, _ := execLabelcovStdin("(def-plan main ()  1)\n", "fmt", "--check", "-")
	if code != exitUsage || out != "<stdin>\n" {
		t.Errorf("fmt --check -: code %d out %q", code, out)
	}
}

// A misspelled function is refused before running, with position, caret
// and a suggestion; labels and annotate only warn.
func TestUndefinedFunctionUpFront(t *testing.T) {
	p := tempPlan(t, "(def-plan main (a)\n  (whn (> a 0) (print a))\n  (iff a 1 2))\n")
	code, out, errs := execLabelcov("run", p, "--arg", "1")
	if code != exitUsage || out != "" {
		t.Errorf("run: code %d out %q (the plan must not run)", code, out)
	}
	for _, want := range []string{
		p + ":2:4: undefined function whn: ", "(did you mean when?)",
		p + ":3:4: undefined function iff: ", "(did you mean if?)",
		"  (whn (> a 0) (print a))\n   ^\n",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("run: stderr lacks %q:\n%s", want, errs)
		}
	}
	// Every verb that runs the plan refuses it the same way.
	in := filepath.Join(t.TempDir(), "in.args")
	if err := os.WriteFile(in, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := filepath.Join(t.TempDir(), "campaign")
	for _, args := range [][]string{{"sample", p, "--n", "5"}, {"replay", p, in}, {"cover", p, "--tests", in},
		{"fuzz", p, "--runs", "10", "--progress", "0", "--out", out2}} {
		code, _, errs := execLabelcov(args...)
		if code != exitUsage || !strings.Contains(errs, p+":2:4: undefined function whn") || !strings.Contains(errs, "   ^\n") {
			t.Errorf("%s: code %d err %q", args[0], code, errs)
		}
	}
	// fuzz refused before the campaign starts: no directory, no findings.
	if _, err := os.Stat(out2); !os.IsNotExist(err) {
		t.Errorf("fuzz of a plan calling an undefined function created %s (err %v)", out2, err)
	}
	for _, verb := range []string{"labels", "annotate"} {
		code, out, errs := execLabelcov(verb, p)
		if code != 0 || out == "" || !strings.Contains(errs, "warning: "+p+":2:4: undefined function whn") {
			t.Errorf("%s: code %d err %q", verb, code, errs)
		}
	}
	// A world query without a world is a warning: the plan runs.
	q := tempPlan(t, "(def-plan main () (ignore-errors (all-objects)) 7)\n")
	code, out, errs = execLabelcov("run", q)
	if code != 0 || out != "=> 7\n" || !strings.Contains(errs, "warning: "+q+":1:35: all-objects is a world query") {
		t.Errorf("query without world: code %d out %q err %q", code, out, errs)
	}
}

// run without a world runs a world-less plan's checks, as its campaign does.
func TestRunWorldlessChecks(t *testing.T) {
	plan := "../../testdata/bench/temperature/temperature.plan"
	// heating-while-warm.args: 533 500 22.
	code, out, errs := execLabelcov("run", plan, "--arg", "533", "--arg", "500", "--arg", "22")
	if code != exitFound || !strings.Contains(out, "error: heating-while-warm\n") {
		t.Errorf("code %d out %q err %q", code, out, errs)
	}
	var rep struct {
		Errors []string `json:"errors"`
	}
	code, out, _ = execLabelcov("run", plan, "--json", "--arg", "533", "--arg", "500", "--arg", "22")
	if err := json.Unmarshal([]byte(out), &rep); code != exitFound || err != nil || len(rep.Errors) != 1 || rep.Errors[0] != "heating-while-warm" {
		t.Errorf("--json: code %d errors %v (%v)", code, rep.Errors, err)
	}
	// A plan without checks prints no checks line.
	code, out, _ = execLabelcov("run", "../../testdata/plans/fib.plan", "--arg", "3")
	if code != 0 || out != "=> 2\n" {
		t.Errorf("fib: code %d out %q", code, out)
	}
}

// The world-less benchmarks' own reproducers (.args) replay as the
// arguments they spell and show the finding they reproduce.
func TestReplayArgsReproducers(t *testing.T) {
	for _, c := range []struct{ plan, args, finding string }{
		{"temperature/temperature.plan", "temperature/reproducers/heating-while-warm.args", "heating-while-warm"},
		{"docking/docking.plan", "docking/reproducers/blind-creep.args", "blind-creep"},
	} {
		code, out, errs := execLabelcov("replay", "../../testdata/bench/"+c.plan, "../../testdata/bench/"+c.args)
		if code != exitFound || !strings.Contains(out, "findings:\n  "+c.finding+"\n") || !strings.Contains(out, "(24 bytes)") && !strings.Contains(out, "(32 bytes)") {
			t.Errorf("replay %s: code %d out %q err %q", c.args, code, out, errs)
		}
	}
}
