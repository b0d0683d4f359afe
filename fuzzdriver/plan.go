package fuzzdriver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// DefaultMaxSteps is the step budget per run (and per check) of plans fuzzed
// through PlanSetup: far above any sane run of the bundled plans (thousands
// of steps), low enough that an endless loop costs milliseconds.
const DefaultMaxSteps = 1_000_000

// DefaultMeasureCriteria is the yardstick of label coverage: all criteria, so
// that campaigns guided by different criteria compare on the same labels.
var DefaultMeasureCriteria = mustCriteria("mcc,cc,wm")

func mustCriteria(s string) labels.Criteria {
	c, err := labels.ParseCriteria(s)
	if err != nil {
		panic(err)
	}
	return c
}

// PlanSetup describes fuzzing one plan: what `labelcov fuzz`, `labelcov
// afl-target` and `labelcov replay` build from their flags, and what a
// program embedding labelcov would build too.
type PlanSetup struct {
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

// PlanFuzz is a PlanSetup compiled: the plan under test (the original
// plan, the plan the fuzzer runs, annotated with Criteria, and the plan
// label coverage is measured on). It hands out targets, AFL executors,
// hooks and coverage meters; it is immutable and safe for concurrent use.
type PlanFuzz struct {
	Setup PlanSetup
	// PUT is the plan under test, built once (pipeline.Build).
	PUT *pipeline.PlanUnderTest
	// Original is the original plan compiled; Fuzzed is the program the
	// fuzzer runs (Original when Setup.Criteria is zero).
	Original, Fuzzed *compile.Program
	// Annotated is the text of the fuzzed annotated plan (nil when the
	// original is fuzzed); GuideLabels counts its active labels.
	Annotated   []byte
	GuideLabels int
	// Warnings are the label enumeration's warnings (file:line:col), of
	// both the guiding and the measuring annotation.
	Warnings []string

	labelsOf []labelKey // active measuring labels
	keys     []labels.Key
}

// labelKey is one active label of the measuring plan and its criterion key
// (mcc, cc, wm).
type labelKey struct {
	id  int
	key labels.Key
}

// Build parses nothing (the plan is already read): it annotates and compiles
// what the setup needs. Errors in the plan are *syntax.Error (file:line:col).
func (s PlanSetup) Build() (*PlanFuzz, error) {
	if s.Plan == nil {
		return nil, errors.New("fuzzdriver: PlanSetup.Plan is nil")
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
		Compiled: s.Compiled}
	if !s.NoMeasure {
		o.Measure = s.Measure
	}
	put, err := pipeline.Build(s.Plan, o)
	if err != nil {
		if s.PlanName == "" && strings.Contains(err.Error(), "has several plans") {
			return nil, fmt.Errorf("%w; choose one with --plan", err)
		}
		return nil, err
	}
	p := &PlanFuzz{Setup: s, PUT: put, Original: put.Original, Fuzzed: put.Original}
	if g := put.Guide; g != nil {
		p.Fuzzed, p.Annotated, p.GuideLabels = g.Program, g.Transform.Source, len(g.Active)
		p.Warnings = append(p.Warnings, g.Warnings()...)
	}
	if m := put.Measure; m != nil {
		if m != put.Guide {
			p.Warnings = append(p.Warnings, m.Warnings()...)
		}
		p.keys = s.Measure.Keys()
		for _, l := range m.Active {
			p.labelsOf = append(p.labelsOf, labelKey{id: l.ID, key: keyOf(l.Criterion)})
		}
	}
	return p, nil
}

// keyOf folds a label's criterion into the top-level keys mcc, cc and wm.
func keyOf(k labels.Key) labels.Key {
	if strings.HasPrefix(string(k), "wm") {
		return "wm"
	}
	return k
}

// Plan is the def-plan that runs (in the original program).
func (p *PlanFuzz) Plan() *compile.Func { return p.PUT.Plan }

// MaxLen suggests Campaign.MaxLen: without a world, 8 bytes per parameter
// (longer inputs are ignored beyond that); with a world, MaxObjects objects.
func (p *PlanFuzz) MaxLen() int {
	if p.Setup.World == nil {
		return max(8*p.Plan().NumParams(), 1)
	}
	return p.Setup.MaxObjects * p.Setup.World.BytesPerObject()
}

// newRunner makes a runner of prog with the given step budget, its labels
// counting as lm says; labelMap, when set, is the annotated plan prog is
// (its Results list the labels covered).
func (p *PlanFuzz) newRunner(prog *compile.Program, maxSteps int64, lm vm.LabelMode, labelMap *pipeline.Annotated) (*runner.Runner, error) {
	s := p.Setup
	return runner.New(runner.Options{Program: prog, Plan: s.PlanName, World: s.World,
		Limits: runner.Limits{MaxSteps: maxSteps, MaxObjects: s.MaxObjects}, Labels: lm, LabelMap: labelMap})
}

// newTarget makes a target running prog with the given step budget,
// its labels counting as lm says.
func (p *PlanFuzz) newTarget(prog *compile.Program, maxSteps int64, lm vm.LabelMode) (engine.Target, error) {
	r, err := p.newRunner(prog, maxSteps, lm, nil)
	if err != nil {
		return nil, err
	}
	return &runner.Target{R: r}, nil
}

// NewOriginalTarget runs the original plan.
func (p *PlanFuzz) NewOriginalTarget() (engine.Target, error) {
	return p.newTarget(p.Original, p.Setup.MaxSteps, vm.LabelMode{})
}

// NewTarget runs the fuzzed plan (for Campaign.NewTarget). When the plan is
// annotated, positions of plan failures and timeouts are reported in the
// original plan's text, so that findings of campaigns guided by different
// criteria have the same keys: the first time a (kind, position) shows up,
// the input is rerun on the original plan to learn the original position.
// Its labels count as the built-in engine needs (EngineLabels).
func (p *PlanFuzz) NewTarget() (engine.Target, error) {
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

func (p *PlanFuzz) fuzzedTarget(lm vm.LabelMode) (engine.Target, error) {
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
	p     *PlanFuzz
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

// Objects is Campaign.Objects: objects the world's decoder places (nil
// without a world: findings are minimized to the fewest bytes).
func (p *PlanFuzz) Objects() engine.ObjectCount {
	if p.Setup.World == nil {
		return nil
	}
	return EnvObjects(p.Setup.World, p.Setup.MaxObjects)
}

// SaveFinding is Campaign.SaveFinding: with a world, NAME.env beside each
// saved finding; nil without.
func (p *PlanFuzz) SaveFinding() func(path string, input []byte, rec engine.FindingRecord) error {
	if p.Setup.World == nil {
		return nil
	}
	return EnvBeside(p.Setup.World, p.Setup.MaxObjects)
}

// Campaign returns a Campaign with NewTarget, MaxLen, Objects, SaveFinding
// and Coverage (a fresh Meter) filled in; the caller adds seeds, budgets and
// the directory.
func (p *PlanFuzz) Campaign() (engine.Campaign, *Meter, error) {
	m, err := p.NewMeter()
	if err != nil {
		return engine.Campaign{}, nil, err
	}
	return engine.Campaign{
		NewTarget:   p.NewTarget,
		RunTimeout:  p.Setup.RunTimeout,
		MaxLen:      p.MaxLen(),
		Objects:     p.Objects(),
		SaveFinding: p.SaveFinding(),
		Coverage:    m.Coverage,
	}, m, nil
}

// NewExecutor is the AFL++ executor of the fuzzed plan: a finding (a check
// category, a policy violation, an unhandled plan failure, a timeout) is a
// crash.
func (p *PlanFuzz) NewExecutor() (afl.Executor, error) {
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

// ReadInput reads one input file: with a world, a .env file is encoded into
// the bytes it stands for; without one, a .args file (plan literals, one per
// argument) into the bytes that decode to those arguments; anything else is
// raw bytes.
func (p *PlanFuzz) ReadInput(path string) ([]byte, error) {
	if strings.EqualFold(filepath.Ext(path), ".args") {
		if p.Setup.World != nil {
			return nil, fmt.Errorf("%s: a .args file gives a world-less plan its arguments; with a world give a .env file or raw bytes", path)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return sim.ArgsFileInput(path, data, p.Plan())
	}
	if w := p.Setup.World; w != nil && strings.EqualFold(filepath.Ext(path), ".env") {
		env, err := w.LoadEnv(path)
		if err != nil {
			return nil, err
		}
		data, err := w.EncodeEnv(env)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return data, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return data, nil
}

// ReadCorpus reads a directory of seed inputs: every regular, non-hidden
// file in name order, each through ReadInput (so .env files are encoded
// with a world). A directory without inputs is an error.
func (p *PlanFuzz) ReadCorpus(dir string) ([][]byte, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
			continue
		}
		data, err := p.ReadInput(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no input files", dir)
	}
	return out, nil
}

// Meter measures the coverage of kept inputs on the original plan's
// yardstick: instructions and branches (both directions of each conditional)
// of the original plan, action buckets of the world, and labels of the plan
// annotated with Setup.Measure (none with Setup.NoMeasure). Use Coverage as
// Campaign.Coverage, or Add inputs by hand. A Meter is not safe for
// concurrent use.
type Meter struct {
	p     *PlanFuzz
	orig  *runner.Runner
	ann   *runner.Runner // nil with Setup.NoMeasure
	tally *measure.Tally
	n     int // inputs added
	err   error
}

// NewMeter makes an empty meter.
func (p *PlanFuzz) NewMeter() (*Meter, error) {
	var ann *runner.Runner
	if m := p.PUT.Measure; m != nil {
		// The annotated plan spends steps on its labels: give it room, so
		// that an input the original runs to its end covers the labels to
		// the end.
		var err error
		if ann, err = p.newRunner(m.Program, 4*p.Setup.MaxSteps, vm.LabelMode{}, m); err != nil {
			return nil, err
		}
	}
	orig, err := p.newRunner(p.Original, p.Setup.MaxSteps, vm.LabelMode{}, nil)
	if err != nil {
		return nil, err
	}
	return &Meter{p: p, orig: orig, ann: ann, tally: measure.NewTally(p.Original, p.Setup.World, p.PUT.Measure)}, nil
}

// Add replays one input on the original and on the measuring plan.
func (m *Meter) Add(ctx context.Context, input []byte) error {
	res, err := m.orig.Run(ctx, runner.Input{Bytes: input})
	if err != nil {
		return err
	}
	m.tally.AddOriginal(res)
	if m.ann != nil {
		if res, err = m.ann.Run(ctx, runner.Input{Bytes: input}); err != nil {
			return err
		}
		m.tally.AddLabels(m.n, res)
	}
	m.n++
	return nil
}

// Figures returns the coverage so far: "instructions", "branches",
// "actions" (with a world) and "labels" (all measuring criteria; none
// with Setup.NoMeasure).
func (m *Meter) Figures() map[string]engine.Figure {
	fig := map[string]engine.Figure{
		"instructions": m.tally.Instructions(),
		"branches":     m.tally.Branches(),
	}
	if m.ann != nil {
		fig["labels"] = m.tally.Labels()
	}
	if m.p.Setup.World != nil {
		fig["actions"] = m.tally.Actions()
	}
	return fig
}

// ByCriterion returns label coverage per criterion key (mcc, cc, wm).
func (m *Meter) ByCriterion() map[string]engine.Figure {
	out := map[string]engine.Figure{}
	for _, k := range m.p.keys {
		out[string(keyOf(k))] = engine.Figure{}
	}
	for _, l := range m.p.labelsOf {
		f := out[string(l.key)]
		f.Add(len(m.tally.Covering[l.id]) > 0)
		out[string(l.key)] = f
	}
	return out
}

// Err is the first error of a replay inside Coverage (which cannot return
// one); nil normally.
func (m *Meter) Err() error { return m.err }

// Coverage is a CoverageFunc: it replays the inputs kept since the last call.
func (m *Meter) Coverage(s engine.Snapshot) map[string]engine.Figure {
	for _, in := range s.New {
		if m.err != nil {
			break
		}
		if err := m.Add(context.Background(), in); err != nil {
			m.err = err
		}
	}
	return m.Figures()
}

// Replayed is what one input did, for `labelcov replay`.
type Replayed struct {
	// Findings are what the fuzzer records for the input (their keys are
	// the campaign's finding keys).
	Findings []engine.Finding
	// VM is the plan's result.
	VM vm.Result
	// Sim is the simulator's view of the run (trace, errors, action
	// hits); nil without a world.
	Sim *sim.Result
	// Env is the environment the input decodes into (nil without a world);
	// Args the plan's arguments (nil with a world).
	Env  *sim.Env
	Args []int64
}

// Replay runs one input as the fuzzer does (on the fuzzed plan, within the
// setup's limits, RunTimeout included) and returns its findings, with the
// campaign's keys, and the details of the run.
func (p *PlanFuzz) Replay(ctx context.Context, input []byte) (*Replayed, error) {
	s := p.Setup
	r, err := runner.New(runner.Options{Program: p.Fuzzed, Plan: s.PlanName, World: s.World,
		Limits: runner.Limits{MaxSteps: s.MaxSteps, MaxObjects: s.MaxObjects, Timeout: max(s.RunTimeout, 0)}})
	if err != nil {
		return nil, err
	}
	res, err := r.Run(ctx, runner.Input{Bytes: input})
	if err != nil {
		return nil, err
	}
	rp := &Replayed{Findings: res.Findings(nil), VM: res.Sim.VM}
	if p.Fuzzed != p.Original && !res.Hang {
		rm := remapper{p: p}
		if rp.Findings, err = rm.remap(ctx, input, rp.Findings); err != nil {
			return nil, err
		}
	}
	if s.World != nil {
		rp.Env = s.World.DecodeEnv(input, s.MaxObjects)
		rp.Sim = res.Sim.Clone()
		return rp, nil
	}
	rp.Args = sim.DecodeArgs(input, p.Plan().NumParams())
	return rp, nil
}
