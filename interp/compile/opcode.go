package compile

// Version identifies the bytecode format. Bump it whenever an opcode, its
// operands or the coverage layout changes meaning.
const Version = 4

// Op is an opcode. Each comment gives the stack picture: operands before the
// name are popped (top of stack last), results after it are pushed. A and B
// are the instruction's operands.
type Op uint8

const (
	NOP Op = iota // - NOP -

	// Constants.
	NIL   // - NIL nil
	T     // - T t
	CONST // - CONST consts[A]
	INT   // - INT A            (small integer immediate)

	// Stack shuffling.
	POP  // x POP -
	DUP  // x DUP x x
	DROP // x1..xA DROP -

	// Locals (slot A of the current frame), cells and closure variables.
	LOAD     // - LOAD local[A]
	STORE    // x STORE x         local[A] = x
	SET      // x SET -           local[A] = x
	MAKECELL // - MAKECELL -      box local[A] into a fresh cell
	LOADC    // - LOADC cell[A].v
	STOREC   // x STOREC x        cell[A].v = x
	LOADV    // - LOADV closure.vals[A]
	LOADVC   // - LOADVC closure.cells[A].v
	STOREVC  // x STOREVC x       closure.cells[A].v = x
	GETVALUE // - GETVALUE global[A]     (unbound-variable if never set)
	SETVALUE // x SETVALUE x      global[A] = x

	// Control. Conditional jumps count branch B (true/false) and jump to A.
	JMP       // - JMP -
	JMPIF     // x JMPIF -          jump when x is true
	JMPIFNOT  // x JMPIFNOT -       jump when x is nil
	JMPIFK    // x JMPIFK x | -     jump keeping x when true, else pop (or)
	JMPIFNOTK // x JMPIFNOTK x | -  jump keeping x when nil, else pop (and)
	JMPNIL    // x JMPNIL -         uncounted (loop plumbing, not a source test)
	SKIPJMP   // y1..yB x SKIPJMP x  drop the B values under the top, jump to A
	DOLOOP    // - DOLOOP -         jump to A when local[B] < local[B+1] (dotimes)
	INCLOCAL  // - INCLOCAL -       local[A] = local[A] + 1 (integer)
	CHECKINT  // x CHECKINT x       type-error unless x is an integer

	// Calls. Arguments are pushed left to right.
	CALL     // a1..aB CALL r       call user function Funcs[A]
	CALLB    // a1..aB CALLB r      call core builtin A
	CALLX    // a1..aB CALLX r      call external Externals[A] (linked by vm.New)
	FUNCALL  // f a1..aA FUNCALL r  call a function value (closure or name)
	FUNCTION // - FUNCTION f        function value of user function Funcs[A]
	CLOSURE  // - CLOSURE f         closure of Funcs[A], capturing per Captures
	RET      // x RET               return x to the caller

	// Inlined builtins (same semantics as the named builtin with 1 or 2 args).
	ADD    // x y ADD x+y
	SUB    // x y SUB x-y
	MUL    // x y MUL x*y
	LT     // x y LT x<y
	LE     // x y LE x<=y
	GT     // x y GT x>y
	GE     // x y GE x>=y
	NUMEQ  // x y NUMEQ x=y
	ADD1   // x ADD1 x+1
	SUB1   // x SUB1 x-1
	NOT    // x NOT (not x)
	CAR    // x CAR (car x)
	CDR    // x CDR (cdr x)
	CONS   // x y CONS (x . y)
	EQ     // x y EQ (eq x y)
	EQL    // x y EQL (eql x y)
	MOD    // x y MOD (mod x y)
	MEMBEQ // x MEMBEQ bool     x eql to a member of the list consts[A] (case keys)

	// Immediate forms, made by the peephole pass from INT A followed by
	// the plain opcode: (- n 1) is LOAD n; SUBI 1.
	ADDI   // x ADDI x+A
	SUBI   // x SUBI x-A
	LTI    // x LTI x<A
	LEI    // x LEI x<=A
	GTI    // x GTI x>A
	GEI    // x GEI x>=A
	NUMEQI // x NUMEQI x=A

	// CPL and failures.
	MAKEDESIG // v1..vB MAKEDESIG d   designator of shape Desigs[A]
	HANDLER   // - HANDLER -           install handler site Handlers[A]
	UNHANDLE  // - UNHANDLE -          remove the newest handler record

	// Label probes: an empty-bodied (when (ignore-errors P)) whose value
	// is discarded. PROBE installs the failure trap of handler site A
	// (one "failure" clause whose PC is the PROBEFAIL) and saves the
	// step and allocation counts; P runs; PROBEOK pops P's value, counts
	// branch B true or false exactly as the when's JMPIFNOT would, removes
	// the trap, restores the saved counts (the probe's instructions are
	// charged to the separate label budget instead) and jumps to A, over
	// the failure path. A failure inside P unwinds to the PROBE's stack
	// depth (no failure value is pushed), restores the counts and runs
	// PROBEFAIL, which counts branch B false.
	PROBE     // - PROBE -             install probe trap Handlers[A], save steps and allocations
	PROBEOK   // x PROBEOK -           count branch B for x, remove the trap, restore, jump to A
	PROBEFAIL // - PROBEFAIL -         failure path of a probe: count branch B false
	// A probe whose predicate is one comparison of a local with a
	// constant, (OP x K) or (not (OP x K)), a dist rung or an expression
	// of variables, integers and arithmetic, comparison and logical
	// builtins (doc.go, "Label probes"), is one instruction: it counts
	// branch B as PROBEOK would (a failure, x not a number, counts false)
	// and is charged to the label budget, not the plan's steps.
	PROBECMP // - PROBECMP -          compare probe Probes[A], count branch B
	// A probe whose predicate is (and C P2 ...) with C a compare probe's
	// predicate starts with PROBEGUARD, the PROBE block of (and P2 ...)
	// after it: it evaluates C as PROBECMP would (charged to the label
	// budget); false, it counts branch B false and jumps over the block
	// (to Probes[A].Skip), as the block would have ended; true, the
	// block runs.
	PROBEGUARD // - PROBEGUARD -        guard Probes[A] of the PROBE block after it, branch B

	// Normalize's temporaries (a plan declaring (declaim
	// (labelcov-temporaries "PREFIX")), as normalize writes it): binding a
	// temporary and reading it back exist only because normalize moved a
	// side effect out of a condition, so they are charged no step and an
	// annotated or normalized plan takes exactly the original's steps. The
	// value computation itself keeps its steps. Neither jumps, so every
	// loop still holds a charged instruction and MaxSteps bounds time.
	// A temporary bound to (if G X nil) or (if G nil X), with G a
	// temporary or (or G1 ... Gn) of temporaries, is normalize's
	// short-circuit of an and/or operand X: each guard is one
	// instruction that, when local[B] has the given truth, pushes nil
	// and jumps forward to A (the temporary's SETT), over X. The guard on
	// Gn (the operand before X) is charged a step: it stands for the
	// jump the original and/or made after that operand, so the original's
	// steps are taken in the same order (a failure or a timeout in X
	// sees the same count); the guards on G1..Gn-1 are free (SKIPTF). The
	// and/or of temporaries after the bindings (the residue) then jumps
	// for free (JMPIFKF, JMPIFNOTKF) after each operand whose jump a
	// guard already charged, and counts its branches as JMPIFK and
	// JMPIFNOTK do.
	SETT       // x SETT -              local[A] = x, free (a temporary's binding)
	LOADT      // - LOADT local[A]      free (a temporary's read)
	SKIPT      // - SKIPT - | nil       local[B] true: push nil, jump to A
	SKIPNILT   // - SKIPNILT - | nil    local[B] nil: push nil, jump to A
	SKIPTF     // - SKIPTF - | nil      SKIPT, free
	JMPIFKF    // x JMPIFKF x | -        JMPIFK, free
	JMPIFNOTKF // x JMPIFNOTKF x | -     JMPIFNOTK, free

	numOps
)

