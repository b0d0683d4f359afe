package runner

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Limits bound one run. Zero values take the VM's defaults (no wall-clock
// limit).
type Limits struct {
	MaxSteps   int64 // per run and per check
	MaxAlloc   int64
	MaxOutput  int64
	MaxObjects int // object slots read from bytes (with a world)
	// Timeout is the wall-clock limit of one run (plan and checks): a run
	// exceeding it is cancelled and its Result says Hang.
	Timeout time.Duration
}

// Check refuses a step or object budget that is zero or negative, as
// given by a user: only code that leaves a field unset means "the
// default" by 0. The error names the budget as labelcov's flags do
// (--max-steps, --max-objects); MaxAlloc, MaxOutput and Timeout are not
// checked.
func (l Limits) Check() error {
	if l.MaxSteps <= 0 {
		return fmt.Errorf("--max-steps must be positive, got %d", l.MaxSteps)
	}
	if l.MaxObjects <= 0 {
		return fmt.Errorf("--max-objects must be positive, got %d", l.MaxObjects)
	}
	return nil
}

// Options configure a Runner.
type Options struct {
	// Program is the compiled plan to run (original or annotated) and Plan
	// the def-plan ("": main, or the only plan).
	Program *compile.Program
	Plan    string
	// World, when set, runs the plan in the simulator; without it the
	// plan's arguments come from the input.
	World  *sim.World
	Limits Limits
	// Labels is how label probes count (vm.LabelMode): set in fuzzing
	// processes only.
	Labels vm.LabelMode
	// Stdout receives what the plan prints (discarded when nil).
	Stdout io.Writer
	// Args are the plan's arguments when an input gives none (with a
	// world: inputs are environments).
	Args []value.Value
	// NoChecks skips the def-checks (labelcov run, for a plan that needs
	// a world it was not given).
	NoChecks bool
	// LabelMap, when set, is the annotated plan Program was compiled from:
	// each Result then lists the labels the run covered (Result.Labels).
	LabelMap *pipeline.Annotated
	// Positions, when set, maps positions in Program (an annotated plan)
	// to positions in the original plan (pipeline.Annotated.Positions):
	// findings and Result.FailureAt name places in the plan as written.
	Positions *srcpos.Map
}

// Input is one input of a plan, in one of its forms. With a world: Env,
// else Bytes decoded into an environment (nil bytes: the empty
// environment); Args, when set, are the plan's arguments. Without a
// world: Args, else Bytes decoded into the plan's parameters (8 bytes
// each, sim.DecodeArgs).
type Input struct {
	Bytes []byte
	Env   *sim.Env
	Args  []value.Value
}

// Runner runs one compiled plan on one input at a time. It is the one
// library type every verb runs plans through (run, replay, sample, cover,
// both fuzzing engines' targets, compare); its core is sim.Runner. A
// Runner is not safe for concurrent use: make one per goroutine.
type Runner struct {
	opts Options
	sim  *sim.Runner
	res  Result
}

// Result is one run. It belongs to the Runner and is overwritten by the
// next run; copy what must be kept (Result.Sim.Clone, slices).
type Result struct {
	// Sim is what the plan and its checks did: VM (outcome, value,
	// failure, steps), Errors (the categories def-policies and def-checks
	// returned, each once, in order of discovery), CheckErrors (checks and
	// policies that did not return normally), Actions (the trace) and Hits
	// (performed actions per action-coverage bucket; both nil without a
	// world).
	Sim *sim.Result
	// Counters are the VM's coverage counters of the run (plan and
	// checks; compile's layout: instructions, then two per branch).
	Counters []uint8
	// Labels are the ids of the labels the run covered, in id order (a
	// label is covered when the run reached it with its predicate true),
	// when Options.LabelMap is set; nil otherwise.
	Labels []int
	// Hang says the run exceeded Limits.Timeout and was cancelled.
	Hang bool

	timeout   time.Duration // Limits.Timeout, for the hang finding
	positions *srcpos.Map   // Options.Positions
}

// New links the program to a fresh simulator state (or to no world).
func New(o Options) (*Runner, error) {
	if o.Program == nil {
		return nil, errors.New("runner: no program")
	}
	r, err := sim.NewRunner(o.Program, o.World, sim.Options{Plan: o.Plan, Args: o.Args, MaxSteps: o.Limits.MaxSteps,
		MaxAlloc: o.Limits.MaxAlloc, MaxOutput: o.Limits.MaxOutput, MaxObjects: o.Limits.MaxObjects,
		Stdout: o.Stdout, Labels: o.Labels, NoChecks: o.NoChecks, ArgsPerRun: true})
	if err != nil {
		return nil, err
	}
	return &Runner{opts: o, sim: r}, nil
}

// Plan is the def-plan that runs; World the world (nil without one).
func (r *Runner) Plan() *compile.Func { return r.sim.Plan() }
func (r *Runner) World() *sim.World   { return r.opts.World }

// Program is the compiled plan the runner runs.
func (r *Runner) Program() *compile.Program { return r.opts.Program }

// Counters are the counters of the last run.
func (r *Runner) Counters() []uint8 { return r.sim.Counters() }

