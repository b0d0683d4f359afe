package compare

import (
	"os"
	"path/filepath"
	"testing"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// A flat 100 % campaign whose finds all came before 0.4 s: the time axis
// starts where the coverage samples do (no empty decades before the
// curves; the finds made earlier sit at its left edge), the coverage axis
// is not 99–101 %, and the legend is beside the axes, not on them.
func TestCoveragePlotAxes(t *testing.T) {
	flat := Series{ElapsedS: []float64{0.1, 0.2, 1, 2}, Covered: map[string][]int{"branches": {58, 58, 58, 58}}}
	r := &Report{Criteria: []string{"none", "mcc"}, BudgetS: 2}
	br := BenchReport{Bench: "b", Measures: []string{"branches"}, Totals: map[string]int{"branches": 58}}
	for i, crit := range r.Criteria {
		br.Runs = append(br.Runs, RunReport{Criterion: crit, Run: 1, Series: flat,
			Findings: []FindTime{{Key: "k", TimeS: 0.002 + float64(i)*0.3}}})
	}
	fig, err := r.coveragePlot(br, "branches")
	if err != nil {
		t.Fatal(err)
	}
	p := fig.p
	if p.X.Min != 0.1 {
		t.Errorf("time axis starts at %v, want 0.1, where the coverage samples start", p.X.Min)
	}

	if p.Y.Max < 100 || p.Y.Max > 101 || p.Y.Min > 90 {
		t.Errorf("coverage axis %v–%v, want about 90–100 for a flat 100 %% line", p.Y.Min, p.Y.Max)
	}
	if h := p.Legend.Rectangle(draw.Canvas{}).Size().Y; h != 0 {
		t.Errorf("legend drawn inside the axes")
	}
	if h := fig.legend.Rectangle(draw.Canvas{}).Size().Y; h == 0 {
		t.Errorf("no legend beside the axes")
	}
	out := filepath.Join(t.TempDir(), "plot.png")
	if err := fig.save(18*vg.Centimeter, 10*vg.Centimeter, out); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(out); err != nil || st.Size() == 0 {
		t.Fatalf("no PNG written: %v", err)
	}
}

func TestYRange(t *testing.T) {
	for _, c := range []struct{ lo, hi, wantLo, wantHi float64 }{
		{100, 100, 90, 100}, {3, 3, 0, 10}, {0, 0, 0, 10}, {40, 95, 40, 95}, {97, 100, 90, 100},
	} {
		if lo, hi := yRange(c.lo, c.hi); lo != c.wantLo || hi != c.wantHi {
			t.Errorf("yRange(%v, %v) = %v, %v, want %v, %v", c.lo, c.hi, lo, hi, c.wantLo, c.wantHi)
		}
	}
}

func TestTimeAxisMin(t *testing.T) {
	for _, c := range []struct{ first, budget, want float64 }{
		// Where the coverage samples start: no empty decade before them.
		{0.002, 2, 0.001}, {0.35, 60, 0.1}, {1, 60, 1}, {1, 5, 0.5}, {5, 10, 1}, {0, 10, 1},
	} {
		if got := timeAxisMin(c.first, c.budget); got < c.want*0.999 || got > c.want*1.001 {
			t.Errorf("timeAxisMin(%v, %v) = %v, want %v", c.first, c.budget, got, c.want)
		}
	}
}

// A criterion without a single find has no tick marks: its empty row must
// not drag the logarithmic time axis to 0 (gonum panics on that).
func TestCoveragePlotCriterionWithoutFinds(t *testing.T) {
	s := Series{ElapsedS: []float64{0.1, 1, 3}, Covered: map[string][]int{"branches": {10, 20, 30}}}
	r := &Report{Criteria: []string{"none", "dist"}, BudgetS: 3}
	br := BenchReport{Bench: "b", Measures: []string{"branches"}, Totals: map[string]int{"branches": 40},
		Runs: []RunReport{{Criterion: "none", Run: 1, Series: s},
			{Criterion: "dist", Run: 1, Series: s, Findings: []FindTime{{Key: "k", TimeS: 0.5}}}}}
	fig, err := r.coveragePlot(br, "branches")
	if err != nil {
		t.Fatal(err)
	}
	if fig.p.X.Min <= 0 {
		t.Fatalf("time axis starts at %v", fig.p.X.Min)
	}
	if err := fig.save(18*vg.Centimeter, 10*vg.Centimeter, filepath.Join(t.TempDir(), "plot.png")); err != nil {
		t.Fatal(err)
	}
}

// TestSaturationCell: the "finds after saturation" cells read as words.
func TestSaturationCell(t *testing.T) {
	for _, c := range []struct {
		after, finds, runsAfter, runs int
		want                          string
	}{
		{0, 0, 0, 2, "no finds"},
		{0, 6, 0, 2, "none of 6 finds"},
		{2, 6, 1, 2, "2 of 6 finds, in 1 of 2 runs"},
		{1, 1, 1, 1, "1 of 1 find, in 1 of 1 run"},
	} {
		if got := saturationCell(c.after, c.finds, c.runsAfter, c.runs); got != c.want {
			t.Errorf("saturationCell(%d, %d, %d, %d) = %q, want %q", c.after, c.finds, c.runsAfter, c.runs, got, c.want)
		}
	}
}
