package feasible_test

import (
	"strings"
	"testing"
)

// resetCountPlan has a global counter that (setq *n* 0) also resets: on
// line 6 (= *n* 0) right after (incf *n*), with only a call that assigns
// nothing in between, is ruled out; its look-alikes (lines 7-9: a call
// that resets it, a reset under a test, a reset in an earlier operand of
// the label's and) keep the label, which holds. (The loop keeps the path
// analysis out.)
const resetCountPlan = `(defparameter *n* 0)
(defun name-of (x) (list x))
(defun reset () (setq *n* 0))
(defun pick (a b)
  (list
    (progn (incf *n*) (name-of a) (if (= *n* 0) 'zero 'pos))
    (progn (incf *n*) (reset) (if (= *n* 0) 'zero 'pos))
    (progn (incf *n*) (when (> a 3) (setq *n* 0)) (if (= *n* 0) 'zero 'pos))
    (progn (incf *n*) (if (and (when (> b 2) (reset)) (= *n* 0)) 'zero 'pos))))
(def-plan main (a b) (dolist (x (list a b)) (when (> x 5) (setq *n* 0)) (pick a x)))
`

// TestResetCounterVerdicts: (incf X) leaves a counter that resets to 0
// at least 1 until something may assign it; every pair of arguments from
// -1 to 7 never reaches a label ruled out and does reach the
// look-alikes'.
func TestResetCounterVerdicts(t *testing.T) {
	p, verdicts, ruled := verdictsWith(t, resetCountPlan, "cc", "no number satisfies")
	if r := ruled["t.plan:6:39 true"]; !strings.Contains(r, "nothing that runs in between assigns *n*") {
		t.Errorf("t.plan:6:39 true: not ruled out with the reason (have %v)", ruled)
	}
	for k := range ruled {
		if line := strings.Split(k, ":")[1]; line != "6" {
			t.Errorf("%s: a look-alike ruled out: %s", k, ruled[k])
		}
	}
	hits := runMain(t, p, pairGrid(-1, 7))
	checkVerdicts(t, "reset-counter", p, verdicts, hits, "arguments -1..7")
	lookAlikesHold(t, p, hits, "true", "t.plan:7:35", "t.plan:8:55", "t.plan:9:55")
}
