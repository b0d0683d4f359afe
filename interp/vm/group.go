package vm

import (
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// Probe groups. The labels of one program point are a chain of probes,
// each starting where the one before ends: `(progn (when (ignore-errors
// P1)) (when (ignore-errors P2)) … X)` compiles to PROBECMP, PROBECMP, …
// (or PROBE blocks), and once retired each of them is one opRetired
// jumping to the next. Dispatching them one by one costs more than what
// most of them do. So the fused code replaces the first probe of every
// chain of two or more one-instruction probes (PROBECMP, or retired) by
// opProbeGroup, which runs the chain in one dispatch: for each member it
// bumps the member's instruction counter and charges its label step, as
// the plain code does, then writes the branch counters a retired member
// retired with or evaluates a live one. A live PROBE block ends the chain
// (its predicate needs the dispatch loop), and so does a member the group
// cannot evaluate without the cold switch (a comparison of floats, an
// unbound global, the label budget running out): the group stops before
// it and the loop continues at its pc, in the plain instructions. So the
// counters, steps and label steps are exactly those of the plain code
// (TestFusedMatchesPlain, FuzzVM, TestProbeGroupsMatchPlain).
//
// Groups are recomputed whenever probes retire (regroup), so that a chain
// broken by a live PROBE block joins up once that probe retires.
//
// A group whose members are all retired (the commonest group of a
// campaign) does no work per visit beyond its dispatch: what its members
// write is fixed (each member's instruction counter reads what the
// group's first instruction's reads, every member runs each time the
// group does; its branch counters read what they retired with), so
// Counters writes it once, after the run, for every such group that ran
// (completeRetired).

// probeGroup is a chain of one-instruction label probes; live counts
// its members not retired.
type probeGroup struct {
	members []groupMember
	end     int // the pc after the last member
	live    int
}

// groupMember is one probe of a group: its entry pc, the index of its
// branch's true counter, and either its compare predicate (live) or,
// retired (pr nil), the branch counters it retired with (sub as
// opRetired's).
type groupMember struct {
	pc      int32
	counter int32
	sub     uint8
	pr      *compile.ProbeCmp
	// The commonest live label, a local or global compared with an
	// integer constant (ABS and ROR labels on a variable), decoded:
	// intK is set, k the constant, outcomes the outcomes of the
	// comparison with k (bit 0 less, 1 equal, 2 greater) for which the
	// label holds.
	intK, global bool
	outcomes     uint8
	slot         int32
	k            int64
}

// member decodes the live compare probe pr at pc with branch b.
func (m *Machine) member(pc int, b int32, pr *compile.ProbeCmp) groupMember {
	mb := groupMember{pc: int32(pc), counter: m.counter(b), pr: pr}
	if pr.Cmp == '&' || pr.Cmp == 't' || pr.YLocal || pr.YGlobal || pr.K.Kind() != value.KInt {
		return mb
	}
	// The outcomes (bit 0: less, 1: equal, 2: greater) the comparison
	// accepts; eq on integers is =.
	var outcomes uint8
	switch pr.Cmp {
	case '<':
		outcomes = 1
	case 'l':
		outcomes = 3
	case '>':
		outcomes = 4
	case 'g':
		outcomes = 6
	case '=', 'e':
		outcomes = 2
	case '!':
		outcomes = 5
	default:
		return mb
	}
	if pr.Not {
		outcomes ^= 7
	}
	mb.intK, mb.global, mb.slot, mb.k, mb.outcomes = true, pr.XGlobal, pr.Slot, pr.K.Int(), outcomes
	return mb
}

// regroup rebuilds the probe groups from the plain code and writes their
// heads into the fused code. Tests that run the plain code make fused
// the same slice as plain; there are no groups then.
func (m *Machine) regroup() {
	if len(m.fused) == 0 || &m.fused[0] == &m.plain[0] {
		return
	}
	for _, g := range m.groups {
		head := g.members[0].pc
		m.fused[head] = m.plain[head]
	}
	m.groups = m.groups[:0]
	m.retiredGroups = m.retiredGroups[:0]
	var chain []groupMember
	flush := func(end int) {
		if len(chain) >= 2 {
			g := probeGroup{members: append([]groupMember(nil), chain...), end: end}
			for _, mb := range chain {
				if mb.pr != nil {
					g.live++
				}
			}
			if g.live == 0 {
				m.retiredGroups = append(m.retiredGroups, len(m.groups))
			}
			m.fused[chain[0].pc] = instr{op: opProbeGroup, a: int32(len(m.groups))}
			m.groups = append(m.groups, g)
		}
		chain = chain[:0]
	}
	for pc := 0; pc < len(m.plain); {
		switch in := m.plain[pc]; in.op {
		case compile.PROBECMP:
			chain = append(chain, m.member(pc, in.b, &m.prog.Probes[in.a]))
			pc++
			continue
		case opRetired:
			chain = append(chain, groupMember{pc: int32(pc), counter: m.counter(in.b), sub: in.sub})
			pc = int(in.a)
			continue
		}
		flush(pc)
		pc++
	}
	flush(len(m.plain))
}

// completeRetired writes the counters of the groups whose members are
// all retired and that ran since the last ResetCounters, as their members
// would have run. Writing them again is harmless (the plain code, which
// the loop runs near the step budget, writes them at each visit).
func (m *Machine) completeRetired() {
	cnt := m.counters
	for _, gi := range m.retiredGroups {
		ms := m.groups[gi].members
		n := cnt[ms[0].pc]
		if n == 0 {
			continue
		}
		for i := range ms {
			mb := &ms[i]
			cnt[mb.pc] = n
			c := int(mb.counter)
			cnt[c] = mb.sub & 1
			if mb.sub&2 != 0 {
				cnt[c+1] = 1
			}
		}
	}
}

// runGroup runs the members of g from the first, outside any probe, as
// the plain code would, and returns the pc to continue at: g.end, or the
// entry of the first member it could not run. The first member's
// instruction counter has been bumped by the dispatch loop already.
func (m *Machine) runGroup(g *probeGroup, stack []value.Value, fp int, cnt []uint8) int {
	ms := g.members
	// The label steps in a register; written back on every way out.
	ls, limit := m.labelSteps, m.cfg.MaxLabelSteps
	for i := range ms {
		mb := &ms[i]
		c := int(mb.counter)
		if mb.pr == nil {
			// opRetired's work.
			cnt[c] = mb.sub & 1
			if mb.sub&2 != 0 {
				cnt[c+1] = 1
			}
		} else {
			if ls >= limit {
				m.labelSteps = ls
				return int(mb.pc)
			}
			var t, ok bool
			if mb.intK {
				var x *value.Value
				if mb.global {
					x, ok = &m.globals[mb.slot], m.gset[mb.slot]
				} else {
					x, ok = &stack[fp+int(mb.slot)], true
				}
				if ok = ok && x.Kind() == value.KInt; ok {
					// Bit 0, 1 or 2 of the outcome mask for x < k,
					// x = k, x > k: no branch on the operator.
					v := x.Int()
					t = mb.outcomes>>(b2u(v >= mb.k)+b2u(v > mb.k))&1 != 0
				}
			}
			if !ok {
				if t, ok = m.probeFast(mb.pr, stack, fp); !ok {
					m.labelSteps = ls
					return int(mb.pc)
				}
			}
			if !t {
				c++
			}
			cnt[c] = 1 // setBranch
		}
		if i > 0 {
			count(cnt, int(mb.pc))
		}
		ls++
	}
	m.labelSteps = ls
	return g.end
}

func b2u(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}

// counter is the index of branch b's true counter.
func (m *Machine) counter(b int32) int32 { return int32(m.nInstr) + 2*b }

// probeFast evaluates the compare probe pr in the frame at fp where that
// needs no call into the runtime (integers, names, truth, conjunctions):
// ok is false when the cold switch must do it.
func (m *Machine) probeFast(pr *compile.ProbeCmp, stack []value.Value, fp int) (t, ok bool) {
	if pr.Cmp == '&' {
		return m.probeAll(pr, stack, fp), true
	}
	x, k, bound := m.probeOperands(pr, stack, fp)
	if !bound {
		return false, false
	}
	switch kx := x.Kind(); {
	case pr.Cmp == 't':
		t = x.Truthy()
	case kx == value.KInt && k.Kind() == value.KInt:
		if pr.Cmp == '!' {
			t = x.Int() != k.Int()
		} else { // 'e' (eq) on integers is =
			t = compareOrdered(pr.Cmp, x.Int(), k.Int())
		}
	case pr.Cmp != 'e':
		return false, false
	case kx != k.Kind():
		t = false // value.Eq of different kinds
	case kx == value.KNil || kx == value.KT:
		t = true
	case kx == value.KSymbol || kx == value.KKeyword:
		// Names byte by byte (== on strings would call the runtime).
		a, b := x.Str(), k.Str()
		t = len(a) == len(b)
		for i := 0; t && i < len(a); i++ {
			t = a[i] == b[i]
		}
	default:
		return false, false
	}
	return t != pr.Not, true
}