var opNames = [...]string{
	NOP: "NOP", NIL: "NIL", T: "T", CONST: "CONST", INT: "INT",
	POP: "POP", DUP: "DUP", DROP: "DROP",
	LOAD: "LOAD", STORE: "STORE", SET: "SET", MAKECELL: "MAKECELL", LOADC: "LOADC",
	STOREC: "STOREC", LOADV: "LOADV", LOADVC: "LOADVC", STOREVC: "STOREVC",
	GETVALUE: "GETVALUE", SETVALUE: "SETVALUE",
	JMP: "JMP", JMPIF: "JMPIF", JMPIFNOT: "JMPIFNOT", JMPIFK: "JMPIFK", JMPIFNOTK: "JMPIFNOTK",
	JMPNIL: "JMPNIL", SKIPJMP: "SKIPJMP", DOLOOP: "DOLOOP", INCLOCAL: "INCLOCAL", CHECKINT: "CHECKINT",
	CALL: "CALL", CALLB: "CALLB", CALLX: "CALLX", FUNCALL: "FUNCALL", FUNCTION: "FUNCTION",
	CLOSURE: "CLOSURE", RET: "RET",
	ADD: "ADD", SUB: "SUB", MUL: "MUL", LT: "LT", LE: "LE", GT: "GT", GE: "GE", NUMEQ: "NUMEQ",
	ADD1: "ADD1", SUB1: "SUB1", NOT: "NOT", CAR: "CAR", CDR: "CDR", CONS: "CONS", EQ: "EQ",
	EQL: "EQL", MOD: "MOD", MEMBEQ: "MEMBEQ",
	ADDI: "ADDI", SUBI: "SUBI", LTI: "LTI", LEI: "LEI", GTI: "GTI", GEI: "GEI", NUMEQI: "NUMEQI",
	MAKEDESIG: "MAKEDESIG", HANDLER: "HANDLER", UNHANDLE: "UNHANDLE",
	PROBE: "PROBE", PROBEOK: "PROBEOK", PROBEFAIL: "PROBEFAIL", PROBECMP: "PROBECMP",
	PROBEGUARD: "PROBEGUARD", SETT: "SETT", LOADT: "LOADT", SKIPT: "SKIPT", SKIPNILT: "SKIPNILT", SKIPTF: "SKIPTF", JMPIFKF: "JMPIFKF", JMPIFNOTKF: "JMPIFNOTKF",
}

