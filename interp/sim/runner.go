package sim

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// Options configure a Runner. Zero values take defaults.
type Options struct {
	Plan       string        // plan to run: "" means main, or the only def-plan
	Args       []value.Value // arguments for the plan
	MaxSteps   int64         // per run (and per check); vm.DefaultMaxSteps when 0
	MaxObjects int           // object slots read from bytes; DefaultMaxObjects when 0
	Stdout     io.Writer     // plan output; discarded when nil
	Builtins   []vm.Builtin  // extra builtins besides the queries
	// Labels is vm.Config.Labels: set in fuzzing processes only.
	Labels vm.LabelMode
}

// Runner runs one compiled plan on one world many times: parse and compile
// once, then Run per environment. Fuzzers and the CLI share it. A Runner is
// not safe for concurrent use; make one per goroutine.
type Runner struct {
	prog     *compile.Program
	world    *World
	plan     *compile.Func
	checks   []*compile.Func
	policies []*compile.Func
	m        *vm.Machine
	state    *State
	opts     Options
	env      Env // reused by RunBytes
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
	Pos     string `json:"pos,omitempty"`
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
	return nil, fmt.Errorf("%s has several plans and none is called main (plans: %s)", p.File, strings.Join(names, ", "))
}

// NewRunner links p to a fresh State of w.
func NewRunner(p *compile.Program, w *World, opts Options) (*Runner, error) {
	plan, err := SelectPlan(p, opts.Plan)
	if err != nil {
		return nil, err
	}
	if len(opts.Args) != plan.NumParams() {
		return nil, fmt.Errorf("plan %s takes %d argument(s), got %d", plan.Name, plan.NumParams(), len(opts.Args))
	}
	for _, c := range append(p.Checks(), p.Policies()...) {
		if c.NumParams() != 0 {
			return nil, fmt.Errorf("%s %s must take no arguments", c.Kind, c.Name)
		}
	}
	s := NewState(w)
	r := &Runner{prog: p, world: w, plan: plan, checks: p.Checks(), policies: p.Policies(), state: s, opts: opts}
	builtins := append(s.Builtins(), opts.Builtins...)
	m, err := vm.New(p, vm.Config{Host: runnerHost{r: r, keep: keepDesignators}, Builtins: builtins, MaxSteps: opts.MaxSteps, Stdout: opts.Stdout, Labels: opts.Labels})
	if err != nil {
		return nil, fmt.Errorf("linking plan to world: %w", err)
	}
	r.m = m
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
			c := category(pr.Value)
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
		if cr.Failure.Pos.IsValid() {
			ce.Pos = cr.Failure.File + ":" + cr.Failure.Pos.String()
		}
	}
	res.CheckErrors = append(res.CheckErrors, ce)
}

// RunChecks calls each def-check (no arguments) on m after a plan run and
// records what they report: categories in Errors, checks that did not
// return normally in CheckErrors. Runner.Run uses it after the plan; a
// plan run without a world (labelcov run) uses it alone.
func (res *Result) RunChecks(ctx context.Context, m *vm.Machine, checks []*compile.Func) {
	for _, c := range checks {
		cr := m.Call(ctx, c, nil)
		switch {
		case cr.Outcome != vm.OutcomeOK:
			res.checkError(c, cr)
		case !cr.Value.IsNil():
			res.addError(category(cr.Value))
		}
	}
}

// Program, World, Plan, Machine and State give access to the parts, e.g.
// for reports that map counters to source positions.
func (r *Runner) Program() *compile.Program { return r.prog }
func (r *Runner) World() *World             { return r.world }
func (r *Runner) Plan() *compile.Func       { return r.plan }
func (r *Runner) Machine() *vm.Machine      { return r.m }
func (r *Runner) State() *State             { return r.state }

// Counters are the VM's coverage counters of the last run (plan and
// checks): each Run starts from zero.
func (r *Runner) Counters() []uint8 { return r.m.Counters() }

// RunBytes decodes data into an environment (DecodeEnv with the runner's
// MaxObjects) and runs it.
func (r *Runner) RunBytes(ctx context.Context, data []byte) *Result {
	r.world.DecodeEnvInto(&r.env, data, r.opts.MaxObjects)
	return r.Run(ctx, &r.env)
}

// Run resets the world to env, runs the plan (with its policies after
// every action), then every def-check (whatever the plan's outcome), and
// returns the result.
func (r *Runner) Run(ctx context.Context, env *Env) *Result {
	r.state.Reset(env)
	r.m.ResetCounters()
	res := &r.res
	res.Errors = res.Errors[:0]
	res.CheckErrors = res.CheckErrors[:0]
	res.VM = r.m.Run(ctx, r.plan, r.opts.Args)
	res.RunChecks(ctx, r.m, r.checks)
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

// category names an error category a check returned: a symbol, keyword or
// string by its name, anything else printed.
func category(v value.Value) string {
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString:
		return v.Str()
	}
	return v.String()
}
