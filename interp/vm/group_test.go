package vm

import (
	"bytes"
	"context"
	"math"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// groupPlan has chains of label probes in every shape a group meets:
// compare probes on integers, floats (the cold switch), names, globals and
// conjunctions, several on one variable and one constant (one test of
// the group), a PROBE block inside a chain, guarded PROBE blocks
// (conjunctions led by a comparison), and a function
// whose chains run nested in another probe's predicate.
const groupPlan = `(defparameter *k* 5)
(defun h (y)
  (when (ignore-errors (< y 0)))
  (when (ignore-errors (> y 3)))
  (when (ignore-errors (= y 7)))
  (* y 2))
(def-plan main (x)
  (let ((f (* x 0.5)) (s (if (> x 4) 'big 'small)) (a (> x 2)) (b (< x 6)))
    (when (ignore-errors (< x 3)))
    (when (ignore-errors (= x *k*)))
    (when (ignore-errors (> f 1)))
    (when (ignore-errors (eq s 'big)))
    (when (ignore-errors (and a (not b))))
    (when (ignore-errors (= (h x) 8)))
    (when (ignore-errors (/= x 1)))
    (when (ignore-errors (<= x 9)))
    (when (ignore-errors (< *k* 9)))
    (when (ignore-errors (>= x 5)))
    (when (ignore-errors (> *k* x)))
    (when (ignore-errors (eq x 4)))
    (when (ignore-errors (not (eq x 6))))
    (when (ignore-errors (< x 0)))
    (when (ignore-errors (> x 0)))
    (when (ignore-errors (= x 0)))
    (when (ignore-errors (< f 0)))
    (when (ignore-errors (> f 0)))
    (when (ignore-errors (= f 0)))
    (when (ignore-errors (<= *k* 5)))
    (when (ignore-errors (/= *k* 5)))
    (when (ignore-errors (and (> x 2) (= (h x) 8))))
    (when (ignore-errors (and (< x 3) (car x))))
    (when (ignore-errors (and b (> (h x) 4) a)))
    (dotimes (i 3)
      (when (ignore-errors (= i x)))
      (when (ignore-errors (> (h i) (h x))))
      (when (ignore-errors (< i 1))))
    (list (h x) s)))`

// TestProbeGroupsMatchPlain runs the same inputs on the fused code, where
// chains of probes run as groups, and on the plain code, with and without
// retirement and under small budgets: results, steps, label steps and
// every counter must be identical run by run.
func TestProbeGroupsMatchPlain(t *testing.T) {
	p := compileSrc(t, groupPlan)
	inputs := []int64{1, 5, 5, 0, 7, 3, 9, 2, 4, 4, 6, -1, 8, 5, 1}
	engine := LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}
	for _, cfg := range []Config{{}, {Labels: LabelMode{Retire: true}}, {Labels: LabelMode{Retire: true}, MaxSteps: 60}, {MaxLabelSteps: 40}, {Labels: LabelMode{Retire: true}, MaxLabelSteps: 25},
		{Labels: LabelMode{FiredOnly: true}}, {Labels: LabelMode{Retire: true, FiredOnly: true}}, {Labels: engine}, {Labels: engine, MaxSteps: 60},
		{Labels: engine, MaxSteps: 150}, {Labels: engine, MaxLabelSteps: 25}, {Labels: LabelMode{Retire: true, SilentRetire: true}}} {
		fused, plain := fusedAndPlain(t, p, cfg)
		if len(fused.groups) == 0 {
			t.Fatalf("%+v: no probe groups", cfg)
		}
		allRetired := false
		for _, x := range inputs {
			res, cnt := runPair(p, [2]*Machine{fused, plain}, value.Int(x))
			if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
				t.Errorf("%+v, x=%d:\ngroups %s\nplain  %s\ncounters equal: %v", cfg, x, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
			}
			for _, g := range fused.groups {
				allRetired = allRetired || len(g.tests) == 0
			}
		}
		if cfg.Labels.Retire && !cfg.Labels.SilentRetire && cfg.MaxSteps == 0 && cfg.MaxLabelSteps == 0 && !allRetired {
			t.Errorf("%+v: no group ever had all its members retired", cfg)
		}
	}
}

