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

// floorPlan picks what the robot sees from table-center and puts it back
// at cell CELL of the table, then asks whether an object lies on the
// floor (line 10).
const floorPlan = `(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun put (?arm ?cell) (perform (an action (type placing) (arm ?arm) (target (a location (on table) (cell ?cell))))))
(def-plan main ()
  (with-failure-handling ((plan-failure (e) nil))
    (go-to 'table-center)
    (dolist (?obj (perform (an action (type detecting)))) (with-failure-handling ((plan-failure (e) nil)) (perform (an action (type picking-up) (arm left) (object ?obj))) (put 'left CELL) (put 'left (list 9 3)))))
  (dolist (obj (all-objects)) (when (object-on-floor-p obj) (print 'floor))))
`

// TestFloorVerdicts: where every placing's cell lies away from the
// table's edges, (object-on-floor-p obj) is never true, with the reason,
// and random warehouse environments never make it so; the look-alikes
// (a cell in the table's front row, a perform of a designator held in a
// variable, a cell the analysis cannot bound) keep the label, and the
// first makes it hold.
func TestFloorVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("cc")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	for _, tc := range []struct {
		name, cell string
		ruled      bool
	}{
		{"inner cells", "(list (+ 6 (length (all-objects)) -1) 7)", true},
		{"the front row", "(list 8 0)", false},
		{"a designator in a variable", "(list 8 7)) (let ((a (an action (type detecting)))) (perform a)", false},
		{"a cell unbounded", "(list 8 (* 3 (length (all-objects))))", false},
	} {
		src := strings.Replace(floorPlan, "CELL", tc.cell, 1)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
		reason := reasonAt(verdicts, "t.plan:10:37", "true")
		if tc.ruled != (reason != "") {
			t.Errorf("%s: ruled out %v (%q), want %v", tc.name, reason != "", reason, tc.ruled)
		}
		if tc.ruled && (!strings.Contains(reason, "no object is ever on the floor") || !strings.Contains(reason, "the row in [3, 7]")) {
			t.Errorf("%s: reason %q", tc.name, reason)
		}
		hits := runWorld(t, p, world, 200)
		checkVerdicts(t, tc.name, p, verdicts, hits, "random warehouse environments")
		if tc.name == "the front row" {
			lookAlikesHold(t, p, hits, "true", "t.plan:10:37")
		}
	}
}
