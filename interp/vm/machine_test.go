package vm

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

func TestStepBudgetTimeout(t *testing.T) {
	r, _, _ := runMain(t, "(def-plan main () (while t))", Config{MaxSteps: 1000})
	if r.Outcome != OutcomeTimeout || r.Failure.Kind != KindTimeout {
		t.Fatalf("got %s %+v", r.Outcome, r.Failure)
	}
	if r.Steps != 1000 {
		t.Errorf("steps = %d, want exactly the budget 1000", r.Steps)
	}
	// ignore-errors must not swallow a timeout.
	r, _, _ = runMain(t, "(def-plan main () (ignore-errors (while t)) 'after)", Config{MaxSteps: 500})
	if r.Outcome != OutcomeTimeout {
		t.Errorf("ignore-errors swallowed the timeout: %s %v", r.Outcome, r.Value)
	}
	r, _, _ = runMain(t, "(def-plan main () (with-failure-handling ((failure (f) 'caught)) (while t)))", Config{MaxSteps: 500})
	if r.Outcome != OutcomeTimeout {
		t.Errorf("a handler caught the timeout: %s %v", r.Outcome, r.Value)
	}
}

func TestDefaultStepBudget(t *testing.T) {
	r, _, _ := runMain(t, "(def-plan main () (while t))", Config{})
	if r.Outcome != OutcomeTimeout || r.Steps != DefaultMaxSteps {
		t.Fatalf("got %s after %d steps, want timeout after %d", r.Outcome, r.Steps, DefaultMaxSteps)
	}
}

func TestStepsCounted(t *testing.T) {
	// main: INT 1; ADDI 2; RET (init: NIL; RET) -> 5 instructions.
	r, _, _ := runMain(t, "(def-plan main () (+ 1 2))", Config{})
	if r.Outcome != OutcomeOK || r.Steps != 5 {
		t.Errorf("got %s, %d steps; want ok, 5", r.Outcome, r.Steps)
	}
}

func TestStackOverflow(t *testing.T) {
	src := "(defun down (n) (+ 1 (down (+ n 1))))\n(def-plan main () (down 0))"
	r, _, _ := runMain(t, src, Config{MaxDepth: 100})
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "stack-overflow" {
		t.Fatalf("got %s %+v", r.Outcome, r.Failure)
	}
	if r.Steps > 100*10 {
		t.Errorf("overflow detected late: %d steps", r.Steps)
	}
	r, _, _ = runMain(t, src, Config{})
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "stack-overflow" {
		t.Fatalf("default depth: got %s %+v", r.Outcome, r.Failure)
	}
	// Closures count against the depth too.
	r, _, _ = runMain(t, "(def-plan main () (let ((f nil)) (setq f (lambda () (funcall f))) (funcall f)))", Config{MaxDepth: 50})
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "stack-overflow" {
		t.Fatalf("closure recursion: got %s %+v", r.Outcome, r.Failure)
	}
}

func TestAllocationLimit(t *testing.T) {
	for _, expr := range []string{
		"(let ((l nil)) (while t (push 1 l)))",
		"(let ((l nil)) (while t (setq l (list l l))))",
		"(while t (an action (type x)))",
		"(while t (lambda () 1))",
		"(let ((s \"\")) (while t (setq s (format nil \"~a\" s))))",
		"(let ((s \"ab\")) (dotimes (i 40) (setq s (format nil \"~a~a\" s s))))",
		"(let ((l '(1 2 3))) (while t (setq l (append l '(4)))))",
	} {
		r, _, _ := runMain(t, "(def-plan main () "+expr+")", Config{MaxAlloc: 1000, MaxSteps: 1_000_000})
		if r.Outcome != OutcomeFailure || r.Failure.Kind != "allocation-limit" {
			t.Errorf("%s: got %s %+v", expr, r.Outcome, r.Failure)
		}
		if !IsKind(r.Failure.Kind, "error") {
			t.Errorf("allocation-limit is not an error kind")
		}
	}
	// The budget is per run: a second run starts afresh.
	p := compileSrc(t, "(def-plan main () (dotimes (i 600) (list 1)) 'ok)")
	m, _ := New(p, Config{MaxAlloc: 1000})
	for i := 0; i < 3; i++ {
		if r := m.Run(context.Background(), p.Plan("main"), nil); r.Outcome != OutcomeOK {
			t.Fatalf("run %d: %s %+v", i, r.Outcome, r.Failure)
		}
	}
}

