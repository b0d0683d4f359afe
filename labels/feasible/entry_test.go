package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/normalize"
)

// TestEntryVerdicts: run through def-plan main, a function nothing that
// runs names (unused) has infeasible labels with the reason; one named
// only in quoted data (listed), by #' (viaFunction), by a check (checked)
// or by a function that runs (helper) stays active; so does everything
// without an entry (SBCL may call any defun), and everything of a plan
// that calls a function through a value it does not name.
func TestEntryVerdicts(t *testing.T) {
	src := `(defun unused (x) (if (> x 3) 'big 'small))
(defun listed (x) (if (> x 3) 'big 'small))
(defun via-function (x) (if (> x 3) 'big 'small))
(defun checked (x) (if (> x 3) 'big 'small))
(defun helper (x) (if (> x 3) 'big 'small))
(defparameter *table* '(listed 1))
(def-check ok () (checked 2))
(def-plan main (a) (list (helper a) #'via-function))
(def-plan other (a) (unused a))
`
	no := normalize.Options{HoistCalls: true}
	got := enumerated(t, src, "cc", no, Options{Entry: "main"})
	const why = "infeasible no call path from the plan's entry main: unused is never called"
	for line, want := range map[string]bool{"1": true, "2": false, "3": false, "4": false, "5": false} {
		n := 0
		for k, g := range got {
			if strings.HasPrefix(k, "t.plan:"+line+":") && strings.HasSuffix(k, " true") {
				n++
				if strings.HasPrefix(g, why) != want || !want && strings.Contains(g, "no call path") {
					t.Errorf("%s: got %q (entry verdict wanted: %v)", k, g, want)
				}
			}
		}
		if n != 1 {
			t.Errorf("line %s: %d cc true labels, want 1", line, n)
		}
	}
	for name, o := range map[string]Options{"no entry": {}, "entry other": {Entry: "other"}} {
		got := enumerated(t, src, "cc", no, o)
		if g := got["t.plan:1:23 true"]; g != "active " {
			t.Errorf("%s: unused's label is %q, want active", name, g)
		}
	}
	dyn := src + "(defun pick (f x) (funcall f x))\n"
	if g := enumerated(t, dyn, "cc", no, Options{Entry: "main"})["t.plan:1:23 true"]; g != "active " {
		t.Errorf("with (funcall f x): unused's label is %q, want active", g)
	}
	key := src + "(defun pick (l k) (find 3 l :key k))\n"
	if g := enumerated(t, key, "cc", no, Options{Entry: "main"})["t.plan:1:23 true"]; g != "active " {
		t.Errorf("with :key k: unused's label is %q, want active", g)
	}
}
