package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/normalize"
)

const deadPlan = `(defun unused (x) (when (< x 3) (print x)))
(defun used (x) (print x))
(def-plan p (x) (while (more-p) (used x)))
`

// TestDeadDefun: the labels of a defun nothing the plan runs names are
// infeasible; named anywhere a run may reach (a call, #'f, 'f, a check),
// or with function values computed at run time, they stay active.
func TestDeadDefun(t *testing.T) {
	label := func(src string) string {
		t.Helper()
		return enumerated(t, src, "cc", normalize.Options{}, Options{})["t.plan:1:25 true"]
	}
	if v := label(deadPlan); !strings.HasPrefix(v, "infeasible never runs") {
		t.Errorf("(< x 3) in an unused defun: %q", v)
	}
	for name, src := range map[string]string{
		"called":          strings.Replace(deadPlan, "(used x)))", "(unused x)))", 1),
		"function value":  strings.Replace(deadPlan, "(used x)))", "(mapcar #'unused (list x))))", 1),
		"quoted":          strings.Replace(deadPlan, "(used x)))", "(funcall 'unused x)))", 1),
		"from a check":    deadPlan + "(def-check c () (unused (sensor)))\n",
		"dynamic funcall": deadPlan + "(def-check c () (funcall (sensor) 1))\n",
	} {
		if v := label(src); v != "active " {
			t.Errorf("%s: %q", name, v)
		}
	}
}

// TestDeadDefunAtoms: top-level atoms (a bare symbol, a number) beside
// the forms are no defuns and run no code the analyses need.
func TestDeadDefunAtoms(t *testing.T) {
	src := "x\n3\n(defparameter *n* 0)\n(defun bump () (incf *n*))\n" + deadPlan
	if v := enumerated(t, src, "cc", normalize.Options{}, Options{})["t.plan:5:25 true"]; !strings.HasPrefix(v, "infeasible never runs") {
		t.Errorf("(< x 3) in an unused defun: %q", v)
	}
}
