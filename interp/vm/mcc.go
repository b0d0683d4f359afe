package vm

import (
	"math/bits"
	"slices"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// Conjunctions of integer comparisons in a probe group. The MCC labels
// of a decision are expression probes (Cmp 'x') of one shape, (and s1A1
// … snAn), each si empty or not, over the same atoms Ai: `(and (< near
// prev) (not (< prev far)) (= (- far near) *mouth-skew*))` and its seven
// siblings. Run one by one, each recomputes the same atoms on the
// general stack of values. A group decodes such a probe when every atom
// is a comparison of two operands in integer code (intCode: locals,
// globals, integer constants, + - * and abs; compare.ops), and its
// consecutive live members over the same atoms share one test
// (groupTest.mcc): the atoms are computed once, on integers, in order,
// each ruling out the labels whose sign it contradicts, until none is
// left or the atoms are done; the labels left hold.
//
// That is what the probes compute one by one. Each is an and, so it
// holds exactly when every atom evaluates and agrees with its sign; it
// stops at its first atom that disagrees, and fails (false) at one that
// cannot be evaluated. A label ruled out by atom i is false whatever the
// atoms after i do, as its and never reaches them; so the test may stop
// once every label is ruled out. An atom that is not a comparison of
// integers at run time (a float, a name, nil, an unbound global) leaves
// the whole test to the general code: each label's probe is run as
// before (probeExpr), so the test decides only what integers decide.

// conj is a live expression probe decoded as a conjunction of integer
// comparisons: its atoms and, bit i, whether atom i must be true for the
// label to hold.
type conj struct {
	atoms []compare
	want  uint64
}

// compare is an atom: the comparison of the two values that ops (integer
// code, intCode) leaves, true for the outcomes (bit 0 less, 1 equal, 2
// greater) in outcomes.
type compare struct {
	ops      []compile.ProbeOp
	outcomes uint8
}

// mccTest is a group test of conjunctions over the same atoms: the
// atoms, per atom the test's labels (bit j: the test's j-th) that it
// rules out when false (kill[i][0]) and when true (kill[i][1]), and the
// labels' probes, for the general code.
type mccTest struct {
	atoms []compare
	kill  [][2]uint64
	prs   []*compile.ProbeCmp
}

// maxConjLabels is the most labels one mccTest holds (a bit each).
const maxConjLabels = 64

// decodeConj decodes the expression probe code ops as a conjunction of
// integer comparisons, each maybe negated: its top-level ands' jumps
// (Slot len(ops)) split it into atoms; ok is false for any other shape.
func decodeConj(ops []compile.ProbeOp) (conj, bool) {
	var c conj
	start := 0
	for i := 0; i <= len(ops); i++ {
		if i < len(ops) {
			if o := ops[i].Op; o == '|' || o == '&' && int(ops[i].Slot) != len(ops) {
				return conj{}, false // an or, an and inside an atom
			} else if o != '&' {
				continue
			}
		}
		// ops[start:i] is an atom: a comparison, then nots.
		atom, holds := ops[start:i], true
		for len(atom) > 0 && atom[len(atom)-1].Op == 'n' {
			atom, holds = atom[:len(atom)-1], !holds
		}
		if len(atom) < 3 || len(c.atoms) == maxConjLabels {
			return conj{}, false
		}
		outcomes := cmpOutcomes(atom[len(atom)-1].Op)
		operands := atom[:len(atom)-1]
		if outcomes == 0 || !intCode(operands) || intDepth(operands) != 2 {
			return conj{}, false
		}
		if holds {
			c.want |= 1 << len(c.atoms)
		}
		c.atoms = append(c.atoms, compare{ops: operands, outcomes: outcomes})
		start = i + 1
	}
	return c, len(c.atoms) > 0
}

// cmpOutcomes is the outcomes (bit 0 less, 1 equal, 2 greater) for
// which the integer comparison op holds, in either alphabet: a compare
// probe's (ProbeCmp.Cmp: < l > g = !) or postfix code's (ProbeOp.Op:
// < ( > ) = !); 0 for any other op (eq among them: its callers decide).
func cmpOutcomes(op byte) uint8 {
	switch op {
	case '<':
		return 1
	case 'l', '(':
		return 3
	case '>':
		return 4
	case 'g', ')':
		return 6
	case '=':
		return 2
	case '!':
		return 5
	}
	return 0
}

// intDepth is the number of values integer code ops leaves, or -1 when
// it would pop from an empty stack or keep more than the probe stack's
// size.
func intDepth(ops []compile.ProbeOp) int {
	n := 0
	for _, o := range ops {
		switch o.Op {
		case '+', '-', '*':
			n--
		case 'a':
		default:
			n++
		}
		if n < 1 || n > compile.MaxProbeStack {
			return -1
		}
	}
	return n
}

// sameAtoms tells that two conjunctions are over the same atoms.
func sameAtoms(a, b []compare) bool {
	return slices.EqualFunc(a, b, func(x, y compare) bool {
		return x.outcomes == y.outcomes && slices.Equal(x.ops, y.ops)
	})
}

// addConj adds live member mb, a conjunction c, to g's tests: to the last
// one when it is over the same atoms and has room, else as a new test.
// It reports whether it joined the last test.
func (g *probeGroup) addConj(mb *groupMember, c conj) bool {
	if n := len(g.tests); n > 0 {
		if last := &g.tests[n-1]; last.mcc != nil && last.hi-last.lo < maxConjLabels && sameAtoms(last.mcc.atoms, c.atoms) {
			last.mcc.prs = append(last.mcc.prs, mb.pr)
			g.labels = append(g.labels, groupLabel{counter: mb.counter, falseC: mb.falseC, bound: int64(c.want)})
			last.hi++
			return true
		}
	}
	g.tests = append(g.tests, groupTest{idx: mb.idx, pr: mb.pr, mcc: &mccTest{atoms: c.atoms, prs: []*compile.ProbeCmp{mb.pr}}})
	return false
}

// finishConjs computes the kill masks of g's mccTests from their labels'
// signs (groupLabel.bound).
func (g *probeGroup) finishConjs() {
	for i := range g.tests {
		ts := &g.tests[i]
		if ts.mcc == nil {
			continue
		}
		mc := ts.mcc
		mc.kill = make([][2]uint64, len(mc.atoms))
		for j, l := range g.labels[ts.lo:ts.hi] {
			for a := range mc.atoms {
				// Label j is ruled out by atom a's outcome unlike its sign.
				mc.kill[a][1-(l.bound>>a&1)] |= 1 << j
			}
		}
	}
}

// runConj runs ts, a test of conjunctions (ts.mcc), in the frame at fp:
// it sets its labels' branch counters (the false ones unless g is
// firedOnly) and tells whether one held.
func (m *Machine) runConj(g *probeGroup, ts *groupTest, stack []value.Value, fp int, cnt []uint8) uint8 {
	mc, ls := ts.mcc, g.labels[ts.lo:ts.hi]
	live := ^uint64(0) >> (64 - len(ls))
	for i := range mc.atoms {
		a := &mc.atoms[i]
		x, y, ok := m.intPair(a.ops, stack, fp)
		if !ok {
			return m.conjPlain(g, ts, stack, fp, cnt)
		}
		live &^= mc.kill[i][a.outcomes>>(b2u(x >= y)+b2u(x > y))&1]
		if live == 0 {
			break
		}
	}
	for l := live; l != 0; l &= l - 1 {
		cnt[ls[bits.TrailingZeros64(l)].counter] = 1 // setBranch
	}
	if !g.firedOnly {
		for j, l := range ls {
			if live>>j&1 == 0 {
				cnt[l.falseC] = 1
			}
		}
	}
	return b2u(live != 0)
}

// conjPlain runs ts's labels one by one in the general code (an atom's
// operand is not an integer, or a global is unbound).
func (m *Machine) conjPlain(g *probeGroup, ts *groupTest, stack []value.Value, fp int, cnt []uint8) uint8 {
	fired := uint8(0)
	for j, l := range g.labels[ts.lo:ts.hi] {
		c := l.falseC
		if m.probeExpr(ts.mcc.prs[j].Ops, stack, fp) {
			c, fired = l.counter, 1
		}
		cnt[c] = 1 // setBranch
	}
	return fired
}
