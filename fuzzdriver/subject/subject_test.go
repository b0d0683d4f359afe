package subject

import "testing"

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
