package sim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Options configure a Runner. Zero values take defaults.
type Options struct {
	Plan string // plan to run: "" means main, or the only def-plan
	// Args are the plan's arguments for Run and, with a world, RunBytes
	// (without a world RunBytes decodes them from the input).
	Args       []value.Value
	MaxSteps   int64     // per run (and per check); vm.DefaultMaxSteps when 0
	MaxAlloc   int64     // vm.Config.MaxAlloc (0: the VM's default)
	MaxOutput  int64     // vm.Config.MaxOutput (0: the VM's default)
	MaxObjects int       // object slots read from bytes; DefaultMaxObjects when 0
	Stdout     io.Writer // plan output; discarded when nil
	// Builtins are extra builtins besides the queries (which, without a
	// world, signal no-world: NoWorldBuiltins).
	Builtins []vm.Builtin
	// Labels is vm.Config.Labels: set in fuzzing processes only.
	Labels vm.LabelMode
	// ArgsPerRun says the caller gives the plan's arguments per run
	// (RunArgs, checked by CheckArgs): NewRunner does not check Args.
	ArgsPerRun bool
	// NoChecks skips the def-checks after the plan (labelcov run does,
	// for a plan that needs a world it was not given: its checks could
	// only say no-world).
	NoChecks bool
}

// Runner runs one compiled plan many times, each run on one input: with a
// world, an environment of it; without one, the plan's arguments. Parse
// and compile once, then Run per input. It is the one place where a plan
// is run on an input (package fuzzdriver/runner wraps it for every verb).
// A Runner is not safe for concurrent use; make one per goroutine.
type Runner struct {
	prog     *compile.Program
	world    *World // nil: no world
	plan     *compile.Func
	checks   []*compile.Func
	policies []*compile.Func
	m        *vm.Machine
	state    *State // nil without a world
	opts     Options
	env      Env           // reused by RunBytes
	args     []value.Value // reused by RunBytes without a world
	res      Result
}

// Result is one run. Its slices belong to the Runner and are overwritten by
// the next run; call Clone to keep them.
type Result struct {
	VM vm.Result
	// Errors are the error categories found: those the def-policy
	// functions returned during the run, then those the def-check functions
	// returned after it, each category once, in order of discovery.
	Errors []string
	// CheckErrors are checks and policies that did not return normally
	// (each at most once per run).
	CheckErrors []CheckError
	// Actions is the trace: one record per performed action.
	Actions []ActionRecord
	// Hits counts performed actions per action-coverage bucket (see
	// World.BucketName); Covered is how many buckets were hit.
	Hits    []uint32
	Covered int
}

