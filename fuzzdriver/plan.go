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
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
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
}

// PlanFuzz is a PlanSetup compiled: the original plan, the plan the fuzzer
// runs (annotated with Criteria, or the original) and the plan label
// coverage is measured on. It hands out targets, AFL executors, hooks and
// coverage meters; it is immutable and safe for concurrent use.
type PlanFuzz struct {
	Setup PlanSetup
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

	plan     *compile.Func // in Original
	measure  *measure.Plan // the yardstick: the plan annotated with Setup.Measure
	labelsOf []labelKey    // active measuring labels
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
	orig, err := compile.Compile(s.Plan)
	if err != nil {
		return nil, err
	}
	fn, err := sim.SelectPlan(orig, s.PlanName)
	if err != nil {
		if s.PlanName == "" && len(orig.Plans()) > 1 {
			return nil, fmt.Errorf("%w; choose one with --plan", err)
		}
		return nil, err
	}
	p := &PlanFuzz{Setup: s, Original: orig, Fuzzed: orig, plan: fn}
	if s.Criteria != 0 {
		guide, err := s.annotate(s.Criteria)
		if err != nil {
			return nil, err
		}
		p.Fuzzed, p.Annotated, p.GuideLabels = guide.AnnProg, guide.Result.Source, len(guide.Active)
		p.Warnings = append(p.Warnings, guide.Warnings()...)
	}
	if s.NoMeasure {
		return p, nil
	}
	meas, err := s.annotate(s.Measure)
	if err != nil {
		return nil, err
	}
	if s.Measure != s.Criteria {
		p.Warnings = append(p.Warnings, meas.Warnings()...)
	}
	p.measure, p.keys = meas, s.Measure.Keys()
	for _, l := range meas.Active {
		p.labelsOf = append(p.labelsOf, labelKey{id: l.ID, key: keyOf(l.Criterion)})
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

// annotate builds the plan under measurement of criteria c (the original
// and the plan annotated with c, compiled, and each label's branch).
func (s PlanSetup) annotate(c labels.Criteria) (*measure.Plan, error) {
	pure := append([]string(nil), s.PureFuncs...)
	for _, q := range sim.Queries() {
		pure = append(pure, q.Name)
	}
	return measure.NewPlan(s.Plan, transform.Options{
		Labels:    labels.Options{Criteria: c, MCCMaxAtoms: s.MCCMaxAtoms},
		Feasible:  feasible.Options{Domains: sim.LabelDomains(s.World)},
		Normalize: normalize.Options{PureFuncs: pure},
	})
}

// Plan is the def-plan that runs (in the original program).
func (p *PlanFuzz) Plan() *compile.Func { return p.plan }

// MaxLen suggests Campaign.MaxLen: without a world, 8 bytes per parameter
// (longer inputs are ignored beyond that); with a world, MaxObjects objects.
func (p *PlanFuzz) MaxLen() int {
	if p.Setup.World == nil {
		return max(8*p.plan.NumParams(), 1)
	}
	return p.Setup.MaxObjects * p.Setup.World.BytesPerObject()
}

// newTarget makes a target running prog with the given step budget,
// its labels counting as lm says.
func (p *PlanFuzz) newTarget(prog *compile.Program, maxSteps int64, lm vm.LabelMode) (engine.Target, error) {
	s := p.Setup
	if s.World != nil {
		r, err := sim.NewRunner(prog, s.World, sim.Options{Plan: s.PlanName, MaxSteps: maxSteps, MaxObjects: s.MaxObjects, Labels: lm})
		if err != nil {
			return nil, err
		}
		return NewPlanTarget(r), nil
	}
	t, err := NewArgsTarget(prog, s.PlanName, vm.Config{MaxSteps: maxSteps, Builtins: sim.NoWorldBuiltins(), Labels: lm})
	if err != nil {
		return nil, err
	}
	return t, nil
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
	return &remapTarget{Target: t, p: p, cache: map[string]string{}}, nil
}

// remapTarget translates positions of the annotated plan into positions of
// the original plan.
type remapTarget struct {
	engine.Target
	p        *PlanFuzz
	orig     engine.Target // made on first need
	cache    map[string]string
	findings []engine.Finding
}

func (t *remapTarget) Run(ctx context.Context, input []byte) (engine.Outcome, error) {
	out, err := t.Target.Run(ctx, input)
	if err != nil {
		return out, err
	}
	mapped := false
	for _, f := range out.Findings {
		if f.Pos != "" {
			mapped = true
		}
	}
	if !mapped {
		return out, nil
	}
	t.findings = append(t.findings[:0], out.Findings...)
	var origOut *engine.Outcome
	for i := range t.findings {
		f := &t.findings[i]
		if f.Pos == "" {
			continue
		}
		ck := f.Category + "@" + f.Pos
		if pos, ok := t.cache[ck]; ok {
			f.Pos = pos
			continue
		}
		if origOut == nil {
			if t.orig == nil {
				if t.orig, err = t.p.NewOriginalTarget(); err != nil {
					return engine.Outcome{}, err
				}
			}
			o, err := t.orig.Run(ctx, input)
			if err != nil {
				return engine.Outcome{}, err
			}
			o.Findings = append([]engine.Finding(nil), o.Findings...)
			origOut = &o
		}
		for _, of := range origOut.Findings {
			if of.Category == f.Category && of.Pos != "" {
				t.cache[ck] = of.Pos
				f.Pos = of.Pos
				break
			}
		}
		// No match (the annotated plan ran out of steps where the
		// original did not): the annotated position stays, marked.
		if _, ok := t.cache[ck]; !ok {
			f.Pos += "(annotated)"
		}
	}
	return engine.Outcome{Findings: t.findings}, nil
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
		return sim.ArgsFileInput(path, data, p.plan)
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
	p      *PlanFuzz
	orig   engine.Target
	ann    engine.Target // nil with Setup.NoMeasure
	instr  []bool
	branch []bool
	action []bool
	label  map[int]bool
	err    error
}

// NewMeter makes an empty meter.
func (p *PlanFuzz) NewMeter() (*Meter, error) {
	var ann engine.Target
	if p.measure != nil {
		// The annotated plan spends steps on its labels: give it room, so
		// that an input the original runs to its end covers the labels to
		// the end.
		var err error
		if ann, err = p.newTarget(p.measure.AnnProg, 4*p.Setup.MaxSteps, vm.LabelMode{}); err != nil {
			return nil, err
		}
	}
	orig, err := p.NewOriginalTarget()
	if err != nil {
		return nil, err
	}
	m := &Meter{p: p, orig: orig, ann: ann, label: map[int]bool{},
		instr:  make([]bool, p.Original.NumInstructions()),
		branch: make([]bool, 2*p.Original.NumBranches())}
	if w := p.Setup.World; w != nil {
		m.action = make([]bool, w.NumBuckets())
	}
	return m, nil
}

// Add replays one input on the original and on the measuring plan.
func (m *Meter) Add(ctx context.Context, input []byte) error {
	var cs []uint8
	if pt, ok := m.orig.(*PlanTarget); ok {
		res := pt.Runner.RunBytes(ctx, input)
		for i, h := range res.Hits {
			if h > 0 && i < len(m.action) {
				m.action[i] = true
			}
		}
		cs = pt.Runner.Counters()
	} else {
		if _, err := m.orig.Run(ctx, input); err != nil {
			return err
		}
		cs = m.orig.Counters()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	ni := len(m.instr)
	for i := range m.instr {
		if cs[i] > 0 {
			m.instr[i] = true
		}
	}
	for i := range m.branch {
		if cs[ni+i] > 0 {
			m.branch[i] = true
		}
	}
	if m.ann == nil {
		return nil
	}
	if _, err := m.ann.Run(ctx, input); err != nil {
		return err
	}
	cs = m.ann.Counters()
	for _, l := range m.p.labelsOf {
		if cs[m.p.measure.Counter(l.id, true)] > 0 {
			m.label[l.id] = true
		}
	}
	return nil
}

// Figures returns the coverage so far: "instructions", "branches",
// "actions" (with a world) and "labels" (all measuring criteria; none
// with Setup.NoMeasure).
func (m *Meter) Figures() map[string]engine.Figure {
	fig := map[string]engine.Figure{
		"instructions": count(m.instr),
		"branches":     count(m.branch),
	}
	if m.ann != nil {
		fig["labels"] = engine.Figure{Covered: len(m.label), Total: len(m.p.labelsOf)}
	}
	if m.action != nil {
		fig["actions"] = count(m.action)
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
		f.Total++
		if m.label[l.id] {
			f.Covered++
		}
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

func count(bs []bool) engine.Figure {
	f := engine.Figure{Total: len(bs)}
	for _, b := range bs {
		if b {
			f.Covered++
		}
	}
	return f
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

// Replay runs one input as the fuzzer does and again to collect the details
// of the run.
func (p *PlanFuzz) Replay(ctx context.Context, input []byte) (*Replayed, error) {
	t, err := p.fuzzedTarget(vm.LabelMode{})
	if err != nil {
		return nil, err
	}
	if p.Setup.RunTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, p.Setup.RunTimeout)
		defer cancel()
	}
	out, err := t.Run(ctx, input)
	if err != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, err
	}
	rp := &Replayed{Findings: append([]engine.Finding(nil), out.Findings...)}
	if err != nil {
		// Over the time limit: the campaign's hang finding. The details
		// below are those of the run cut short.
		rp.Findings = []engine.Finding{{Category: engine.HangCategory, Detail: fmt.Sprintf("the run exceeded the time limit of %s", p.Setup.RunTimeout)}}
	}
	s := p.Setup
	if s.World != nil {
		r, err := sim.NewRunner(p.Fuzzed, s.World, sim.Options{Plan: s.PlanName, MaxSteps: s.MaxSteps, MaxObjects: s.MaxObjects})
		if err != nil {
			return nil, err
		}
		rp.Env = s.World.DecodeEnv(input, s.MaxObjects)
		rp.Sim = r.RunBytes(ctx, input).Clone()
		rp.VM = rp.Sim.VM
		return rp, nil
	}
	fn, err := sim.SelectPlan(p.Fuzzed, s.PlanName)
	if err != nil {
		return nil, err
	}
	m, err := vm.New(p.Fuzzed, vm.Config{MaxSteps: s.MaxSteps, Builtins: sim.NoWorldBuiltins()})
	if err != nil {
		return nil, err
	}
	rp.Args = sim.DecodeArgs(input, fn.NumParams())
	args := make([]value.Value, len(rp.Args))
	for i, a := range rp.Args {
		args[i] = value.Int(a)
	}
	rp.VM = m.Run(ctx, fn, args)
	return rp, nil
}
