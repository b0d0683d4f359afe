package subject

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// KindOf is the one place that decides what an argument names.
func TestKindOf(t *testing.T) {
	for arg, want := range map[string]Kind{
		"./pkg/...":                     GoPackages,
		"./...":                         GoPackages,
		"github.com/x/y":                GoPackages,
		"../../testdata/go/sample":      GoPackages,
		"warehouse.plan":                Plan,
		"-":                             Plan,
		"../../testdata/plans/fib.plan": Plan,
		"../../testdata/plans":          Plan, // a directory without .go files
	} {
		if got := KindOf(Options{Args: []string{arg}}); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", arg, got, want)
		}
	}
	if got := KindOf(Options{FromSBCL: "cov.sexp"}); got != SBCLRecord {
		t.Errorf("KindOf(--from-sbcl) = %v", got)
	}
	if got := KindOf(Options{Args: []string{"./..."}, FromSBCL: "cov.sexp"}); got != SBCLRecord {
		t.Errorf("KindOf(./... --from-sbcl) = %v", got)
	}
}

// Open refuses nothing it has not read, and opens each kind.
func TestOpen(t *testing.T) {
	for _, o := range []Options{{Args: []string{"p.plan"}}, {Args: []string{"./..."}}, {FromSBCL: "c"}} {
		s, err := Open(o)
		if err != nil {
			t.Fatal(err)
		}
		if s.Kind() != KindOf(o) {
			t.Errorf("%+v: kind %v", o, s.Kind())
		}
	}
	if _, err := Open(Options{}); err == nil {
		t.Error("Open without a plan: no error")
	}
}

// KindOf is the one place that tells a plan from Go packages: no other
// package of the module calls transform/golang.IsPatternArg.
func TestOnePlaceDecidesTheKind(t *testing.T) {
	root := "../.."
	var found []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), ".IsPatternArg(") {
			found = append(found, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || !strings.HasSuffix(found[0], "fuzzdriver/subject/subject.go") {
		t.Errorf("IsPatternArg is called in %v, want fuzzdriver/subject/subject.go alone", found)
	}
}
