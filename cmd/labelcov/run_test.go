package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// execLabelcov runs the CLI in-process.
func execLabelcov(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// cliJSON runs labelcov with args, wants exit 0 and decodes standard
// output as a T; it returns standard error beside.
func cliJSON[T any](t *testing.T, args ...string) (T, string) {
	t.Helper()
	var v T
	code, out, errs := execLabelcov(args...)
	if code != exitOK {
		t.Fatalf("labelcov %v: exit %d\n%s", args, code, errs)
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("labelcov %v: bad JSON: %v\n%.500s", args, err, out)
	}
	return v, errs
}

func tempPlan(t *testing.T, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.plan")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRunHuman(t *testing.T) {
	code, out, errs := execLabelcov("run", "../../testdata/plans/fib.plan", "--arg", "15")
	if code != 0 || out != "=> 610\n" || errs != "" {
		t.Errorf("code %d out %q err %q", code, out, errs)
	}
	// Plan output streams before the result line.
	p := tempPlan(t, `(def-plan main (x) (print x) (format t "~a!~%" 'hi) (list x "s" 2.0))`)
	code, out, _ = execLabelcov("run", p, "--arg", `(a "b" :c)`)
	want := "(a \"b\" :c)\nhi!\n=> ((a \"b\" :c) \"s\" 2.0)\n"
	if code != 0 || out != want {
		t.Errorf("code %d out %q, want %q", code, out, want)
	}
}

// TestRunFailureAndTimeoutExitFound: a run that fails or runs out of
// steps is reported in full and exits 1, as a campaign would record it as
// a finding.
func TestRunFailureAndTimeoutExitFound(t *testing.T) {
	p := tempPlan(t, "(def-plan main ()\n  (fail 'grasping-failure \"slipped\"))")
	code, out, _ := execLabelcov("run", p)
	if code != exitFound || !strings.HasPrefix(out, "!! grasping-failure at "+p+":2:3: slipped") {
		t.Errorf("code %d out %q", code, out)
	}
	p = tempPlan(t, "(def-plan main () (while t))")
	code, out, _ = execLabelcov("run", p, "--max-steps", "100")
	if code != exitFound || !strings.HasPrefix(out, "!! timeout at ") {
		t.Errorf("code %d out %q", code, out)
	}
}

func TestRunJSON(t *testing.T) {
	p := tempPlan(t, "(def-plan main (x)\n  (print x)\n  (when (> x 0) (fail 'navigation-failure \"blocked ~a\" x))\n  x)")
	var rep struct {
		Version int     `json:"version"`
		Outcome string  `json:"outcome"`
		Result  *string `json:"result"`
		Failure *struct {
			Kind, Message, Pos string
		} `json:"failure"`
		Steps    int64 `json:"steps"`
		Coverage struct {
			Instructions struct{ Covered, Total int } `json:"instructions"`
			Branches     struct{ Covered, Total int } `json:"branches"`
		} `json:"coverage"`
		Output string `json:"output"`
	}
	decode := func(want int, args ...string) {
		t.Helper()
		code, out, errs := execLabelcov(args...)
		if code != want {
			t.Fatalf("code %d, want %d: %s", code, want, errs)
		}
		rep.Failure, rep.Result = nil, nil
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("%v in %q", err, out)
		}
	}
	decode(exitFound, "run", p, "--arg", "5", "--json")
	if rep.Version != 1 || rep.Outcome != "failure" || rep.Result != nil || rep.Failure == nil ||
		rep.Failure.Kind != "navigation-failure" || rep.Failure.Message != "blocked 5" ||
		rep.Failure.Pos != p+":3:17" || rep.Output != "5\n" || rep.Steps == 0 {
		t.Errorf("failure run: %+v %+v", rep, rep.Failure)
	}
	if rep.Coverage.Branches.Total != 2 || rep.Coverage.Branches.Covered != 1 {
		t.Errorf("branches %+v", rep.Coverage.Branches)
	}
	decode(exitOK, "run", p, "--arg", "-1", "--json")
	if rep.Outcome != "ok" || rep.Result == nil || *rep.Result != "-1" || rep.Failure != nil {
		t.Errorf("ok run: %+v", rep)
	}
	if c := rep.Coverage.Instructions; c.Covered == 0 || c.Covered >= c.Total {
		t.Errorf("instructions %+v: the fail branch should stay uncovered", c)
	}
}

func TestRunPlanSelection(t *testing.T) {
	two := tempPlan(t, "(def-plan pa () 'a)\n(def-plan pb () 'b)")
	if code, _, errs := execLabelcov("run", two); code != exitUsage || !strings.Contains(errs, "--plan") {
		t.Errorf("ambiguous: code %d err %q", code, errs)
	}
	if code, out, _ := execLabelcov("run", two, "--plan", "pb"); code != 0 || out != "=> b\n" {
		t.Errorf("--plan b: code %d out %q", code, out)
	}
	if code, _, errs := execLabelcov("run", two, "--plan", "zz"); code != exitUsage || !strings.Contains(errs, "plans: pa, pb") {
		t.Errorf("--plan zz: code %d err %q", code, errs)
	}
	withMain := tempPlan(t, "(def-plan pa () 'a)\n(def-plan main () 'm)")
	if code, out, _ := execLabelcov("run", withMain); code != 0 || out != "=> m\n" {
		t.Errorf("main: code %d out %q", code, out)
	}
	one := tempPlan(t, "(defun f () 1)\n(def-plan only () (f))")
	if code, out, _ := execLabelcov("run", one); code != 0 || out != "=> 1\n" {
		t.Errorf("only plan: code %d out %q", code, out)
	}
}

