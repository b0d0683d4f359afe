package vm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// Defaults for the limits in Config.
const (
	DefaultMaxSteps = 10_000_000
	DefaultMaxDepth = 10_000
	// DefaultMaxAlloc bounds conses, designators, closures, cells and
	// strings (one unit per 16 bytes) made in one run: on the order of
	// 100 MB of heap at worst.
	DefaultMaxAlloc = 2_000_000
	// DefaultLabelStepsFactor is MaxLabelSteps per MaxSteps when
	// Config.MaxLabelSteps is zero.
	DefaultLabelStepsFactor = 16
	// DefaultMaxOutput bounds the bytes a run prints (print, format t).
	DefaultMaxOutput = 4 << 20
	// pollEvery is how many steps run between context polls.
	pollEvery = 1 << 14
)

// Host executes actions in a world: the only door from plans to it.
type Host interface {
	Perform(m *Machine, d *value.Designator) (value.Value, error)
}

// TransientHost is a Host that does not keep the designators it
// performs: after Perform returns, neither the host nor Perform's result
// refers to d or to a designator reachable from it. When
// TransientDesignators reports true (New asks once), the VM reuses the
// storage of designators that are built only to be performed,
// (perform (an action ...)) with designators nested as the last property,
// instead of allocating them on every execution. Plans cannot tell: such a
// designator is never visible to plan code.
type TransientHost interface {
	Host
	TransientDesignators() bool
}

// Builtin is an extra function linked to calls of its name that are
// neither user functions nor core builtins (the simulator's queries). Fn
// must not keep args. It signals plan failures by returning a *Failure.
type Builtin struct {
	Name             string
	MinArgs, MaxArgs int // MaxArgs -1: variadic
	Fn               func(m *Machine, args []value.Value) (value.Value, error)
}

// Config parameterises a Machine. Zero limits take the defaults.
//
// MaxLabelSteps bounds the instructions label probes run (see
// compile.PROBE): a probe's instructions and allocations are not charged
// to the run's MaxSteps and MaxAlloc (so an annotated plan is charged
// exactly what the plan without labels is) but to this separate budget;
// exhausting it ends the run as a timeout. Zero means
// DefaultLabelStepsFactor × MaxSteps.
type Config struct {
	Host          Host
	Builtins      []Builtin
	MaxSteps      int64
	MaxDepth      int
	MaxAlloc      int64
	MaxLabelSteps int64
	Stdout        io.Writer
	// MaxOutput bounds the bytes one run writes to Stdout; printing more
	// ends the run with an uncatchable KindOutputLimit failure. Zero
	// means DefaultMaxOutput.
	MaxOutput int64
	// Labels is how label probes count in a fuzzing process (see the
	// package comment, "Label probes in fuzzing processes"). The zero
	// value, every label evaluated afresh and both its counters written,
	// is for run, cover, replay and measurement.
	Labels LabelMode
}

// LabelMode is how label probes count in a fuzzing process. For a
// fuzzer a label's false counter says nothing the plan's own counters do
// not (the label was reached), and a label it has seen fire can never
// show it anything new: the built-in engine's workers set all three, the
// AFL++ worker Retire and FiredOnly (see the package comment).
type LabelMode struct {
	// Retire retires a label probe whose branch counted true at the
	// next ResetCounters (retire.go), unless the run hit a limit (it
	// covers no label, Counters) or the run's context is done by then
	// (a fuzzer drops a hang's counters): a caller cancelling each run's
	// context after it would retire nothing.
	Retire bool
	// FiredOnly makes a label probe write its true counter when it
	// holds and nothing otherwise: its false counter stays 0.
	FiredOnly bool
	// SilentRetire (with Retire) makes a retired label free: it writes
	// no counter and charges no step, and the fused code does not even
	// dispatch it (dead.go). Without it a retired label writes the
	// counters it retired with whenever it is reached (the same input
	// gives the same map before and after, as AFL++'s calibration needs).
	SilentRetire bool
}

// Outcome is how a run ended.
type Outcome string

const (
	OutcomeOK      Outcome = "ok"
	OutcomeFailure Outcome = "failure" // an unhandled failure
	OutcomeTimeout Outcome = "timeout" // step budget exhausted or context cancelled
)

// Result is what a run produced. Failure is set unless Outcome is ok (for
// timeouts its Kind is KindTimeout or KindCanceled). Steps counts the
// instructions charged to the run; LabelSteps those of label probes,
// which are not in Steps.
type Result struct {
	Outcome    Outcome
	Value      value.Value
	Failure    *Failure
	Steps      int64
	LabelSteps int64
}

