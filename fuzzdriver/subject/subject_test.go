package subject

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/outputs"
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
	if got := KindOf(Options{SBCLSettings: SBCLSettings{FromSBCL: "cov.sexp"}}); got != SBCLRecord {
		t.Errorf("KindOf(--from-sbcl) = %v", got)
	}
	if got := KindOf(Options{Args: []string{"./..."}, SBCLSettings: SBCLSettings{FromSBCL: "cov.sexp"}}); got != SBCLRecord {
		t.Errorf("KindOf(./... --from-sbcl) = %v", got)
	}
}

// Open refuses nothing it has not read, and opens each kind.
func TestOpen(t *testing.T) {
	for _, o := range []Options{{Args: []string{"p.plan"}}, {Args: []string{"./..."}}, {SBCLSettings: SBCLSettings{FromSBCL: "c"}}} {
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

// planOptions are the options of the CLI's defaults for a plan and its tests.
func planOptions(plan string, tests ...string) Options {
	return Options{Args: []string{plan}, LabelSettings: LabelSettings{Criteria: "all", MCCMaxAtoms: DefaultMCCMaxAtoms},
		PlanSettings: PlanSettings{Tests: tests, MaxSteps: DefaultMaxSteps, MaxObjects: DefaultMaxObjects}}
}

// A library user covers a plan as cover does: the report on the writer,
// and an output aimed at an input refused before anything runs.
func TestCoverPlan(t *testing.T) {
	s, err := Open(planOptions("../../testdata/plans/fib.plan", "../../testdata/tests/fib"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := s.Cover(context.Background(), &b, CoverOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "mcc") {
		t.Errorf("no mcc row in the report:\n%s", b.String())
	}
	err = s.Cover(context.Background(), io.Discard, CoverOptions{HTML: "../../testdata/plans/fib.plan"})
	var re *outputs.RefusedError
	if !errors.As(err, &re) {
		t.Errorf("--html on the plan: %v, want a refusal", err)
	}
	if err := s.Cover(context.Background(), io.Discard, CoverOptions{FailUnder: "mcc=101"}); err == nil {
		t.Error("a gate above 100% was accepted")
	}
}

// A flag meant for Go packages is refused for a plan, naming it.
func TestPlanRefusesGoFlags(t *testing.T) {
	o := planOptions("../../testdata/plans/fib.plan", "../../testdata/tests/fib")
	o.Fuzz = "FuzzX"
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Reduce(context.Background(), io.Discard, t.TempDir()); err == nil || !strings.Contains(err.Error(), "--fuzz") {
		t.Errorf("reduce with --fuzz on a plan: %v", err)
	}
}
