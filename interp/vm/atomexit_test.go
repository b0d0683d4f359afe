package vm

import (
	"bytes"
	"context"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// atomPlan has an atom probe of the label pipeline's shape (flag, atoms,
// flag) before the MCC-style conjunctions reading its atoms and a plan
// variable; its second atom costs a loop.
const atomPlan = `(defparameter %g1 nil)
(defparameter %g2 nil)
(defparameter %g3 nil)
(defun slow (x) (let ((s 0)) (dotimes (i 40) (setq s (+ s i))) (> x (- s 770))))
(def-plan main (x)
  (let ((a (> x 3)))
    (when (ignore-errors (progn (setq %g1 nil) (setq %g2 (< x 10)) (setq %g3 (slow x)) (setq %g1 t) nil)))
    (when (ignore-errors (and %g1 a %g2 %g3)))
    (when (ignore-errors (and %g1 a %g2 (not %g3))))
    (when (ignore-errors (and %g1 a (not %g2) %g3)))
    (when (ignore-errors (and %g1 a (not %g2) (not %g3))))
    (when (ignore-errors (and %g1 (not a) %g2 %g3)))
    (when (ignore-errors (and %g1 (not a) %g2 (not %g3))))
    (when (ignore-errors (and %g1 (not a) (not %g2) %g3)))
    (when (ignore-errors (and %g1 (not a) (not %g2) (not %g3))))
    (list a x)))`

// TestAtomProbeEarlyExit: with Labels.Retire, an atom probe whose live
// readers can no longer be true stops early. Runs are the same as with the
// probe run whole (results, steps, every counter), with fewer label
// steps once readers retired.
func TestAtomProbeEarlyExit(t *testing.T) {
	p := compileSrc(t, atomPlan)
	exits, err := New(p, Config{Labels: LabelMode{Retire: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(exits.atomSites) != 1 {
		t.Fatalf("%d atom sites, want 1", len(exits.atomSites))
	}
	whole, err := New(p, Config{Labels: LabelMode{Retire: true}})
	if err != nil {
		t.Fatal(err)
	}
	for pc, in := range whole.plain { // the probe run whole
		if in.op == opAtomSet {
			whole.plain[pc] = instr{op: compile.SETVALUE, a: in.a}
			whole.fused[pc] = whole.plain[pc]
		}
	}
	saved := false
	// x = 5 and 2 retire the readers of %g3 true (slow is false below
	// 771); then only readers needing %g3 true stay live, and small x
	// stops the probe after its first atom... after %g2 when it is
	// false, since every live reader wants %g2 true.
	for _, x := range []int64{5, 2, 5, 2, 12, 12, 800, 1, 5, 800, 2, 12, 4} {
		var res [2]string
		var cnt [2][]uint8
		var ls [2]int64
		for k, m := range []*Machine{exits, whole} {
			m.ResetCounters()
			r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)})
			res[k], ls[k] = resultString(r), r.LabelSteps
			cnt[k] = append([]uint8(nil), m.Counters()...)
		}
		if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
			t.Errorf("x=%d:\nearly exit %s\nwhole      %s\ncounters equal: %v", x, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
		}
		if ls[0] > ls[1] {
			t.Errorf("x=%d: %d label steps with early exit, %d without", x, ls[0], ls[1])
		}
		saved = saved || ls[0] < ls[1]
	}
	if !saved {
		t.Error("the atom probe never stopped early")
	}
}
