package compile

import (
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// FuncKind says which top-level form (or lambda) a Func came from.
type FuncKind uint8

const (
	KindDefun FuncKind = iota
	KindPlan
	KindCheck
	KindPolicy
	KindLambda
	KindInit // the global initialiser (defparameter forms)
)

var funcKindNames = [...]string{"function", "plan", "check", "policy", "lambda", "init"}

func (k FuncKind) String() string { return funcKindNames[k] }

// Func is one compiled function. Its code is Program.Code[Entry:End].
type Func struct {
	Name   string
	Kind   FuncKind
	Index  int      // position in Program.Funcs
	Params []string // parameter names; the arity is len(Params)
	Pos    syntax.Pos

	Entry, End int // pc range of its code
	NumLocals  int // frame slots, parameters included
	MaxStack   int // operand temporaries above the locals

	// Captures lists, for a lambda, where the frame that creates the
	// closure finds each free variable. Free values and free cells are
	// numbered separately (LOADV / LOADVC operands), in Captures order.
	Captures []Capture
	ll       *lambdaList // parsed parameters (defuns and plans; nil for lambdas)

	// CellParams are the parameter slots that must be boxed on entry
	// (captured and assigned); the compiler emits MAKECELL for them.
	CellParams []int
}

// NumParams is the function's arity.
func (f *Func) NumParams() int { return len(f.Params) }

// FuncName implements value.Func for printing.
func (f *Func) FuncName() string { return f.Name }

// CaptureFrom says where a free variable lives in the creating frame.
type CaptureFrom uint8

const (
	FromLocal CaptureFrom = iota // the creating frame's local slot Index
	FromFree                     // the creating closure's free variable Index
)

// Capture describes one free variable of a lambda. Cell tells whether the
// variable is a cell (captured and assigned), and so which of the closure's
// two lists (values, cells) it belongs to and which list Index refers to in
// the creating frame.
type Capture struct {
	Name  string
	From  CaptureFrom
	Index int
	Cell  bool
}

// BranchInfo describes conditional jump i: Form is the position of the '('
// of the conditional form (if/when/unless/while, the cond or case clause,
// and/or) and Node that form itself, the node of the compiled tree (a
// pass that built the tree finds its forms' branches by identity, with no
// position matching; a list copied to decide reader conditionals names the
// original), Test the position of the test expression, PC the
// jump.
type BranchInfo struct {
	Form, Test syntax.Pos
	Node       syntax.Node
	PC         int
	Head       string // "if", "when", "cond", "and", ...
}

// HandlerSite is one with-failure-handling or ignore-errors form. Probe
// marks the trap of a label probe (see PROBE): a failure that reaches it
// pushes no failure value.
type HandlerSite struct {
	Pos     syntax.Pos
	Clauses []HandlerClause
	Probe   bool
}

// HandlerClause runs at PC with the failure value pushed when a failure of
// Kind (or a descendant kind) reaches the site.
type HandlerClause struct {
	Kind string
	PC   int
}

// ProbeCmp is the predicate of a compare probe (PROBECMP): the local in
// frame slot Slot (the global Slot when XGlobal) compared with the constant
// K, or with the local in slot Y when YLocal (the global Y when YGlobal; an
// unbound global makes the predicate fail, i.e. false). Cmp is '<', 'l'
// (<=), '>', 'g' (>=), '=' or '!' (/=) for the numeric comparisons (a
// non-number makes the predicate fail, i.e. false), 'e' for eq, 'm' for
// member (K a proper list of symbols, keywords or integers), 't' for
// the truth of the local itself, or '&' for (and T1 ... Tn) over Terms,
// each the truth of a local or global or its negation (the MCC and CC
// labels over atoms held in temporaries), or 'd' for a rung of a dist
// ladder (below). Not negates the result (not a failure). Skip is set for
// a PROBEGUARD's predicate: the pc after the PROBE block it guards.
//
// A rung (Cmp 'd') is the predicate the label pipeline writes for
// |x-y| < Bound: (and (< (abs (- x y)) Bound) (<= 0 (abs (- x y))) (eq (< x
// y) (< (- x y) 0))), with Bound > 0 and x and y small expressions, Ops
// computing them (leaving x and y). It holds exactly when that form is
// true (the VM's wrapping integer arithmetic and float arithmetic; a
// non-number or an unbound global fails the form: false). The rungs of
// one relation, one after the other with the same Ops, are its ladder:
// the VM computes the distance once for all of them (interp/vm, probe
// groups).
//
// An expression probe (Cmp 'x') is any other predicate made of
// variables, integers and the arithmetic, comparison and logical
// builtins (compile's doc, "Label probes"): Ops computes its value, and a
// failure (a non-number in arithmetic or a comparison, a division by
// zero, an unbound global) makes it false, as it ends a PROBE block.
type ProbeCmp struct {
	Slot    int32
	Cmp     byte
	K       value.Value
	Y       int32
	YLocal  bool
	Not     bool
	XGlobal bool
	YGlobal bool
	Terms   []ProbeTerm // Cmp '&'
	Skip    int32
	// Cmp 'd' and 'x': the postfix code; Cmp 'd': the rung's bound.
	Ops   []ProbeOp
	Bound int64
}

// ProbeOp is one step of the postfix code of a dist rung's operands or an
// expression probe (ProbeCmp.Ops), run on a small stack of values: 'L'
// pushes the local in slot Slot, 'G' the global Slot (unbound: the
// predicate fails), 'K' the integer K, 'T' t, 'N' nil, 'C' the constant
// V (a symbol or keyword); 'M' replaces the top x by (member x V), V a
// proper list of symbols, keywords and integers; '+', '-', '*',
// '/' and '%' (mod) pop two values and push what the builtin of two
// arguments returns, as do the comparisons '<', '(' (<=), '>', ')' (>=),
// '=', '!' (/=) and 'e' (eq); 'a' (abs) and 'n' (not) replace the top;
// '&' (and) and '|' (or) jump to Slot, keeping the top, when it is nil
// ('&') or not nil ('|'), and otherwise pop it. A builtin's failure fails
// the predicate.
type ProbeOp struct {
	Op   byte
	Slot int32
	K    int64
	V    value.Value
}

// MaxProbeOps bounds the length of a probe's postfix code.
const MaxProbeOps = 48

// MaxProbeStack is the most values a probe's postfix code keeps at once.
const MaxProbeStack = 8

// ProbeTerm is one operand of a conjunction probe: the truth of the local
// in slot Slot (the global Slot when Global), negated when Not.
type ProbeTerm struct {
	Slot   int32
	Global bool
	Not    bool
}

// DesigShape is the static part of a designator form: class and keys.
type DesigShape struct {
	Class string
	Keys  []string
}

// Program is a compiled plan file.
type Program struct {
	File string // file name, for positions in messages

	// The instruction stream, as parallel arrays indexed by pc.
	Code []Op
	A, B []int32
	Pos  []syntax.Pos

	Consts    []value.Value
	Funcs     []*Func
	Globals   []string // defparameter names, by index
	Externals []string // names of calls to neither user functions nor core builtins
	Desigs    []DesigShape
	Handlers  []HandlerSite
	Probes    []ProbeCmp // compare probes, by PROBECMP operand A
	Init      *Func      // assigns the globals in source order; run at the start of each run

	// Package is the package named by the file's (in-package NAME), or "".
	Package string
	// Notes lists, in source order, the top-level forms the compiler
	// skipped (defmacro, defmethod, def-fact-group, a top-level call, a
	// definition using a macro, ...: the file compiles without them) and
	// the first use of each free variable without earmuffs, taken as a
	// global of another file.
	Notes []*syntax.Error
	// PassedThrough lists the definitions that did not compile, passed
	// through under Options.PassThrough (each also has a note).
	PassedThrough []syntax.Node

	branches []BranchInfo
	byName   map[string]*Func // user-callable functions (defun, def-plan, def-check, def-policy)
}

// ForgetTree drops what p keeps of the tree it was compiled from and
// running it never reads (each branch's Node, the functions' parsed
// lambda lists, PassedThrough): a process that runs p for long and needs
// the tree no more lets the tree go, which every collection of its heap
// would otherwise mark. Nothing p runs or reports changes.
func (p *Program) ForgetTree() {
	for i := range p.branches {
		p.branches[i].Node = nil
	}
	for _, fn := range p.Funcs {
		fn.ll = nil
	}
	p.PassedThrough = nil
}

// NumInstructions is the number of instructions, i.e. the number of
// instruction counters.
func (p *Program) NumInstructions() int { return len(p.Code) }

// NumBranches is the number of conditional jumps; each has two counters.
func (p *Program) NumBranches() int { return len(p.branches) }

// NumCounters is the length of the coverage counter array.
func (p *Program) NumCounters() int { return len(p.Code) + 2*len(p.branches) }

// Instr returns the source position of instruction pc.
func (p *Program) Instr(pc int) syntax.Pos { return p.Pos[pc] }

// Branch describes conditional jump i.
func (p *Program) Branch(i int) BranchInfo { return p.branches[i] }

// BranchCounter is the index of the counter of branch i for the given test
// outcome: NumInstructions()+2*i when the test was true, +1 when false.
func (p *Program) BranchCounter(i int, testTrue bool) int {
	c := len(p.Code) + 2*i
	if !testTrue {
		c++
	}
	return c
}

// Func returns the user function (defun, plan, check or policy) called name.
func (p *Program) Func(name string) *Func { return p.byName[name] }

// Plan returns the def-plan called name, or nil.
func (p *Program) Plan(name string) *Func { return p.ofKind(name, KindPlan) }

func (p *Program) ofKind(name string, k FuncKind) *Func {
	if f := p.byName[name]; f != nil && f.Kind == k {
		return f
	}
	return nil
}

// Plans returns the def-plans in source order.
func (p *Program) Plans() []*Func { return p.allOfKind(KindPlan) }

// Checks returns the def-checks in source order.
func (p *Program) Checks() []*Func { return p.allOfKind(KindCheck) }

// Policies returns the def-policies in source order.
func (p *Program) Policies() []*Func { return p.allOfKind(KindPolicy) }

func (p *Program) allOfKind(k FuncKind) []*Func {
	var out []*Func
	for _, f := range p.Funcs {
		if f.Kind == k {
			out = append(out, f)
		}
	}
	return out
}

// ExternalCall is one call site of an external (a name that is neither a
// user function nor a core builtin, linked by vm.New from vm.Config.Builtins).
type ExternalCall struct {
	Name string
	Pos  syntax.Pos // the '(' of the call form
}

// ExternalCalls lists the call sites of externals in code order, so that a
// caller who knows what it will link can report unlinkable names before
// running anything.
func (p *Program) ExternalCalls() []ExternalCall {
	var out []ExternalCall
	for pc, op := range p.Code {
		if op == CALLX {
			out = append(out, ExternalCall{Name: p.Externals[p.A[pc]], Pos: p.Pos[pc]})
		}
	}
	return out
}
