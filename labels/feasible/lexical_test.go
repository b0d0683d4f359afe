package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/normalize"
)

const lexicalPlan = `(defun f (n) (print (< n 9)))
(defun h (n) (print n))
(def-plan p (x) (f 3) (f 5) (h x) (let ((n x)) (print n)))
`

// TestLexicalBindings: a parameter holds what its own function's call
// sites pass, not what a same-named parameter or let binding elsewhere
// holds.
func TestLexicalBindings(t *testing.T) {
	label := func(src string) string {
		t.Helper()
		return enumerated(t, src, "wm:abs", normalize.Options{}, Options{})["t.plan:1:24 x -> (abs x)"]
	}
	if v := label(lexicalPlan); !strings.HasPrefix(v, "infeasible") {
		t.Errorf("(< n 0) in f: %q", v)
	}
	for name, src := range map[string]string{
		"called with the argument": strings.Replace(lexicalPlan, "(f 5)", "(f x)", 1),
		"used as a value":          strings.Replace(lexicalPlan, "(f 5)", "(funcall #'f x)", 1),
		"assigned in a closure":    strings.Replace(lexicalPlan, "(print (< n 9))", "(progn (funcall (lambda () (setq n x))) (< n 9))", 1),
	} {
		got := enumerated(t, src, "wm:abs", normalize.Options{}, Options{})
		for pos, v := range got {
			if strings.HasPrefix(pos, "t.plan:1:") && strings.HasSuffix(pos, "x -> (abs x)") && v != "active " {
				t.Errorf("%s: %s: %q", name, pos, v)
			}
		}
	}
}
