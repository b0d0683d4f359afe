package vm

import "github.com/labelcov/labelcov/interp/compile"

// Dead probes (Config.Labels.SilentRetire). A silently retired label
// probe is opDead in the plain code: it writes nothing, charges no step
// (the loop gives back the step it took, as for a temporary's SETT) and
// jumps over the probe, forward, so no loop is made of them. The labels
// of one point are a chain of probes, so retired labels make runs of
// consecutive dead probes, [start, end), which regroup finds (findDead)
// and the fused code does not dispatch at all (skipDead):
//
//   - every jump whose target is in a run (JMP, the conditional jumps,
//     DOLOOP, SKIPT..., PROBEOK's exit, a nested PROBE's skip) jumps
//     past it instead, and so does a call of a function whose body
//     starts with one (Machine.entry);
//   - the instruction before a run, when it can fall through into it,
//     becomes opThenSkip: the loop runs it (its op from the plain code)
//     with pc already past the run, so that a call returns there and a
//     jump it takes still goes where it goes; the commonest of them run
//     in one dispatch instead (thenSkip);
//   - what still reaches a run (a PROBEGUARD's skip, a handler clause,
//     the tail of a superinstruction) meets, at its start, one opDead
//     jumping to its end.
//
// The plain code (what runs near the step budget, and what tests compare
// the fused code with) keeps every dead probe, dispatched and free. So
// the two agree step for step and counter for counter; only where the
// loop stands differs, inside a run or after it, and positions are made
// the same: a poll (a timeout, a cancellation) at a pc inside a run
// reports the run's end (pastDead), and a failure of an instruction run
// by opThenSkip, where pc is past the run, reports that instruction
// (ranAt).

// findDead computes deadEnd from the plain code: nil when no probe is
// dead (so that the failure path costs nothing without them).
func (m *Machine) findDead() {
	if !m.cfg.Labels.SilentRetire {
		return
	}
	clear(m.deadEnd)
	for pc := 0; pc < len(m.plain); pc++ {
		if m.plain[pc].op != opDead {
			continue
		}
		end := pc
		for end < len(m.plain) && m.plain[end].op == opDead {
			end = int(m.plain[end].a)
		}
		if m.deadEnd == nil {
			m.deadEnd = make([]int32, len(m.plain))
		}
		for q := pc; q < end; q++ {
			m.deadEnd[q] = int32(end)
		}
		pc = end - 1
	}
}

// pastDead is pc, or the end of the run of dead probes pc is in.
func (m *Machine) pastDead(pc int) int {
	if pc >= 0 && pc < len(m.deadEnd) && m.deadEnd[pc] != 0 {
		return int(m.deadEnd[pc])
	}
	return pc
}

// ranAt is the pc of the instruction whose failure the loop reports when
// it stands at pc+1: pc, or, when pc is in a run of dead probes (the
// fused code ran the instruction before the run as opThenSkip, pc past
// the run, and dead probes never fail), the instruction before the run.
func (m *Machine) ranAt(pc int) int {
	for pc >= 0 && pc < len(m.deadEnd) && m.deadEnd[pc] != 0 {
		pc--
	}
	return pc
}

// skipDead makes the fused code skip the runs of dead probes (see the
// comment at the top). The fused code is fresh from the plain code and
// the groups (regroup), so every target it holds is the compiler's.
func (m *Machine) skipDead() {
	if m.deadEnd == nil {
		return
	}
	for i, e := range m.entry {
		m.entry[i] = int32(m.pastDead(int(e)))
	}
	for pc := range m.fused {
		in := &m.fused[pc]
		if in.op != m.plain[pc].op {
			continue // a superinstruction or a group: no compiled target
		}
		switch {
		case in.op.IsJump(), in.op == opDead: // A is a jump target
			in.a = int32(m.pastDead(int(in.a)))
		case in.op == compile.PROBE:
			in.b = int32(m.pastDead(int(in.b))) // where it skips to, nested
		}
	}
	for pc := 0; pc < len(m.plain); pc++ {
		end := int(m.deadEnd[pc])
		if end == 0 {
			continue
		}
		m.fused[pc] = instr{op: opDead, a: int32(end)}
		if p := pc - 1; p >= 0 && fallsThrough(m.plain[p].op) && m.fused[p].op == m.plain[p].op {
			m.fused[p] = m.thenSkip(m.fused[p], end)
		}
		pc = end - 1
	}
}

// thenSkip is in, an instruction that falls into a run of dead probes
// ending at end, as the fused code runs it: in one dispatch for the
// commonest instructions (the run's end read from deadEnd at the run's
// start, as opThenSkip does), through opThenSkip otherwise.
//
//   - LOAD a; the run; LOAD b: opLoadLoadSkip, both loads (as opLoadLoad:
//     two steps, the second load's counter), on after the second;
//   - LOAD a otherwise: opLoadSkip;
//   - SETT a; the run; LOADT a: opSetTKeep, the value stays on the stack
//     and is stored in the temporary, on after the LOADT, free as both
//     (the LOADT's counter);
//   - JMPIFNOTK: opJmpIfNotKSkip, its fall-through past the run.
func (m *Machine) thenSkip(in instr, end int) instr {
	var next instr
	if end < len(m.plain) {
		next = m.plain[end]
	}
	switch {
	case in.op == compile.LOAD && end < len(m.plain) && next.op == compile.LOAD:
		return instr{op: opLoadLoadSkip, a: in.a, b: next.a}
	case in.op == compile.LOAD:
		return instr{op: opLoadSkip, a: in.a}
	case in.op == compile.SETT && end < len(m.plain) && next.op == compile.LOADT && next.a == in.a:
		return instr{op: opSetTKeep, a: in.a}
	case in.op == compile.JMPIFNOTK:
		in.op = opJmpIfNotKSkip
		return in
	}
	in.op = opThenSkip
	return in
}

// fallsThrough tells the plain instructions opThenSkip may stand for:
// those that can continue at the next pc, except label probes (which the
// groups and the runs themselves take care of, and whose label timeouts
// report their own pc).
func fallsThrough(op compile.Op) bool {
	switch op {
	case compile.JMP, compile.SKIPJMP, compile.RET, compile.PROBE, compile.PROBEOK, compile.PROBEFAIL,
		compile.PROBECMP, compile.PROBEGUARD, opRetired, opDead, opAtomSet:
		return false
	}
	return true
}
