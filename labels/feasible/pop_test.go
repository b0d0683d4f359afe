package feasible_test

import "testing"

// popPlan pops lists of numbers: under a while test that says the list
// is not empty (line 5) and under a cond clause's (rest vs) (line 17),
// the element popped is a number; the look-alikes pop under a test that
// does not say so (line 8), in an inner loop (line 12) and a second time
// in one pass (line 15), where nil comes out.
const popPlan = `(defun walk (a b)
  (let ((xs (list (+ a 1) (* b 2) 3)) (ys (list (+ a 1) (+ b 1))) (zs (list (+ a 1))) (ws (list (+ b 1) 5 6)) (out nil))
    (while xs
      (let ((x (pop xs)))
        (when (null x) (push 'x out))))
    (while (or ys (null out))
      (let ((y (pop ys)))
        (when (null y) (push 'y out))))
    (while zs
      (dolist (k '(1 2))
        (let ((z (pop zs)))
          (when (null z) (push 'z out)))))
    (while ws
      (let* ((w1 (pop ws)) (w2 (pop ws)))
        (when (null w2) (push 'w out))))
    (let ((vs (list (+ a 1) (+ b 1))))
      (cond ((rest vs) (pop vs) (let ((v (first vs))) (when (null v) (push 'v out)))) (t nil)))
    out))
(def-plan main (a b) (walk a b))
`

// TestPopVerdicts: (pop V) takes an element of V's list, not nil, where
// the test of its while loop or cond clause says V is not empty, and
// only before anything assigns V again; every pair of arguments from -1
// to 7 makes the look-alikes' (null ...) hold and never the ones ruled
// out.
func TestPopVerdicts(t *testing.T) {
	p, verdicts, ruled := verdictsWith(t, popPlan, "cc", "cannot hold:")
	for _, k := range []string{"t.plan:5:15 true", "t.plan:17:61 true"} {
		if ruled[k] == "" {
			t.Errorf("%s: not ruled out (have %v)", k, ruled)
		}
	}
	for _, k := range []string{"t.plan:8:15 true", "t.plan:12:17 true", "t.plan:15:15 true"} {
		if ruled[k] != "" {
			t.Errorf("%s: a look-alike ruled out: %s", k, ruled[k])
		}
	}
	hits := runMain(t, p, pairGrid(-1, 7))
	checkVerdicts(t, "pop", p, verdicts, hits, "arguments -1..7")
	lookAlikesHold(t, p, hits, "true", "t.plan:8:15", "t.plan:12:17", "t.plan:15:15")
}