func TestRunBadInput(t *testing.T) {
	p := tempPlan(t, "(def-plan main (x)\n  (car x x))")
	code, _, errs := execLabelcov("run", p, "--arg", "1")
	if code != exitUsage || !strings.Contains(errs, p+":2:3: car takes 1 argument, called with 2") || !strings.Contains(errs, "  ^") {
		t.Errorf("compile error: code %d err %q", code, errs)
	}
	// A free variable is a global of another file: a note, then
	// unbound-variable when the plan reads it.
	free := tempPlan(t, "(def-plan main (x)\n  (+ x y))")
	code, out, errs := execLabelcov("run", free, "--arg", "1")
	if code != exitFound || !strings.Contains(errs, free+":2:8: note: y is not defined in this file") || !strings.Contains(out+errs, "unbound-variable") {
		t.Errorf("free variable: code %d out %q err %q", code, out, errs)
	}
	ok := tempPlan(t, "(def-plan main (x) x)")
	for _, args := range [][]string{
		{"run", ok},                                   // missing --arg
		{"run", ok, "--arg", "1", "--arg", "2"},       // too many
		{"run", ok, "--arg", "(1"},                    // unreadable literal
		{"run", ok, "--arg", "1", "--max-steps", "0"}, // bad budget
		{"run", filepath.Join(t.TempDir(), "missing.plan")},
		{"run"},
	} {
		if code, _, errs := execLabelcov(args...); code != exitUsage || errs == "" {
			t.Errorf("%v: code %d err %q", args, code, errs)
		}
	}
}

func TestDisasmCommand(t *testing.T) {
	code, out, _ := execLabelcov("disasm", "../../testdata/plans/fib.plan")
	if code != 0 || !strings.Contains(out, "function fib (n)") || !strings.Contains(out, "JMPIFNOT") || !strings.Contains(out, "; fib") {
		t.Errorf("code %d out %q", code, out)
	}
	p := tempPlan(t, "(def-plan main () (car))")
	if code, _, errs := execLabelcov("disasm", p); code != exitUsage || !strings.Contains(errs, "car takes 1 argument") {
		t.Errorf("bad plan: code %d err %q", code, errs)
	}
}

// TestRunTimeout: run honours a wall-clock limit like fuzz --timeout: an
// endless loop under a huge step budget ends with outcome timeout.
func TestRunTimeout(t *testing.T) {
	plan := tempPlan(t, "(def-plan main () (let ((n 0)) (while t (setq n (+ n 1)))))\n")
	code, out, errs := execLabelcov("run", plan, "--max-steps", "1000000000000", "--timeout", "50ms", "--json")
	if code != exitFound || !strings.Contains(out, `"outcome": "timeout"`) {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}

// TestDisasmAndRunCountBranchesAlike: disasm's header and run --json's
// coverage count branches the same way (two outcomes per conditional).
func TestDisasmAndRunCountBranchesAlike(t *testing.T) {
	const plan = "../../testdata/plans/fib.plan"
	_, dis, _ := execLabelcov("disasm", plan)
	m := regexp.MustCompile(`\((\d+) branches\)`).FindStringSubmatch(dis)
	var rep struct {
		Coverage struct {
			Branches struct{ Total int } `json:"branches"`
		} `json:"coverage"`
	}
	_, out, _ := execLabelcov("run", plan, "--arg", "3", "--json")
	if err := json.Unmarshal([]byte(out), &rep); err != nil || m == nil || m[1] != strconv.Itoa(rep.Coverage.Branches.Total) {
		t.Errorf("disasm header %q, run --json branches.total %d (%v)", strings.SplitN(dis, "\n", 2)[0], rep.Coverage.Branches.Total, err)
	}
}

// TestRunSeveralPlans: without --plan, a file of several plans none
// called main says to choose one (the error is known by errors.Is, and
// only that error gets the hint).
func TestRunSeveralPlans(t *testing.T) {
	p := filepath.Join(t.TempDir(), "two.plan")
	if err := os.WriteFile(p, []byte("(def-plan alpha () 1)\n(def-plan beta () 2)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := execLabelcov("run", p)
	if code != exitUsage || !strings.Contains(errs, "has several plans and none is called main (plans: alpha, beta); choose one with --plan") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if code, out, errs := execLabelcov("run", p, "--plan", "beta"); code != exitOK || out != "=> 2\n" {
		t.Errorf("--plan beta: exit %d, %q, %q", code, out, errs)
	}
	code, _, errs = execLabelcov("run", p, "--plan", "gamma")
	if code != exitUsage || !strings.Contains(errs, `no plan named "gamma"`) || strings.Contains(errs, "choose one") {
		t.Errorf("--plan gamma: exit %d, stderr %q", code, errs)
	}
}
