package forms

import "github.com/labelcov/labelcov/interp/syntax"

// Shape says which elements of a special form are evaluated expressions
// (its slots), in evaluation order. See Slots.
type Shape uint8

const (
	// Unevaluated: nothing inside is an expression the tools may rewrite or
	// label (quote, function, declare, loop, the top-level forms labelcov
	// passes through).
	Unevaluated Shape = iota
	// Body: every element from index From on.
	Body
	// Test: element 1 is a decision test, then elements from From on
	// (if, when, unless, while, assert).
	Test
	// Bindings: the value of each binding (NAME VALUE) of element 1, then
	// elements from From on (let, let*, with-retry-counters).
	Bindings
	// LoopSpec: the expressions of (VAR EXPR [RESULT]) in element 1, then
	// elements from From on (dolist, dotimes).
	LoopSpec
	// Places: pairs PLACE VALUE from element 1 on; a place that is a form
	// (car x) has its arguments evaluated before the value (setq, setf).
	Places
	// Place: element Place is a place (its arguments are evaluated),
	// elements from From on are values, in source order (incf, decf,
	// push, pop).
	Place
	// Clauses: element 1 is a key, each later clause (KEYS BODY...) has
	// its body evaluated (case, ecase, typecase, etypecase).
	Clauses
	// Cond: each clause (TEST BODY...): the test is a decision test.
	Cond
	// Handlers: the bodies of the clauses (KIND (VAR) BODY...) of element
	// 1, then elements from From on (with-failure-handling).
	Handlers
	// CaseHandlers: element 1, then the bodies of the clauses
	// (TYPE (VAR) BODY...) from element 2 on (handler-case).
	CaseHandlers
	// Functions: the bodies of the definitions (NAME (PARAMS) BODY...)
	// in element 1, then elements from From on (flet, labels).
	Functions
	// Designator: the value of each property (KEY VALUE) from element 2 on
	// unless it is a literal symbol, and the test and values of each
	// conditional property (desig:when TEST (KEY VALUE)...).
	Designator
)

// Effect says what evaluating a special form can do beyond what its slots
// do; normalize's purity analysis reads it.
type Effect uint8

const (
	// Plain: only what its slots do.
	Plain Effect = iota
	// Hard: output, failures, retries, function calls through values or
	// code the tools do not analyse: never re-evaluated by a label.
	Hard
	// Exit: leaves the enclosing block or loop (return, return-from).
	Exit
	// Scope: binds variables for its body (let, let*, dolist, dotimes):
	// assignments to them are not visible outside.
	Scope
	// Loop: repeats its body (while).
	Loop
	// Assign: assigns its place.
	Assign
	// Closure: makes a closure; its body runs only when called.
	Closure
	// Constant: evaluates nothing (quote, function).
	Constant
)

// Level says where a form may appear.
type Level uint8

const (
	Expr     Level = iota // inside function bodies
	TopLevel              // only at the top level of a file
)

// Form describes one special form.
type Form struct {
	Name  string
	Shape Shape
	From  int // first evaluated body element (Body, Test, Bindings, ...)
	Place int // index of the place (Place shape)
	// Params is the index of a lambda list whose &optional and &key
	// defaults are evaluated (0: none).
	Params int
	Effect Effect
	Level  Level
	// Skipped marks a top-level form the compiler does not compile: it
	// passes through fmt, labels and annotate untouched and the compiler
	// records a note (defmacro, defmethod, in-package, ...).
	Skipped bool
}

