package compile

import (
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

func compileString(t *testing.T, src string) (*Program, error) {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return Compile(f)
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		src  string
		pos  string // line:col
		frag string // part of the message
	}{
		{"42", "1:1", "expected a top-level definition"},
		{"(defun f)", "1:1", "expected (defun NAME (PARAMS...) BODY...)"},
		{"(defun 5 () 1)", "1:8", "name must be a symbol"},
		{"(defun if () 1)", "1:8", "special form"},
		{"(defun f () 1)\n(defun f () 2)", "2:8", "already defined"},
		{"(defun f (x x) 1)", "1:13", "duplicate parameter"},
		{"(defun f (&aux x) 1)", "1:11", "not supported"},
		{"(defun f (5) 1)", "1:11", "expected a variable name"},
		{"(defun f () (g 1))\n(defun g (a b) a)", "1:13", "g takes 2 arguments, called with 1"},
		{"(defun f () (car 1 2))", "1:13", "car takes 1 argument, called with 2"},
		{"(defun f () (cons 1))", "1:13", "cons takes 2 arguments"},
		{"(defun f () (format t))", "1:13", "format takes 2 or more arguments"},
		{"(defun f () (floor))", "1:13", "floor takes 1 to 2 arguments"},
		{"(defun f () (return 1))", "1:13", "return outside of dolist, dotimes, while, loop or a block nil"},
		{"(defun f () (dotimes (i 3) (funcall (lambda () (return 1)))))", "1:48", "return outside"},
		{"(defun f () (retry))", "1:13", "retry outside"},
		{"(defun f () (setq t 1))", "1:19", "constant"},
		{"(defun f () (setq (car x) 1))", "1:19", "only variables can be assigned"},
		{"(defun f (x) (setq x))", "1:14", "pairs"},
		{"(defun f () (if))", "1:13", "(if TEST THEN [ELSE])"},
		{"(defun f () (if 1 2 3 4))", "1:13", "(if TEST THEN [ELSE])"},
		{"(defun f () (when))", "1:13", "(when TEST BODY...)"},
		{"(defun f () (let (5) 1))", "1:19", "expected a variable name"},
		{"(defun f () (let ((a 1 2)) 1))", "1:19", "expected a binding"},
		{"(defun f () (let ((a 1) (a 2)) a))", "1:26", "bound twice"},
		{"(defun f () (cond 5))", "1:19", "expected a clause"},
		{"(defun f () (case 1 (\"s\" 2)))", "1:22", "keys must be literal"},
		{"(defun f () (dolist x))", "1:21", "expected (VAR EXPR [RESULT])"},
		{"(defun f () (dotimes (5 3)))", "1:23", "expected a variable name"},
		{"(defun f () (a thing))", "1:16", "class must be action, location, object or motion"},
		{"(defun f () (an action (type)))", "1:24", "expected a property (KEY VALUE)"},
		{"(defun f () (an action (\"k\" 1)))", "1:25", "property key must be a symbol"},
		{"(defun f () (an action type))", "1:24", "expected a property"},
		{"(defun f () (with-failure-handling ((5 (f) 1)) 2))", "1:38", "failure kind must be a symbol"},
		{"(defun f () (with-failure-handling ((x (a b) 1)) 2))", "1:40", "expected (VAR) or ()"},
		{"(defun f () (with-failure-handling (x) 2))", "1:37", "expected a clause"},
		{"(defun f () (ignore-errors 1 2))", "1:13", "(ignore-errors FORM)"},
		{"(defun f () ((lambda (x) x) 1))", "1:14", "must start with a function name"},
		{"(defun f () (defun g () 1))", "1:13", "only allowed at top level"},
		{"(defun f () (lambda))", "1:13", "(lambda (PARAMS...) BODY...)"},
		{"(defun f () (funcall))", "1:13", "(funcall FUNCTION ARGS...)"},
		{"(defun f () (function 5))", "1:23", "expected a function name or lambda"},
		{"(defun f () (quote))", "1:13", "(quote X)"},
		{"(defun f () (incf 5))", "1:19", "only variables can be updated"},
		{"(defun f () (push 1 5))", "1:21", "place must be a variable"},
		{"(defun f () (remove 1 '(1) :count 1))", "1:28", "keyword :count is not supported"},
		{"(defun f () (find 1 '(1) :key))", "1:13", "expected (find ITEM LIST"},
		{"(defun f () (member 1 '(1) 'key #'car))", "1:28", "expected a keyword"},
		{"(defun f () (position 1 '(1) :key #'car :key #'car))", "1:41", "only once"},
		{"(defun f () (loop for x in '(1) sum x into y collect x into y))", "1:46", "already accumulates"},
		{"(defun f () (loop for x in '(1) sum x collect x))", "1:39", "one kind of accumulation"},
		{"(defun f () (loop for x being the keys of y))", "1:35", "expected [element elements"},
		{"(defun f () (flet ((g (&key k) k)) (list #'g)))", "1:44", "can only be called by name"},
		{"(defun f () (flet ((g (&key k) k)) (g :j 1)))", "1:39", "g has no keyword parameter :j"},
		{"(defun f () (funcall (lambda (&optional x) x)))", "1:30", "only required parameters"},
		{"(defparameter *x*)", "1:1", "(defparameter *NAME* VALUE [DOCSTRING])"},
		{"(defparameter *x* 1)\n(defparameter *x* 2)", "2:15", "already defined"},
	} {
		_, err := compileString(t, c.src)
		var serr *syntax.Error
		if !errors.As(err, &serr) {
			t.Errorf("%s: got %v, want a *syntax.Error", c.src, err)
			continue
		}
		if serr.Pos.String() != c.pos || !strings.Contains(serr.Msg, c.frag) {
			t.Errorf("%s:\n got %s: %s\nwant %s: ...%s...", c.src, serr.Pos, serr.Msg, c.pos, c.frag)
		}
		if !strings.HasPrefix(serr.Error(), "t.plan:"+c.pos+":") {
			t.Errorf("Error() = %q", serr.Error())
		}
	}
}

