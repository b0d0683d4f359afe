package measure

import (
	"context"
	"fmt"
	"os"
	"slices"

	"github.com/labelcov/labelcov/fuzzdriver/reduce"
)

// Reduction is a test suite and the subset Reduce keeps.
type Reduction struct {
	// Tests is the suite, Sizes the bytes of each test's file.
	Tests []*Test
	Sizes []int
	// Kept is the subset, in the order reduce.Cover picked it.
	Kept []*Test
	// Items is what the suite covers (Items' kinds), sorted; Kept covers
	// every one.
	Items []string
}

// Reduce keeps a subset of tests that covers every item (label, branch
// outcome, action bucket, finding category) the whole suite covers:
// greedy set cover over what each test covers on its own (Items), the
// smallest file on a tie (reduce.Cover). The subset is then measured again
// and must cover the same items: one that does not is an error (a labelcov
// bug). Plans' counterpart of gofuzz.Reduce; writing the subset is the
// caller's.
func Reduce(ctx context.Context, m *Measurer, tests []*Test) (*Reduction, error) {
	items, err := m.Items(ctx, tests)
	if err != nil {
		return nil, err
	}
	red := &Reduction{Tests: tests, Sizes: make([]int, len(tests))}
	for i, t := range tests {
		st, err := os.Stat(t.Name)
		if err != nil {
			return nil, fmt.Errorf("reading test: %w", err)
		}
		red.Sizes[i] = int(st.Size())
	}
	for _, i := range reduce.Cover(items, red.Sizes) {
		red.Kept = append(red.Kept, tests[i])
	}
	again, err := m.Items(ctx, red.Kept)
	if err != nil {
		return nil, err
	}
	red.Items = reduce.Union(items, nil)
	if after := reduce.Union(again, nil); !slices.Equal(red.Items, after) {
		return nil, fmt.Errorf("reduce: the subset covers %d items, the suite %d (a labelcov bug)", len(after), len(red.Items))
	}
	return red, nil
}
