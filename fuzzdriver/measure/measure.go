package measure

import (
	"context"
	"fmt"

	"github.com/labelcov/labelcov/fuzzdriver"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
)

// Options configure a Measurer. Zero values take defaults.
type Options struct {
	Labels    labels.Options
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
}

// Measurer holds a plan, its annotated form and both compiled programs.
// It is not safe for concurrent use.
type Measurer struct {
	opts     Options
	orig     *syntax.File
	ann      *transform.Result
	origProg *compile.Program
	annProg  *compile.Program
	plan     *compile.Func // in the original program
	active   []*labels.Label
	// branchOf maps an active label id to the branch index of its when in
	// the annotated program.
	branchOf map[int]int
}

// New annotates f with the labels of opts, compiles the original and the
// annotated plan, and maps every active label to its injected branch.
func New(f *syntax.File, opts Options) (*Measurer, error) {
	if opts.World != nil && opts.Labels.Domains == nil {
		opts.Labels.Domains = sim.LabelDomains(opts.World) // labels the world rules out are infeasible
	}
	res, err := transform.Plan(f, transform.Options{Labels: opts.Labels, Normalize: opts.Normalize})
	if err != nil {
		return nil, err
	}
	origProg, err := compile.Compile(f)
	if err != nil {
		return nil, err
	}
	af, err := syntax.Parse(f.Name, res.Source)
	if err != nil {
		return nil, fmt.Errorf("measure: reading the annotated plan (a labelcov bug): %w", err)
	}
	annProg, err := compile.Compile(af)
	if err != nil {
		return nil, fmt.Errorf("measure: compiling the annotated plan (a labelcov bug): %w", err)
	}
	plan, err := sim.SelectPlan(origProg, opts.Plan)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	m := &Measurer{opts: opts, orig: f, ann: res, origProg: origProg, annProg: annProg, plan: plan,
		active: res.Labels.Active(), branchOf: map[int]int{}}
	// Labels of different criteria with the same predicate at the same
	// point may share one when: several ids per offset.
	byOff := map[int][]int{}
	for _, l := range m.active {
		if l.Annotated != nil {
			byOff[l.Annotated.Offset] = append(byOff[l.Annotated.Offset], l.ID)
		}
	}
	for i := 0; i < annProg.NumBranches(); i++ {
		b := annProg.Branch(i)
		if b.Head != "when" {
			continue
		}
		for _, id := range byOff[b.Form.Offset] {
			m.branchOf[id] = i
		}
	}
	for _, l := range m.active {
		if _, ok := m.branchOf[l.ID]; !ok {
			return nil, fmt.Errorf("measure: label %d (%s) has no branch in the annotated plan (a labelcov bug)", l.ID, l.Pos)
		}
	}
	return m, nil
}

// Labels returns every label of the plan (active, trivial and infeasible)
// in source order.
func (m *Measurer) Labels() []*labels.Label { return m.ann.Labels.Labels }

// Annotated returns the annotated plan text the measurer runs.
func (m *Measurer) Annotated() []byte { return m.ann.Source }

// Warnings are the label enumeration's warnings (e.g. MCC falling back to
// CC), each naming file:line:col.
func (m *Measurer) Warnings() []string {
	var out []string
	for _, w := range m.ann.Labels.Warnings {
		out = append(out, w.Error())
	}
	return out
}

// Plan is the def-plan the measurer runs.
func (m *Measurer) Plan() *compile.Func { return m.plan }

// bytesArgs decodes n plan parameters from raw bytes as fuzzdriver's
// ArgsTarget does.
func bytesArgs(data []byte, n int) []value.Value {
	ints := fuzzdriver.DecodeArgs(data, n)
	out := make([]value.Value, len(ints))
	for i, x := range ints {
		out[i] = value.Int(x)
	}
	return out
}

// runOutcome is what one run of one program gives, copied out of the
// runner.
type runOutcome struct {
	res     vm.Result
	errors  []string
	checkEr []sim.CheckError
	actions []sim.ActionRecord
	hits    []uint32
}

// executor runs one program: in the simulator when a world is given,
// else in a bare VM whose queries signal no-world.
type executor struct {
	prog   *compile.Program
	opts   Options
	runner *sim.Runner // world mode, plan arguments of runArgs
	args   []value.Value
	m      *vm.Machine // no world
	plan   *compile.Func
	checks []*compile.Func
}

func newExecutor(p *compile.Program, opts Options) (*executor, error) {
	e := &executor{prog: p, opts: opts}
	if opts.World != nil {
		return e, nil // runners are made per argument list, see runner
	}
	fn, err := sim.SelectPlan(p, opts.Plan)
	if err != nil {
		return nil, err
	}
	m, err := vm.New(p, vm.Config{Builtins: sim.NoWorldBuiltins(), MaxSteps: opts.MaxSteps})
	if err != nil {
		return nil, fmt.Errorf("linking plan: %w", err)
	}
	e.m, e.plan, e.checks = m, fn, p.Checks()
	return e, nil
}

// runner returns a simulator runner for args, reusing the last one when
// the arguments are the same.
func (e *executor) runnerFor(args []value.Value) (*sim.Runner, error) {
	if e.runner != nil && sameArgs(e.args, args) {
		return e.runner, nil
	}
	r, err := sim.NewRunner(e.prog, e.opts.World, sim.Options{Plan: e.opts.Plan, Args: args,
		MaxSteps: e.opts.MaxSteps, MaxObjects: e.opts.MaxObjects})
	if err != nil {
		return nil, err
	}
	e.runner, e.args = r, args
	return r, nil
}

func sameArgs(a, b []value.Value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !value.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// run runs t and returns its outcome and the counters (owned by the
// executor, valid until the next run).
func (e *executor) run(ctx context.Context, t *Test) (runOutcome, []uint8, error) {
	if e.opts.World != nil {
		r, err := e.runnerFor(t.Args)
		if err != nil {
			if t.Kind != KindArgs {
				return runOutcome{}, nil, fmt.Errorf("%s: %w; with a world, give the plan's arguments as .args tests", t.Name, err)
			}
			return runOutcome{}, nil, fmt.Errorf("%s: %w", t.Name, err)
		}
		res := r.Run(ctx, t.Env)
		o := runOutcome{res: res.VM, errors: append([]string(nil), res.Errors...),
			checkEr: append([]sim.CheckError(nil), res.CheckErrors...),
			actions: append([]sim.ActionRecord(nil), res.Actions...), hits: res.Hits}
		return o, r.Counters(), nil
	}
	if len(t.Args) != e.plan.NumParams() {
		return runOutcome{}, nil, fmt.Errorf("%s: plan %s takes %d argument(s), the test gives %d", t.Name, e.plan.Name, e.plan.NumParams(), len(t.Args))
	}
	e.m.ResetCounters()
	o := runOutcome{res: e.m.Run(ctx, e.plan, t.Args)}
	for _, c := range e.checks {
		cr := e.m.Call(ctx, c, nil)
		switch {
		case cr.Outcome != vm.OutcomeOK:
			ce := sim.CheckError{Check: c.Name}
			if cr.Failure != nil {
				ce.Kind, ce.Message = cr.Failure.Kind, cr.Failure.Message
			}
			o.checkEr = append(o.checkEr, ce)
		case !cr.Value.IsNil():
			o.errors = append(o.errors, categoryName(cr.Value))
		}
	}
	return o, e.m.Counters(), nil
}

// categoryName names a check's result as the simulator does.
func categoryName(v value.Value) string {
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString:
		return v.Str()
	}
	return v.String()
}
