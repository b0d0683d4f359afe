package campaign

import (
	"context"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// Meter measures the coverage of kept inputs on the original plan's
// yardstick: instructions and branches (both directions of each conditional)
// of the original plan, action buckets of the world, and labels of the plan
// annotated with Setup.Measure (none with Setup.NoMeasure). Use Coverage as
// Campaign.Coverage, or Add inputs by hand. A Meter is not safe for
// concurrent use.
type Meter struct {
	p     *Fuzzer
	orig  *runner.Runner
	ann   *runner.Runner // nil with Setup.NoMeasure
	tally *measure.Tally
	n     int // inputs added
	err   error
}

// NewMeter makes an empty meter.
func (p *Fuzzer) NewMeter() (*Meter, error) {
	var ann *runner.Runner
	if m := p.PUT.Measure; m != nil {
		// The annotated plan spends steps on its labels: give it room, so
		// that an input the original runs to its end covers the labels to
		// the end.
		var err error
		if ann, err = p.newRunner(m.Program, 4*p.Setup.MaxSteps, vm.LabelMode{}, m); err != nil {
			return nil, err
		}
	}
	orig, err := p.newRunner(p.Original, p.Setup.MaxSteps, vm.LabelMode{}, nil)
	if err != nil {
		return nil, err
	}
	return &Meter{p: p, orig: orig, ann: ann, tally: measure.NewTally(p.Original, p.Setup.World, p.PUT.Measure)}, nil
}

// Add replays one input on the original and on the measuring plan.
func (m *Meter) Add(ctx context.Context, input []byte) error {
	res, err := m.orig.Run(ctx, runner.Input{Bytes: input})
	if err != nil {
		return err
	}
	m.tally.AddOriginal(res)
	if m.ann != nil {
		if res, err = m.ann.Run(ctx, runner.Input{Bytes: input}); err != nil {
			return err
		}
		m.tally.AddLabels(m.n, res)
	}
	m.n++
	return nil
}

// Figures returns the coverage so far: "instructions", "branches",
// "actions" (with a world) and "labels", cover's all of the measuring
// criteria (labels.GroupFigures: the sum of the rows, each criterion in
// its unit, MC/DC in conditions; none with Setup.NoMeasure).
func (m *Meter) Figures() map[string]engine.Figure {
	fig := map[string]engine.Figure{
		"instructions": m.tally.Instructions(),
		"branches":     m.tally.Branches(),
	}
	if m.ann != nil {
		fig[labels.AllFigure], _ = m.labelFigures()
	}
	if m.p.Setup.World != nil {
		fig["actions"] = m.tally.Actions()
	}
	return fig
}

// labelFigures computes the measuring labels' figures with the one
// function every report uses, folded as a campaign reports them.
func (m *Meter) labelFigures() (all engine.Figure, groups map[labels.Key]engine.Figure) {
	var cov map[labels.Key]*labels.KeyCoverage
	if ms := m.p.PUT.Measure; ms != nil {
		hits := make(map[int]int, len(m.tally.Covering))
		for id, ts := range m.tally.Covering {
			hits[id] = len(ts)
		}
		var err error
		if cov, err = labels.Figures(ms.Transform.Labels.Labels, ms.Transform.Labels.Decisions, hits); err != nil && m.err == nil {
			m.err = err
		}
	}
	return labels.GroupFigures(cov, m.p.keys)
}

// ByCriterion returns label coverage per criterion group (mcc, cc, wm,
// the wm operators together, mcdc in conditions, dist), as cover reports
// it (labels.Figures).
func (m *Meter) ByCriterion() map[string]engine.Figure {
	_, groups := m.labelFigures()
	out := map[string]engine.Figure{}
	for g, f := range groups {
		out[string(g)] = f
	}
	return out
}

// Err is the first error of a replay inside Coverage (which cannot return
// one); nil normally.
func (m *Meter) Err() error { return m.err }

// Coverage is a CoverageFunc: it replays the inputs kept since the last call.
func (m *Meter) Coverage(s engine.Snapshot) map[string]engine.Figure {
	for _, in := range s.New {
		if m.err != nil {
			break
		}
		if err := m.Add(context.Background(), in); err != nil {
			m.err = err
		}
	}
	return m.Figures()
}