// Run runs one input. The error says the input does not fit the plan
// (arguments of the wrong number) or that ctx ended the run: a run cut
// short by the caller has no result, so that Ctrl-C never looks like a
// bug. A run cut by Limits.Timeout is a result (Hang).
func (r *Runner) Run(ctx context.Context, in Input) (*Result, error) {
	switch {
	case in.Args != nil:
		if err := r.sim.CheckArgs(in.Args); err != nil {
			return nil, err
		}
	case r.opts.World != nil:
		if err := r.sim.CheckArgs(r.opts.Args); err != nil {
			return nil, err
		}
	}
	runCtx := ctx
	if r.opts.Limits.Timeout > 0 {
		var cancel context.CancelFunc
		runCtx, cancel = context.WithTimeout(ctx, r.opts.Limits.Timeout)
		defer cancel()
	}
	var sr *sim.Result
	switch {
	case in.Args != nil:
		sr = r.sim.RunArgs(runCtx, in.Env, in.Args)
	case in.Env != nil:
		sr = r.sim.Run(runCtx, in.Env)
	default:
		sr = r.sim.RunBytes(runCtx, in.Bytes)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// Without a timeout runCtx is ctx, whose Err was just nil.
	hang := r.opts.Limits.Timeout > 0 && runCtx.Err() != nil
	res := &r.res
	res.Sim, res.Counters, res.Hang, res.timeout = sr, r.sim.Counters(), hang, r.opts.Limits.Timeout
	res.positions = r.opts.Positions
	if m := r.opts.LabelMap; m != nil {
		res.Labels = m.Covered(res.Counters, res.Labels[:0])
	}
	return res, nil
}

// Findings appends what a fuzzer records for the run to dst: the error
// categories (Sim.Errors), then an unhandled plan failure or a timeout
// (kind and file:line:col), then checks that did not return normally. A
// hang is the one finding engine.HangCategory.
func (res *Result) Findings(dst []engine.Finding) []engine.Finding {
	if res.Hang {
		return append(dst, engine.Finding{Category: engine.HangCategory, Detail: fmt.Sprintf("the run exceeded the time limit of %s", res.timeout)})
	}
	for _, c := range res.Sim.Errors {
		dst = append(dst, engine.Finding{Category: c})
	}
	if r := res.Sim.VM; r.Outcome != vm.OutcomeOK && r.Failure != nil {
		cat := r.Failure.Kind
		if r.Outcome == vm.OutcomeTimeout {
			cat = vm.KindTimeout
		}
		dst = append(dst, engine.Finding{Category: cat, Pos: res.FailureAt(), Detail: r.Failure.Message})
	}
	for _, ce := range res.Sim.CheckErrors {
		dst = append(dst, engine.Finding{Category: ce.Kind, Pos: res.At(ce.Pos), Detail: "check " + ce.Check + ": " + ce.Message})
	}
	return dst
}

// none says the run found nothing (Findings adds nothing): most fuzzer
// runs. Small enough to inline in Target.Run, which so skips the call.
func (res *Result) none() bool {
	s := res.Sim
	return !res.Hang && len(s.Errors) == 0 && len(s.CheckErrors) == 0 && s.VM.Outcome == vm.OutcomeOK
}

// Ended is how the plan ended when it did not return normally: its
// failure kind, or the outcome (timeout) when it has none; "" when it
// returned.
func (res *Result) Ended() string {
	r := res.Sim.VM
	if r.Outcome == vm.OutcomeOK {
		return ""
	}
	if r.Failure != nil && r.Failure.Kind != "" {
		return r.Failure.Kind
	}
	return string(r.Outcome)
}

// FailureAt is where the plan's unhandled failure or timeout happened, in
// the original plan (invalid when unknown or when the run ended
// normally).
func (res *Result) FailureAt() srcpos.Pos { return res.At(res.Sim.VM.Failure.At()) }

// At is p, a position in the program that ran, in the original plan.
func (res *Result) At(p srcpos.Pos) srcpos.Pos { return res.positions.Original(p) }

// Target is a Runner as the fuzzing engines' target (engine.Target): bytes
// in, counters and findings out.
type Target struct {
	R        *Runner
	findings []engine.Finding
	counters []uint8 // of the last run, as its Result has them
}

// Run runs one input (Input.Bytes) and returns its findings (owned by the
// target, valid until the next run).
func (t *Target) Run(ctx context.Context, input []byte) (engine.Outcome, error) {
	res, err := t.R.Run(ctx, Input{Bytes: input})
	if err != nil {
		t.counters = nil
		return engine.Outcome{}, err
	}
	t.findings = t.findings[:0]
	if !res.none() {
		t.findings = res.Findings(t.findings)
	}
	t.counters = res.Counters
	return engine.Outcome{Findings: t.findings}, nil
}

// Counters are the counters of the last run: those its Result holds, which
// Run has already read from the VM (reading them completes label groups
// and clears a limited run's labels, once per run is enough).
func (t *Target) Counters() []uint8 {
	if t.counters == nil {
		return t.R.Counters()
	}
	return t.counters
}
