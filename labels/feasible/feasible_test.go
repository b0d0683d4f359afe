package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// normalized parses and normalizes src as t.plan.
func normalized(t *testing.T, src string) *normalize.Result {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := normalize.Plan(f, normalize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return nr
}

// enumerate lists and prunes the labels of src for criteria crit.
func enumerate(t *testing.T, src, crit string, maxAtoms int) *labels.Set {
	t.Helper()
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Enumerate(normalized(t, src), labels.Options{Criteria: c, MCCMaxAtoms: maxAtoms}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestIntervalInfeasible(t *testing.T) {
	s := enumerate(t, "(def-plan p (x) (if (or (> x 5) (< x 3)) 1 2) (when (and (>= x 1) (<= x 1) (/= x 1)) 0))", "mcc", 0)
	reasons := map[string]string{}
	for _, l := range s.Labels {
		if l.Status == labels.Infeasible {
			reasons[l.Predicate] = l.Reason
		}
	}
	want := map[string]string{
		"(and (> x 5) (< x 3))":                        "no number satisfies x > 5 and x < 3",
		"(and (>= x 1) (<= x 1) (/= x 1))":             "no number satisfies x >= 1 and x <= 1 and x /= 1",
		"(and (not (>= x 1)) (not (<= x 1)) (/= x 1))": "no number satisfies x < 1 and x > 1 and x /= 1",
	}
	for p, r := range want {
		if reasons[p] != r {
			t.Errorf("%s: reason %q, want %q", p, reasons[p], r)
		}
	}
	// TT of the first decision; TTT TFF FTF FFT FFF of the second.
	if len(reasons) != 6 {
		t.Errorf("infeasible: %v", reasons)
	}
}

// TestDomainPruning: labels that cannot hold within the caller's domains
// (a cell column in [0, 9]) are infeasible with the reason; a variable
// assigned elsewhere, or no domains, prune nothing.
func TestDomainPruning(t *testing.T) {
	doms := map[string]domain.Domain{"object-cell": {Elems: []domain.Range{{Lo: 0, Hi: 9}, {Lo: 0, Hi: 4}}, Why: "grids"}}
	run := func(src string, d map[string]domain.Domain) map[string]string {
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		nr, err := normalize.Plan(f, normalize.Options{PureFuncs: []string{"object-cell"}, HoistCalls: true})
		if err != nil {
			t.Fatal(err)
		}
		c, _ := labels.ParseCriteria("mcc,wm:abs,wm:ror,dist")
		s, err := Enumerate(nr, labels.Options{Criteria: c}, Options{Domains: d})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, l := range s.Labels {
			out[string(l.Criterion)+" "+l.Operator] = string(l.Status) + " " + l.Reason
		}
		return out
	}
	src := "(def-plan p (o) (let ((col (first (object-cell o)))) (when (< col 12) 1)))"
	got := run(src, doms)
	for k, want := range map[string]string{
		"wm-abs x -> (abs x)": "infeasible cannot hold in the world: col is in [0, 9] (grids)",
		"wm-abs x -> 0":       "active ",
		"wm-ror < -> <=":      "infeasible cannot hold in the world: col is in [0, 9] (grids)",
		"mcc F":               "infeasible cannot hold in the world: col is in [0, 9] (grids)",
		"mcc T":               "active ",
		"dist |a-b| < 4":      "active ",
		"dist |a-b| < 2":      "infeasible cannot hold in the world: (abs (- 12 col)) is in [3, 12] (grids)",
	} {
		if got[k] != want {
			t.Errorf("%s: got %q, want %q", k, got[k], want)
		}
	}
	// A variable also assigned a known value: the join of both.
	got = run("(def-plan p (o) (let ((col (first (object-cell o)))) (setq col -5) (when (< col 12) 1)))", doms)
	if want := "infeasible cannot hold in the world: col is in [-5, 9] (grids; from -5 t.plan:1:64)"; got["wm-ror < -> <="] != want {
		t.Errorf("assigned -5: got %q, want %q (%v)", got["wm-ror < -> <="], want, got)
	}
	for _, d := range []map[string]domain.Domain{nil, doms} {
		src := "(def-plan p (o) (let ((col (first (object-cell o)))) (setq col (random-thing)) (when (< col 12) 1)))"
		if d == nil {
			src = "(def-plan p (o) (let ((col (first (object-cell o)))) (when (< col 12) 1)))"
		}
		for k, v := range run(src, d) {
			if strings.HasPrefix(v, "infeasible") || strings.HasPrefix(v, "trivial") && !strings.Contains(v, "constant") {
				t.Errorf("domains %v: %s pruned: %s", d, k, v)
			}
		}
	}
}
