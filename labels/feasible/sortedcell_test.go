package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// sortedCellPlan (warehouse world) surveys the table first thing, keeping
// each object once by name, sorts what it saw by column and compares the
// first element with the later ones: in same, the rows asked equal
// first, (= (col a) (col d)) would need two objects in one cell. The
// look-alike loose asks the columns before the rows (the columns of two
// objects in one column but different rows are equal).
const sortedCellPlan = `(defparameter *seen* nil)
(defun col (x) (first (desig-prop x 'cell)))
(defun row (x) (second (desig-prop x 'cell)))
(defun nm (x) (desig-prop x 'name))
(defun reg (x) (desig-prop x 'region))
(defun ins (d s) (cond ((null s) (list d)) ((< (col d) (col (first s))) (cons d s)) (t (cons (first s) (ins d (rest s))))))
(defun srt (ds) (let ((acc nil)) (dolist (d ds acc) (setq acc (ins d acc)))))
(defun survey ()
  (let ((found nil))
    (dolist (?stand '(table-left table-center table-right))
      (perform (an action (type parking-arms)))
      (perform (an action (type navigating) (location (a location (name ?stand)))))
      (with-failure-handling ((object-not-found () nil))
        (dolist (d (perform (an action (type detecting))))
          (when (and (eq (reg d) 'table) (not (member (nm d) *seen*)))
            (push (nm d) *seen*)
            (push d found)))))
    (srt (reverse found))))
(defun same (a todo) (let ((kept nil)) (dolist (d todo (reverse kept)) (if (and (= (row d) (row a)) (<= (col a) (col d))) (push d kept) (push d kept)))))
(defun loose (a todo) (let ((kept nil)) (dolist (d todo (reverse kept)) (if (and (<= (col a) (col d)) (= (row d) (row a))) (push d kept) (push d kept)))))
(def-plan main ()
  (let ((todo (survey)))
    (while todo (let* ((a (pop todo))) (setq todo (loose a todo)) (setq todo (same a todo))))
    t))
`

// sortedCellNoDedup is sortedCellPlan without the name check: an object
// seen from two stands is in the list twice, and same's (= (col a) (col
// d)) holds for it.
var sortedCellNoDedup = strings.Replace(sortedCellPlan, "(and (eq (reg d) 'table) (not (member (nm d) *seen*)))", "(and (eq (reg d) 'table) t)", 1)

// TestSortedCellVerdicts: the rule rules out same's (= (col a) (col d))
// and (>= (col a) (col d)) and nothing in loose or in the plan without
// the name check, and random warehouse environments reach none of the
// labels ruled out while the look-alikes' hold.
func TestSortedCellVerdicts(t *testing.T) {
	world, p, verdicts := worldVerdicts(t, "warehouse", sortedCellPlan, "wm")
	cell := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "two objects in one cell") {
			cell[l.Pos.String()+" "+l.Predicate] = l.Reason
		}
	}
	for _, k := range []string{"t.plan:19:101 (= (col a) (col d))", "t.plan:19:101 (>= (col a) (col d))"} {
		if why := cell[k]; !strings.Contains(why, "survey runs first in main") || !strings.Contains(why, "under a name *seen* did not hold") {
			t.Errorf("%s: not ruled out as two objects in one cell (have %v)", k, cell)
		}
		delete(cell, k)
	}
	for k, why := range cell {
		t.Errorf("%s: a look-alike ruled out: %s", k, why)
	}
	hits := runWorld(t, p, world, 150)
	checkVerdicts(t, "sorted cells", p, verdicts, hits, "random warehouse environments")
	lookAlikesHold(t, p, hits, "<= -> <", "t.plan:20:82")

	world, p, verdicts = worldVerdicts(t, "warehouse", sortedCellNoDedup, "wm")
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "two objects in one cell") {
			t.Errorf("without the name check: %s %s ruled out: %s", l.Pos, l.Predicate, l.Reason)
		}
	}
	hits = runWorld(t, p, world, 150)
	checkVerdicts(t, "sorted cells without the name check", p, verdicts, hits, "random warehouse environments")
	lookAlikesHold(t, p, hits, "<= -> <", "t.plan:19:101")
}