// Machine runs one Program. Make one per goroutine.
type Machine struct {
	prog   *compile.Program
	cfg    Config
	plain  []instr // the program's code (with the VM's rewrites, see fuse.go)
	fused  []instr // plain with superinstructions
	nInstr int
	core   []builtinFn
	ext    []*Builtin // by external index; nil when unlinked
	extBy  map[string]*Builtin
	stdout io.Writer

	globals []value.Value
	gset    []bool

	stack    []value.Value
	cells    []*cell // parallel to stack: boxes of captured-and-assigned locals
	frames   []frame
	handlers []handlerRec
	counters []uint8
	// sink is where instructions count while a probe's predicate runs
	// (same length as counters, never read), so that nothing it executes
	// is visible.
	sink []uint8

	steps, maxSteps int64
	allocs          int64
	output          int64 // bytes written to stdout in this run
	ctx             context.Context

	// Label probes (compile.PROBE). probeDepth is 1 while a probe's
	// predicate runs (probes do not nest: it is never more); maxSteps is
	// then the label budget's limit expressed in steps: probeBase (the
	// steps when the probe began) plus what is left of MaxLabelSteps.
	labelSteps int64
	probeDepth int
	probeBase  int64

	// probes are every label probe (labelProbes): the branches whose
	// counters a run cut by a limit clears (Counters), and the probes
	// that retire.
	probes []labelProbe
	// Retirement (Config.Labels.Retire, retire.go).
	retired []bool       // by index in probes
	live    []liveProbe  // probes not yet retired
	atoms   []atomProbe  // atom probes whose readers are not all retired
	groups  []probeGroup // chains of probes run in one dispatch (group.go)
	// visited are the groups that ran since their fixed counters were
	// last written (completeGroups).
	visited []int32
	// fired tells that a label's branch counted true since the last
	// ResetCounters: only then may a label retire.
	fired bool
	// limited tells that the plan hit a limit (IsLimit) since the last
	// ResetCounters: Counters then clears the branch counters of every
	// label probe, and nothing retires.
	limited bool
	// trash is the counter past the program's, where probe groups write
	// the false outcomes that Config.Labels.FiredOnly drops.
	trash int32
	// entry is each function's entry pc in the fused code, and deadEnd,
	// for each pc in a run of silently retired probes, the pc after the
	// run, 0 elsewhere (dead.go).
	entry   []int32
	deadEnd []int32
	// Early exits from atom probes (atomexit.go).
	atomSites  []atomSite
	atomGlobal []bool // globals that atom probes set
	atomMask   uint64 // the live readers of the atom probe running that can still be true

	// Reentrancy: a builtin or host may Call plan functions (checks,
	// policies) while a run is in progress. nesting counts active execs;
	// sp is the caller's stack top, published before each builtin call,
	// so a nested exec works above it.
	nesting   int
	sp        int
	performID int32 // core builtin id of perform

	// scratch holds reused designators for opMakeDesigPerform, by
	// designator shape (one per MAKEDESIG site) and then by nesting level,
	// so that a nested Call performing at the same site never overwrites
	// a designator its caller is still performing.
	scratch [][]*value.Designator
}

// instr is an instruction in the machine's copies of the code. sub is a
// superinstruction's or a retired probe's extra operand (fuse.go).
type instr struct {
	op   compile.Op
	sub  uint8
	a, b int32
}

type builtinFn = func(m *Machine, args []value.Value) (value.Value, error)

type cell struct{ v value.Value }

// closure is a lambda with its captured variables.
type closure struct {
	fn    *compile.Func
	vals  []value.Value
	cells []*cell
}

func (c *closure) FuncName() string { return c.fn.Name }

type frame struct {
	cl    *closure
	fp    int // first argument / local slot
	ret   int // stack slot that receives the result
	retpc int // caller's pc to resume; -1 ends exec
}

type handlerRec struct {
	frames int // len(frames) when installed
	sp     int
	site   int32
	probe  bool
	// A probe's saved step and allocation counts.
	steps, allocs int64
}

