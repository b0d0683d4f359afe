package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// otherArmPlan picks the first object it sees from table-center with the
// right arm, then every other one with fetch, whose handler retries as
// CLAUSE says, picking up as BODY does.
const otherArmPlan = `(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun other-arm (arm) (if (eq arm 'left) 'right 'left))
(defun grab-right (o) (perform (an action (type picking-up) (arm right) (object o))))
(defun fetch (?obj arm)
  (let ((?arm arm) (tries 0))
    (with-failure-handling ((object-unreachable (e)
                              (incf tries)
                              CLAUSE
                              nil)
                            (grasping-failure (e) nil))
      BODY
      ?arm)))
(def-plan main ()
  (with-failure-handling ((plan-failure (e) nil))
    (go-to 'table-center)
    (let ((ds (perform (an action (type detecting)))))
      (with-failure-handling ((plan-failure (e) nil))
        (perform (an action (type picking-up) (arm right) (object (first ds)))))
      (dolist (d (rest ds)) (fetch d 'left)))))
`

// TestOtherArmVerdicts: a handler that retries only with the other arm
// never sees its count spent with the other arm holding something (the
// FF combination is ruled out, and random warehouse environments never
// make it hold); the look-alikes keep it: a retry with the same arm
// (which makes it hold once the right arm carries the first object), a
// swap to a fixed arm.
func TestOtherArmVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("mcc")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	const swap = "(when (and (< tries 2) (null (arm-holding (other-arm ?arm)))) (setq ?arm (other-arm ?arm)) (retry))"
	const pick = "(perform (an action (type picking-up) (arm ?arm) (object ?obj)))"
	for _, tc := range []struct {
		name, clause, body string
		ruled, holds       bool
	}{
		{"the other arm", swap, pick, true, false},
		{"the same arm", "(print (and (< tries 2) (null (arm-holding (other-arm ?arm))))) (when (< tries 2) (retry))", pick, false, true},
		{"a fixed arm", "(when (and (< tries 2) (null (arm-holding (other-arm ?arm)))) (setq ?arm 'left) (retry))", pick, false, false},
		{"a pick through a function value", swap, "(mapcar #'grab-right (list ?obj)) " + pick, false, false},
	} {
		src := strings.NewReplacer("CLAUSE", tc.clause, "BODY", tc.body).Replace(otherArmPlan)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
		pos, reason := "", ""
		for _, l := range p.Active {
			if l.Operator == "FF" && strings.Contains(l.Source, "arm-holding") {
				pos = l.Pos.String()
				if v := verdicts[l.ID]; v != nil {
					reason = v.Reason
				}
			}
		}
		if pos == "" {
			t.Fatalf("%s: no FF label of the retry test", tc.name)
		}
		if tc.ruled != (reason != "") {
			t.Errorf("%s: ruled out %v (%q), want %v", tc.name, reason != "", reason, tc.ruled)
		}
		if tc.ruled && !strings.Contains(reason, "is never true where tries >= 2") {
			t.Errorf("%s: reason %q", tc.name, reason)
		}
		hits := runWorld(t, p, world, 300)
		checkVerdicts(t, tc.name, p, verdicts, hits, "random warehouse environments")
		if tc.holds {
			lookAlikesHold(t, p, hits, "FF", pos)
		}
	}
}
