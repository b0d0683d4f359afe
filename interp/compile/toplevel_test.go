package compile

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
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

// A free variable is a global of another file, with one note per name;
// a definition with a keyword-headed form in it (a macro's syntax) is
// passed through with a note.
func TestFreeVariablesAndKeywordForms(t *testing.T) {
	src := `(defun f () (setq y (1+ z)) y)
(defun g () z)
(defparameter *x* z)
(def-plan p () (:tag k (f)))
(def-plan q () (case 1 (:a 2) ((:b) 3)))
`
	p, err := compileString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range p.Notes {
		got = append(got, n.Pos.String()+" "+strings.Join(strings.Fields(n.Msg)[:2], " "))
	}
	if want := "1:19 note: y|3:19 note: z|4:1 note: (def-plan"; strings.Join(got, "|") != want {
		t.Errorf("notes %q, want %s", strings.Join(got, "|"), want)
	}
	if p.Plan("p") != nil || p.Plan("q") == nil || p.Func("g") == nil {
		t.Errorf("p must be skipped, q and g compiled")
	}
	if strings.Join(p.Globals, " ") != "*x* z y" {
		t.Errorf("globals %v", p.Globals)
	}
}

// PassThrough: in a file of a Lisp system, a definition that does not
// compile is passed through with a note; its callers still compile. In a
// file without in-package the error stays an error.
func TestPassThroughDefinitions(t *testing.T) {
	src := `(in-package :demo)
(defun broken (x) (let ((1 x)) x))
(defun bad-list (&aux y) y)
(defun caller (x) (broken x))
(defparameter *ok* 1)
(defparameter *bad* (funcall (lambda (&optional y) y)))
(defparameter *also-ok* (list *ok*))
(defparameter *shapeless*)
"a stray string"
`
	f, err := syntax.Parse("t.lisp", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Compile(f); err == nil {
		t.Fatal("Compile without PassThrough accepted the file")
	}
	p, err := CompileWith(f, Options{PassThrough: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.PassedThrough) != 5 || len(p.Notes) != 5 || p.Func("caller") == nil || p.Func("broken") == nil {
		t.Fatalf("passed through %d, notes %v", len(p.PassedThrough), p.Notes)
	}
	if !strings.Contains(p.Notes[0].Msg, "(defun broken ...) is not compiled") || !strings.Contains(p.Notes[1].Msg, "&aux") ||
		!strings.Contains(p.Notes[2].Msg, "(defparameter *bad* ...) is not compiled") || !strings.Contains(p.Notes[3].Msg, "*shapeless*") {
		t.Errorf("notes %v", p.Notes)
	}
	own, err := syntax.Parse("t.plan", []byte("(defun broken (x) (let ((1 x)) x))"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CompileWith(own, Options{PassThrough: true}); err == nil {
		t.Error("a plan without in-package must stay strict")
	}
}
