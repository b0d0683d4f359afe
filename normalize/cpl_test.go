package normalize

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
)

// Top-level forms the compiler skips are left alone, byte for byte, and
// reported; the definitions around them are normalized.
func TestSkippedFormsLeftAlone(t *testing.T) {
	src := `(in-package :demo)
(defmacro with-arm ((a) &body body) ` + "`(let ((,a 'left)) ,@body))" + `
(defun f (x) (print x) x)
(defun uses-macro (x) (with-arm (a) (if (> (f x) 1) a nil)))
#+old-code (defun gone (x) (if (> (f x) 1) 1 2))
(defun g (x) (if (> (f x) 1) 'big 'small))
`
	r := mustNormalize(t, src)
	if !r.Changed() {
		t.Fatalf("g was not normalized:\n%s", r.Source)
	}
	for _, keep := range []string{
		"(defun uses-macro (x) (with-arm (a) (if (> (f x) 1) a nil)))",
		"#+old-code (defun gone (x) (if (> (f x) 1) 1 2))",
		"`(let ((,a 'left)) ,@body))",
	} {
		if !strings.Contains(string(r.Source), keep) {
			t.Errorf("%q was not kept:\n%s", keep, r.Source)
		}
	}
	var notes []string
	for _, n := range r.Notes {
		notes = append(notes, n.Msg)
	}
	if len(notes) != 2 || !strings.Contains(notes[0], "defmacro") || !strings.Contains(notes[1], "uses the macro with-arm") {
		t.Errorf("notes %q", notes)
	}
}

// A backquote template in a label site is evaluated once, into a
// temporary (found by FuzzTransform: decompose took every atom as pure).
func TestBackquoteInLabelSite(t *testing.T) {
	src := "(defun f (x) (print x) x)\n(def-plan main (x) (if (and (f x) `(a ,x)) 1 2))\n"
	r := mustNormalize(t, src)
	f, err := r.Reparse()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := compile.Compile(f); err != nil {
		t.Fatalf("%v\n%s", err, r.Source)
	}
}
