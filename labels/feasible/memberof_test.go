package feasible_test

import (
	"strings"
	"testing"
)

// memberOfPlan pushes onto *seen* only values a test said are not nil
// (line 4), onto *kept* any value (line 5); nil is a member of the second
// list only (lines 10 and 11).
const memberOfPlan = `(defparameter *seen* 'unknown)
(defparameter *kept* nil)
(defun tag (x) (cond ((> x 4) 'big) ((> x 1) 'small) (t nil)))
(defun note (x) (let ((v (tag x))) (when (and v (not (member v *seen*))) (push v *seen*))) *seen*)
(defun keep (x) (let ((v (tag x))) (when (not (member v *kept*)) (push v *kept*))) *kept*)
(defun look (a b)
  (setq *seen* nil)
  (note a) (note b) (keep a) (keep b)
  (let ((w (tag b)))
    (list (when (and (not w) (member w *seen*)) 'x)
          (when (and (not w) (member w *kept*)) 'y))))
(def-plan main (a b) (look a b))
`

// TestMemberOfVerdicts: (member V L) for a list the plan builds is judged
// on the elements its pushes and literals put in: nil is never one of
// *seen*'s (every push is under (and v ...)), with the reason; the
// look-alike *kept*, which an unguarded push fills with nil, keeps its
// label, and every pair of arguments from -1 to 7 makes it hold while
// none makes a label ruled out hold.
func TestMemberOfVerdicts(t *testing.T) {
	p, verdicts, ruled := verdictsWith(t, memberOfPlan, "mcc", "cannot hold:")
	for _, k := range []string{"t.plan:4:42 FT", "t.plan:10:17 FT"} {
		if !strings.Contains(ruled[k], "has elements that are each one of big, small") {
			t.Errorf("%s: not ruled out by the list's elements (have %v)", k, ruled)
		}
	}
	for k := range ruled {
		if strings.HasPrefix(k, "t.plan:11:") || strings.HasPrefix(k, "t.plan:5:") {
			t.Errorf("%s: a look-alike ruled out: %s", k, ruled[k])
		}
	}
	hits := runMain(t, p, pairGrid(-1, 7))
	checkVerdicts(t, "member-of", p, verdicts, hits, "arguments -1..7")
	lookAlikesHold(t, p, hits, "FT", "t.plan:11:17")
}