// New links p with cfg: externals to cfg.Builtins by name, core builtins
// to their implementations.
func New(p *compile.Program, cfg Config) (*Machine, error) {
	if p == nil {
		return nil, errors.New("vm: nil program")
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = DefaultMaxSteps
	}
	if cfg.MaxDepth <= 0 {
		cfg.MaxDepth = DefaultMaxDepth
	}
	if cfg.MaxAlloc <= 0 {
		cfg.MaxAlloc = DefaultMaxAlloc
	}
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	if cfg.MaxLabelSteps <= 0 {
		cfg.MaxLabelSteps = DefaultLabelStepsFactor * cfg.MaxSteps
		if cfg.MaxLabelSteps/DefaultLabelStepsFactor != cfg.MaxSteps {
			cfg.MaxLabelSteps = math.MaxInt64 / 2 // overflow
		}
	}
	m := &Machine{prog: p, cfg: cfg, stdout: cfg.Stdout, nInstr: p.NumInstructions(), extBy: map[string]*Builtin{}}
	if m.stdout == nil {
		m.stdout = io.Discard
	}
	for i := range cfg.Builtins {
		b := &cfg.Builtins[i]
		if b.Fn == nil {
			return nil, fmt.Errorf("vm: builtin %q has no function", b.Name)
		}
		if _, dup := m.extBy[b.Name]; dup {
			return nil, fmt.Errorf("vm: builtin %q is defined twice", b.Name)
		}
		if _, core := compile.CoreBuiltin(b.Name); core {
			return nil, fmt.Errorf("vm: builtin %q would shadow a core builtin", b.Name)
		}
		m.extBy[b.Name] = b
	}
	m.core = coreTable()
	id, _ := compile.CoreBuiltin("perform")
	m.performID = int32(id)
	m.ext = make([]*Builtin, len(p.Externals))
	for i, name := range p.Externals {
		m.ext[i] = m.extBy[name] // nil: undefined-function when called
	}
	m.plain = make([]instr, len(p.Code))
	for pc := range p.Code {
		m.plain[pc] = instr{op: p.Code[pc], a: p.A[pc], b: p.B[pc]}
	}
	if th, ok := cfg.Host.(TransientHost); ok && th.TransientDesignators() {
		m.markTransientDesignators()
	}
	for pc, in := range m.plain {
		if in.op == compile.PROBE {
			m.plain[pc].b = int32(m.probeEnd(pc)) // where a nested PROBE skips to
		}
	}
	m.probes = m.labelProbes()
	if cfg.Labels.Retire {
		m.setupRetirement()
	}
	// One counter more than the program has: where FiredOnly probe
	// groups write a false outcome, unseen (Counters leaves it out).
	n := p.NumCounters()
	m.trash = int32(n)
	m.counters = make([]uint8, n+1)
	m.sink = make([]uint8, n+1)
	m.entry = make([]int32, len(p.Funcs))
	m.fused = make([]instr, len(m.plain))
	m.regroup()
	m.globals = make([]value.Value, len(p.Globals))
	m.gset = make([]bool, len(p.Globals))
	m.stack = make([]value.Value, 256)
	m.cells = make([]*cell, 256)
	return m, nil
}

// Program returns the program the machine runs.
func (m *Machine) Program() *compile.Program { return m.prog }

// Stdout is where plan output goes (print, format t).
func (m *Machine) Stdout() io.Writer { return m.stdout }

// Counters returns the coverage counters of the runs since the last
// ResetCounters: NumInstructions() counters, one per instruction, then
// two per branch (test true, test false). Hit counts saturate at 255; the
// branch counters of label probes are bits (0 or 1). Fuzzers call it
// after each run: it completes the counters that groups of label probes
// write the same on every visit, which the run itself does not write
// (see completeGroups), so the slice is complete only when returned by a
// call after the run.
func (m *Machine) Counters() []uint8 {
	if len(m.visited) > 0 {
		m.completeGroups()
	}
	if m.limited {
		// A run cut by a limit (IsLimit) covers and reaches no label.
		for _, lp := range m.probes {
			i := m.counter(lp.branch)
			m.counters[i], m.counters[i+1] = 0, 0
		}
	}
	return m.counters[:m.trash]
}

// ResetCounters zeroes the counters. With Config.Labels.Retire, it first
// retires every label probe whose branch counted true since the last
// reset (see retire), unless the last run's context is done: a fuzzer
// drops the counters of a run its context cut short (a hang), so it may
// not have seen the label fire.
//
// Two checks keep a label from retiring, and neither implies the other.
// m.limited: the plan hit a limit (IsLimit: steps, output, depth,
// allocations, or a cancellation the run itself saw); Counters showed
// no label for such a run, so none may retire. m.ctx.Err(): the context
// is done now, though the run may have ended normally just before its
// deadline or have been cancelled by its caller after it ended; limited
// is false then, but a fuzzer that times runs by their context drops
// the run's counters all the same.
func (m *Machine) ResetCounters() {
	m.dropVisits()
	if m.fired && !m.limited && m.ctx.Err() == nil && (len(m.live) > 0 || len(m.atoms) > 0) && m.retire() {
		m.regroup()
		m.refreshAtomSites()
	}
	m.fired = false
	m.limited = false
	clear(m.counters)
}

