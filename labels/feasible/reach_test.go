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

// reachPlan picks what the robot sees from table-center with either arm
// and puts it down from there at the torso level LEVEL, the left arm on
// its own cells and the right arm on its own (the drop zone of
// warehouse-sort); the object-unreachable handler's decision (line 18)
// is the label asked about. EXTRA is spliced into main before the drop.
const reachPlan = `(defparameter *torso* nil)
(defparameter *cells-left* '((5 4) (3 8)))
(defparameter *cells-right* '((12 8) (10 4)))
(defparameter *n* 0) (defparameter *cells-both* '((7 4)))
(defparameter *names* '(NAMES))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun set-torso (?level)
  (unless (eq ?level *torso*)
    (perform (an action (type moving-torso) (height ?level)))
    (setq *torso* ?level)))
(defun cell-for (arm) (if (eq arm 'left) (nth (mod *n* 2) *cells-left*) (nth (mod *n* 2) *cells-right*)))
(defun put (?arm ?cell) (perform (an action (type placing) (arm ?arm) (target (a location (on table) (cell ?cell))))))
(defun drop (?arm)
  (with-failure-handling ((object-unreachable (e)
                            (if (< *n* 100) (incf *n*) (print 'many))))
    (go-to 'table-center)
    (set-torso LEVEL)
    (put ?arm CELL)
    (if (eq ?arm 'left) 1 2)))
(defun pick-any (?obj)
  (or (ignore-errors (progn (perform (an action (type picking-up) (arm left) (object ?obj))) 'left))
      (ignore-errors (progn (perform (an action (type picking-up) (arm right) (object ?obj))) 'right))))
(def-plan main ()
  (go-to 'table-center)
  (set-torso 'low)
  (dolist (?obj (perform (an action (type detecting))))
    (ignore-errors
      (let ((arm (pick-any ?obj)))
        (when arm (progn EXTRA (ignore-errors (drop ARM))))))))
`

// TestReachVerdicts: a handler for object-unreachable around a placing on
// each arm's own cells, from table-center with the torso low, is never
// entered, with the reason, and random warehouse environments never enter
// it; the look-alikes (the torso high, an arm named by a string, the torso
// moved behind the back of the variable that names its level, an argument
// that signals the failure itself) keep the labels, and the random
// environments enter their handler.
func TestReachVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("cc")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	for _, tc := range []struct {
		name, level, arm, names, extra, cell string
		ruled                                bool
	}{
		{"own cells, torso low", "'low", "arm", "milk", "", "", true},
		{"torso high", "'high", "arm", "milk", "", "", false},
		{"an arm named by a string", "'low", "(if (eq arm 'left) (first *names*) arm)", `"left"`, "", "", false},
		{"the torso moved behind *torso*'s back", "'low", "arm", "milk", "(perform (an action (type moving-torso) (height high)))", "", false},
		{"the cell's argument fails so", "'low", "arm", "milk", "", `(nth (if (eq ?arm 'right) (fail 'object-unreachable "a b") 0) *cells-both*)`, false},
	} {
		cell := "(cell-for ?arm)"
		if tc.cell != "" {
			cell = tc.cell
		}
		src := strings.NewReplacer("LEVEL", tc.level, "ARM", tc.arm, "NAMES", tc.names, "EXTRA", tc.extra, "CELL", cell).Replace(reachPlan)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
		reason := reasonAt(verdicts, "t.plan:18:33", "true")
		if tc.ruled != (reason != "") {
			t.Errorf("%s: ruled out %v (%q), want %v", tc.name, reason != "", reason, tc.ruled)
		}
		if tc.ruled {
			for _, want := range []string{"the object-unreachable handler", "from table-center", "with the torso low",
				"arm left on (3 8) (5 4), arm right on (10 4) (12 8)", "names an arm only as a symbol", "all within reach"} {
				if !strings.Contains(reason, want) {
					t.Errorf("%s: reason %q lacks %q", tc.name, reason, want)
				}
			}
		}
		hits := runWorld(t, p, world, 300)
		checkVerdicts(t, tc.name, p, verdicts, hits, "random warehouse environments")
		if tc.ruled {
			// Both arms placed: the runs reach what the rule is about.
			lookAlikesHold(t, p, hits, "true", "t.plan:22:9")
			lookAlikesHold(t, p, hits, "false", "t.plan:22:9")
		}
		if !tc.ruled {
			lookAlikesHold(t, p, hits, "true", "t.plan:18:33")
		}
	}
}
