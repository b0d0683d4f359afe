package campaign

import (
	"context"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/vm"
)

// newRunner makes a runner of prog with the given step budget, its labels
// counting as lm says; labelMap, when set, is the annotated plan prog is
// (its Results list the labels covered).
func (p *Fuzzer) newRunner(prog *compile.Program, maxSteps int64, lm vm.LabelMode, labelMap *pipeline.Annotated) (*runner.Runner, error) {
	s := p.Setup
	return runner.New(runner.Options{Program: prog, Plan: s.PlanName, World: s.World,
		Limits: runner.Limits{MaxSteps: maxSteps, MaxObjects: s.MaxObjects}, Labels: lm, LabelMap: labelMap})
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
// original plan's text, so that findings of campaigns guided by different
// criteria have the same keys: the first time a (kind, position) shows up,
// the input is rerun on the original plan to learn the original position.
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
	t, err := p.newTarget(p.Fuzzed, p.Setup.MaxSteps, lm)
	if err != nil || p.Fuzzed == p.Original {
		return t, err
	}
	return &remapTarget{Target: t, remap: remapper{p: p}}, nil
}

// remapTarget translates positions of the annotated plan into positions of
// the original plan.
type remapTarget struct {
	engine.Target
	remap    remapper
	findings []engine.Finding
}

func (t *remapTarget) Run(ctx context.Context, input []byte) (engine.Outcome, error) {
	out, err := t.Target.Run(ctx, input)
	if err != nil {
		return out, err
	}
	t.findings, err = t.remap.remap(ctx, input, append(t.findings[:0], out.Findings...))
	if err != nil {
		return engine.Outcome{}, err
	}
	return engine.Outcome{Findings: t.findings}, nil
}

// remapper rewrites the positions of findings of the annotated plan into
// positions in the original plan's text, so that findings of campaigns
// guided by different criteria have the same keys: the first time a
// (kind, position) shows up, the input is rerun on the original plan to
// learn the original position.
type remapper struct {
	p     *Fuzzer
	orig  engine.Target // made on first need
	cache map[findingAt]string
}

// findingAt is a finding of the annotated plan: category and position.
type findingAt struct{ category, pos string }

// remap rewrites fs in place (the findings of input on the annotated
// plan) and returns it.
func (m *remapper) remap(ctx context.Context, input []byte, fs []engine.Finding) ([]engine.Finding, error) {
	var origOut *engine.Outcome
	for i := range fs {
		f := &fs[i]
		if f.Pos == "" {
			continue
		}
		at := findingAt{f.Category, f.Pos}
		if pos, ok := m.cache[at]; ok {
			f.Pos = pos
			continue
		}
		if origOut == nil {
			if m.orig == nil {
				var err error
				if m.orig, err = m.p.NewOriginalTarget(); err != nil {
					return nil, err
				}
				m.cache = map[findingAt]string{}
			}
			o, err := m.orig.Run(ctx, input)
			if err != nil {
				return nil, err
			}
			o.Findings = append([]engine.Finding(nil), o.Findings...)
			origOut = &o
		}
		for _, of := range origOut.Findings {
			if of.Category == f.Category && of.Pos != "" {
				m.cache[at] = of.Pos
				f.Pos = of.Pos
				break
			}
		}
		// No match (the annotated plan ran out of steps where the
		// original did not): the annotated position stays, marked.
		if _, ok := m.cache[at]; !ok {
			f.Pos += "(annotated)"
		}
	}
	return fs, nil
}
