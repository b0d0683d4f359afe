package campaign

import (
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// newRunner makes a runner of prog with the given step budget, its labels
// counting as lm says; labelMap, when set, is the annotated plan prog is
// (its Results list the labels covered). Positions in prog, when it is
// the fuzzed annotated plan, are reported in the original plan's text.
func (p *Fuzzer) newRunner(prog *compile.Program, maxSteps int64, lm vm.LabelMode, labelMap *pipeline.Annotated) (*runner.Runner, error) {
	s := p.Setup
	return runner.New(runner.Options{Program: prog, Plan: s.PlanName, World: s.World,
		Limits: runner.Limits{MaxSteps: maxSteps, MaxObjects: s.MaxObjects}, Labels: lm, LabelMap: labelMap,
		Positions: p.positions(prog)})
}

// positions maps the positions of prog to the original plan's: the
// annotation's map for the fuzzed annotated plan, nil (positions are the
// plan's own) for the original.
func (p *Fuzzer) positions(prog *compile.Program) *srcpos.Map {
	if g := p.PUT.Guide; g != nil && prog == g.Program {
		return g.Positions()
	}
	if m := p.PUT.Measure; m != nil && prog == m.Program {
		return m.Positions()
	}
	return nil
}

// newTarget makes a target running prog with the given step budget,
// its labels counting as lm says.
func (p *Fuzzer) newTarget(prog *compile.Program, maxSteps int64, lm vm.LabelMode) (engine.Target, error) {
	r, err := p.newRunner(prog, maxSteps, lm, nil)
	if err != nil {
		return nil, err
	}
	return &runner.Target{R: r}, nil
}

// NewOriginalTarget runs the original plan.
func (p *Fuzzer) NewOriginalTarget() (engine.Target, error) {
	return p.newTarget(p.Original, p.Setup.MaxSteps, vm.LabelMode{})
}

// NewTarget runs the fuzzed plan (for Campaign.NewTarget). When the plan is
// annotated, positions of plan failures and timeouts are reported in the
// original plan's text (through the map the annotation made), so that
// findings of campaigns guided by different criteria have the same keys.
// Its labels count as the built-in engine needs (EngineLabels).
func (p *Fuzzer) NewTarget() (engine.Target, error) {
	return p.fuzzedTarget(EngineLabels(p.Setup.NoRetire))
}

// EngineLabels is how labels count in the built-in engine's targets: a
// label records only that it fired, and, unless noRetire, retires once it
// has, silently (it writes nothing afterwards: the engine, which never
// runs an input twice to compare maps, has its true counter already).
func EngineLabels(noRetire bool) vm.LabelMode {
	return vm.LabelMode{Retire: !noRetire, FiredOnly: true, SilentRetire: !noRetire}
}

// AFLLabels is how labels count in the AFL++ worker (NewExecutor): as
// EngineLabels, but a retired label writes its true counter whenever it
// is reached, so that an input gives the same map on every run, as
// AFL++'s calibration requires.
func AFLLabels(noRetire bool) vm.LabelMode {
	return vm.LabelMode{Retire: !noRetire, FiredOnly: true}
}

func (p *Fuzzer) fuzzedTarget(lm vm.LabelMode) (engine.Target, error) {
	return p.newTarget(p.Fuzzed, p.Setup.MaxSteps, lm)
}
