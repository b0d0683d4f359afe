package measure

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// resolutionReport measures, on (and (> a 0) (> b 0)), one test that
// takes the first condition false: of the MC/DC vectors F-, TF and TT only
// F- runs.
func resolutionReport(t *testing.T) (*Measurer, *Report) {
	t.Helper()
	dir := t.TempDir()
	plan := filepath.Join(dir, "both.plan")
	if err := os.WriteFile(plan, []byte("(def-plan main (a b) (if (and (> a 0) (> b 0)) 'both 'no))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "zero.args"), []byte("0\n0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newMeasurer(t, plan, "mcc,mcdc", Options{})
	ts, err := m.LoadTests(filepath.Join(dir, "zero.args"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := m.Run(context.Background(), ts)
	if err != nil {
		t.Fatal(err)
	}
	return m, r
}

// Without verdicts every label is covered or unresolved, each uncovered
// one with the reason; with verdicts the proven labels turn infeasible and
// an MC/DC condition turns infeasible exactly when every pair that would
// show it has a vector proven infeasible; the justified figures count
// them, the plain figures do not.
func TestResolve(t *testing.T) {
	m, r := resolutionReport(t)
	for _, l := range r.Labels {
		want := StatusUnresolved
		if l.Covered {
			want = StatusCovered
		}
		if l.Status != want || (want == StatusUnresolved) != (l.Reason == Untried(l)) {
			t.Errorf("label %d %s %s: status %q, reason %q", l.ID, l.Criterion, l.Operator, l.Status, l.Reason)
		}
	}
	mc := r.Criteria[labels.MCDC]
	if *mc.Resolution != (Resolution{Covered: 0, Infeasible: 0, Unresolved: 2}) || mc.Total != 2 {
		t.Fatalf("mcdc resolution %+v of %d", *mc.Resolution, mc.Total)
	}
	tf := labelByOp(r, labels.MCDC, "TF")
	tt := labelByOp(r, labels.MCDC, "TT")
	if tf == nil || tt == nil {
		t.Fatalf("no mcdc TF or TT label: %+v", r.Labels)
	}
	cases := []struct {
		name      string
		proven    []int
		want      Resolution
		justified labels.Fraction
	}{
		// TF alone: the second condition's pair (TF, TT) is impossible,
		// the first's (F-, TT) is not.
		{"TF", []int{tf.ID}, Resolution{Infeasible: 1, Unresolved: 1}, labels.Fraction{Covered: 1, Total: 2}},
		// TT is in both pairs.
		{"TT", []int{tt.ID}, Resolution{Infeasible: 2}, labels.Fraction{Covered: 2, Total: 2}},
	}
	for _, c := range cases {
		v := map[int]Verdict{}
		for _, id := range c.proven {
			v[id] = Verdict{Infeasible: true, Reason: "proof " + c.name}
		}
		if err := m.Resolve(r, v); err != nil {
			t.Fatal(err)
		}
		if got := r.Criteria[labels.MCDC].Resolution; *got != c.want {
			t.Errorf("%s proven: mcdc resolution %+v, want %+v", c.name, *got, c.want)
		}
		if got := r.JustifiedFigures()["mcdc"]; got != c.justified {
			t.Errorf("%s proven: justified mcdc %v, want %v", c.name, got, c.justified)
		}
		if got := r.Figures()["mcdc"]; got != (labels.Fraction{Covered: 0, Total: 2}) {
			t.Errorf("%s proven: mcdc figure %v", c.name, got)
		}
		for _, l := range r.Labels {
			proven := l.ID == c.proven[0]
			if proven != (l.Status == StatusInfeasible) || proven && l.Reason != "proof "+c.name {
				t.Errorf("%s proven: label %d status %q reason %q", c.name, l.ID, l.Status, l.Reason)
			}
		}
		// The MC/DC report suggests vectors for the conditions that
		// may still be covered only.
		conds := r.MCDC.Decisions[0].Conditions
		for i, cr := range conds {
			impossible := c.name == "TT" || i == 1
			if impossible != (len(cr.Suggest) == 0) {
				t.Errorf("%s proven: condition %d suggests %d vector(s)", c.name, i+1, len(cr.Suggest))
			}
		}
		all := r.All.Resolution
		if all.Covered+all.Infeasible+all.Unresolved != r.All.Total {
			t.Errorf("%s proven: all's resolution %+v of %d", c.name, all, r.All.Total)
		}
	}
}
