package measure

import (
	"context"
	"fmt"
	"strconv"

	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// Items lists, per test, the coverage items it covers on its own: every
// active label covered ("label:ID"), every branch outcome of the original
// plan taken ("branch:N", N = 2*branch + 0 for true, 1 for false), every
// action bucket hit ("action:BUCKET", with a world) and every finding
// category ("category:NAME": what the def-checks and def-policies
// returned, a check that failed, and the plan's own failure kind or
// timeout). Reduction (package reduce) keeps a subset of tests covering
// the same items.
func (m *Measurer) Items(ctx context.Context, tests []*Test) ([][]string, error) {
	ann, err := m.newRunner(m.ann.Program, m.ann)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	orig, err := m.newRunner(m.put.Original, nil)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	ni := m.put.Original.NumInstructions()
	out := make([][]string, len(tests))
	for i, t := range tests {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("measure: stopped before test %s: %w", t.Name, err)
		}
		var items []string
		ar, err := m.run(ctx, ann, t)
		if err != nil {
			return nil, err
		}
		for _, id := range ar.Labels {
			items = append(items, "label:"+strconv.Itoa(id))
		}
		or, err := m.run(ctx, orig, t)
		if err != nil {
			return nil, err
		}
		for b, c := range or.Counters[ni:] {
			if c > 0 {
				items = append(items, "branch:"+strconv.Itoa(b))
			}
		}
		if w := m.opts.World; w != nil {
			for b, h := range or.Sim.Hits {
				if h > 0 && b < w.NumBuckets() {
					items = append(items, "action:"+w.BucketName(b))
				}
			}
		}
		res := or.Sim
		for _, e := range res.Errors {
			items = append(items, "category:"+e)
		}
		for _, c := range res.CheckErrors {
			items = append(items, "category:check "+c.Check+" failed: "+c.Kind)
		}
		switch {
		case res.VM.Outcome == vm.OutcomeFailure && res.VM.Failure != nil:
			items = append(items, "category:failure "+res.VM.Failure.Kind)
		case res.VM.Outcome != vm.OutcomeOK:
			items = append(items, "category:"+string(res.VM.Outcome))
		}
		out[i] = items
	}
	return out, nil
}

// Labels are the active labels of the measuring plan, in id order.
func (m *Measurer) Labels() []*labels.Label { return m.ann.Active }
