package measure

import (
	"context"
	"errors"
	"fmt"

	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// Options configure a Measurer. Zero values take defaults.
type Options struct {
	Labels    labels.Options
	Feasible  feasible.Options
	Normalize normalize.Options
	// Plan names the def-plan to run ("" means main, or the only plan).
	Plan string
	// World, when set, runs the plan in the simulator: .env and byte tests
	// are environments of this world. WorldPath only names it in reports.
	World     *sim.World
	WorldPath string
	// MaxSteps bounds each run (and each check); vm.DefaultMaxSteps when 0.
	MaxSteps int64
	// MaxObjects caps the objects read from bytes; sim.DefaultMaxObjects
	// when 0.
	MaxObjects int
	// Program, when set, is the plan compiled already
	// (pipeline.Options.Original).
	Program *compile.Program
}

// Measurer measures tests on a plan under test: the original plan and the
// plan annotated with Options.Labels' criteria (pipeline.Build).
// It is not safe for concurrent use.
type Measurer struct {
	put  *pipeline.PlanUnderTest
	ann  *pipeline.Annotated // put.Measure
	opts Options
	plan *compile.Func // in the original program
}

// New annotates f with the labels of opts, compiles the original and the
// annotated plan, and maps every active label to its injected branch.
func New(f *syntax.File, opts Options) (*Measurer, error) {
	if opts.Labels.Criteria == 0 {
		return nil, errors.New("measure: no criteria")
	}
	put, err := pipeline.Build(f, pipeline.Options{Plan: opts.Plan, World: opts.World, Measure: opts.Labels.Criteria, Original: opts.Program,
		Labels: opts.Labels, Feasible: opts.Feasible, Normalize: opts.Normalize})
	if err != nil {
		return nil, err
	}
	return &Measurer{put: put, ann: put.Measure, opts: opts, plan: put.Plan}, nil
}

// Warnings are the label enumeration's warnings (e.g. MCC falling back to
// CC), each naming file:line:col.
func (m *Measurer) Warnings() []string { return m.ann.Warnings() }

// bytesArgs decodes n plan parameters from raw bytes as a fuzzing
// target does.
func bytesArgs(data []byte, n int) []value.Value {
	ints := sim.DecodeArgs(data, n)
	out := make([]value.Value, len(ints))
	for i, x := range ints {
		out[i] = value.Int(x)
	}
	return out
}

// newRunner makes the runner of one program (the original, or the
// annotated one with its label map).
func (m *Measurer) newRunner(p *compile.Program, labelMap *pipeline.Annotated) (*runner.Runner, error) {
	return runner.New(runner.Options{Program: p, Plan: m.opts.Plan, World: m.opts.World, LabelMap: labelMap,
		Limits: runner.Limits{MaxSteps: m.opts.MaxSteps, MaxObjects: m.opts.MaxObjects}})
}

// run runs test t; a test that does not fit the plan is an error naming it.
func (m *Measurer) run(ctx context.Context, r *runner.Runner, t *Test) (*runner.Result, error) {
	res, err := r.Run(ctx, runner.Input{Env: t.Env, Args: t.Args})
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return nil, fmt.Errorf("measure: stopped in test %s: %w", t.Name, err)
	case m.opts.World != nil && t.Kind != KindArgs:
		return nil, fmt.Errorf("%s: %w; with a world, give the plan's arguments as .args tests", t.Name, err)
	case m.opts.World == nil:
		return nil, fmt.Errorf("%s: plan %s takes %d argument(s), the test gives %d", t.Name, m.plan.Name, m.plan.NumParams(), len(t.Args))
	}
	return nil, fmt.Errorf("%s: %w", t.Name, err)
}
