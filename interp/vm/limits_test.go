package vm

import (
	"bytes"
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// buildList is a plan prelude binding l to a list of n integers.
const buildList = `(defun build (n) (let ((l nil)) (dotimes (i n) (push i l)) l))`

// TestBuiltinsChargeTheirWork: builtins that walk a list charge a step per
// element, so a loop calling them on a long list meets the default step
// budget instead of running for hours.
func TestBuiltinsChargeTheirWork(t *testing.T) {
	for _, call := range []string{
		"(length l)", "(equal l l2)", "(member -1 l)", "(assoc -1 l)", "(nth 999999 l)",
		"(remove -1 l)", "(append l nil)", "(reverse l)",
	} {
		src := buildList + "\n(def-plan main () (let ((l (build 1000000)) (l2 (build 1000000)) (n 0)) (while t (setq n " + call + "))))"
		r, _, _ := runMain(t, src, Config{})
		if r.Outcome != OutcomeTimeout || r.Failure.Kind != KindTimeout || r.Steps != DefaultMaxSteps {
			t.Errorf("%s: %s", call, resultString(r))
		}
	}
	// A short list costs a step per element too: (length l) of 10 elements
	// charges 10 steps more than (length nil).
	steps := func(expr string) int64 {
		r, _, _ := runMain(t, "(def-plan main () (let ((l (list 1 2 3 4 5 6 7 8 9 10))) "+expr+"))", Config{})
		return r.Steps
	}
	if d := steps("(length l)") - steps("(length nil)"); d != 10 {
		t.Errorf("length of 10 elements charged %d steps more than of none", d)
	}
}

// TestDeepPrint: printing a value nested 1.9 million deep (issue 11's
// reproducer) prints it, without a Go stack overflow.
func TestDeepPrint(t *testing.T) {
	defer debug.SetMaxStack(debug.SetMaxStack(32 << 20))
	const n = 1_900_000
	r, out, _ := runMain(t, `(def-plan main () (let ((x nil)) (dotimes (i 1900000) (setq x (list x))) (print x) (equal x (list (car x))) 1))`, Config{MaxSteps: 100_000_000})
	if r.Outcome != OutcomeOK || r.Value.String() != "1" {
		t.Fatal(resultString(r))
	}
	if out != strings.Repeat("(", n)+"nil"+strings.Repeat(")", n)+"\n" {
		t.Errorf("printed %d bytes, want %d", len(out), 2*n+4)
	}
}

// TestOutputLimit: a run that prints more than MaxOutput bytes ends with
// an output-limit failure that no handler can catch, having printed at
// most MaxOutput bytes.
func TestOutputLimit(t *testing.T) {
	const double = `(let ((s "x")) (dotimes (i 16) (setq s (format nil "~a~a" s s))) %s)`
	for _, body := range []string{
		"(while t (print s))",
		"(while t (ignore-errors (format t \"~a\" s)))",
		"(while t (with-failure-handling ((failure (e) nil)) (print (list s s s))))",
	} {
		src := "(def-plan main () " + strings.Replace(double, "%s", body, 1) + ")"
		var out bytes.Buffer
		r, _, _ := runMain(t, src, Config{MaxOutput: 1 << 20, Stdout: &out})
		if r.Outcome != OutcomeFailure || r.Failure.Kind != KindOutputLimit {
			t.Errorf("%s: %s", body, resultString(r))
		}
		if out.Len() > 1<<20 || out.Len() < 1<<19 {
			t.Errorf("%s: printed %d bytes, limit %d", body, out.Len(), 1<<20)
		}
	}
	// The limit is per run: the next run prints again.
	p := compileSrc(t, `(def-plan main () (print "hello") 1)`)
	var out bytes.Buffer
	m, err := New(p, Config{MaxOutput: 10, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if r := m.Run(context.Background(), p.Plan("main"), nil); r.Outcome != OutcomeOK {
			t.Fatalf("run %d: %s", i, resultString(r))
		}
	}
	if out.String() != strings.Repeat("\"hello\"\n", 3) {
		t.Errorf("output %q", out.String())
	}
}

// TestHugeValueInMessage: a failure naming a huge value shows a bounded
// prefix of it, so that failing on it in a loop costs little.
func TestHugeValueInMessage(t *testing.T) {
	r, _, _ := runMain(t, `(def-plan main () (let ((s "x")) (dotimes (i 20) (setq s (format nil "~a~a" s s))) (car s)))`, Config{})
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "type-error" || len(r.Failure.Message) > 300 || !strings.HasSuffix(r.Failure.Message, "...") {
		t.Fatalf("%s (%d bytes)", resultString(r), len(r.Failure.Message))
	}
}

// TestProbesDoNotNest: a label reached only inside another label's
// predicate is not covered; nothing the predicate runs (instruction and
// branch counters, steps, failures) is visible.
func TestProbesDoNotNest(t *testing.T) {
	const src = `(defun g (x) (when (ignore-errors (= x 5))) (when (ignore-errors (car x))) (if (> x 100) (fail 'bad "no") x))
(def-plan main () (let ((s 0)) (dotimes (i 10) (when (ignore-errors (= (g i) 5))) (when (ignore-errors (g 200))) (setq s (+ s i))) s))`
	for _, unfused := range []bool{false, true} {
		r, m := runProbe(t, src, Config{}, unfused)
		if r.Outcome != OutcomeOK || r.Value.String() != "45" {
			t.Fatal(resultString(r))
		}
		p := m.Program()
		c := m.Counters()
		for pc := p.Func("g").Entry; pc < p.Plan("main").Entry; pc++ {
			if c[pc] != 0 {
				t.Errorf("unfused %v: instruction %d of g (only run in predicates) counted %d", unfused, pc, c[pc])
			}
		}
		for b := 0; b < p.NumBranches(); b++ {
			br := p.Branch(b)
			tr, fa := c[p.BranchCounter(b, true)], c[p.BranchCounter(b, false)]
			switch br.Test.Line {
			case 1:
				if tr != 0 || fa != 0 {
					t.Errorf("unfused %v: branch %d of g counted %d/%d", unfused, b, tr, fa)
				}
			case 2:
				if tr > 1 || fa > 1 {
					t.Errorf("unfused %v: label branch %d counted %d/%d, not bits", unfused, b, tr, fa)
				}
			}
		}
		// The plan's own steps: the labels and what they call cost none.
		plain, _ := runProbe(t, `(def-plan main () (let ((s 0)) (dotimes (i 10) (setq s (+ s i))) s))`, Config{}, unfused)
		if plain.Steps != r.Steps {
			t.Errorf("unfused %v: %d steps with labels, %d without", unfused, r.Steps, plain.Steps)
		}
	}
	// Nested probes are skipped: their predicates cost no label steps.
	// g's two probes would add at least 2 label steps per call.
	r, _ := runProbe(t, src, Config{}, false)
	direct, _ := runProbe(t, `(defun g (x) (if (> x 100) (fail 'bad "no") x))
(def-plan main () (let ((s 0)) (dotimes (i 10) (when (ignore-errors (= (g i) 5))) (when (ignore-errors (g 200))) (setq s (+ s i))) s))`, Config{}, false)
	if r.LabelSteps > direct.LabelSteps+2*20 {
		t.Errorf("nested probes ran their predicates: %d label steps, %d without them", r.LabelSteps, direct.LabelSteps)
	}
}

// TestRetireLabels: with Labels.Retire, a label that fired is retired at the
// next ResetCounters; the same input then gives the same counters on every
// run (AFL++'s calibration), retired labels cost one step, and without
// Labels.Retire every label is evaluated afresh.
func TestRetireLabels(t *testing.T) {
	const src = `(defun f (x) (* x 2))
(def-plan main (x)
  (when (ignore-errors (= x 3)))
  (when (ignore-errors (< (f x) 0)))
  (when (ignore-errors (= x 3)))
  (if (> x 10) 'big 'small))`
	p := compileSrc(t, src)
	run := func(m *Machine, x int64) ([]uint8, Result) {
		m.ResetCounters()
		r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
		if r.Outcome != OutcomeOK {
			t.Fatal(resultString(r))
		}
		return append([]uint8(nil), m.Counters()...), r
	}
	retiring, err := New(p, Config{Labels: LabelMode{Retire: true}})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := New(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var labelSteps []int64
	for _, x := range []int64{1, 3, 3, 1, -5, -5, 1, 20, 3, -5} {
		c1, r1 := run(retiring, x)
		c2, _ := run(retiring, x)
		if !bytes.Equal(c1, c2) {
			t.Errorf("x=%d: counters differ between two runs of the same input:\n%v\n%v", x, c1, c2)
		}
		cf, rf := run(fresh, x)
		if rf.Value.String() != r1.Value.String() || rf.Steps != r1.Steps {
			t.Errorf("x=%d: retiring %s, fresh %s", x, resultString(r1), resultString(rf))
		}
		// Instruction counters and the plan's branches agree; labels
		// differ only where retired.
		for i := 0; i < p.NumInstructions(); i++ {
			if c1[i] != cf[i] {
				t.Errorf("x=%d: instruction %d counted %d retiring, %d fresh", x, i, c1[i], cf[i])
			}
		}
		labelSteps = append(labelSteps, r1.LabelSteps)
	}
	// After x=3 and x=-5 all three labels are retired: a label costs its
	// one retired instruction.
	if last := labelSteps[len(labelSteps)-1]; last != 3 {
		t.Errorf("label steps after retirement: %d (all: %v)", last, labelSteps)
	}
	if labelSteps[0] == 0 {
		t.Errorf("no label steps before retirement: %v", labelSteps)
	}
	// A retired label keeps writing what it wrote when it retired: x=1
	// now shows the labels true, as x=3 and x=-5 did.
	c, _ := run(retiring, 1)
	for b := 0; b < p.NumBranches(); b++ {
		if p.Branch(b).Test.Line >= 3 && p.Branch(b).Test.Line <= 5 && c[p.BranchCounter(b, true)] != 1 {
			t.Errorf("retired label %d reads %d", b, c[p.BranchCounter(b, true)])
		}
	}
	cf, _ := run(fresh, 1)
	for b := 0; b < p.NumBranches(); b++ {
		if p.Branch(b).Test.Line >= 3 && p.Branch(b).Test.Line <= 5 && cf[p.BranchCounter(b, true)] != 0 {
			t.Errorf("without retirement label %d reads true for x=1", b)
		}
	}
}

// TestRetireAtomProbes: a probe that only computes atoms for the labels
// after it (globals no plan code reads) retires once all those labels
// have; a probe whose globals the plan reads never does.
func TestRetireAtomProbes(t *testing.T) {
	const tmpl = `(defparameter %%g1 nil)
(defparameter %%g2 nil)
(def-plan main (x)
  (when (ignore-errors (progn (setq %%g1 (> x 3)) (setq %%g2 (< x 10)) nil)))
  (when (ignore-errors (and %%g1 %%g2)))
  (when (ignore-errors (and %%g1 (not %%g2))))
  (when (ignore-errors (and (not %%g1) %%g2)))
  %s)`
	for _, tc := range []struct {
		result      string
		atomRetires bool
	}{
		{"x", true},    // four retired probes: one label step each
		{"%g1", false}, // the plan reads %g1: the atom probe stays
	} {
		p := compileSrc(t, fmt.Sprintf(tmpl, tc.result))
		m, err := New(p, Config{Labels: LabelMode{Retire: true}})
		if err != nil {
			t.Fatal(err)
		}
		run := func(x int64) ([]uint8, Result) {
			m.ResetCounters()
			r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
			if r.Outcome != OutcomeOK {
				t.Fatal(resultString(r))
			}
			return append([]uint8(nil), m.Counters()...), r
		}
		for _, x := range []int64{5, 5, 20, 20, 1, 1, 7, 7} {
			c1, _ := run(x)
			c2, _ := run(x)
			if !bytes.Equal(c1, c2) {
				t.Errorf("result %s, x=%d: one input, two maps", tc.result, x)
			}
		}
		if _, r := run(0); (r.LabelSteps == 4) != tc.atomRetires {
			t.Errorf("result %s: %d label steps per run after every label fired", tc.result, r.LabelSteps)
		}
	}
}
