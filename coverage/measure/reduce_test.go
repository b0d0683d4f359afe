package measure

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/reduce"
)

// TestReduce: the subset covers every item of the suite, is no larger,
// and the sizes are the files'.
func TestReduce(t *testing.T) {
	m := newMeasurer(t, filepath.Join(suite, "thermostat.plan"), "all", Options{})
	tests, err := m.LoadTests(suite)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	red, err := Reduce(ctx, m, tests)
	if err != nil {
		t.Fatal(err)
	}
	if len(red.Kept) == 0 || len(red.Kept) > len(tests) || len(red.Sizes) != len(tests) {
		t.Fatalf("kept %d of %d tests, %d sizes", len(red.Kept), len(tests), len(red.Sizes))
	}
	all, err := m.Items(ctx, tests)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := m.Items(ctx, red.Kept)
	if err != nil {
		t.Fatal(err)
	}
	if want := reduce.Union(all, nil); len(want) == 0 || !slices.Equal(red.Items, want) || !slices.Equal(reduce.Union(kept, nil), want) {
		t.Errorf("items: suite %d, reduction says %d, kept cover %d", len(want), len(red.Items), len(reduce.Union(kept, nil)))
	}
	for i, tt := range tests {
		if tt.Kind == KindBytes && red.Sizes[i] != len(tt.Bytes) {
			t.Errorf("%s: size %d, bytes %d", tt.Name, red.Sizes[i], len(tt.Bytes))
		}
	}
}

func TestLabelHits(t *testing.T) {
	items := []string{LabelItem(3), ItemBranch + "3", LabelItem(12), ItemCategory + "label:7", ItemLabel + "x"}
	got := LabelHits(items)
	if len(got) != 2 || got[3] != 1 || got[12] != 1 {
		t.Errorf("LabelHits(%q) = %v, want labels 3 and 12", items, got)
	}
}