func TestCancellation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := compileSrc(t, "(def-plan main () (while t))")
	m, _ := New(p, Config{MaxSteps: 1 << 40})
	r := m.Run(ctx, p.Plan("main"), nil)
	if r.Outcome != OutcomeTimeout || r.Failure.Kind != KindCanceled {
		t.Fatalf("got %s %+v", r.Outcome, r.Failure)
	}
	if r.Steps > 2*pollEvery {
		t.Errorf("cancellation noticed after %d steps, want within %d", r.Steps, pollEvery)
	}
}

func TestCounters(t *testing.T) {
	src := "(def-plan main (x)\n  (when (> x 0))\n  (dotimes (i 300) (+ i 1))\n  x)"
	p := compileSrc(t, src)
	if p.NumBranches() != 1 {
		t.Fatalf("branches = %d, want 1 for the empty when", p.NumBranches())
	}
	br := p.Branch(0)
	if br.Form.Line != 2 || br.Form.Col != 3 || br.Test.Line != 2 || br.Test.Col != 9 {
		t.Errorf("branch 0 form %s test %s, want 2:3 and 2:9", br.Form, br.Test)
	}
	m, _ := New(p, Config{})
	ctr := m.Counters()
	if len(ctr) != p.NumInstructions()+2 {
		t.Fatalf("len(counters) = %d, want %d", len(ctr), p.NumInstructions()+2)
	}
	tc, fc := p.BranchCounter(0, true), p.BranchCounter(0, false)
	run := func(x int64) {
		if r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)}); r.Outcome != OutcomeOK {
			t.Fatal(r.Failure)
		}
	}
	run(5)
	if ctr[tc] != 1 || ctr[fc] != 0 {
		t.Errorf("after x=5: true=%d false=%d, want 1 0", ctr[tc], ctr[fc])
	}
	run(-5)
	run(-6)
	if ctr[tc] != 1 || ctr[fc] != 2 {
		t.Errorf("after x=-5,-6: true=%d false=%d, want 1 2", ctr[tc], ctr[fc])
	}
	// The jump instruction itself ran 3 times; the loop body saturates.
	if got := ctr[br.PC]; got != 3 {
		t.Errorf("jump instruction counter = %d, want 3", got)
	}
	saturated := false
	for pc := 0; pc < p.NumInstructions(); pc++ {
		if ctr[pc] == 255 {
			saturated = true
		}
	}
	if !saturated {
		t.Error("no instruction counter saturated at 255 after 900 loop iterations")
	}
	cov := Summarize(p, ctr)
	if cov.Branches.Covered != 2 || cov.Branches.Total != 2 || cov.Instructions.Total != p.NumInstructions() || cov.Instructions.Covered == 0 {
		t.Errorf("summary %+v", cov)
	}
	m.ResetCounters()
	for i, c := range m.Counters() {
		if c != 0 {
			t.Fatalf("counter %d = %d after reset", i, c)
		}
	}
}

func TestAndOrBranchCounters(t *testing.T) {
	p := compileSrc(t, "(def-plan main (a b) (and a b))")
	if p.NumBranches() != 2 {
		t.Fatalf("branches = %d, want one per operand", p.NumBranches())
	}
	m, _ := New(p, Config{})
	r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.T, value.Nil})
	if r.Outcome != OutcomeOK || !r.Value.IsNil() {
		t.Fatalf("got %s %v", r.Outcome, r.Value)
	}
	c := m.Counters()
	if c[p.BranchCounter(0, true)] != 1 || c[p.BranchCounter(1, false)] != 1 ||
		c[p.BranchCounter(0, false)] != 0 || c[p.BranchCounter(1, true)] != 0 {
		t.Errorf("a=t b=nil: counters %v", c[p.NumInstructions():])
	}
}

func TestGlobalsResetEachRun(t *testing.T) {
	p := compileSrc(t, "(defparameter *count* 0)\n(def-plan main () (incf *count*) *count*)")
	m, _ := New(p, Config{})
	for i := 0; i < 3; i++ {
		r := m.Run(context.Background(), p.Plan("main"), nil)
		if r.Outcome != OutcomeOK || r.Value.Int() != 1 {
			t.Fatalf("run %d: %s %v", i, r.Outcome, r.Value)
		}
	}
	// Call keeps the globals of the previous run (checks look at them).
	r := m.Call(context.Background(), p.Plan("main"), nil)
	if r.Value.Int() != 2 {
		t.Errorf("Call after Run: %v, want 2", r.Value)
	}
	if v, ok := m.Global("*count*"); !ok || v.Int() != 2 {
		t.Errorf("Global = %v %v", v, ok)
	}
}

