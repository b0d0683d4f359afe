package feasible_test

import (
	"math"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// linPlan compares sums of the same terms: some combinations of lines
// 7-10 contradict over the integers or over any numbers; the look-alikes
// hold (a float between col and col+1 on line 10, a float inside a sum
// on line 11, an argument of any size or NaN on line 12).
const linPlan = `(defun f (a)
  (let ((n 0))
    (dolist (col '(0 4 9))
      (dolist (x (list -3 0 2 5 7 12 a))
        (dolist (y '(-3 0 2 5 7 12 2.5 4.5))
          (dolist (z '(-3 0 2 5 7 12))
          (when (and (>= z col) (< z (+ col 4))) (incf n))
          (when (and (> z col) (< z (1+ col))) (incf n))
          (when (and (>= y col) (<= y col)) (incf n))
          (when (and (> y col) (< y (1+ col))) (incf n))
          (when (and (> (* 2 y) col) (< y (- col 3))) (incf n))
          (when (and (>= x col) (< x (+ col 4))) (incf n))))))
    n))
(def-plan main (a) (f a))
`

// TestLinearConjVerdicts: conjunctions of comparisons between sums of
// the same terms that no numbers satisfy are infeasible with the
// literals in the reason; the look-alikes stay active, and runs with
// arguments from the edges (NaN, the ends of int64) reach none of the
// labels ruled out while they do reach the look-alikes' labels.
func TestLinearConjVerdicts(t *testing.T) {
	p, verdicts, linear := verdictsWith(t, linPlan, "mcc", "no numbers satisfy")
	want := map[string]string{
		"t.plan:7:17 FF":  "(>= z col) false and (< z (+ col 4)) false",
		"t.plan:8:17 TT":  "(> z col) true and (< z (1+ col)) true",
		"t.plan:8:17 FF":  "(> z col) false and (< z (1+ col)) false",
		"t.plan:9:17 FF":  "(>= y col) false and (<= y col) false",
		"t.plan:10:17 FF": "(> y col) false and (< y (1+ col)) false",
	}
	for k, lits := range want {
		if !strings.Contains(linear[k], lits) {
			t.Errorf("%s: got %q, want the literals %s", k, linear[k], lits)
		}
	}
	if len(linear) != len(want) {
		t.Errorf("linear verdicts %v, want only %v", linear, want)
	}
	var argv [][]value.Value
	for _, a := range []value.Value{value.Int(0), value.Int(4), value.Int(math.MaxInt64), value.Int(math.MinInt64), value.Float(math.NaN()), value.Float(4.5)} {
		argv = append(argv, []value.Value{a})
	}
	hits := runMain(t, p, argv)
	checkVerdicts(t, "linear", p, verdicts, hits, "edge arguments")
	lookAlikesHold(t, p, hits, "TT", "t.plan:10:17", "t.plan:11:17")
	lookAlikesHold(t, p, hits, "FF", "t.plan:12:17")
}
