package fuzzdriver

import (
	"context"
	"fmt"
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// PlanTarget runs a plan in the simulator: each input decodes into an
// environment of the runner's world (the documented byte layout), the plan
// runs, then the checks judge the final state. Findings are the categories
// the checks return, unhandled plan failures (kind and position), timeouts
// (position) and checks that themselves failed.
type PlanTarget struct {
	Runner   *sim.Runner
	findings []engine.Finding
}

// NewPlanTarget wraps r.
func NewPlanTarget(r *sim.Runner) *PlanTarget { return &PlanTarget{Runner: r} }

// Run runs one input. A run cut short by ctx reports ctx's error instead of
// a timeout finding, so Ctrl-C never looks like a bug.
func (t *PlanTarget) Run(ctx context.Context, input []byte) (engine.Outcome, error) {
	res := t.Runner.RunBytes(ctx, input)
	if err := ctx.Err(); err != nil {
		return engine.Outcome{}, err
	}
	t.findings = t.findings[:0]
	for _, c := range res.Errors {
		t.findings = append(t.findings, engine.Finding{Category: c})
	}
	t.findings = appendVMFinding(t.findings, res.VM)
	for _, ce := range res.CheckErrors {
		t.findings = append(t.findings, engine.Finding{Category: ce.Kind, Pos: ce.Pos, Detail: "check " + ce.Check + ": " + ce.Message})
	}
	return engine.Outcome{Findings: t.findings}, nil
}

// Counters are the VM's counters of the last run (plan and checks).
func (t *PlanTarget) Counters() []uint8 { return t.Runner.Counters() }

// EnvObjects returns an ObjectCount for Campaign.Objects: the number of
// objects an input places in w (incomplete and overlapping objects are
// dropped by the decoder), with the runner's maxObjects. It decodes into
// fresh storage, so workers may share it.
func EnvObjects(w *sim.World, maxObjects int) engine.ObjectCount {
	return func(input []byte) int { return len(w.DecodeEnv(input, maxObjects).Objects) }
}

// EnvBeside returns a Campaign.SaveFinding hook that writes the finding's
// environment in the readable .env format to path+".env", next to the bytes.
func EnvBeside(w *sim.World, maxObjects int) func(path string, input []byte, rec engine.FindingRecord) error {
	return func(path string, input []byte, _ engine.FindingRecord) error {
		if err := os.WriteFile(path+".env", w.FormatEnv(w.DecodeEnv(input, maxObjects)), 0o644); err != nil {
			return fmt.Errorf("fuzzdriver: %w", err)
		}
		return nil
	}
}

// appendVMFinding adds the finding of an unhandled failure or a timeout.
func appendVMFinding(fs []engine.Finding, r vm.Result) []engine.Finding {
	if r.Outcome == vm.OutcomeOK || r.Failure == nil {
		return fs
	}
	f := r.Failure
	pos := ""
	if f.Pos.IsValid() {
		pos = f.File + ":" + f.Pos.String()
	}
	cat := f.Kind
	if r.Outcome == vm.OutcomeTimeout {
		cat = vm.KindTimeout
	}
	return append(fs, engine.Finding{Category: cat, Pos: pos, Detail: f.Message})
}

// ArgsTarget runs a plan without a world: its def-plan parameters come from
// the input (DecodeArgs). Findings are unhandled failures, timeouts and the
// categories of def-checks.
type ArgsTarget struct {
	m        *vm.Machine
	plan     *compile.Func
	checks   []*compile.Func
	args     []value.Value
	findings []engine.Finding
}

// NewArgsTarget links plan (see sim.SelectPlan for how "" is resolved) of p
// into a VM configured by cfg (cfg.Host is normally nil: perform fails with
// no-world).
func NewArgsTarget(p *compile.Program, plan string, cfg vm.Config) (*ArgsTarget, error) {
	fn, err := sim.SelectPlan(p, plan)
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: %w", err)
	}
	m, err := vm.New(p, cfg)
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: %w", err)
	}
	return &ArgsTarget{m: m, plan: fn, checks: p.Checks(), args: make([]value.Value, fn.NumParams())}, nil
}

// Run decodes the parameters, runs the plan and the checks.
func (t *ArgsTarget) Run(ctx context.Context, input []byte) (engine.Outcome, error) {
	for i, a := range sim.DecodeArgs(input, len(t.args)) {
		t.args[i] = value.Int(a)
	}
	t.m.ResetCounters()
	r := t.m.Run(ctx, t.plan, t.args)
	t.findings = appendVMFinding(t.findings[:0], r)
	for _, c := range t.checks {
		cr := t.m.Call(ctx, c, nil)
		switch {
		case cr.Outcome != vm.OutcomeOK:
			t.findings = appendVMFinding(t.findings, cr)
		case !cr.Value.IsNil():
			t.findings = append(t.findings, engine.Finding{Category: categoryName(cr.Value)})
		}
	}
	if err := ctx.Err(); err != nil {
		return engine.Outcome{}, err
	}
	return engine.Outcome{Findings: t.findings}, nil
}

// Counters are the VM's counters of the last run.
func (t *ArgsTarget) Counters() []uint8 { return t.m.Counters() }

// categoryName names a check's result as the simulator does: symbols,
// keywords and strings by name, anything else printed.
func categoryName(v value.Value) string {
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString:
		return v.Str()
	}
	return v.String()
}
