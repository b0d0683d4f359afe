package vm

import (
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

// TestReaderMacros runs the Common Lisp reader syntax the compiler gives a
// meaning to: #', backquote, reader conditionals, characters, ratios,
// case folding and package prefixes.
func TestReaderMacros(t *testing.T) {
	runFormCases(t, []formCase{
		{"function quote", "(defun twice (x) (* 2 x))", "(let ((f #'twice)) (list (funcall f 3) (functionp f)))", "(6 t)"},
		{"function quote lambda", "", "(funcall #'(lambda (x) (+ x 1)) 41)", "42"},
		{"function quote funcall", "(defun twice (x) (* 2 x))", "(funcall #'twice 4)", "8"},
		{"backquote constant", "", "`(a b)", "(a b)"},
		{"backquote unquote", "", "(let ((x 1) (y '(2 3))) `(a ,x ,y))", "(a 1 (2 3))"},
		{"backquote splice", "", "(let ((y '(2 3))) `(a ,@y b))", "(a 2 3 b)"},
		{"backquote splice last", "", "(let ((y '(2 3))) `(a ,@y))", "(a 2 3)"},
		{"backquote nested list", "", "(let ((x 1)) `((x ,x) (y ,(+ x 1))))", "((x 1) (y 2))"},
		{"backquote dotted", "", "(let ((x '(2 3))) `(1 . ,x))", "(1 2 3)"},
		{"backquote quote inside", "", "(let ((x 'b)) `(a ',x))", "(a (quote b))"},
		{"backquote atom", "", "(let ((x 5)) `,x)", "5"},
		{"backquote fresh list", "", "(let ((x 1)) (eq `(a ,x) `(a ,x)))", "nil"},
		{"conditional true", "", "(list #+labelcov 1 #-labelcov 2 3)", "(1 3)"},
		{"conditional false", "", "(list #+examples 1 #-examples 2)", "(2)"},
		{"conditional or", "", "(list #+(or :ccl :sbcl) 1 #+(and sbcl (not ros)) 2 #-(and) 3)", "(1)"},
		{"conditional nested", "", "(list #+sbcl #-ros 1 2)", "(2)"},
		{"conditional in quote", "", "'(a #+nope b c)", "(a c)"},
		{"conditional top level", "#+old (defun f () 1)\n#-old (defun f () 2)", "(f)", "2"},
		{"character", "", "(list #\\a #\\Space)", "(\"a\" \" \")"},
		{"ratio", "", "(list 1/2 4/2 1d0 1.5e3)", "(0.5 2 1.0 1500.0)"},
		{"case folding", "(DEFUN Add1 (X) (+ x 1))", "(IF (ADD1 1) T NIL)", "t"},
		{"nil upper", "", "(LIST NIL T)", "(nil t)"},
		{"package prefix", "(defun f (x) (cl:+ x 1))", "(cl-user::f 1)", "2"},
		{"vector literal", "", "#(1 2)", "(1 2)"},
	})
}

func TestReaderMacroErrors(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"(def-plan main () ,x)", "1:19: , outside a backquote"},
		{"(def-plan main () `(a `(b ,c)))", "nested backquote is not supported"},
		{"(def-plan main () `,@x)", ",@ must be inside a list in a backquote"},
		{"(def-plan main () #.(+ 1 2))", "#. (read-time evaluation) is not supported"},
		{"(def-plan main () #+(xor a) 1)", "unsupported feature expression (xor a)"},
		{"(def-plan main () '#+nope x)", "the form after ' is skipped by a reader conditional"},
	} {
		f, err := syntax.Parse("t.plan", []byte(tt.src))
		if err != nil {
			t.Fatalf("parse %q: %v", tt.src, err)
		}
		_, err = compile.Compile(f)
		var serr *syntax.Error
		if err == nil || !errors.As(err, &serr) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Compile(%q) = %v, want a *syntax.Error containing %q", tt.src, err, tt.want)
		}
	}
}