// A global whose initial value reads a later global fails the run in
// initialisation, before the plan starts (so no script can test it).
func TestUnboundGlobalInInit(t *testing.T) {
	if got := eval(t, "(defparameter *a* *b*) (defparameter *b* 1)", "*a*"); got != "FAIL unbound-variable" {
		t.Errorf("got %s, want FAIL unbound-variable", got)
	}
}

func TestRunArgsAndArity(t *testing.T) {
	p := compileSrc(t, "(def-plan main (a b) (list b a))")
	m, _ := New(p, Config{})
	r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(1), value.String("x")})
	if r.Value.String() != `("x" 1)` {
		t.Errorf("got %v", r.Value)
	}
	r = m.Run(context.Background(), p.Plan("main"), nil)
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "arity-error" {
		t.Errorf("got %s %+v", r.Outcome, r.Failure)
	}
}

type recordingHost struct {
	seen []string
	fail string
}

func (h *recordingHost) Perform(m *Machine, d *value.Designator) (value.Value, error) {
	h.seen = append(h.seen, value.FromDesignator(d).String())
	if h.fail != "" {
		return value.Nil, Fail(h.fail, "host says no")
	}
	if d.Type() == "broken" {
		return value.Nil, errors.New("driver crashed")
	}
	return value.Symbol("done"), nil
}

func TestHostAndExternals(t *testing.T) {
	h := &recordingHost{}
	src := `(def-plan main (?obj)
  (list (perform (an action (type pick) (object ?obj))) (distance 3 4) (twice 5)))`
	cfg := Config{Host: h, Builtins: []Builtin{
		{Name: "distance", MinArgs: 2, MaxArgs: 2, Fn: func(m *Machine, a []value.Value) (value.Value, error) {
			return value.Float(a[0].Number()*a[0].Number() + a[1].Number()*a[1].Number()), nil
		}},
		{Name: "twice", MinArgs: 1, MaxArgs: 1, Fn: func(m *Machine, a []value.Value) (value.Value, error) {
			return value.Int(2 * a[0].Int()), nil
		}},
	}}
	r, _, _ := runMain(t, src, cfg, value.Symbol("cup"))
	if r.Outcome != OutcomeOK || r.Value.String() != "(done 25.0 10)" {
		t.Fatalf("got %s %v %+v", r.Outcome, r.Value, r.Failure)
	}
	if len(h.seen) != 1 || h.seen[0] != "(an action (type pick) (object cup))" {
		t.Errorf("host saw %v", h.seen)
	}
	// A host failure is a plan failure with the perform's position.
	h.fail = "grasping-failure"
	r, _, _ = runMain(t, "(def-plan main ()\n  (perform (an action (type pick))))", cfg)
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "grasping-failure" || r.Failure.Pos.Line != 2 {
		t.Errorf("got %s %+v", r.Outcome, r.Failure)
	}
	// A plain Go error becomes kind error.
	h.fail = ""
	r, _, _ = runMain(t, "(def-plan main () (ignore-errors (perform (an action (type broken)))))", cfg)
	if r.Outcome != OutcomeOK || !r.Value.IsNil() {
		t.Errorf("got %s %v", r.Outcome, r.Value)
	}
	// Externals check arity at run time; unlinked ones are undefined.
	r, _, _ = runMain(t, "(def-plan main () (twice 1 2))", cfg)
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "arity-error" {
		t.Errorf("got %s %+v", r.Outcome, r.Failure)
	}
	r, _, _ = runMain(t, "(def-plan main () (funcall 'twice 21))", cfg)
	if r.Value.String() != "42" {
		t.Errorf("funcall of an external: %v %+v", r.Value, r.Failure)
	}
	r, _, _ = runMain(t, "(def-plan main () (teleport 1))", cfg)
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "undefined-function" || !strings.Contains(r.Failure.Message, "teleport") {
		t.Errorf("got %s %+v", r.Outcome, r.Failure)
	}
}

func TestNewRejectsBadBuiltins(t *testing.T) {
	p := compileSrc(t, "(def-plan main () 1)")
	fn := func(*Machine, []value.Value) (value.Value, error) { return value.Nil, nil }
	for _, bs := range [][]Builtin{
		{{Name: "car", MaxArgs: -1, Fn: fn}},
		{{Name: "x", Fn: fn}, {Name: "x", Fn: fn}},
		{{Name: "y"}},
	} {
		if _, err := New(p, Config{Builtins: bs}); err == nil {
			t.Errorf("New accepted %+v", bs)
		}
	}
}

