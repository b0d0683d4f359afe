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
