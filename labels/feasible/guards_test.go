package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// guardLabels lists the labels of criteria c of src by position and
// operator: status and reason.
func guardLabels(t *testing.T, src, c string) map[string]string {
	t.Helper()
	return enumerated(t, src, c, normalize.Options{HoistCalls: true}, Options{})
}

// enumerated lists the labels of criteria c of src, normalized with no
// and judged with o, by position and operator: status and reason.
func enumerated(t *testing.T, src, c string, no normalize.Options, o Options) map[string]string {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := normalize.Plan(f, no)
	if err != nil {
		t.Fatal(err)
	}
	cr, _ := labels.ParseCriteria(c)
	s, err := Enumerate(nr, labels.Options{Criteria: cr}, o)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range s.Labels {
		out[l.Pos.String()+" "+l.Operator] = string(l.Status) + " " + l.Reason
	}
	return out
}

// TestGuardVerdicts: a test of a cond clause is only evaluated where the
// earlier clauses' tests were false, the second operand of an and where
// the first was true; labels these contradict are infeasible, with the
// conditions in the reason. Globals that hold one value count as
// constants. (The loop keeps the path analysis out.)
func TestGuardVerdicts(t *testing.T) {
	src := `(defparameter *quota* 3)
(defun stand (col) (cond ((<= col 5) 'left) ((<= col 10) 'center) (t 'right)))
(defun over (now) (when (and (> now *quota*) (> now 7)) 'over))
(def-plan p (a b) (dolist (x (list a b)) (stand x) (over x)))
`
	got := guardLabels(t, src, "wm:abs")
	for k, want := range map[string]string{
		"t.plan:2:50 x -> 0":       "infeasible no number satisfies col = 0 and col > 5: only reached where (<= col 5) is false",
		"t.plan:2:50 x -> (abs x)": "infeasible no number satisfies col < 0 and col > 5: only reached where (<= col 5) is false",
		"t.plan:2:31 x -> 0":       "active ",
		"t.plan:3:49 x -> 0":       "infeasible no number satisfies now = 0 and now > 3 (*quota*): only reached where (> now *quota*) is true",
		"t.plan:3:33 x -> 0":       "active ",
	} {
		if got[k] != want {
			t.Errorf("%s: got %q, want %q", k, got[k], want)
		}
	}
}

// TestGuardVerdictsGiveUp: an assigned variable, a rebinding between the
// condition and the label, or a global that may hold several values
// prove nothing.
func TestGuardVerdictsGiveUp(t *testing.T) {
	for name, src := range map[string]string{
		"assigned": `(defun stand (col) (setq col (- col 20)) (cond ((<= col 5) 'left) ((<= col 10) 'center) (t 'right)))
(def-plan p (a) (dolist (x (list a)) (stand x)))`,
		"rebound": `(defun stand (col) (cond ((<= col 5) 'left) (t (let ((col (- col 20))) (<= col 10)))))
(def-plan p (a) (dolist (x (list a)) (stand x)))`,
		"global": `(defparameter *lim* 5)
(defun stand (col) (cond ((<= col *lim*) 'left) ((<= col 10) 'center) (t 'right)))
(def-plan p (a) (setq *lim* -30) (dolist (x (list a)) (stand x)))`,
		"set": `(defun stand (col) (cond ((<= col 5) 'left) ((<= col 10) 'center) (t 'right)))
(def-plan p (a) (set 'x 1) (dolist (x (list a)) (stand x)))`,
	} {
		for k, v := range guardLabels(t, src, "wm:abs") {
			if strings.Contains(v, "only reached where") {
				t.Errorf("%s: %s: %s", name, k, v)
			}
		}
	}
}

// TestFailNeverTrue: a label that needs (fail ...) to return a value is
// infeasible, whichever truth value it asks of it, and so is one that
// needs the truth of an earlier operand that sends the decision into
// the fail (noreturn.go); a plan's own function named fail proves
// nothing.
func TestFailNeverTrue(t *testing.T) {
	src := `(def-plan p (a) (dolist (x (list a)) (or (> x 3) (fail 'nope "no"))))`
	got := guardLabels(t, src, "cc,mcc,mcdc")
	for _, k := range []string{"t.plan:1:50 true", "t.plan:1:38 FT"} {
		if v := got[k]; !strings.HasPrefix(v, "infeasible (fail 'nope \"no\") is never true: (fail ...) signals a failure") {
			t.Errorf("%s: %q", k, v)
		}
	}
	// The decision's labels run once both operands are bound, so where
	// (> x 3) was false the fail ran first: they are never reached.
	for _, k := range []string{"t.plan:1:42 false", "t.plan:1:38 FF"} {
		if v := got[k]; !strings.HasPrefix(v, "infeasible never reached: where (> x 3) is false, (fail 'nope \"no\") runs first") {
			t.Errorf("%s: %q", k, v)
		}
	}
	// The temporary holding the fail is nil until it returns: a label
	// read where the or did not get there may find (not %lc2) true.
	for _, k := range []string{"t.plan:1:42 true", "t.plan:1:38 T-", "t.plan:1:50 false"} {
		if v := got[k]; v != "active " {
			t.Errorf("%s: %q", k, v)
		}
	}
	own := "(defun fail (k m) (list k m))\n" + src
	for k, v := range guardLabels(t, own, "cc,mcc,mcdc") {
		if strings.Contains(v, "never returns") {
			t.Errorf("own fail: %s: %s", k, v)
		}
	}
}
