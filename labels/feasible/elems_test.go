package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// elemsPlan (kitchen world) keeps the detected objects that are not in
// place (a bottle belongs on the counter, a cup on the dining table) and
// hands them, through a list, pop and let bindings, to judge: a bottle
// on the counter never reaches it (judge's TT is infeasible), nor an
// object of no world type (lookup's (not entry)). Look-alikes keep their
// labels: judge2 gets every detected object; judge3 also a quoted
// bottle and counter; judge4 the elements of a list the filter fills
// and one more object pushed unfiltered; judge5 objects kept by a
// filter that reads another variable too; lookup2 a type its table
// lacks. check gets the objects survey-at kept for the stand it is
// given, with that stand (its (eq (stand-of d) stand) is never false);
// check2 the same objects with another stand.
const elemsPlan = `(defun region-of (d) (desig-prop d 'region))
(defun type-of (d) (desig-prop d 'type))
(defun in-place-p (d) (eq (region-of d) (if (eq (type-of d) 'cup) 'dining-table 'counter)))
(defun judge (region type) (if (and (eq region 'counter) (eq type 'bottle)) 1 2))
(defun judge2 (region type) (if (and (eq region 'counter) (eq type 'bottle)) 1 2))
(defun judge3 (region type) (if (and (eq region 'counter) (eq type 'bottle)) 1 2))
(defun judge4 (region type) (if (and (eq region 'counter) (eq type 'bottle)) 1 2))
(defun judge5 (region type) (if (and (eq region 'counter) (eq type 'bottle)) 1 2))
(defparameter *sizes* '((bottle 2) (cup 1)))
(defun lookup (type) (let ((entry (assoc type *sizes*))) (if entry (second entry) 0)))
(defparameter *sizes2* '((bottle 2)))
(defun lookup2 (type) (let ((entry (assoc type *sizes2*))) (if entry (second entry) 0)))
(defun stand-of (d) (if (eq (region-of d) 'counter) 'counter-left 'dining-left))
(defun survey-at (stand) (let ((found nil)) (go-to stand) (dolist (d (perform (an action (type detecting))) found) (when (eq (stand-of d) stand) (push d found)))))
(defun check (d stand) (if (eq (stand-of d) stand) 1 2))
(defun check2 (d stand) (if (eq (stand-of d) stand) 1 2))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun survey ()
  (let ((found nil))
    (dolist (stand '(counter-left counter-right dining-left dining-right dining-far side-table-front))
      (go-to stand)
      (with-failure-handling ((object-not-found () nil))
        (dolist (d (perform (an action (type detecting)))) (push d found))))
    (reverse found)))
(def-plan main ()
  (let ((all (survey)) (kept nil) (kept4 nil) (kept5 nil) (n 0) (want 'counter))
    (dolist (d all)
      (unless (in-place-p d) (push d kept) (push d kept4))
      (when (or (not (in-place-p d)) (eq want (region-of d))) (push d kept5)))
    (when all (push (first all) kept4))
    (let ((todo kept))
      (while todo
        (let* ((x (pop todo)) (type (type-of x)))
          (incf n (judge (region-of x) type))
          (incf n (lookup type))
          (incf n (judge3 (region-of x) (type-of x))))))
    (dolist (d all) (incf n (judge2 (region-of d) (type-of d))) (incf n (lookup2 (type-of d))))
    (dolist (d kept4) (incf n (judge4 (region-of d) (type-of d))))
    (dolist (d kept5) (incf n (judge5 (region-of d) (type-of d))))
    (incf n (judge3 'counter 'bottle))
    (dolist (st '(counter-left dining-left))
      (let ((todo (survey-at st)))
        (dolist (x todo) (incf n (check x st)) (incf n (check2 x 'dining-left)))))
    n))
`

// TestElemVerdicts: the filter under which detected objects enter a
// list stays true of its elements; the rule rules out judge's TT and
// lookup's (not entry) only, and random kitchen environments reach none
// of those while they reach the look-alikes'.
func TestElemVerdicts(t *testing.T) {
	world, p, verdicts := worldVerdicts(t, "kitchen", elemsPlan, "cc,mcc")
	ruled := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "a detected object") && strings.Contains(l.Reason, "is called only as") {
			ruled[l.Pos.String()+" "+l.Operator] = l.Reason
		}
	}
	if why := ruled["t.plan:4:32 TT"]; !strings.Contains(why, "kept in a list only if (not (in-place-p d))") {
		t.Errorf("judge's TT: not ruled out by the filter (have %v)", ruled)
	}
	if why := ruled["t.plan:15:28 false"]; !strings.Contains(why, "and (eq (stand-of d) stand), or nil") {
		t.Errorf("check's (eq (stand-of d) stand) false: not ruled out by the filter on the stand (have %v)", ruled)
	}
	if why := ruled["t.plan:10:62 false"]; !strings.Contains(why, "lookup is called only as (lookup type)") {
		t.Errorf("lookup's (not entry): not ruled out by the world's types (have %v)", ruled)
	}
	for k, why := range ruled {
		if k != "t.plan:4:32 TT" && k != "t.plan:10:62 false" && k != "t.plan:10:62 F" && k != "t.plan:15:28 false" && k != "t.plan:15:28 F" {
			t.Errorf("%s: ruled out by the detected-objects rule: %s", k, why)
		}
	}
	hits := runWorld(t, p, world, 300)
	checkVerdicts(t, "detected objects through lists", p, verdicts, hits, "random kitchen environments")
	lookAlikesHold(t, p, hits, "TT", "t.plan:5:33", "t.plan:6:33", "t.plan:7:33", "t.plan:8:33")
	lookAlikesHold(t, p, hits, "false", "t.plan:12:64", "t.plan:16:29")
}
