package campaign

import (
	"context"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	"github.com/labelcov/labelcov/labels"
)

// TestGenerate: from a one-test suite of the temperature benchmark, the
// campaign's kept inputs each add items the suite and the earlier ones
// miss, and measured again they cover what they are kept for; the same
// seed keeps the same tests.
func TestGenerate(t *testing.T) {
	const bench = "../../testdata/bench/temperature"
	f := readPlanFile(t, filepath.Join(bench, "temperature.plan"))
	crit, err := labels.ParseCriteria("all,mcdc")
	if err != nil {
		t.Fatal(err)
	}
	m, err := measure.New(f, measure.Options{Labels: labels.Options{Criteria: crit}})
	if err != nil {
		t.Fatal(err)
	}
	tests, err := m.LoadTests(filepath.Join(bench, "reproducers", "heating-while-warm.args"))
	if err != nil {
		t.Fatal(err)
	}
	guide := mccWM(t)
	run := func() *Generation {
		t.Helper()
		work := t.TempDir()
		gen, err := Generate(context.Background(), GenerateOptions{Measurer: m, Plan: f, Guide: guide, Seed: 3, Runs: 5000, Work: work}, tests)
		if err != nil {
			t.Fatal(err)
		}
		return gen
	}
	gen := run()
	if len(gen.Base) == 0 || len(gen.Kept) == 0 || len(gen.Kept) != len(gen.Adds) || gen.Campaign == nil {
		t.Fatalf("base %d items, kept %d, adds %d", len(gen.Base), len(gen.Kept), len(gen.Adds))
	}
	seen := slices.Clone(gen.Base)
	for i, k := range gen.Kept {
		if len(gen.Adds[i]) == 0 {
			t.Errorf("kept %d adds nothing", i)
		}
		for _, it := range gen.Adds[i] {
			if slices.Contains(seen, it) {
				t.Errorf("kept %d adds %s, covered already", i, it)
			}
		}
		seen = append(seen, gen.Adds[i]...)
		got, err := m.Items(context.Background(), []*measure.Test{k})
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range gen.Adds[i] {
			if !slices.Contains(got[0], it) {
				t.Errorf("kept %d does not cover %s measured again", i, it)
			}
		}
	}
	if u := reduce.Union([][]string{seen}, nil); len(u) != len(seen) {
		t.Errorf("adds overlap: %d distinct of %d", len(u), len(seen))
	}
	if again := run(); !reflect.DeepEqual(again.Adds, gen.Adds) {
		t.Errorf("seed 3 twice: %v, then %v", gen.Adds, again.Adds)
	}
}