func TestCoreBuiltinsAllImplemented(t *testing.T) {
	impl := coreImpls()
	for _, s := range coreTableNames() {
		if impl[s] == nil {
			t.Errorf("core builtin %s has no implementation", s)
		}
	}
}

func TestDeterministic(t *testing.T) {
	src := `(defun f (n) (if (< n 2) n (+ (f (- n 1)) (f (- n 2)))))
(def-plan main () (let ((l nil)) (dotimes (i 15) (push (f i) l)) (print l) (length l)))`
	r1, o1, m1 := runMain(t, src, Config{})
	r2, o2, m2 := runMain(t, src, Config{})
	if r1.Steps != r2.Steps || o1 != o2 || string(m1.Counters()) != string(m2.Counters()) {
		t.Error("two identical runs differ")
	}
}

// policyHost calls a plan function (a policy) from Perform, as a simulator
// checking policies before each action would.
type policyHost struct{ policy string }

func (h *policyHost) Perform(m *Machine, d *value.Designator) (value.Value, error) {
	fn := m.Program().Func(h.policy)
	r := m.Call(context.Background(), fn, []value.Value{value.FromDesignator(d)})
	switch r.Outcome {
	case OutcomeOK:
		if r.Value.IsNil() {
			return value.Nil, Fail("policy-violation", "%s forbids %s", h.policy, value.FromDesignator(d))
		}
		return r.Value, nil
	case OutcomeFailure:
		return value.Nil, Fail("policy-error", "%s failed: %s", h.policy, r.Failure.Kind)
	}
	return value.Nil, r.Failure
}

func TestNestedCallFromHost(t *testing.T) {
	src := `(defun deep (n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))
(def-policy allowed (d)
  (when (eq (desig-prop d 'type) 'explode) (car 1))
  (with-failure-handling ((failure (f) nil))
    (when (eq (desig-prop d 'type) 'bad) (fail 'nope))
    (list 'ok (deep 50) (desig-prop d 'type))))
(def-plan main ()
  (list 1 2
        (perform (an action (type go)))
        (with-failure-handling ((policy-violation (f) (list 'blocked (deep 30))))
          (list 3 (perform (an action (type bad)))))
        (ignore-errors (perform (an action (type explode))))
        (deep 10)))`
	r, _, m := runMain(t, src, Config{Host: &policyHost{policy: "allowed"}})
	want := "(1 2 (ok 50 go) (blocked 30) nil 10)"
	if r.Outcome != OutcomeOK || r.Value.String() != want {
		t.Fatalf("got %s %v %+v, want %s", r.Outcome, r.Value, r.Failure, want)
	}
	if len(m.frames) != 0 || len(m.handlers) != 0 || m.nesting != 0 {
		t.Errorf("state left behind: %d frames, %d handlers, nesting %d", len(m.frames), len(m.handlers), m.nesting)
	}
	// A nested call shares the step budget.
	loop := `(def-policy allowed (d) (while t))
(def-plan main () (perform (an action (type go))) 'after)`
	r, _, _ = runMain(t, loop, Config{Host: &policyHost{policy: "allowed"}, MaxSteps: 5000})
	if r.Outcome != OutcomeTimeout || r.Steps > 5000 {
		t.Errorf("nested loop: got %s after %d steps", r.Outcome, r.Steps)
	}
}

func TestLines(t *testing.T) {
	src := "(def-plan main (x)\n  (if (> x 0)\n      'pos\n      'neg))"
	r, _, m := runMain(t, src, Config{}, value.Int(1))
	if r.Outcome != OutcomeOK {
		t.Fatal(r.Failure)
	}
	lines := Lines(m.Program(), m.Counters())
	byLine := map[int]LineCoverage{}
	for _, lc := range lines {
		byLine[lc.Line] = lc
	}
	if l2 := byLine[2]; l2.Branches != 2 || l2.BranchCovered != 1 || l2.InstrCovered != l2.Instructions {
		t.Errorf("line 2: %+v", l2)
	}
	if l3, l4 := byLine[3], byLine[4]; l3.InstrCovered != 1 || l4.InstrCovered != 0 || l4.Instructions != 1 {
		t.Errorf("then line %+v, else line %+v", l3, l4)
	}
	for i := 1; i < len(lines); i++ {
		if lines[i-1].Line >= lines[i].Line {
			t.Fatal("lines not sorted")
		}
	}
}
