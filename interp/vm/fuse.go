package vm

import "github.com/labelcov/labelcov/interp/compile"

// Superinstructions. New makes two copies of the program's code: plain,
// the compiled instructions as they are, and fused, where the first
// instruction of some common sequences is replaced by one instruction
// doing the work of the whole sequence:
//
//	LOAD a; LOAD b                       opLoadLoad a b
//	LOAD a; ADDI k (SUBI k)              opLoadAddI a k (-k)
//	LOAD a; LTI..NUMEQI k; JMPIF(NOT) t  opLoadCmpIJmp a k       (t, branch: the jump's)
//	INT k; MOD  (k > 0)                  opModI k
//	INCLOCAL a; DOLOOP t b               opIncLoop a             (t, b: the DOLOOP's)
//	SETT a; LOADT a                      opSetTLoadT a           (a temporary read at once)
//	two or more probes in a chain        opProbeGroup g          (group.go)
//	X; silently retired probes           opThenSkip              (dead.go)
//	LOAD a; dead probes; LOAD b          opLoadLoadSkip a b      (dead.go)
//	LOAD a; dead probes                  opLoadSkip a
//	SETT a; dead probes; LOADT a         opSetTKeep a
//	JMPIFNOTK t; dead probes             opJmpIfNotKSkip t       (b: the branch)
//
// Only the first instruction is replaced: the rest stay in place, so a
// jump into the middle of a sequence runs the plain instructions, and a
// superinstruction whose operands are not integers runs as its first
// instruction (the original, from plain) instead. A superinstruction
// bumps the counter of every instruction it stands for and charges its
// steps, so counters, steps, failures and their positions are exactly
// those of the plain code. loop runs the plain code when fewer than
// fuseSlack steps are left before the step budget, so that a
// superinstruction never steps past it.
//
// This is specialization the compiler could do, done where it cannot
// change the bytecode format, the disassembly or the coverage layout: the
// program stays what the compiler made, and the label engine and the
// reports never see a superinstruction.

// VM-only opcodes: they follow the last compile opcode, densely, so that
// the dispatch switch stays a jump table (TestDispatchOpcodesAreDense).
const (
	// opMakeDesigPerform is MAKEDESIG for a designator that only a
	// perform consumes (see TransientHost): it fills a reused designator.
	opMakeDesigPerform = compile.JMPIFNOTKF + 1 + iota
	// opRetired replaces the first instruction of a retired label probe
	// (Config.Labels.Retire): it writes the branch counters the label
	// retired with (sub: bit 0 true, bit 1 false) for branch B and jumps
	// to A, after the probe.
	opRetired
	// opDead replaces the first instruction of a silently retired label
	// probe (Config.Labels.SilentRetire): it costs nothing, writes
	// nothing and jumps to A, after the probe (dead.go).
	opDead
	// opThenSkip replaces, in the fused code, an instruction that falls
	// through into a run of silently retired probes (dead.go): it does
	// the instruction's work (op from the plain code, A and B its own)
	// and continues after the run.
	opThenSkip
	// opLoadLoadSkip, opLoadSkip, opSetTKeep and opJmpIfNotKSkip are
	// opThenSkip for the instructions that most often fall into a run
	// of dead probes, in one dispatch instead of two (dead.go).
	opLoadLoadSkip
	opLoadSkip
	opSetTKeep
	opJmpIfNotKSkip
	opLoadLoad
	opLoadAddI
	opLoadCmpIJmp
	opModI
	opIncLoop
	opSetTLoadT
	// opProbeGroup replaces the first probe of a chain of label probes
	// (group.go): it runs the chain m.groups[A] in one dispatch.
	opProbeGroup
	// opAtomSet is the SETVALUE of an atom probe's flag or atom (with
	// Labels.Retire, atomexit.go): A the global, B the atom site, sub
	// which set it is (0: the flag's clearing).
	opAtomSet
	// opPoll is never in the code: it tells loop's cold switch that the
	// hot loop stopped to poll the context and the step budget.
	opPoll
)

// fuseSlack is one less than the longest sequence a superinstruction
// stands for.
const fuseSlack = 2

// jumpOnTrue marks, in opLoadCmpIJmp's sub, that the jump is a JMPIF.
const jumpOnTrue = 0x80

// fuse writes into out (as long as code) a copy of code with
// superinstructions.
func fuse(out, code []instr) {
	copy(out, code)
	for pc := 0; pc+1 < len(code); pc++ {
		in, next := code[pc], code[pc+1]
		switch {
		case in.op == compile.LOAD && pc+2 < len(code) && isCmpI(next.op) &&
			(code[pc+2].op == compile.JMPIF || code[pc+2].op == compile.JMPIFNOT):
			sub := immCmpOp(next.op)
			if code[pc+2].op == compile.JMPIF {
				sub |= jumpOnTrue
			}
			out[pc] = instr{op: opLoadCmpIJmp, sub: sub, a: in.a, b: next.a}
		case in.op == compile.LOAD && next.op == compile.LOAD:
			out[pc] = instr{op: opLoadLoad, a: in.a, b: next.a}
		case in.op == compile.LOAD && next.op == compile.ADDI:
			out[pc] = instr{op: opLoadAddI, a: in.a, b: next.a}
		case in.op == compile.LOAD && next.op == compile.SUBI && next.a != -next.a:
			out[pc] = instr{op: opLoadAddI, a: in.a, b: -next.a}
		case in.op == compile.INT && in.a > 0 && next.op == compile.MOD:
			out[pc] = instr{op: opModI, a: in.a}
		case in.op == compile.INCLOCAL && next.op == compile.DOLOOP:
			out[pc] = instr{op: opIncLoop, a: in.a}
		case in.op == compile.SETT && next.op == compile.LOADT && next.a == in.a:
			// The normalizer hoists an operand into a temporary for the
			// labels that read it; where none does (or none is left),
			// the value stays on the stack.
			out[pc] = instr{op: opSetTLoadT, a: in.a}
		}
	}
}

func isCmpI(op compile.Op) bool {
	switch op {
	case compile.LTI, compile.LEI, compile.GTI, compile.GEI, compile.NUMEQI:
		return true
	}
	return false
}