// TestProbesCountNoInstruction: a label probe leaves no trace but its
// branch counters: the instruction counters of its instructions (PROBECMP,
// PROBE to PROBEFAIL, retired or in a group) stay 0, fused or plain, with
// or without retirement, while the plan's own instructions count. And a
// group with a retired member and a live one writes the retired member's
// true counter (after the run, on Counters) and the live member's
// evaluation on every run.
func TestProbesCountNoInstruction(t *testing.T) {
	p := compileSrc(t, groupPlan)
	for _, cfg := range []Config{{}, {Labels: LabelMode{Retire: true}}, {Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}}} {
		fused, plain := fusedAndPlain(t, p, cfg)
		inProbe := make([]bool, p.NumInstructions())
		for _, lp := range fused.labelProbes() {
			for pc := lp.entry; pc < lp.end; pc++ {
				inProbe[pc] = true
			}
		}
		for _, x := range []int64{5, 5, 1, 7, 3} {
			for k, m := range []*Machine{fused, plain} {
				m.ResetCounters()
				m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
				cnt := m.Counters()
				planCounted := 0
				for pc, in := range inProbe {
					switch {
					case in && cnt[pc] != 0:
						t.Errorf("%+v, x=%d, fused=%v: probe instruction %d (%s) counted %d", cfg, x, k == 0, pc, p.Code[pc], cnt[pc])
					case !in && cnt[pc] != 0:
						planCounted++
					}
				}
				if planCounted == 0 {
					t.Fatalf("%+v, x=%d: the plan's instructions counted nothing", cfg, x)
				}
			}
		}
	}

	// (= x 5) fires on 5 and retires; (= x 9) never fires.
	p = compileSrc(t, `(def-plan main (x)
  (when (ignore-errors (= x 5)))
  (when (ignore-errors (= x 9)))
  (list x))`)
	m, err := New(p, Config{Labels: LabelMode{Retire: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.groups) != 1 {
		t.Fatalf("%d groups, want 1", len(m.groups))
	}
	for i, x := range []int64{5, 7, 7} {
		m.ResetCounters()
		r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
		if r.Outcome != OutcomeOK || r.LabelSteps != 2 {
			t.Fatalf("x=%d: %s, %d label steps", x, resultString(r), r.LabelSteps)
		}
		cnt := m.Counters()
		if got := cnt[p.BranchCounter(0, true)]; got != 1 {
			t.Errorf("run %d, x=%d: (= x 5) reads %d true, want 1 (fired, then retired)", i, x, got)
		}
		if got := cnt[p.BranchCounter(1, true)] + 2*cnt[p.BranchCounter(1, false)]; got != 2 {
			t.Errorf("run %d, x=%d: (= x 9) reads true %d false %d, want false only", i, x, got&1, got>>1)
		}
		if i > 0 && len(m.groups[0].tests) != 1 {
			t.Errorf("run %d: %d live tests, want 1", i, len(m.groups[0].tests))
		}
	}
}

// twoVarChain is a chain of compare probes on two variables: an ROR
// quadruple on locals x and y (one test of the group), comparisons of a
// local with a global and of a global that may be unbound (*late* while
// *early* is computed) with a local and the reverse, and eq.
const twoVarChain = `(when (ignore-errors (= x y)))
      (when (ignore-errors (/= x y)))
      (when (ignore-errors (<= x y)))
      (when (ignore-errors (> x y)))
      (when (ignore-errors (< x *g*)))
      (when (ignore-errors (>= x *g*)))
      (when (ignore-errors (eq x y)))
      (when (ignore-errors (< *late* x)))
      (when (ignore-errors (= *late* x)))
      (when (ignore-errors (> y *late*)))
      (when (ignore-errors (/= y *late*)))
      (when (ignore-errors (< y x)))`

// TestProbeGroupsTwoVariables: a group compares two integer variables in
// one test shared by the labels on them, and leaves every other case
// (floats, names, nil, an unbound global) to the plain code; results,
// steps, label steps and every counter are those of the plain code, run
// by run (one pair of values a run), with and without retirement and
// under small budgets.
func TestProbeGroupsTwoVariables(t *testing.T) {
	src := `(defparameter *g* 3)
(defparameter *early* (let ((x 1) (y 2)) ` + twoVarChain + ` 1))
(defparameter *late* 0)
(def-plan main (x y)
  (setq *late* (if (eq x 2) y (- y 1)))
  ` + twoVarChain + `
  (list x y))`
	p := compileSrc(t, src)
	vals := []value.Value{value.Int(0), value.Int(1), value.Int(-1), value.Int(2), value.Int(3), value.Int(math.MaxInt64),
		value.Int(math.MinInt64), value.Float(2.5), value.Float(3), value.Symbol("a"), value.Nil, value.Keyword("k")}
	engine := LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}
	for _, cfg := range []Config{{}, {Labels: LabelMode{Retire: true}}, {MaxLabelSteps: 5}, {Labels: LabelMode{FiredOnly: true}},
		{Labels: engine}, {Labels: engine, MaxSteps: 12}, {Labels: engine, MaxLabelSteps: 7}} {
		fused, plain := fusedAndPlain(t, p, cfg)
		shared := false
		for _, g := range fused.groups {
			for _, ts := range g.tests {
				shared = shared || ts.pr == nil && ts.y == yLocal && ts.hi-ts.lo == 4
			}
		}
		if !shared {
			t.Fatalf("%+v: no group test shared by the four labels on x and y", cfg)
		}
		single := false
		for _, x := range vals {
			for _, y := range vals {
				res, cnt := runPair(p, [2]*Machine{fused, plain}, x, y)
				if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
					t.Errorf("%+v, x=%s y=%s:\ngroups %s\nplain  %s\ncounters equal: %v", cfg, x, y, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
				}
				for _, g := range fused.groups {
					single = single || g.single
				}
			}
		}
		// Once most labels retired, a live one alone is run inline.
		if cfg.Labels.SilentRetire && cfg.MaxSteps == 0 && cfg.MaxLabelSteps == 0 && !single {
			t.Errorf("%+v: no group of one integer comparison (inline) ever", cfg)
		}
	}
}
