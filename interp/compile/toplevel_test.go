package compile

import (
	"strings"
	"testing"
)

// A CPL file: the package is recorded, forms labelcov does not compile are
// skipped with a note each, and the definitions around them compile.
func TestTopLevelPassThrough(t *testing.T) {
	src := `(in-package :cram-pr2-demo)
(defpackage :other (:use :cl))
(defmacro with-arm ((arm) &body body) ` + "`(let ((,arm 'left)) ,@body))" + `
(defvar *unset*)
(defvar *speed* 2 "Speed in m/s.")
(defparameter *arms* '(left right) "The arms.")
(defconstant +tries+ 3)
(defmethod perform-with ((x integer)) x)
(def-fact-group demo-facts (reachable) (<- (reachable ?x)))
(eval-when (:compile-toplevel) (print 1))
(register-something 'demo)
(def-cram-function go-to (x &key (speed *speed*))
  "Go."
  (list x speed))
(def-plan main () (go-to 1))
`
	p, err := compileString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	if p.Package != "cram-pr2-demo" {
		t.Errorf("Package = %q", p.Package)
	}
	var heads []string
	for _, n := range p.Notes {
		heads = append(heads, strings.Fields(n.Msg)[1])
	}
	if got, want := strings.Join(heads, " "), "(defmacro (defmethod (def-fact-group (eval-when (register-something"; got != want {
		t.Errorf("notes on %s, want %s", got, want)
	}
	if p.Func("go-to") == nil || p.Plan("main") == nil || len(p.Globals) != 4 {
		t.Errorf("definitions missing: go-to %v main %v globals %v", p.Func("go-to"), p.Plan("main"), p.Globals)
	}
}
