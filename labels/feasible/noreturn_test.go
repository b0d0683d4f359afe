package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// noReturnPlan has decisions with an operand that never returns (lines
// 4-6) and look-alikes whose operand may return (lines 6-8: a function
// that fails only sometimes, a fail under a test of its own, a fail the
// plan defines).
const noReturnPlan = `(defun mayfail (x) (if (> x 5) (fail 'oops "big") nil))
(defun pick (a b)
  (list (with-failure-handling ((oops (e) 'failed)) (or (> a 2) (fail 'oops "small a")))
        (with-failure-handling ((oops (e) 'failed)) (and (> b 2) (fail 'oops "big b")))
        (with-failure-handling ((oops (e) 'failed)) (or (> a 4) (> b 4) (fail 'oops "both small")))
        (with-failure-handling ((oops (e) 'failed)) (or (> a 3) (mayfail b)))
        (with-failure-handling ((oops (e) 'failed)) (or (> a 1) (if (> b 0) (fail 'oops "x") nil)))
        (with-failure-handling ((oops (e) 'failed)) (and (> b 3) (myfail b)))))
(defun myfail (x) (list x))
(def-plan main (a b) (pick a b))
`

// TestNoReturnVerdicts: the labels of a decision run only once its
// operands are bound, so where an earlier operand's truth would send the
// decision into (fail ...), they are never reached, and say so; the
// look-alikes keep those labels, and every pair of arguments from -1 to
// 7 reaches none of the labels ruled out while it does reach the
// look-alikes'.
func TestNoReturnVerdicts(t *testing.T) {
	p, verdicts, unreached := verdictsWith(t, noReturnPlan, "mcc,cc", "never reached:")
	for _, k := range []string{"t.plan:3:53 FF", "t.plan:3:57 false", "t.plan:4:53 TF", "t.plan:4:58 true", "t.plan:5:53 FFF"} {
		if unreached[k] == "" {
			t.Errorf("%s: not ruled out as never reached (have %v)", k, unreached)
		}
	}
	for k := range unreached {
		if line := strings.Split(k, ":")[1]; line >= "6" {
			t.Errorf("%s: a look-alike ruled out as never reached", k)
		}
	}
	hits := runMain(t, p, pairGrid(-1, 7))
	checkVerdicts(t, "no-return", p, verdicts, hits, "arguments -1..7")
	// The look-alikes' labels of the same shapes hold: the plan tests
	// what the rule refuses.
	lookAlikesHold(t, p, hits, "FF", "t.plan:6:53", "t.plan:7:53")
	lookAlikesHold(t, p, hits, "TT", "t.plan:8:53")
}

// verdictsWith annotates src (entry main) with the labels of crit, as
// valueVerdicts does, and lists the infeasible verdicts whose reason
// starts with prefix by "position operator".
func verdictsWith(t *testing.T, src, crit, prefix string) (*pipeline.Annotated, map[int]*labels.Label, map[string]string) {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria(crit)
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{Entry: "main"}, normalize.Options{PureFuncs: sim.QueryNames()})
	with := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.HasPrefix(l.Reason, prefix) {
			with[l.Pos.String()+" "+l.Operator] = l.Reason
		}
	}
	return p, verdicts, with
}
