package campaign

import (
	"context"
	"fmt"
	"time"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// GenerateOptions configure Generate.
type GenerateOptions struct {
	// Measurer measures the suite and the campaign's inputs (its criteria
	// are the labels to cover); Plan is the plan it measures and PlanName
	// its def-plan.
	Measurer *measure.Measurer
	Plan     *syntax.File
	PlanName string
	// Guide are the criteria guiding the campaign.
	Guide labels.Criteria
	// Seed, Budget and Runs are the campaign's (one built-in worker).
	Seed   uint64
	Budget time.Duration
	Runs   int64
	// Work is the campaign directory, the caller's to remove.
	Work string
}

// Generation is what Generate found: new tests for what a plan's suite
// misses. Plans' counterpart of gofuzz.Generation.
type Generation struct {
	// Base is what the suite covers (measure.Items' kinds), sorted.
	Base []string
	// Campaign is the campaign's summary (its inputs and execs).
	Campaign *Summary
	// Kept are the campaign inputs chosen, as tests of the suite's format
	// (Measurer.Render writes them), and Adds[i] what Kept[i] covers that
	// neither the suite nor an earlier kept test does (never empty).
	Kept []*measure.Test
	Adds [][]string
	// Inputs are all the campaign's inputs the measurer reads as tests,
	// in the campaign's order (what later searches may start from).
	Inputs []*measure.Test
}

// After is what the suite and the kept tests cover, sorted.
func (g *Generation) After() []string {
	return reduce.Union(append([][]string{g.Base}, g.Adds...), nil)
}

// Generate fuzzes o.Plan guided by o.Guide, seeded with the suite's
// inputs, and keeps a small set of the campaign's inputs that cover what
// the suite does not: greedy set cover over what each input covers beyond
// the suite, the smallest on a tie (reduce.Extend). An input the
// measurer cannot read as a test is passed over. When the campaign ends
// with an error after it ran (a canceled context, say) the Generation of
// what it found comes back with that error.
func Generate(ctx context.Context, o GenerateOptions, tests []*measure.Test) (*Generation, error) {
	m := o.Measurer
	items, err := m.Items(ctx, tests)
	if err != nil {
		return nil, err
	}
	gen := &Generation{Base: reduce.Union(items, nil)}
	fz, err := Setup{Plan: o.Plan, PlanName: o.PlanName, World: m.World(), Criteria: o.Guide}.Build()
	if err != nil {
		return nil, err
	}
	var seeds [][]byte
	for _, t := range tests {
		if b, ok := m.Seed(t); ok {
			seeds = append(seeds, b)
		}
	}
	sum, ferr := fz.Fuzz(ctx, Options{Workers: 1, Seed: o.Seed, Budget: o.Budget, Runs: o.Runs, Seeds: seeds, Out: o.Work})
	if sum == nil {
		return nil, ferr
	}
	gen.Campaign = sum
	var cands []*measure.Test
	var sizes []int
	for i, in := range sum.Inputs {
		t, perr := m.ParseTest(fmt.Sprintf("input-%d", i), in)
		if perr != nil {
			continue
		}
		cands = append(cands, t)
		sizes = append(sizes, len(in))
	}
	candItems, err := m.Items(ctx, cands)
	if err != nil {
		return nil, err
	}
	keep, adds := reduce.ExtendAdds(gen.Base, candItems, sizes)
	for _, i := range keep {
		gen.Kept = append(gen.Kept, cands[i])
	}
	gen.Adds = adds
	gen.Inputs = cands
	return gen, ferr
}
