package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/normalize"
)

const counterPlan = `(defun try (x)
  (let ((n 0))
    (with-failure-handling ((plan-failure (e) (incf n) (when (< n 3) (retry))))
      (when (< n 0) (print n))
      (step x))))
(def-plan p (x) (try x))
`

// counterLabel is the (< n 0) label of (< n 3) in src (wm:abs on n).
func counterLabel(t *testing.T, src string) string {
	t.Helper()
	got := enumerated(t, src, "wm:abs", normalize.Options{}, Options{})
	return got["t.plan:3:65 x -> (abs x)"]
}

// TestCounterNeverNegative: a local bound to 0 and only incremented by
// one is never negative (it cannot wrap within a step budget), with the
// reason saying so.
func TestCounterNeverNegative(t *testing.T) {
	v := counterLabel(t, counterPlan)
	if !strings.HasPrefix(v, "infeasible") || !strings.Contains(v, "local counter") {
		t.Errorf("(< n 0) of a counter: %q", v)
	}
}

// TestCounterGivesUp: any other binding or assignment of the name, a
// global, or a closure over it keeps the label active.
func TestCounterGivesUp(t *testing.T) {
	for name, src := range map[string]string{
		"step of two":  strings.Replace(counterPlan, "(print n)", "(incf n 2)", 1),
		"decf":         strings.Replace(counterPlan, "(print n)", "(decf n)", 1),
		"setq":         strings.Replace(counterPlan, "(print n)", "(setq n x)", 1),
		"bound to one": strings.Replace(counterPlan, "((n 0))", "((n -1))", 1),
		"parameter":    counterPlan + "(defun other (n) n)\n",
		"global":       counterPlan + "(defparameter n 5)\n",
		"dolist":       counterPlan + "(defun other () (dolist (n '(-4)) (print n)))\n",
		"closure":      strings.Replace(counterPlan, "(print n)", "(setq *f* (lambda () (incf n)))", 1),
	} {
		if v := counterLabel(t, src); v != "active " {
			t.Errorf("%s: (< n 0): %q", name, v)
		}
	}
}

const globalCounterPlan = `(defparameter *served* 0)
(defun serve () (incf *served*) (when (< *served* 0) (print *served*)))
(def-plan p () (while (more-p) (serve)))
(def-check served () (list *served*))
`

// TestGlobalCounter: a global defined as 0 and incremented only in code
// the def-plan runs is never negative; incremented in a check's code, or
// also bound by let, it may be anything.
func TestGlobalCounter(t *testing.T) {
	label := func(src string) string {
		t.Helper()
		return enumerated(t, src, "wm:abs", normalize.Options{}, Options{})["t.plan:2:42 x -> (abs x)"]
	}
	if v := label(globalCounterPlan); !strings.HasPrefix(v, "infeasible") || !strings.Contains(v, "global counter") {
		t.Errorf("(< *served* 0): %q", v)
	}
	for name, src := range map[string]string{
		"check increments": strings.Replace(globalCounterPlan, "(list *served*)", "(progn (serve) (list *served*))", 1),
		"top-level":        globalCounterPlan + "(defparameter *y* (serve))\n",
		"let-bound":        globalCounterPlan + "(defun other () (let ((*served* 0)) (incf *served*)))\n",
		"defined twice":    globalCounterPlan + "(defvar *served* 0)\n",
		"starts at one":    strings.Replace(globalCounterPlan, "*served* 0)\n", "*served* 1)\n", 1),
	} {
		if v := label(src); v != "active " {
			t.Errorf("%s: (< *served* 0): %q", name, v)
		}
	}
}

// TestCounterGuards: after (incf n) a counter is at least 1, and a lower
// bound a condition put on it still holds further on; an upper bound does
// not (it may have grown since), nor does an incf in another branch.
func TestCounterGuards(t *testing.T) {
	src := `(defun f (x)
  (let ((n 0))
    (when (more-p) (incf n))
    (when (> n 2) (incf n) (print (= n 1)))
    (incf n)
    (print (< n 1))
    (if (incf n) (print (= n 0)) (print n))))
(def-plan p (x) (while (more-p) (f x)))
`
	got := enumerated(t, src, "wm:ror,wm:abs", normalize.Options{}, Options{})
	for _, pos := range []string{
		"t.plan:4:35 = -> <", // (<= n 1) where n > 2 and after (incf n)
		"t.plan:6:15 x -> 0", // (= n 0) after (incf n)
		"t.plan:7:28 x -> 0", // (= n 0) after the if's test
	} {
		if v := got[pos]; !strings.HasPrefix(v, "infeasible") {
			t.Errorf("%s: %q, want infeasible", pos, v)
		}
	}
	// (> n 0) below (< n 1) and an incf: the upper bound no longer holds.
	up := strings.Replace(src, "(when (> n 2)", "(when (< n 1)", 1)
	if v := enumerated(t, up, "wm:abs", normalize.Options{}, Options{})["t.plan:4:38 x -> (- (abs x))"]; v != "active " {
		t.Errorf("(> n 0) below (< n 1) and an incf: %q", v)
	}
	// An incf in the other branch of an if does not count.
	other := strings.Replace(src, "(if (incf n) (print (= n 0)) (print n))", "(if (more-p) (incf n) (print (= n 0)))", 1)
	other = strings.Replace(other, "(incf n)\n    (print (< n 1))", "(print 1)\n    (print (< n 1))", 1)
	if v := enumerated(t, other, "wm:abs", normalize.Options{}, Options{})["t.plan:7:37 x -> 0"]; v != "active " {
		t.Errorf("(= n 0) in the else branch of an incf: %q", v)
	}
}