// TestEveryConditionalIsABranch checks that each conditional form
// compiles to a counted jump with the documented Form and Test positions,
// including empty bodies.
func TestEveryConditionalIsABranch(t *testing.T) {
	src := `(def-plan p (a b)
  (if a 1 2)
  (when a)
  (unless b)
  (cond (a 1) (b) (t 3))
  (case a (1 'x) (otherwise 'y))
  (and a b)
  (or a b)
  (while (ignore-errors nil)))`
	p, err := compileString(t, src)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ head, form, test string }{
		{"if", "2:3", "2:7"},
		{"when", "3:3", "3:9"},
		{"unless", "4:3", "4:11"},
		{"cond", "5:9", "5:10"},
		{"cond", "5:15", "5:16"},
		{"case", "6:11", "6:12"},
		{"and", "7:3", "7:8"},
		{"and", "7:3", "7:10"},
		{"or", "8:3", "8:7"},
		{"or", "8:3", "8:9"},
		{"while", "9:3", "9:10"},
	}
	if p.NumBranches() != len(want) {
		t.Fatalf("NumBranches = %d, want %d", p.NumBranches(), len(want))
	}
	for i, w := range want {
		b := p.Branch(i)
		if b.Head != w.head || b.Form.String() != w.form || b.Test.String() != w.test {
			t.Errorf("branch %d = %s form %s test %s, want %s %s %s", i, b.Head, b.Form, b.Test, w.head, w.form, w.test)
		}
		if !p.Code[b.PC].IsBranch() || int(p.B[b.PC]) != i {
			t.Errorf("branch %d: instruction %d is %s with branch %d", i, b.PC, p.Code[b.PC], p.B[b.PC])
		}
	}
	if got := p.BranchCounter(3, true); got != p.NumInstructions()+6 {
		t.Errorf("BranchCounter(3, true) = %d", got)
	}
	if p.NumCounters() != p.NumInstructions()+2*len(want) {
		t.Errorf("NumCounters = %d", p.NumCounters())
	}
}

