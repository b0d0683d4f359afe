package feasible_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// dropCyclePlan picks what the robot sees from dining-left and serves it
// at the next of PLACES, cycling, as kitchen's serve-cup does: a place
// found taken moves on to the next one. The handler asks whether the
// count is 3.
const dropCyclePlan = `(defparameter *places* '(PLACES))
(defparameter *served* 0)
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun serve (?arm)
  (let* ((?cell (nth (mod *served* (length *places*)) *places*)))
    EXTRA
    (with-failure-handling ((placing-failure (e)
                              (incf *served*)
                              (setq ?cell (nth (mod *served* (length *places*)) *places*))
                              (when (= *served* 3) (print 'three))
                              (when (< *served* 20) (retry))))
      (perform (an action (type placing) (arm ?arm) (target (a location (on dining-table) (cell ?cell))))))
    (incf *served*)))
(def-plan main ()
  (go-to 'dining-left)
  (dolist (?obj (perform (an action (type detecting))))
    (ignore-errors
      (progn (perform (an action (type picking-up) (arm left) (object ?obj)))
             (serve 'left)))))
`

// TestDropCycleVerdicts: where the place the count 3 follows is a cell
// from which every object drifts off the table, (= *served* 3) never
// holds in the handler, with the reason, and random kitchen environments
// never make it; the look-alikes (the place an ordinary cell; the count
// changed between the binding and the placing) keep the label, and the
// first makes it hold.
func TestDropCycleVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/kitchen.world")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("cc")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	for _, tc := range []struct {
		name, places, extra string
		ruled, holds        bool
	}{
		{"the third place drops", "(1 2) (1 2) (2 0)", "", true, false},
		{"the third place an ordinary cell", "(1 2) (1 2) (1 2)", "", false, true},
		{"the count changed after the binding", "(1 2) (1 2) (2 0)", "(incf *served*)", false, false},
	} {
		src := strings.NewReplacer("PLACES", tc.places, "EXTRA", tc.extra).Replace(dropCyclePlan)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		line := 1 + strings.Count(src[:strings.Index(src, "(when (= *served* 3)")], "\n")
		col := strings.Index(strings.Split(src, "\n")[line-1], "(= *served* 3)") + 1
		pos := fmt.Sprintf("t.plan:%d:%d", line, col)
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
		reason := reasonAt(verdicts, pos, "true")
		if tc.ruled != (reason != "") {
			t.Errorf("%s: ruled out %v (%q), want %v", tc.name, reason != "", reason, tc.ruled)
		}
		if tc.ruled && (!strings.Contains(reason, "(2 0)") || !strings.Contains(reason, "makes it 3 only from 2, index 2") || !strings.Contains(reason, "drifts off")) {
			t.Errorf("%s: reason %q", tc.name, reason)
		}
		hits := runWorld(t, p, world, 400)
		checkVerdicts(t, tc.name, p, verdicts, hits, "random kitchen environments")
		if tc.holds {
			lookAlikesHold(t, p, hits, "true", pos)
		}
		if tc.ruled {
			// The handler runs: the runs reach what the rule is about.
			lookAlikesHold(t, p, hits, "false", pos)
		}
	}
}
