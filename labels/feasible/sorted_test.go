package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// sortedPlan (warehouse world) sorts the detected objects by column with an insert that keeps the order
// and takes its elements off the front (drop: (<= (key a) (key d))
// always holds), and look-alikes: the list not sorted (drop2), sorted by
// another key than the one compared (drop3), an element that does not
// come from the list (drop4), a sublist function that reverses the
// order (drop5).
const sortedPlan = `(defun key (x) (first (desig-prop x 'cell)))
(defun other (x) (second (desig-prop x 'cell)))
(defun ins (d s) (cond ((null s) (list d)) ((< (key d) (key (first s))) (cons d s)) (t (cons (first s) (ins d (rest s))))))
(defun srt (ds) (let ((acc nil)) (dolist (d ds acc) (setq acc (ins d acc)))))
(defun drop (a todo) (let ((kept nil)) (dolist (d todo (reverse kept)) (if (<= (key a) (key d)) (push d kept) (push d kept)))))
(defun drop2 (a todo) (let ((kept nil)) (dolist (d todo (reverse kept)) (if (<= (key a) (key d)) (push d kept) (push d kept)))))
(defun drop3 (a todo) (let ((kept nil)) (dolist (d todo (reverse kept)) (if (<= (other a) (other d)) (push d kept) (push d kept)))))
(defun drop4 (a todo) (let ((kept nil)) (dolist (d todo (reverse kept)) (if (<= (key a) (key d)) (push d kept) (push d kept)))))
(defun drop5 (a todo) (let ((kept nil)) (dolist (d todo kept) (if (<= (key a) (key d)) (push d kept) (push d kept)))))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun survey ()
  (let ((found nil))
    (with-failure-handling ((plan-failure (e) nil))
      (dolist (stand '(table-left table-center table-right)) (go-to stand) (dolist (d (perform (an action (type detecting)))) (push d found))))
    found))
(def-plan main ()
  (let ((items (survey)))
    (let ((todo (srt items))) (while todo (let* ((x (pop todo))) (setq todo (drop x todo)))))
    (let ((todo items)) (while todo (let* ((x (pop todo))) (setq todo (drop2 x todo)))))
    (let ((todo (srt items))) (while todo (let* ((x (pop todo))) (setq todo (drop3 x todo)))))
    (let ((todo (srt items)) (y (first (reverse (srt items))))) (while todo (pop todo) (setq todo (drop4 y todo))))
    (let ((todo (srt items))) (while todo (let* ((x (pop todo))) (setq todo (drop5 x todo)))))
    (length items)))
`

// TestSortedListVerdicts: the element taken off the front of a list an
// order-keeping insert sorted has the least key, and the rule says so
// for drop only; the look-alikes keep their labels, and every pair of
// random warehouse environments reach none of the labels ruled out while
// they do reach the look-alikes'.
func TestSortedListVerdicts(t *testing.T) {
	world, p, verdicts := worldVerdicts(t, "warehouse", sortedPlan, "cc,wm")
	sorted := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "sorted by") {
			sorted[l.Pos.String()+" "+l.Operator] = l.Reason
		}
	}
	if why := sorted["t.plan:5:76 false"]; !strings.Contains(why, "drop is called only with x and todo") || !strings.Contains(why, "sorted by key") {
		t.Errorf("drop's (<= (key a) (key d)) false: not ruled out as the first of a sorted list (have %v)", sorted)
	}
	for k := range sorted {
		if !strings.HasPrefix(k, "t.plan:5:") {
			t.Errorf("%s: a look-alike ruled out by the sorted-list rule: %s", k, sorted[k])
		}
	}
	hits := runWorld(t, p, world, 150)
	checkVerdicts(t, "sorted lists", p, verdicts, hits, "random warehouse environments")
	lookAlikesHold(t, p, hits, "false", "t.plan:6:77", "t.plan:7:77", "t.plan:8:77", "t.plan:9:67")
}
