package campaign

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// DefaultMaxSteps is the step budget per run (and per check) of plans fuzzed
// through Setup: far above any sane run of the bundled plans (thousands
// of steps), low enough that an endless loop costs milliseconds.
const DefaultMaxSteps = 1_000_000

// DefaultMeasureCriteria is the yardstick of label coverage: all criteria, so
// that campaigns guided by different criteria compare on the same labels,
// and MC/DC (its figure counts conditions, see Meter.ByCriterion).
var DefaultMeasureCriteria = mustCriteria("mcc,cc,wm,mcdc")

func mustCriteria(s string) labels.Criteria {
	c, err := labels.ParseCriteria(s)
	if err != nil {
		panic(err)
	}
	return c
}

// Setup describes fuzzing one plan: what `labelcov fuzz`, `labelcov
// afl-target` and `labelcov replay` build from their flags, and what a
// program embedding labelcov would build too.
type Setup struct {
	// Plan is the original (not annotated) plan.
	Plan *syntax.File
	// PlanName names the def-plan to run ("" means main, or the only plan).
	PlanName string
	// World, when set, decodes inputs into environments of it; without a
	// world the plan's parameters come from the input (DecodeArgs).
	World *sim.World
	// Criteria guide the campaign: the plan is annotated in memory with
	// these labels before fuzzing, so they reach the fuzzer as branches.
	// Zero fuzzes the original plan.
	Criteria labels.Criteria
	// Measure is the yardstick of label coverage: kept inputs are replayed
	// on the plan annotated with these criteria, whatever Criteria are.
	// Zero means DefaultMeasureCriteria.
	Measure labels.Criteria
	// NoMeasure drops the label yardstick (--measure none): kept inputs
	// are replayed on the original plan only (instructions, branches,
	// actions), and no plan is annotated for measuring.
	NoMeasure   bool
	MCCMaxAtoms int // 0: labels.DefaultMCCMaxAtoms
	// PureFuncs are external functions without effects, besides the
	// simulator's queries (which are always pure).
	PureFuncs  []string
	MaxObjects int   // object slots read from an input; 0: sim.DefaultMaxObjects
	MaxSteps   int64 // per run and per check; 0: DefaultMaxSteps
	// RunTimeout is the wall-clock limit of one run (plan and checks): a
	// run exceeding it is cancelled and is a hang finding, in campaigns of
	// either engine and in Replay. 0: engine.DefaultRunTimeout; negative:
	// no limit.
	RunTimeout time.Duration
	// NoRetire keeps every label evaluated in the fuzzing targets
	// (NewTarget, NewExecutor), for research comparisons. By default they
	// retire labels that fired (vm.LabelMode.Retire); replay, meters
	// and measurement never retire. Either way the fuzzing targets record
	// only that a label fired (vm.LabelMode.FiredOnly).
	NoRetire bool
	// Compiled, when set, is called with every program Build compiles
	// (pipeline.Options.Compiled): a fuzz process compiles each program
	// once, and tests count them.
	Compiled func(*compile.Program)
}

// Fuzzer is a Setup compiled: the plan under test (the original
// plan, the plan the fuzzer runs, annotated with Criteria, and the plan
// label coverage is measured on). It hands out targets, AFL executors,
// hooks and coverage meters; it is immutable and safe for concurrent use.
type Fuzzer struct {
	Setup Setup
	// PUT is the plan under test, built once (pipeline.Build).
	PUT *pipeline.PlanUnderTest
	// Original is the original plan compiled; Fuzzed is the program the
	// fuzzer runs (Original when Setup.Criteria is zero).
	Original, Fuzzed *compile.Program
	// GuideLabels counts the active labels of the fuzzed annotated plan
	// (PUT.Guide; 0 when the original is fuzzed).
	GuideLabels int
	// Warnings are the label enumeration's warnings (file:line:col), of
	// both the guiding and the measuring annotation.
	Warnings []string

	keys []labels.Key // the measuring criteria
}