// Alloc charges n allocations to the run's budget; builtins that allocate
// call it and return its failure.
func (m *Machine) Alloc(n int) error {
	if f := m.alloc(int64(n)); f != nil {
		return f
	}
	return nil
}

// Charge charges n steps of work to the run: builtins that walk a list or
// a string call it (one step per element, or per 16 bytes of text), so that
// the step budget bounds time however long the values are. A charge past
// the budget ends the run, as a timeout, before the next instruction.
func (m *Machine) Charge(n int) {
	m.steps += int64(n)
	if m.steps > m.maxSteps {
		m.steps = m.maxSteps
	}
}

// room is how many more bytes the run may print.
func (m *Machine) room() int {
	return int(min(m.cfg.MaxOutput-m.output, 1<<30))
}

// write prints s to the plan's output, charging one step per 16 bytes;
// more than Config.MaxOutput bytes in a run is an output-limit failure.
func (m *Machine) write(s string) *Failure {
	if int64(len(s)) > m.cfg.MaxOutput-m.output {
		return outputLimit(m.cfg.MaxOutput)
	}
	m.output += int64(len(s))
	m.Charge(len(s) / 16)
	if _, err := io.WriteString(m.stdout, s); err != nil {
		return Fail("error", "writing output: %v", err)
	}
	return nil
}

func outputLimit(max int64) *Failure {
	return Fail(KindOutputLimit, "output limit of %d bytes per run exceeded", max)
}

// allocString charges a string of n bytes: one object per 16 bytes, so
// that doubling a string in a loop meets the budget long before it
// exhausts the host's memory.
func (m *Machine) allocString(n int) *Failure { return m.alloc(1 + int64(n)/16) }

func (m *Machine) alloc(n int64) *Failure {
	m.allocs += n
	if m.allocs > m.cfg.MaxAlloc {
		return Fail(KindAllocationLimit, "allocation budget of %d objects exhausted", m.cfg.MaxAlloc)
	}
	return nil
}

// Global returns the value of global name and whether it is bound.
func (m *Machine) Global(name string) (value.Value, bool) {
	for i, g := range m.prog.Globals {
		if g == name && m.gset[i] {
			return m.globals[i], true
		}
	}
	return value.Nil, false
}

// Run resets the globals (runs the defparameter initialisers) and calls fn
// with args. Steps, allocations and call depth are budgeted per Run.
//
// Run must not be called from a builtin or host during a run (use Call).
func (m *Machine) Run(ctx context.Context, fn *compile.Func, args []value.Value) Result {
	if m.nesting > 0 {
		return m.funcFailure(fn, "error", "Run called during a run; builtins and hosts must use Call")
	}
	m.begin(ctx)
	clear(m.globals)
	clear(m.gset)
	r := m.exec(m.prog.Init, nil, nil)
	if r.Outcome != OutcomeOK {
		return r
	}
	return m.exec(fn, nil, args)
}

// Call calls fn without resetting globals: for checks after a run, and for
// builtins and hosts that evaluate plan functions (policies) during a run.
// A nested Call shares the run's step and allocation budgets and context
// (ctx is then ignored); failures it does not handle are returned in its
// Result and never reach the handlers of the outer run.
func (m *Machine) Call(ctx context.Context, fn *compile.Func, args []value.Value) Result {
	if m.nesting == 0 {
		m.begin(ctx)
	}
	return m.exec(fn, nil, args)
}

func (m *Machine) begin(ctx context.Context) {
	m.frames = m.frames[:0]
	m.handlers = m.handlers[:0]
	m.sp = 0
	if ctx == nil {
		ctx = context.Background()
	}
	m.ctx = ctx
	m.steps = 0
	m.maxSteps = m.cfg.MaxSteps
	m.allocs = 0
	m.output = 0
	m.labelSteps = 0
	m.probeDepth = 0
}