// table lists every special form of the plan language once. The compiler
// (interp/compile) attaches one code generator to each non-skipped entry
// and a test checks that it has one for exactly these names; normalize
// and labels read the slots and effects from here.
var table = []Form{
	{Name: "quote", Shape: Unevaluated, Effect: Constant},
	{Name: "function", Shape: Unevaluated, Effect: Constant},
	{Name: "declare", Shape: Unevaluated, Effect: Constant},
	{Name: "if", Shape: Test, From: 2},
	{Name: "when", Shape: Test, From: 2},
	{Name: "unless", Shape: Test, From: 2},
	{Name: "while", Shape: Test, From: 2, Effect: Loop},
	{Name: "assert", Shape: Test, From: 2, Effect: Hard},
	{Name: "cond", Shape: Cond},
	{Name: "case", Shape: Clauses},
	{Name: "ecase", Shape: Clauses, Effect: Hard},
	{Name: "typecase", Shape: Clauses},
	{Name: "etypecase", Shape: Clauses, Effect: Hard},
	{Name: "and", Shape: Body, From: 1},
	{Name: "or", Shape: Body, From: 1},
	{Name: "progn", Shape: Body, From: 1},
	{Name: "let", Shape: Bindings, From: 2, Effect: Scope},
	{Name: "let*", Shape: Bindings, From: 2, Effect: Scope},
	{Name: "setq", Shape: Places, Effect: Assign},
	{Name: "setf", Shape: Places, Effect: Assign},
	{Name: "incf", Shape: Place, Place: 1, From: 2, Effect: Assign},
	{Name: "decf", Shape: Place, Place: 1, From: 2, Effect: Assign},
	{Name: "push", Shape: Place, Place: 2, From: 1, Effect: Assign},
	{Name: "pop", Shape: Place, Place: 1, From: 2, Effect: Assign},
	{Name: "dolist", Shape: LoopSpec, From: 2, Effect: Scope},
	{Name: "dotimes", Shape: LoopSpec, From: 2, Effect: Scope},
	{Name: "loop", Shape: Unevaluated, Effect: Hard},
	{Name: "return", Shape: Body, From: 1, Effect: Exit},
	{Name: "block", Shape: Body, From: 2},
	{Name: "return-from", Shape: Body, From: 2, Effect: Exit},
	{Name: "unwind-protect", Shape: Body, From: 1},
	{Name: "values", Shape: Body, From: 1},
	{Name: "multiple-value-bind", Shape: Body, From: 2, Effect: Hard},
	{Name: "destructuring-bind", Shape: Body, From: 2, Effect: Hard},
	{Name: "flet", Shape: Functions, From: 2, Effect: Hard},
	{Name: "labels", Shape: Functions, From: 2, Effect: Hard},
	{Name: "lambda", Params: 1, Shape: Body, From: 2, Effect: Closure},
	{Name: "funcall", Shape: Body, From: 1, Effect: Hard},
	{Name: "a", Shape: Designator},
	{Name: "an", Shape: Designator},
	{Name: "with-failure-handling", Shape: Handlers, From: 2, Effect: Hard},
	{Name: "retry", Shape: Unevaluated, Effect: Hard},
	{Name: "ignore-errors", Shape: Body, From: 1},
	{Name: "handler-case", Shape: CaseHandlers, From: 1, Effect: Hard},
	{Name: "with-retry-counters", Shape: Bindings, From: 2, Effect: Hard},
	{Name: "do-retry", Shape: Body, From: 2, Effect: Hard},
	// Logging: (ros-info NAME FORMAT ARGS...); NAME is not evaluated.
	{Name: "ros-info", Shape: Body, From: 2, Effect: Hard},
	{Name: "ros-warn", Shape: Body, From: 2, Effect: Hard},
	{Name: "ros-error", Shape: Body, From: 2, Effect: Hard},
	{Name: "ros-debug", Shape: Body, From: 2, Effect: Hard},
	// CPL's concurrency forms under labelcov's sequential schedule.
	{Name: "par", Shape: Body, From: 1},
	{Name: "pursue", Shape: Body, From: 1},
	{Name: "seq", Shape: Body, From: 1},
	{Name: "try-in-order", Shape: Body, From: 1, Effect: Hard},
	{Name: "top-level", Shape: Body, From: 1},
	{Name: "with-simulated-robot", Shape: Body, From: 1},
	{Name: "with-real-robot", Shape: Body, From: 1},
	// Definitions.
	{Name: "defun", Params: 2, Shape: Body, From: 3, Effect: Hard, Level: TopLevel},
	{Name: "def-plan", Params: 2, Shape: Body, From: 3, Effect: Hard, Level: TopLevel},
	{Name: "def-cram-function", Params: 2, Shape: Body, From: 3, Effect: Hard, Level: TopLevel},
	{Name: "def-check", Params: 2, Shape: Body, From: 3, Effect: Hard, Level: TopLevel},
	{Name: "def-policy", Params: 2, Shape: Body, From: 3, Effect: Hard, Level: TopLevel},
	{Name: "defparameter", Shape: Body, From: 2, Effect: Hard, Level: TopLevel},
	{Name: "defvar", Shape: Body, From: 2, Effect: Hard, Level: TopLevel},
	{Name: "defconstant", Shape: Body, From: 2, Effect: Hard, Level: TopLevel},
	// Top-level forms passed through: recorded (packages) or skipped
	// with a note.
	{Name: "in-package", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "defpackage", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "defmacro", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "defmethod", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "defgeneric", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "def-fact-group", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "defclass", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "defstruct", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "deftype", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "define-condition", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
	{Name: "eval-when", Shape: Unevaluated, Effect: Hard, Level: TopLevel, Skipped: true},
}

var byName = func() map[string]*Form {
	m := make(map[string]*Form, len(table))
	for i := range table {
		m[table[i].Name] = &table[i]
	}
	return m
}()

// Lookup returns the special form called name (a canonical name, see
// Name), or nil.
func Lookup(name string) *Form { return byName[name] }

// All returns every special form, in table order.
func All() []Form { return append([]Form(nil), table...) }

// ownPackages are the packages whose symbols name labelcov's forms and
// builtins: Common Lisp's and CPL's (CRAM's language, designators,
// executive, Prolog and logging), and the user package cl-user. A symbol
// written with one of these prefixes (cpl:par, desig:a, cl:list,
// roslisp:ros-info) means the same as the bare symbol; any other prefix
// keeps the symbol distinct.
var ownPackages = map[string]bool{
	"cl": true, "common-lisp": true, "cl-user": true, "common-lisp-user": true,
	"cpl": true, "cpl-impl": true, "cram-language": true, "cram-language-implementation": true,
	"desig": true, "cram-designators": true,
	"exe": true, "cram-executive": true,
	"prolog": true, "cram-prolog": true,
	"common": true, "cram-common-failures": true,
	"roslisp": true,
}

// Name is the canonical name of a symbol in operator position: its name
// as the reader folded it, without the prefix of one of CPL's or Common
// Lisp's own packages; a symbol of any other package keeps its prefix
// (btr:object stays btr:object). It is the one place that decides when
// two spellings name the same operator.
func Name(s *syntax.Symbol) string {
	if s.Pkg == "" || ownPackages[s.Pkg] {
		return s.Name
	}
	return s.Pkg + ":" + s.Name
}

// Head is the canonical name of the symbol heading list n, or "" when n is
// not a list that starts with a symbol.
func Head(n syntax.Node) string {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return ""
	}
	if s, ok := l.Elems[0].(*syntax.Symbol); ok {
		return Name(s)
	}
	return ""
}