func (op Op) String() string {
	if int(op) < len(opNames) && opNames[op] != "" {
		return opNames[op]
	}
	return "OP?"
}

// IsJump reports whether A of op is a jump target pc.
func (op Op) IsJump() bool {
	switch op {
	case JMP, JMPIF, JMPIFNOT, JMPIFK, JMPIFNOTK, JMPNIL, SKIPJMP, DOLOOP, PROBEOK, SKIPT, SKIPNILT, SKIPTF, JMPIFKF, JMPIFNOTKF:
		return true
	}
	return false
}

// IsBranch reports whether op is a counted conditional jump (B is its
// branch index, and the branch's PC is this instruction). PROBEFAIL and
// PROBEGUARD also count branch B (its false side) but are not the
// branch's instruction.
func (op Op) IsBranch() bool {
	switch op {
	case JMPIF, JMPIFNOT, JMPIFK, JMPIFNOTK, PROBEOK, PROBECMP, JMPIFKF, JMPIFNOTKF:
		return true
	}
	return false
}

// stackEffect is the change of operand stack depth when op falls through.
func stackEffect(op Op, a, b int32) int {
	switch op {
	case NIL, T, CONST, INT, DUP, LOAD, LOADT, LOADC, LOADV, LOADVC, GETVALUE, FUNCTION, CLOSURE:
		return 1
	case POP, SET, SETT, JMPIF, JMPIFNOT, JMPIFK, JMPIFNOTK, JMPNIL, PROBEOK,
		ADD, SUB, MUL, LT, LE, GT, GE, NUMEQ, CONS, EQ, EQL, MOD:
		return -1
	case DROP:
		return -int(a)
	case SKIPJMP:
		return -int(b)
	case CALL, CALLB, CALLX, MAKEDESIG:
		return 1 - int(b)
	case FUNCALL:
		return -int(a)
	case RET:
		return -1
	}
	return 0
}

// immediateOp is the immediate form of op, if it has one.
func immediateOp(op Op) (Op, bool) {
	switch op {
	case ADD:
		return ADDI, true
	case SUB:
		return SUBI, true
	case LT:
		return LTI, true
	case LE:
		return LEI, true
	case GT:
		return GTI, true
	case GE:
		return GEI, true
	case NUMEQ:
		return NUMEQI, true
	}
	return 0, false
}
