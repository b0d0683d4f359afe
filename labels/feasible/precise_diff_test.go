package feasible_test

import (
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// precisePlan exercises the values per call, sure conses and cond
// clauses of precise.go and condguard.go: each line marked "rule" holds
// a label the analysis rules out, the line after it ("look-alike") the
// same construct where the rule must not apply, whose label holds for
// some arguments.
const precisePlan = `(defparameter *homes* '((milk b1) (cereal b2)))
(defparameter *levels* '((milk 1) (cereal 2)))
(defparameter *short* '((milk) (cereal 2)))
(defun home-of (ty) (second (assoc ty *homes*)))
(defun level-of (ty) (let ((e (assoc ty *levels*))) (if e (second e) 5)))
(defun short-of (ty) (let ((e (assoc ty *short*))) (if e (second e) 5)))
(defun slot-of (k) (let ((s (rest (assoc 1 '((1 a b c) (2 d e f)))))) (nth (mod k (length s)) s)))
(defun slot4-of (k) (let ((s (rest (assoc 1 '((1 a b c) (2 d e f)))))) (nth (mod k 4) s)))
(defun board-p (x) (member x '(b1 b2)))
(defun board1-p (x) (member x '(b1)))
(defun goal (ty) (if (eq ty 'cup) 'dt 'counter))
(defun goal2 (ty k) (if (eq ty 'cup) 'dt (if (< k 0) 'counter 'shelf)))
(defun num-of (k) (+ k 1))
(def-plan main (a b)
  (let ((ty (if (< a 0) 'milk 'cereal))
        (tz (if (< a 1) 'milk 'bowl))
        (r (if (< b 0) 'table nil))
        (r2 (if (< b 0) 'b2 nil))
        (cu (if (< a 0) 'cup 'bottle))
        (rg (if (< b 0) 'counter 'dt))
        (out nil))
    (home-of (if (> b 5) b 'milk))
    (when (and (not (member r '(b1 b2))) (eq r (home-of ty))) (push 1 out)) ; rule
    (when (and (not (member r '(b1 b2))) (eq r (home-of tz))) (push 2 out)) ; look-alike
    (when (null (level-of (if (> b 2) b ty))) (push 3 out)) ; rule
    (when (null (short-of ty)) (push 4 out)) ; look-alike
    (when (null (slot-of (floor a))) (push 5 out)) ; rule
    (when (null (slot4-of (floor a))) (push 6 out)) ; look-alike
    (when (and (not (board-p r)) (eq r (home-of ty))) (push 7 out)) ; rule
    (when (and (not (board1-p r2)) (eq r2 (home-of ty))) (push 8 out)) ; look-alike
    (cond ((eq rg (goal cu)) (push 9 out))
          ((and (eq cu 'cup) (eq rg 'counter)) (push 10 out))) ; rule
    (cond ((eq rg (goal2 cu a)) (push 11 out))
          ((and (eq cu 'cup) (eq rg 'counter)) (push 12 out))) ; look-alike
    (let ((lv (if (< a 0) 0 3))) (when (> lv 0) (when (/= lv (num-of a)) (push 13 out)))) ; rule
    (let ((lw (if (< a 0) 0 3))) (when (> lw 0) (setq lw (- a 2)) (when (/= lw (num-of a)) (push 14 out)))) ; look-alike
    (let ((c1 0) (sv 0)) (incf c1) (setq sv (+ c1 a)) (push sv out)) ; rule
    (let ((c2 0) (sw 0)) (incf c2) (setq c2 (- a 1) sw (+ c2 a)) (push sw out)) ; look-alike
    (let* ((bs (if (< a 0) '(b b b b) '(b a))) (t2 (collect2 bs)) (t3 (collect-all bs))) (push (count-b (car t2)) out))
    (let* ((bs (if (< a 0) '(b b b b) '(b a))) (t3 (collect-all bs))) (push (count-c (car t3)) out))
    (incf *rc*) (when (> a 5) (setq *rc* 0)) (num-of (+ *rc* 1)) ; rule
    (incf *rc*) (when (> a 5) (setq *rc* 0)) (num-of (+ *rc* 2)) ; look-alike
    out))
(defun collect2 (xs) (let ((got nil)) (dolist (x xs) (when (< (length got) 2) (push x got))) (cons got xs)))
(defun collect-all (xs) (let ((got nil)) (dolist (x xs) (push x got)) (cons got xs)))
(defun count-b (items) (let ((n 0)) (dolist (i items) (when (eq i 'b) (incf n))) (if (= n 2) 'two 'other))) ; rule
(defun count-c (items) (let ((n 0)) (dolist (i items) (when (eq i 'b) (incf n))) (if (= n 2) 'two 'other))) ; look-alike
(defparameter *rc* 0)
`

// TestPreciseVerdictsSound runs precisePlan on every pair of arguments
// from -3 to 8 with every label active: no label ruled out holds, the
// rules do rule out their lines' labels (a weakened rule fails), and the
// look-alikes' labels of the same shape hold (a rule that reached them
// would be unsound).
func TestPreciseVerdictsSound(t *testing.T) {
	f, err := syntax.Parse("t.plan", []byte(precisePlan))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("mcc,cc,wm")
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{Entry: "main"}, normalize.Options{PureFuncs: sim.QueryNames()})
	hits := runMain(t, p, pairGrid(-3, 8))
	checkVerdicts(t, "precise", p, verdicts, hits, "arguments -3..8")
	// Each rule's label, and its look-alike's (criterion operator at
	// line:col of the decision; likeOp, when set, the look-alike's
	// operator).
	for _, c := range []struct{ rule, like, crit, op, likeOp string }{
		{"t.plan:23:11", "t.plan:24:11", "mcc", "FT", ""},         // home-of per call
		{"t.plan:25:11", "t.plan:26:11", "cc", "true", ""},        // (if e (second e) 5)
		{"t.plan:27:11", "t.plan:28:11", "cc", "true", ""},        // nth within the length
		{"t.plan:29:11", "t.plan:30:11", "mcc", "FT", ""},         // (board-p r) as its member test
		{"t.plan:32:12", "t.plan:34:12", "mcc", "FT", ""},         // the earlier clause (eq rg (goal cu))
		{"t.plan:35:59", "t.plan:36:77", "wm-abs", "x -> 0", ""},  // a temporary holding lv
		{"t.plan:37:48", "t.plan:38:59", "wm-abs", "x -> 0", ""},  // the value of a setq after (incf c1)
		{"t.plan:46:86", "t.plan:47:86", "wm-ror", "= -> >=", ""}, // a count of the elements of a list kept short
		// A global counter that (setq X 0) resets is never negative, but
		// no incf before the point keeps it at 1 or more.
		{"t.plan:41:57", "t.plan:42:57", "wm-abs", "x -> (abs x)", "x -> 0"},
	} {
		if c.likeOp == "" {
			c.likeOp = c.op
		}
		ruled, held := false, false
		for _, l := range p.Transform.Labels.Labels {
			if string(l.Criterion) != c.crit {
				continue
			}
			switch {
			case l.Pos.String() == c.rule && l.Operator == c.op:
				if v := verdicts[l.ID]; v != nil && v.Status == labels.Infeasible {
					ruled = true
				}
			case l.Pos.String() == c.like && l.Operator == c.likeOp:
				if verdicts[l.ID] == nil && hits[p.Counter(l.ID, true)] {
					held = true
				}
			}
		}
		if !ruled {
			t.Errorf("%s %s at %s is not ruled out", c.crit, c.op, c.rule)
		}
		if !held {
			t.Errorf("%s %s at %s (the look-alike) never held: the plan no longer tests what the rule refuses", c.crit, c.likeOp, c.like)
		}
	}
}
