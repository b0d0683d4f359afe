package measure

import (
	"context"
	"fmt"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/transform"
)

// Options configure a Measurer. Zero values take defaults.
type Options struct {
	// Annotate selects the labels (criteria, what prunes them) and the
	// normalization.
	Annotate transform.Options
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

// Measurer measures tests on a plan under measurement (Plan).
// It is not safe for concurrent use.
type Measurer struct {
	p    *Plan
	opts Options
	plan *compile.Func // in the original program
}

// New annotates f with the labels of opts, compiles the original and the
// annotated plan, and maps every active label to its injected branch.
func New(f *syntax.File, opts Options) (*Measurer, error) {
	if opts.World != nil && opts.Annotate.Feasible.Domains == nil {
		opts.Annotate.Feasible.Domains = sim.LabelDomains(opts.World) // labels the world rules out are infeasible
	}
	p, err := NewPlan(f, opts.Annotate)
	if err != nil {
		return nil, err
	}
	plan, err := sim.SelectPlan(p.OrigProg, opts.Plan)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	return &Measurer{p: p, opts: opts, plan: plan}, nil
}

// Warnings are the label enumeration's warnings (e.g. MCC falling back to
// CC), each naming file:line:col.
func (m *Measurer) Warnings() []string { return m.p.Warnings() }

// bytesArgs decodes n plan parameters from raw bytes as fuzzdriver's
// ArgsTarget does.
func bytesArgs(data []byte, n int) []value.Value {
	ints := sim.DecodeArgs(data, n)
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