func TestProgramTables(t *testing.T) {
	p, err := compileString(t, `(defparameter *g* 1)
(defun helper (x) x)
(def-plan b () (helper 1))
(def-check c1 () t)
(def-plan alpha (x y) (ext-query x y))
(def-policy pol () nil)
(def-check c2 () nil)`)
	if err != nil {
		t.Fatal(err)
	}
	names := func(fs []*Func) string {
		var s []string
		for _, f := range fs {
			s = append(s, f.Name)
		}
		return strings.Join(s, ",")
	}
	if got := names(p.Plans()); got != "b,alpha" {
		t.Errorf("Plans = %s", got)
	}
	if got := names(p.Checks()); got != "c1,c2" {
		t.Errorf("Checks = %s", got)
	}
	if got := names(p.Policies()); got != "pol" {
		t.Errorf("Policies = %s", got)
	}
	if p.Plan("alpha") == nil || p.Plan("helper") != nil || p.Func("helper") == nil {
		t.Error("Plan/Func lookup wrong")
	}
	if p.Plan("alpha").NumParams() != 2 {
		t.Error("arity of a")
	}
	if strings.Join(p.Externals, ",") != "ext-query" || strings.Join(p.Globals, ",") != "*g*" {
		t.Errorf("externals %v globals %v", p.Externals, p.Globals)
	}
	// Every instruction has a position; jumps stay inside their function.
	for _, f := range p.Funcs {
		for pc := f.Entry; pc < f.End; pc++ {
			if !p.Instr(pc).IsValid() {
				t.Errorf("pc %d has no position", pc)
			}
			if p.Code[pc].IsJump() && (int(p.A[pc]) < f.Entry || int(p.A[pc]) >= f.End) {
				t.Errorf("%s: jump at %d leaves the function (to %d)", f.Name, pc, p.A[pc])
			}
		}
	}
}

func TestClosureAnalysis(t *testing.T) {
	// x is captured and assigned: a cell. y is captured only: a value.
	p, err := compileString(t, `(defun f (y)
  (let ((x 0))
    (funcall (lambda () (setq x (+ x y))))
    x))`)
	if err != nil {
		t.Fatal(err)
	}
	var lam *Func
	for _, fn := range p.Funcs {
		if fn.Kind == KindLambda {
			lam = fn
		}
	}
	if lam == nil || len(lam.Captures) != 2 {
		t.Fatalf("lambda captures: %+v", lam)
	}
	for _, c := range lam.Captures {
		if (c.Name == "x") != c.Cell {
			t.Errorf("capture %+v: only x should be a cell", c)
		}
	}
	var sawMakeCell bool
	for _, op := range p.Code {
		sawMakeCell = sawMakeCell || op == MAKECELL
	}
	if !sawMakeCell {
		t.Error("no MAKECELL emitted for x")
	}
}

func TestStackDepthIsBalanced(t *testing.T) {
	// MaxStack must bound the real depth: replay each function's code
	// along fall-through paths and check no instruction underflows.
	p, err := compileString(t, `(defun f (a b)
  (list (if a 1 2) (and a b) (or a b) (cond (a 1) (b)) (let ((x 1) (y 2)) (+ x y))
        (dolist (x '(1 2) 'r) (when x (return x))) (dotimes (i 3) i)
        (with-failure-handling ((failure (e) 1)) 2) (ignore-errors 3)
        (case a (1 2) (t 3)) (an action (k a)) (funcall (lambda (z) z) 1)))`)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Func("f")
	if f.MaxStack < 12 || f.MaxStack > 20 {
		t.Errorf("MaxStack = %d, want between 12 and 20 for a 12-argument list call", f.MaxStack)
	}
}
