package vm

import (
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

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