// Build parses nothing (the plan is already read): it annotates and compiles
// what the setup needs. Errors in the plan are *syntax.Error (file:line:col).
func (s Setup) Build() (*Fuzzer, error) {
	if s.Plan == nil {
		return nil, errors.New("fuzzdriver: Setup.Plan is nil")
	}
	if s.MaxSteps <= 0 {
		s.MaxSteps = DefaultMaxSteps
	}
	if s.MaxObjects <= 0 {
		s.MaxObjects = sim.DefaultMaxObjects
	}
	if s.RunTimeout == 0 {
		s.RunTimeout = engine.DefaultRunTimeout
	}
	if s.Measure == 0 {
		s.Measure = DefaultMeasureCriteria
	}
	o := pipeline.Options{Plan: s.PlanName, World: s.World, Guide: s.Criteria,
		Labels: labels.Options{MCCMaxAtoms: s.MCCMaxAtoms}, Normalize: normalize.Options{PureFuncs: s.PureFuncs},
		Compiled: s.Compiled, NoTree: true} // a campaign only runs the programs
	if !s.NoMeasure {
		o.Measure = s.Measure
	}
	put, err := pipeline.Build(s.Plan, o)
	if err != nil {
		if s.PlanName == "" && errors.Is(err, sim.ErrSeveralPlans) {
			return nil, fmt.Errorf("%w; choose one with --plan", err)
		}
		return nil, err
	}
	p := &Fuzzer{Setup: s, PUT: put, Original: put.Original, Fuzzed: put.Original}
	if g := put.Guide; g != nil {
		p.Fuzzed, p.GuideLabels = g.Program, len(g.Active)
		p.Warnings = append(p.Warnings, g.Warnings()...)
	}
	if m := put.Measure; m != nil {
		if m != put.Guide {
			p.Warnings = append(p.Warnings, m.Warnings()...)
		}
		p.keys = s.Measure.Keys()
	}
	return p, nil
}

// Plan is the def-plan that runs (in the original program).
func (p *Fuzzer) Plan() *compile.Func { return p.PUT.Plan }

// MaxLen suggests Campaign.MaxLen: without a world, 8 bytes per parameter
// (longer inputs are ignored beyond that); with a world, MaxObjects objects.
func (p *Fuzzer) MaxLen() int {
	if p.Setup.World == nil {
		return max(8*p.Plan().NumParams(), 1)
	}
	return p.Setup.MaxObjects * p.Setup.World.BytesPerObject()
}

// Objects is Campaign.Objects: objects the world's decoder places (nil
// without a world: findings are minimized to the fewest bytes).
func (p *Fuzzer) Objects() engine.ObjectCount {
	if p.Setup.World == nil {
		return nil
	}
	return EnvObjects(p.Setup.World, p.Setup.MaxObjects)
}

// SaveFinding is Campaign.SaveFinding: with a world, NAME.env beside each
// saved finding; nil without.
func (p *Fuzzer) SaveFinding() func(path string, input []byte, rec engine.FindingRecord) error {
	if p.Setup.World == nil {
		return nil
	}
	return EnvBeside(p.Setup.World, p.Setup.MaxObjects)
}

// Campaign returns a Campaign with NewTarget, MaxLen, Dict, Objects, SaveFinding
// and Coverage (a fresh Meter) filled in; the caller adds seeds, budgets and
// the directory.
func (p *Fuzzer) Campaign() (engine.Campaign, *Meter, error) {
	m, err := p.NewMeter()
	if err != nil {
		return engine.Campaign{}, nil, err
	}
	return engine.Campaign{
		NewTarget:   p.NewTarget,
		RunTimeout:  p.Setup.RunTimeout,
		MaxLen:      p.MaxLen(),
		Dict:        p.Dict(),
		Objects:     p.Objects(),
		SaveFinding: p.SaveFinding(),
		Coverage:    m.Coverage,
	}, m, nil
}

// NewExecutor is the AFL++ executor of the fuzzed plan: a finding (a check
// category, a policy violation, an unhandled plan failure, a timeout) is a
// crash.
func (p *Fuzzer) NewExecutor() (afl.Executor, error) {
	t, err := p.fuzzedTarget(AFLLabels(p.Setup.NoRetire))
	if err != nil {
		return nil, err
	}
	return &planExecutor{t: t, n: p.Fuzzed.NumCounters()}, nil
}

type planExecutor struct {
	t engine.Target
	n int
}

func (e *planExecutor) NumCounters() int { return e.n }

func (e *planExecutor) Exec(ctx context.Context, input []byte) ([]uint8, bool, error) {
	out, err := e.t.Run(ctx, input)
	if err != nil {
		return nil, false, err
	}
	return e.t.Counters(), len(out.Findings) > 0, nil
}
