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

// locationsPlan reads where the robot stands through a loop that only
// moves the torso, a defun's callers and a failure handler's signalling
// forms, in the warehouse world (table stands see the table only, shelf
// stands the boards only): look-here is called only at the table stands,
// so line 11's (on-table-p d) is never false; where and line 24's test
// run only after the placing at table-center failed. The look-alikes:
// look-any also runs at a shelf stand (line 15), and line 27's handler
// catches a placing that may run at table-center or shelf-center.
const locationsPlan = `(defun obj-region (d) (desig-prop d 'region))
(defun on-table-p (d) (eq (obj-region d) 'table))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun set-torso (?level) (perform (an action (type moving-torso) (height ?level))))
(defun look-here ()
  (with-failure-handling ((object-not-found () nil))
    (dolist (d (perform (an action (type detecting))))
      (when (on-table-p d) (print 1)))))
(defun look-any ()
  (with-failure-handling ((object-not-found () nil))
    (dolist (d (perform (an action (type detecting))))
      (when (on-table-p d) (print 2)))))
(defun where () (when (eq (robot-location) 'table-left) (print 3)))
(def-plan main ()
  (dolist (stand '(table-left table-right))
    (go-to stand)
    (let ((levels '(low high)))
      (while levels (set-torso (pop levels)) (look-here) (look-any))))
  (go-to 'shelf-left)
  (look-any)
  (with-failure-handling ((manipulation-failure (e) (where) (when (eq (robot-location) 'table-center) (print 4))))
    (go-to 'table-center)
    (perform (an action (type placing) (arm right) (target (a location (on table))))))
  (with-failure-handling ((manipulation-failure (e) (when (eq (robot-location) 'table-center) (print 5))))
    (go-to 'table-center)
    (when (> (length (all-objects)) 3) (go-to 'shelf-center))
    (perform (an action (type placing) (arm right) (target (a location (on table)))))))
`

// TestLocationVerdicts: the labels decided by where the robot stands are
// ruled out with the reason, no look-alike's is, and random environments
// of the warehouse world never cover a label ruled out while they cover
// the look-alikes' both ways.
func TestLocationVerdicts(t *testing.T) {
	world, p, verdicts := worldVerdicts(t, "warehouse", locationsPlan, "mcc,cc")
	ruled := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible {
			ruled[l.Pos.String()+" "+l.Operator] = l.Reason
		}
	}
	for _, k := range []string{"t.plan:11:13 false", "t.plan:11:13 F", "t.plan:16:23 true", "t.plan:16:23 T", "t.plan:24:67 false", "t.plan:24:67 F"} {
		if ruled[k] == "" {
			t.Errorf("%s: not ruled out (have %v)", k, ruled)
		}
	}
	if r := ruled["t.plan:11:13 false"]; !strings.Contains(r, "when look-here starts, which is called only at (look-here)") || !strings.Contains(r, "after (go-to stand)") {
		t.Errorf("reason: %q", r)
	}
	if r := ruled["t.plan:16:23 true"]; !strings.Contains(r, "the robot stands at table-center there") || !strings.Contains(r, "manipulation-failure handler") || !strings.Contains(r, "(perform (an action (type placing)") {
		t.Errorf("reason: %q", r)
	}
	for k := range ruled {
		if strings.HasPrefix(k, "t.plan:15:") || strings.HasPrefix(k, "t.plan:27:") {
			t.Errorf("%s: a look-alike ruled out: %s", k, ruled[k])
		}
	}
	hits := runWorld(t, p, world, 150)
	checkVerdicts(t, "locations", p, verdicts, hits, "random warehouse environments")
	lookAlikesHold(t, p, hits, "false", "t.plan:15:13", "t.plan:27:59")
	lookAlikesHold(t, p, hits, "true", "t.plan:11:13", "t.plan:15:13", "t.plan:24:67", "t.plan:27:59")
}

// worldVerdicts annotates plan (file t.plan) for criteria as a plan run
// in the bundled world of that name is judged, and returns the world, the
// annotated plan and the verdicts (valueVerdicts).
func worldVerdicts(t *testing.T, world, plan, criteria string) (*sim.World, *pipeline.Annotated, map[int]*labels.Label) {
	t.Helper()
	w, err := sim.LoadWorld("../../testdata/worlds/" + world + ".world")
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("t.plan", []byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria(criteria)
	if err != nil {
		t.Fatal(err)
	}
	fo := feasible.Options{Domains: sim.LabelDomains(w), Signals: sim.LabelSignals(w), Entry: "main"}
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
	return w, p, verdicts
}
