package vm

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFailureMessagesAreSentences checks, on the package's own source, what
// labels/feasible's reach rule takes on trust: a plan reading a failure's
// message (desig-prop ... 'message) never gets a bare name from the VM, for
// every message the VM writes comes from a constant format that holds a space
// outside its verbs. The only failures built otherwise are the plan's own
// (fail's message, which the rule checks in the plan's text) and errors of
// builtins and hosts passed through asFailure (the simulator's, which
// interp/sim's TestLabelReach checks).
func TestFailureMessagesAreSentences(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	calls, literals := 0, map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.CallExpr:
					at := -1
					switch fun := x.Fun.(type) {
					case *ast.Ident:
						if fun.Name == "Fail" {
							at = 1
						}
					case *ast.SelectorExpr:
						if fun.Sel.Name == "funcFailure" {
							at = 2
						}
					}
					if at < 0 || fn.Name.Name == "funcFailure" {
						return true
					}
					calls++
					pos := fset.Position(x.Pos())
					if len(x.Args) <= at {
						t.Errorf("%s: a failure without a format", pos)
						return true
					}
					lit, ok := x.Args[at].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						t.Errorf("%s: a failure's format is not a constant string", pos)
						return true
					}
					format, err := strconv.Unquote(lit.Value)
					if err != nil {
						t.Fatalf("%s: %v", pos, err)
					}
					if !strings.Contains(withoutVerbs(format), " ") {
						t.Errorf("%s: format %q writes no sentence: a plan could read it as a name", pos, format)
					}
				case *ast.CompositeLit:
					if id, ok := x.Type.(*ast.Ident); ok && id.Name == "Failure" {
						for _, e := range x.Elts {
							if kv, ok := e.(*ast.KeyValueExpr); ok && isIdent(kv.Key, "Message") {
								literals[fn.Name.Name] = true
							}
						}
					}
				}
				return true
			})
		}
	}
	if calls < 20 {
		t.Fatalf("found %d calls of Fail and funcFailure: the walk misses them", calls)
	}
	// Fail itself, the plan's fail (inside the builtins table) and asFailure.
	for fn := range literals {
		switch fn {
		case "Fail", "coreImpls", "asFailure":
		default:
			t.Errorf("%s builds a Failure with a message of its own: check that it is a sentence and add it here", fn)
		}
	}
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// withoutVerbs drops fmt's verbs (%s, %d, %q, ...) so that a space inside
// one (% d) does not count.
func withoutVerbs(format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		for i++; i < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[i]) >= 0; i++ {
		}
	}
	return b.String()
}