// enterProbe saves steps and allocations in a new probe trap record for
// handler site, steps being the count before the PROBE instruction, and
// sets probeDepth (the loop then counts into the sink). Only called
// outside probes: probes do not nest. loop's hot PROBE does the same
// inline when the handler stack has room.
func (m *Machine) enterProbe(site int32, sp int, steps int64) {
	m.handlers = append(m.handlers, handlerRec{frames: len(m.frames), sp: sp, site: site, probe: true, steps: steps, allocs: m.allocs})
	m.probeBase = steps
	m.maxSteps = steps + m.cfg.MaxLabelSteps - m.labelSteps
	m.probeDepth = 1
}

// leaveProbe removes the newest handler record, a probe's, when the probe
// ends after steps (its own instructions included): the steps since the
// PROBE go to the label budget, and steps and allocations are restored.
// It returns the restored step count, and false when the label budget is
// exhausted. The loop switches back to the counters: PROBEOK at once,
// PROBEFAIL after its own instruction counted invisibly.
func (m *Machine) leaveProbe(steps int64) (int64, bool) {
	h := m.handlers[len(m.handlers)-1]
	m.handlers = m.handlers[:len(m.handlers)-1]
	m.labelSteps += steps - h.steps
	m.allocs = h.allocs
	m.probeDepth = 0
	m.maxSteps = m.cfg.MaxSteps
	return h.steps, m.labelSteps <= m.cfg.MaxLabelSteps
}

// labelTimeout ends a run whose probes exhausted the label budget, at pc.
// steps is the current step count (probe instructions included).
func (m *Machine) labelTimeout(steps int64, pc int) Result {
	charged := steps
	label := m.labelSteps
	if m.probeDepth > 0 {
		charged = m.probeBase
		label += steps - m.probeBase
	}
	m.steps = charged
	f := m.fill(Fail(KindTimeout, "label budget of %d instructions exhausted (label probes, not the plan, ran out of steps)", m.cfg.MaxLabelSteps), pc)
	return Result{Outcome: OutcomeTimeout, Failure: f, Steps: charged, LabelSteps: label}
}

// fill completes f with the file and the position of instruction pc.
func (m *Machine) fill(f *Failure, pc int) *Failure {
	if f.File == "" {
		f.File = m.prog.File
	}
	if !f.Pos.IsValid() && pc >= 0 && pc < len(m.prog.Pos) {
		f.Pos = m.prog.Pos[pc]
	}
	return f
}

// asFailure turns a builtin's or host's error into a plan failure.
func asFailure(err error) *Failure {
	var f *Failure
	if errors.As(err, &f) {
		return f
	}
	return &Failure{Kind: "error", Message: err.Error()}
}

// funcFailure is a failure at fn's definition, raised before fn runs.
func (m *Machine) funcFailure(fn *compile.Func, kind, format string, args ...any) Result {
	f := Fail(kind, format, args...)
	f.File = m.prog.File
	if fn != nil {
		f.Pos = fn.Pos
	}
	return Result{Outcome: OutcomeFailure, Failure: f}
}

// markTransientDesignators rewrites each MAKEDESIG whose result only a
// perform consumes to opMakeDesigPerform: the instruction after it is
// CALLB perform with one argument, or a MAKEDESIG with at least one
// property (which takes the designator as its last property) whose own
// result only a perform consumes. Control always falls through from a
// MAKEDESIG to the next instruction, so jumps elsewhere do not matter.
func (m *Machine) markTransientDesignators() {
	code := m.plain
	for pc := len(code) - 1; pc >= 0; pc-- {
		if code[pc].op != compile.MAKEDESIG || pc+1 >= len(code) {
			continue
		}
		next := code[pc+1]
		if next.op == compile.CALLB && next.a == m.performID && next.b == 1 ||
			next.op == opMakeDesigPerform && next.b >= 1 {
			code[pc].op = opMakeDesigPerform
		}
	}
	m.scratch = make([][]*value.Designator, len(m.prog.Desigs))
}

// scratchDesig returns the reused designator of shape site at the current
// nesting level, making it on first use.
func (m *Machine) scratchDesig(site int, shape *compile.DesigShape) *value.Designator {
	s := m.scratch[site]
	k := m.nesting
	if k >= len(s) {
		s = append(s, make([]*value.Designator, k+1-len(s))...)
		m.scratch[site] = s
	}
	d := s[k]
	if d == nil {
		d = value.NewDesignator(shape.Class, len(shape.Keys))
		for i, key := range shape.Keys {
			d.Props[i].Key = key
		}
		s[k] = d
	}
	return d
}