// CheckError is a def-check or def-policy that failed or timed out
// instead of returning.
type CheckError struct {
	Check   string `json:"check"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Pos is where it failed (invalid when unknown).
	Pos srcpos.Pos `json:"-"`
}

// MarshalJSON writes a check error as reports show it: its position as
// FILE:LINE:COL ("pos", left out when unknown).
func (e CheckError) MarshalJSON() ([]byte, error) {
	type shown struct {
		Check   string `json:"check"`
		Kind    string `json:"kind"`
		Message string `json:"message"`
		Pos     string `json:"pos,omitempty"`
	}
	v := shown{Check: e.Check, Kind: e.Kind, Message: e.Message}
	if e.Pos.IsValid() {
		v.Pos = e.Pos.String()
	}
	return json.Marshal(v)
}

// Clone returns a copy of r that later runs do not change.
func (r *Result) Clone() *Result {
	c := *r
	c.Errors = append([]string(nil), r.Errors...)
	c.CheckErrors = append([]CheckError(nil), r.CheckErrors...)
	c.Actions = append([]ActionRecord(nil), r.Actions...)
	c.Hits = append([]uint32(nil), r.Hits...)
	return &c
}

// LoadRunner reads the plan and world files and makes a Runner.
func LoadRunner(planPath, worldPath string, opts Options) (*Runner, error) {
	src, err := os.ReadFile(planPath)
	if err != nil {
		return nil, fmt.Errorf("reading plan: %w", err)
	}
	f, err := syntax.Parse(planPath, src)
	if err != nil {
		return nil, err
	}
	p, err := compile.Compile(f)
	if err != nil {
		return nil, err
	}
	w, err := LoadWorld(worldPath)
	if err != nil {
		return nil, err
	}
	return NewRunner(p, w, opts)
}

// ErrSeveralPlans is what SelectPlan fails with, wrapped, when no plan is
// named and the program has several plans, none called main: a caller
// that can name one (a --plan flag) says so.
var ErrSeveralPlans = errors.New("several plans and none is called main")

// SelectPlan picks the plan named name, else the plan called main, else
// the program's only plan.
func SelectPlan(p *compile.Program, name string) (*compile.Func, error) {
	var names []string
	for _, f := range p.Plans() {
		names = append(names, f.Name)
	}
	if name != "" {
		if f := p.Plan(name); f != nil {
			return f, nil
		}
		return nil, fmt.Errorf("no plan named %q in %s (plans: %s)", name, p.File, strings.Join(names, ", "))
	}
	if f := p.Plan("main"); f != nil {
		return f, nil
	}
	if len(names) == 1 {
		return p.Plans()[0], nil
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s has no def-plan to run", p.File)
	}
	return nil, fmt.Errorf("%s has %w (plans: %s)", p.File, ErrSeveralPlans, strings.Join(names, ", "))
}

// NewRunner links p to a fresh State of w, or, when w is nil, to no world:
// perform and the queries then signal no-world, and the plan's arguments
// come from each input (RunBytes) or from the caller (RunArgs).
func NewRunner(p *compile.Program, w *World, opts Options) (*Runner, error) {
	plan, err := SelectPlan(p, opts.Plan)
	if err != nil {
		return nil, err
	}
	if (w != nil || opts.Args != nil) && !opts.ArgsPerRun && len(opts.Args) != plan.NumParams() {
		return nil, fmt.Errorf("plan %s takes %d argument(s), got %d", plan.Name, plan.NumParams(), len(opts.Args))
	}
	for _, c := range append(p.Checks(), p.Policies()...) {
		if c.NumParams() != 0 {
			return nil, fmt.Errorf("%s %s must take no arguments", c.Kind, c.Name)
		}
	}
	r := &Runner{prog: p, world: w, plan: plan, checks: p.Checks(), policies: p.Policies(), opts: opts}
	if opts.NoChecks {
		r.checks = nil
	}
	cfg := vm.Config{MaxSteps: opts.MaxSteps, MaxAlloc: opts.MaxAlloc, MaxOutput: opts.MaxOutput, Stdout: opts.Stdout, Labels: opts.Labels}
	if w == nil {
		cfg.Builtins = append(NoWorldBuiltins(), opts.Builtins...)
		r.args = make([]value.Value, plan.NumParams())
		if r.m, err = vm.New(p, cfg); err != nil {
			return nil, fmt.Errorf("linking plan: %w", err)
		}
		return r, nil
	}
	r.state = NewState(w)
	cfg.Host = runnerHost{r: r, keep: keepDesignators}
	cfg.Builtins = append(r.state.Builtins(), opts.Builtins...)
	if r.m, err = vm.New(p, cfg); err != nil {
		return nil, fmt.Errorf("linking plan to world: %w", err)
	}
	return r, nil
}

// keepDesignators turns off vm.TransientHost for runners made while it
// is set: tests compare both ways.
var keepDesignators = false

// runnerHost performs actions on the runner's state and then runs the
// plan's policies, as nested VM calls sharing the run's budgets.
type runnerHost struct {
	r    *Runner
	keep bool // keepDesignators when the runner was made
}

func (h runnerHost) Perform(m *vm.Machine, d *value.Designator) (value.Value, error) {
	r := h.r
	before := len(r.state.trace)
	v, err := Host{S: r.state}.Perform(m, d)
	for _, p := range r.policies {
		pr := m.Call(nil, p, nil)
		switch {
		case pr.Outcome == vm.OutcomeTimeout:
			// The step budget or the context ended the run.
			return value.Nil, pr.Failure
		case pr.Outcome != vm.OutcomeOK:
			r.res.checkError(p, pr)
		case !pr.Value.IsNil():
			c := CategoryName(pr.Value)
			r.res.addError(c)
			if len(r.state.trace) > before {
				rec := &r.state.trace[len(r.state.trace)-1]
				rec.Violations = append(rec.Violations, c)
			}
		}
	}
	return v, err
}

// TransientDesignators implements vm.TransientHost. The policies a
// perform runs do not see the designator either: no query returns it.
func (h runnerHost) TransientDesignators() bool { return !h.keep }

// addError records error category c once.
func (res *Result) addError(c string) {
	for _, e := range res.Errors {
		if e == c {
			return
		}
	}
	res.Errors = append(res.Errors, c)
}

// checkError records that check or policy fn did not return normally.
func (res *Result) checkError(fn *compile.Func, cr vm.Result) {
	for _, e := range res.CheckErrors {
		if e.Check == fn.Name {
			return
		}
	}
	ce := CheckError{Check: fn.Name}
	if cr.Failure != nil {
		ce.Kind, ce.Message = cr.Failure.Kind, cr.Failure.Message
		ce.Pos = cr.Failure.At()
	}
	res.CheckErrors = append(res.CheckErrors, ce)
}

// runChecks calls each def-check (no arguments) on m after a plan run and
// records what they report: categories in Errors, checks that did not
// return normally in CheckErrors.
func (res *Result) runChecks(ctx context.Context, m *vm.Machine, checks []*compile.Func) {
	for _, c := range checks {
		cr := m.Call(ctx, c, nil)
		switch {
		case cr.Outcome != vm.OutcomeOK:
			res.checkError(c, cr)
		case !cr.Value.IsNil():
			res.addError(CategoryName(cr.Value))
		}
	}
}

// Program, World, Plan, Machine and State give access to the parts, e.g.
// for reports that map counters to source positions. World and State are
// nil without a world.
func (r *Runner) Program() *compile.Program { return r.prog }
func (r *Runner) World() *World             { return r.world }
func (r *Runner) Plan() *compile.Func       { return r.plan }
func (r *Runner) Machine() *vm.Machine      { return r.m }
func (r *Runner) State() *State             { return r.state }

// Counters are the VM's coverage counters of the last run (plan and
// checks): each Run starts from zero.
func (r *Runner) Counters() []uint8 { return r.m.Counters() }

// RunBytes runs one fuzzer input: with a world, data decodes into an
// environment (DecodeEnv with the runner's MaxObjects) and the plan gets
// Options.Args; without one, data decodes into the plan's parameters
// (DecodeArgs).
func (r *Runner) RunBytes(ctx context.Context, data []byte) *Result {
	if r.world == nil {
		decodeArgsInto(r.args, data)
		return r.run(ctx, nil, r.args)
	}
	r.world.DecodeEnvInto(&r.env, data, r.opts.MaxObjects)
	return r.run(ctx, &r.env, r.opts.Args)
}

// Run resets the world to env (nil: the empty environment; ignored without
// a world), runs the plan on Options.Args (with its policies after every
// action), then every def-check (whatever the plan's outcome), and returns
// the result.
func (r *Runner) Run(ctx context.Context, env *Env) *Result {
	return r.run(ctx, env, r.opts.Args)
}

// RunArgs is Run with the plan's arguments given (CheckArgs says whether
// they fit).
func (r *Runner) RunArgs(ctx context.Context, env *Env, args []value.Value) *Result {
	return r.run(ctx, env, args)
}

// CheckArgs fails unless args has one value per parameter of the plan.
func (r *Runner) CheckArgs(args []value.Value) error {
	if n := r.plan.NumParams(); len(args) != n {
		return fmt.Errorf("plan %s takes %d argument(s), got %d", r.plan.Name, n, len(args))
	}
	return nil
}

func (r *Runner) run(ctx context.Context, env *Env, args []value.Value) *Result {
	if r.state != nil {
		r.state.Reset(env)
	}
	r.m.ResetCounters()
	res := &r.res
	res.Errors = res.Errors[:0]
	res.CheckErrors = res.CheckErrors[:0]
	res.VM = r.m.Run(ctx, r.plan, args)
	res.runChecks(ctx, r.m, r.checks)
	if r.state == nil {
		return res
	}
	res.Actions = r.state.Trace()
	res.Hits = r.state.Hits()
	res.Covered = 0
	for _, h := range res.Hits {
		if h > 0 {
			res.Covered++
		}
	}
	return res
}

// CategoryName names an error category a check or a policy returned: a
// symbol, keyword or string by its name, anything else printed. It is the
// one place that names categories.
func CategoryName(v value.Value) string {
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString:
		return v.Str()
	}
	return v.String()
}
