package vm

import (
	"context"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// labelCounts are the true and false counters of m's label probes, in pc
// order.
func labelCounts(m *Machine) [][2]uint8 {
	cs := m.Counters()
	var out [][2]uint8
	for _, lp := range m.probes {
		i := m.counter(lp.branch)
		out = append(out, [2]uint8{cs[i], cs[i+1]})
	}
	return out
}

// TestLimitedRunCoversNoLabel: a run in which the plan hits a limit
// (IsLimit), caught or not, covers and reaches no label; a plain failure,
// or a limit hit inside a label's predicate, leaves the labels as counted.
func TestLimitedRunCoversNoLabel(t *testing.T) {
	const defs = `(defun deep (k) (+ 1 (deep (+ k 1))))
(defun spin (n) (let ((s 0)) (dotimes (i n) (setq s (+ s i))) s))
`
	cases := []struct {
		name, main string
		cfg        Config
		arg        int64
		outcome    Outcome
		counted    bool
	}{
		{"completes", `(when (ignore-errors (> n 0))) (spin n)`, Config{}, 10, OutcomeOK, true},
		{"plain failure", `(when (ignore-errors (> n 0))) (car n)`, Config{}, 10, OutcomeFailure, true},
		{"step budget", `(when (ignore-errors (> n 0))) (spin n)`, Config{MaxSteps: 200}, 1000, OutcomeTimeout, false},
		{"depth, uncaught", `(when (ignore-errors (> n 0))) (deep n)`, Config{MaxDepth: 40}, 1, OutcomeFailure, false},
		{"depth, caught by the plan", `(when (ignore-errors (> n 0))) (ignore-errors (deep n)) n`, Config{MaxDepth: 40}, 1, OutcomeOK, false},
		{"depth inside a predicate", `(when (ignore-errors (> (deep n) 0))) (when (ignore-errors (> n 0))) n`, Config{MaxDepth: 40}, 1, OutcomeOK, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := compileSrc(t, defs+"(def-plan main (n) "+c.main+")")
			m, err := New(p, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			m.ResetCounters()
			r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(c.arg)})
			if r.Outcome != c.outcome {
				t.Fatalf("outcome %s (%v), want %s", r.Outcome, r.Failure, c.outcome)
			}
			counts := labelCounts(m)
			last := counts[len(counts)-1] // (> n 0), true for every case
			if c.counted && last != [2]uint8{1, 0} {
				t.Errorf("label (> n 0) counted %v, want fired", last)
			}
			if !c.counted {
				for i, lc := range counts {
					if lc != [2]uint8{} {
						t.Errorf("label %d counted %v in a run cut by a limit", i, lc)
					}
				}
			}
		})
	}
}

// TestLimitedCheckClearsTheRun: a check cut by its step budget after a
// plan that completed clears the labels of the whole run, and a label that
// fired in a limited run does not retire.
func TestLimitedCheckClearsTheRun(t *testing.T) {
	src := `(defparameter *n* 0)
(def-plan main (n) (when (ignore-errors (> n 0))) (setq *n* n) n)
(def-check slow () (let ((s 0)) (dotimes (i *n*) (setq s (+ s i))) nil))`
	p := compileSrc(t, src)
	m, err := New(p, Config{MaxSteps: 300, Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(n int64) (Result, [2]uint8) {
		m.ResetCounters()
		r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(n)})
		for _, c := range p.Checks() {
			if cr := m.Call(context.Background(), c, nil); cr.Outcome != OutcomeOK {
				r = cr
			}
		}
		return r, labelCounts(m)[0]
	}
	if r, lc := run(1000); r.Outcome != OutcomeTimeout || lc != [2]uint8{} {
		t.Fatalf("check cut by the budget: outcome %s, label %v; want timeout and no label", r.Outcome, lc)
	}
	// Not retired: the label fires, and counts, in the next run.
	if r, lc := run(5); r.Outcome != OutcomeOK || lc != [2]uint8{1, 0} {
		t.Fatalf("next run: outcome %s, label %v; want ok and the label fired (not retired)", r.Outcome, lc)
	}
	// Retired now (silently): it writes nothing.
	if _, lc := run(5); lc != [2]uint8{} {
		t.Fatalf("after a counted run the label should be retired, got %v", lc)
	}
}
