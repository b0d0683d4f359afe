package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// repeatViewPlan searches for each type at three torso heights from one
// stand (line 21: the search never runs out of heights and finds
// something, since moving the torso changes nothing a detection
// returns), with two look-alikes the rule must keep: one height only
// (line 25: found at the first and last), and a search whose every
// iteration moves to another stand (line 29: found from the second).
const repeatViewPlan = `
(defun obj-region (d) (desig-prop d 'region))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defparameter *levels* '(middle high low))
(defparameter *torso* nil)
(defun set-torso (?level)
  (unless (eq ?level *torso*)
    (perform (an action (type moving-torso) (height ?level)))
    (setq *torso* ?level)))
(defun look-for (?type)
  (let ((out nil))
    (with-failure-handling ((object-not-found () nil))
      (dolist (d (perform (an action (type detecting) (object (an object (type ?type)))))) (push d out)))
    out))
(def-plan main ()
  (go-to 'table-center)
  (dolist (type '(bowl cereal milk))
    (let ((levels *levels*) (found nil))
      (while (and levels (not found))
        (set-torso (pop levels))
        (dolist (d (look-for type)) (unless found (setq found d)))))
    (let ((levels '(low)) (found nil))
      (while (and levels (not found))
        (set-torso (pop levels))
        (dolist (d (look-for type)) (unless found (setq found d)))))
    (let ((stands '(shelf-left table-left)) (found nil))
      (while (and stands (not found))
        (go-to (pop stands))
        (dolist (d (look-for type)) (unless found (when (eq (obj-region d) 'table) (setq found d))))))))
`

// TestRepeatViewVerdicts: the search's FT is ruled out with the reason,
// no look-alike's is, and random environments of the warehouse world
// never cover a label ruled out while they cover the look-alikes' FT.
func TestRepeatViewVerdicts(t *testing.T) {
	world, p, verdicts := worldVerdicts(t, "warehouse", strings.TrimPrefix(repeatViewPlan, "\n"), "mcc,cc")
	ruled := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "empty with found set is never true") {
			ruled[l.Pos.String()+" "+l.Operator] = l.Reason
		}
	}
	if r := ruled["t.plan:21:14 FT"]; !strings.Contains(r, "it is empty only after iteration 3 or later") || !strings.Contains(r, "a detection from where the robot stands returns what it did before") {
		t.Errorf("t.plan:21:14 FT: reason %q (have %v)", r, ruled)
	}
	for k := range ruled {
		if !strings.HasPrefix(k, "t.plan:21:") {
			t.Errorf("%s: a look-alike ruled out: %s", k, ruled[k])
		}
	}
	hits := runWorld(t, p, world, 200)
	checkVerdicts(t, "repeat-view", p, verdicts, hits, "random warehouse environments")
	lookAlikesHold(t, p, hits, "FT", "t.plan:25:14", "t.plan:29:14")
	lookAlikesHold(t, p, hits, "TF", "t.plan:21:14")
}
