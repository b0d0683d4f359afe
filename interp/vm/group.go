package vm

import (
	"slices"

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
// opProbeGroup, which runs the chain in one dispatch. A live PROBE block
// ends the chain (its predicate needs the dispatch loop).
//
// A group run does only what can differ from one visit to the next: it
// evaluates its live members (skipping the retired ones) and sets their
// branch counters, and charges every member's label step (probes count no
// instruction: their instruction counters stay 0). Live members that
// compare one variable with one integer constant or with another
// variable (the three ABS labels of a variable, the four ROR labels of a
// relation with a constant or between two variables) share one test: the
// comparison is made once, on integers, and each label reads its
// outcome. A group whose whole work is one such comparison for one label
// (a chain once all its other labels retired silently, the commonest
// group late in a campaign) runs in runSingle, which has less to set up
// than runGroup (probeGroup.single); a group whose whole work is one dist
// ladder on integer code (a point's ladder in a dist campaign) runs in
// runLadder, which computes the distance on integers (intPair) and
// leaves every other case to runGroup (probeGroup.ladder). Live
// members that are conjunctions of the same integer comparisons with
// different signs (a decision's MCC labels) share one test too: the
// atoms are computed once (mcc.go). What a group's
// retired members write is the same on every visit (the branch counters they
// retired with), so Counters writes it after the run (completeGroups),
// once for every group that ran: the counters read exactly as if the
// plain code had run.
//
// A group that cannot run whole leaves the work to the plain
// instructions: when the label budget has less room than the group has
// members, it does not start (the loop runs its first member plain), and
// a live member (or test) the group cannot evaluate without the cold
// switch (a comparison of floats, an unbound global) stops it before that
// member (the test's first), having written the retired members before it
// (stopGroup); the loop continues at that member, in the plain
// instructions. (A test's members are consecutive among the live ones,
// so the group has evaluated no member after it.) So the counters,
// steps and label steps are exactly those of the plain code
// (TestFusedMatchesPlain, FuzzVM, TestProbeGroupsMatchPlain).
//
// Groups are recomputed whenever probes retire (regroup), so that a chain
// broken by a live PROBE block joins up once that probe retires. With
// Labels.SilentRetire a retired probe is no member at all (it writes
// nothing, and a run of them is skipped, dead.go).

// probeGroup is a chain of one-instruction label probes: every member,
// in order, and what a run of it does: the tests of its live members, in
// order, and the counters its retired members set.
type probeGroup struct {
	members []groupMember
	tests   []groupTest
	labels  []groupLabel // the tests' labels, test after test
	ones    []int32      // the branch counters the retired members set (to 1)
	end     int          // the pc after the last member
	// firedOnly: the false outcomes go to the trash (Labels.FiredOnly),
	// so a run need not write them.
	firedOnly bool
	// ran tells that the group ran since its retired members' counters
	// were last written (completeGroups); it is then in Machine.visited.
	ran bool
	// single: the group's one member is live and its one test is a
	// comparison of two integers (a variable and a constant or two
	// variables) with no retired member to write: runSingle runs it,
	// from one, what it needs of the member, the test and the label.
	single bool
	one    singleCmp
	// ladder: the group's whole work is one dist ladder whose operands
	// are integer code (groupTest.ints), with no retired member to
	// write, the commonest group of a dist campaign: runLadder runs it.
	ladder bool
}

// groupMember is one probe of a group: its entry pc, its index in the
// group, the index of its branch's true counter and where its false
// outcome goes (the false counter, or the machine's trash with
// Labels.FiredOnly), and either its compare predicate (live) or,
// retired (pr nil), the branch counters it retired with (sub as
// opRetired's).
type groupMember struct {
	pc      int32
	idx     int32
	counter int32
	falseC  int32
	sub     uint8
	pr      *compile.ProbeCmp
	// The commonest live label, a local or global compared with an
	// integer constant or with another local or global (ABS and ROR
	// labels on a variable, ROR labels on a relation of two), decoded:
	// intK is set, k the constant or, y not yConst, the other operand
	// (yLocal or yGlobal, slot ySlot), outcomes the outcomes of the
	// comparison (bit 0 less, 1 equal, 2 greater) for which the label
	// holds. The group evaluates it only on two integers.
	intK, global bool
	outcomes     uint8
	y            uint8
	slot, ySlot  int32
	k            int64
	// dist: pr is a rung of a dist ladder (Cmp 'd').
	dist bool
	// conj: pr is an expression probe decoded as a conjunction of
	// integer comparisons (mcc.go), when conj.atoms is not nil.
	conj conj
}

// groupTest is what a group run evaluates for some of its live members,
// whose labels are the group's labels[lo:hi]: either one member's
// predicate pr, or, pr nil, the comparison of one local or global
// (global, slot) with the integer k (y yConst) or with the integer in
// another local or global (y, ySlot), shared by the members (an ABS
// triple or an ROR quadruple on one variable or one relation is one
// comparison), or, dist, the
// distance of the operands of pr shared by consecutive rungs of one
// ladder, their bounds decreasing: the distance is computed once, and the
// rungs that hold are the first ones, up to the first that does not (the
// highest rung reached); ints tells that the ladder's operands are
// integer code (intCode). idx is the index of its first member in the
// group: a run that cannot evaluate the test stops there.
type groupTest struct {
	idx, lo, hi int32
	pr          *compile.ProbeCmp
	dist, ints  bool
	mcc         *mccTest // a test of conjunctions (mcc.go)
	global      bool
	y           uint8
	slot, ySlot int32
	k           int64
}

// Where a group's integer comparison finds its second operand
// (groupMember.y, groupTest.y).
const (
	yConst uint8 = iota
	yLocal
	yGlobal
)

// groupLabel is a live member in a groupTest: its branch's true counter,
// where its false outcome goes and, for a comparison, the outcomes for
// which it holds (as groupMember's).
type groupLabel struct {
	counter, falseC int32
	outcomes        uint8
	// bound is a dist rung's bound; for a label in a test of
	// conjunctions (mcc.go), its signs (conj.want).
	bound int64
}

// member decodes the live compare probe pr at pc with branch b.
func (m *Machine) member(pc int, b int32, pr *compile.ProbeCmp) groupMember {
	mb := groupMember{pc: int32(pc), counter: m.counter(b), pr: pr}
	mb.falseC = mb.counter + 1
	if m.cfg.Labels.FiredOnly {
		mb.falseC = m.trash
	}
	if pr.Cmp == 'd' {
		mb.dist = true
		return mb
	}
	if pr.Cmp == 'x' {
		mb.conj, _ = decodeConj(pr.Ops)
		return mb
	}
	y, ySlot, k := yConst, int32(0), int64(0)
	switch {
	case pr.Cmp == '&' || pr.Cmp == 't':
		return mb
	case pr.YLocal:
		y, ySlot = yLocal, pr.Y
	case pr.YGlobal:
		y, ySlot = yGlobal, pr.Y
	case pr.K.Kind() != value.KInt:
		return mb
	default:
		k = pr.K.Int()
	}
	// The outcomes (bit 0: less, 1: equal, 2: greater) the comparison
	// accepts; eq on integers is =.
	outcomes := cmpOutcomes(pr.Cmp)
	if pr.Cmp == 'e' {
		outcomes = cmpOutcomes('=')
	}
	if outcomes == 0 {
		return mb
	}
	if pr.Not {
		outcomes ^= 7
	}
	mb.intK, mb.global, mb.slot, mb.y, mb.ySlot, mb.k, mb.outcomes = true, pr.XGlobal, pr.Slot, y, ySlot, k, outcomes
	return mb
}

// regroup rebuilds the fused code from the plain code (fuse.go), the
// probe groups, and what the fused code does about silently retired
// probes (dead.go). Tests that run the plain code make fused the same
// slice as plain; there are no groups then, and no skipping of dead
// probes. The fixed counters of the old groups must have been written or
// dropped (visited empty).
//
// With Labels.SilentRetire a retired probe is no member (it does
// nothing): a chain's live members make a group when there are two or
// more, or one followed by retired probes in the chain (the group then
// ends past them); a group starts at its first live member, the
// retired probes before it being a dead run like any other.
func (m *Machine) regroup() {
	m.findDead()
	for i, fn := range m.prog.Funcs {
		m.entry[i] = int32(fn.Entry)
	}
	if len(m.fused) == 0 || &m.fused[0] == &m.plain[0] {
		return
	}
	fuse(m.fused, m.plain)
	m.groups = m.groups[:0]
	var chain []groupMember
	deadAfter := false // a silently retired probe follows chain[0] in the chain
	flush := func(end int) {
		if len(chain) >= 2 || len(chain) == 1 && deadAfter {
			g := probeGroup{members: append([]groupMember(nil), chain...), end: m.pastDead(end), firedOnly: m.cfg.Labels.FiredOnly}
			for i := range g.members {
				mb := &g.members[i]
				mb.idx = int32(i)
				g.add(mb)
			}
			g.finishConjs()
			g.single = len(g.members) == 1 && len(g.tests) == 1 && len(g.labels) == 1 && len(g.ones) == 0 &&
				g.tests[0].pr == nil && !g.tests[0].dist
			if g.single {
				g.one = m.singleCmp(&g.tests[0], &g.labels[0], g.members[0].pc, g.end)
			}
			g.ladder = len(g.tests) == 1 && len(g.ones) == 0 && g.tests[0].ints
			m.fused[chain[0].pc] = instr{op: opProbeGroup, a: int32(len(m.groups))}
			m.groups = append(m.groups, g)
		}
		chain, deadAfter = chain[:0], false
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
		case opDead:
			deadAfter = deadAfter || len(chain) > 0
			pc = int(in.a)
			continue
		}
		flush(pc)
		pc++
	}
	flush(len(m.plain))
	m.skipDead()
}

// add adds member mb, the last so far, to what a run of g does.
func (g *probeGroup) add(mb *groupMember) {
	switch {
	case mb.pr == nil:
		if mb.sub&1 != 0 {
			g.ones = append(g.ones, mb.counter)
		}
		if mb.sub&2 != 0 {
			g.ones = append(g.ones, mb.counter+1)
		}
		return
	case mb.intK:
		if n := len(g.tests); n > 0 {
			if last := &g.tests[n-1]; last.pr == nil && !last.dist && last.global == mb.global && last.slot == mb.slot &&
				last.y == mb.y && last.ySlot == mb.ySlot && last.k == mb.k {
				g.labels = append(g.labels, groupLabel{counter: mb.counter, falseC: mb.falseC, outcomes: mb.outcomes})
				last.hi++
				return
			}
		}
		g.tests = append(g.tests, groupTest{idx: mb.idx, global: mb.global, slot: mb.slot, y: mb.y, ySlot: mb.ySlot, k: mb.k})
	case mb.dist:
		if n := len(g.tests); n > 0 {
			if last := &g.tests[n-1]; last.dist && sameDistOperands(last.pr, mb.pr) && g.labels[last.hi-1].bound > mb.pr.Bound {
				g.labels = append(g.labels, groupLabel{counter: mb.counter, falseC: mb.falseC, bound: mb.pr.Bound})
				last.hi++
				return
			}
		}
		g.tests = append(g.tests, groupTest{idx: mb.idx, pr: mb.pr, dist: true, ints: intCode(mb.pr.Ops)})
	case mb.conj.atoms != nil:
		if g.addConj(mb, mb.conj) {
			return
		}
	default:
		g.tests = append(g.tests, groupTest{idx: mb.idx, pr: mb.pr})
	}
	t := &g.tests[len(g.tests)-1]
	t.lo = int32(len(g.labels))
	t.hi = t.lo + 1
	bound := int64(0)
	if mb.dist {
		bound = mb.pr.Bound
	}
	if mb.conj.atoms != nil {
		bound = int64(mb.conj.want)
	}
	g.labels = append(g.labels, groupLabel{counter: mb.counter, falseC: mb.falseC, outcomes: mb.outcomes, bound: bound})
}

// sameDistOperands tells that dist rungs a and b have the same operands
// (the same ladder).
func sameDistOperands(a, b *compile.ProbeCmp) bool {
	return slices.Equal(a.Ops, b.Ops)
}

// completeGroups writes the counters of the retired members of the
// groups that ran since the last call (see the comment at the top):
// those that read 1; the others read 0 already.
func (m *Machine) completeGroups() {
	cnt := m.counters
	for _, gi := range m.visited {
		g := &m.groups[gi]
		for _, c := range g.ones {
			cnt[c] = 1
		}
		g.ran = false
	}
	m.visited = m.visited[:0]
}

// dropVisits forgets the group runs whose counters were not completed
// (the counters are about to be cleared).
func (m *Machine) dropVisits() {
	for _, gi := range m.visited {
		m.groups[gi].ran = false
	}
	m.visited = m.visited[:0]
}

// runGroup runs group gi from the first member, outside any probe, as
// the plain code would, and returns the pc to continue at: the group's
// end, or the entry of the first member it could not run (the first
// member's own: the group did not start).
func (m *Machine) runGroup(gi int32, stack []value.Value, fp int, cnt []uint8) int {
	g := &m.groups[gi]
	if m.labelSteps+int64(len(g.members)) > m.cfg.MaxLabelSteps {
		return int(g.members[0].pc)
	}
	fired := uint8(0)
	for i := range g.tests {
		ts := &g.tests[i]
		if ts.dist {
			// A ladder: one distance, then its rungs from the
			// farthest down to the first that does not hold.
			var d distance
			if x, y, ok := m.intPair(ts.pr.Ops, stack, fp); ok {
				d = distance{kind: 1, u: absDiff(x, y)}
			} else if x, y, ok := m.distOperands(ts.pr.Ops, stack, fp); ok {
				d = distanceOf(x, y)
			}
			ls := g.labels[ts.lo:ts.hi]
			j := 0
			for ; j < len(ls) && d.below(ls[j].bound); j++ {
				cnt[ls[j].counter] = 1 // setBranch
			}
			fired |= b2u(j > 0)
			if !g.firedOnly {
				for _, l := range ls[j:] {
					cnt[l.falseC] = 1
				}
			}
			continue
		}
		if ts.mcc != nil {
			// Conjunctions over the same atoms (mcc.go): never
			// stops the group, the general code being probeExpr's.
			fired |= m.runConj(g, ts, stack, fp, cnt)
			continue
		}
		if ts.pr != nil {
			t, ok := m.probeFast(ts.pr, stack, fp)
			if !ok {
				m.fired = m.fired || fired != 0
				return m.stopGroup(g, int(ts.idx), cnt)
			}
			l := &g.labels[ts.lo]
			c := l.counter
			if !t {
				c = l.falseC
			}
			cnt[c] = 1 // setBranch
			fired |= b2u(t)
			continue
		}
		v, k, ok := m.intOperands(ts, stack, fp)
		if !ok {
			// The plain code from the test's first member on (a
			// float, a name, an unbound global: the cold switch).
			m.fired = m.fired || fired != 0
			return m.stopGroup(g, int(ts.idx), cnt)
		}
		// o is 0, 1 or 2 for x < k, x = k, x > k; a label holds when
		// bit o of its outcomes is set: no branch on the operator.
		o := b2u(v >= k) + b2u(v > k)
		for _, l := range g.labels[ts.lo:ts.hi] {
			h := l.outcomes >> o & 1
			c := l.counter
			if h == 0 {
				c = l.falseC
			}
			cnt[c] = 1 // setBranch
			fired |= h
		}
	}
	m.fired = m.fired || fired != 0
	m.labelSteps += int64(len(g.members))
	if !g.ran && len(g.ones) > 0 {
		g.ran = true
		m.visited = append(m.visited, gi)
	}
	return g.end
}

// singleCmp is a single group's whole work (probeGroup.single): the
// comparison of the local in slot (or the global *gx, bound when *bx)
// with the integer k (y yConst), the local in ySlot (yLocal) or the
// global *gy (bound when *by), the outcomes for which the label holds
// (as groupMember's), its branch's counters, and where the loop goes on:
// end, or pc (the member, run plain) when the group cannot run. The
// globals are read through pointers (Machine.globals is never
// reallocated), which saves the bounds checks of two slices a global.
type singleCmp struct {
	gx, gy          *value.Value
	bx, by          *bool
	slot, ySlot     int32
	k               int64
	yLocal          bool
	outcomes        uint8
	counter, falseC int32
	pc              int32
	end             int
}

// singleCmp makes the singleCmp of test ts with its one label l, for the
// member at pc of a group that ends at end.
func (m *Machine) singleCmp(ts *groupTest, l *groupLabel, pc int32, end int) singleCmp {
	s := singleCmp{slot: ts.slot, ySlot: ts.ySlot, k: ts.k, yLocal: ts.y == yLocal, outcomes: l.outcomes,
		counter: l.counter, falseC: l.falseC, pc: pc, end: end}
	if ts.global {
		s.gx, s.bx = &m.globals[ts.slot], &m.gset[ts.slot]
	}
	if ts.y == yGlobal {
		s.gy, s.by = &m.globals[ts.ySlot], &m.gset[ts.ySlot]
	}
	return s
}

// runSingle runs group g, whose whole work is one integer comparison for
// its one live member (g.single, g.one), as runGroup would, with less to
// set up: it returns the group's end, or the member's entry when the
// label budget is exhausted or an operand is not a bound integer (the
// plain code then runs it).
func (m *Machine) runSingle(g *probeGroup, stack []value.Value, fp int, cnt []uint8) int {
	s := &g.one
	if m.labelSteps >= m.cfg.MaxLabelSteps {
		return int(s.pc)
	}
	x, ok := s.gx, true
	if x == nil {
		x = &stack[fp+int(s.slot)]
	} else {
		ok = *s.bx
	}
	k := s.k
	if y := s.gy; y != nil {
		ok = ok && *s.by && y.Kind() == value.KInt
		k = y.Int()
	} else if s.yLocal {
		y = &stack[fp+int(s.ySlot)]
		ok = ok && y.Kind() == value.KInt
		k = y.Int()
	}
	if !ok || x.Kind() != value.KInt {
		return int(s.pc)
	}
	v := x.Int()
	c := s.falseC
	if s.outcomes>>(b2u(v >= k)+b2u(v > k))&1 != 0 {
		c = s.counter
		m.fired = true
	}
	cnt[c] = 1 // setBranch
	m.labelSteps++
	return s.end
}

// runLadder runs group gi, whose whole work is one dist ladder on
// integer code (g.ladder), as runGroup would, with less to set up: the
// distance computed on integers (intPair), then the rungs it reaches.
// Whatever intPair leaves (an operand that is not an integer, an
// unbound global) and an exhausted label budget go to runGroup.
func (m *Machine) runLadder(gi int32, stack []value.Value, fp int, cnt []uint8) int {
	g := &m.groups[gi]
	var u uint64
	var ok bool
	if ops := g.tests[0].pr.Ops; len(ops) == 2 {
		// intPair's commonest case, without the call.
		x, okx := m.intLoad(&ops[0], stack, fp)
		y, oky := m.intLoad(&ops[1], stack, fp)
		u, ok = absDiff(x, y), okx && oky
	} else {
		var x, y int64
		x, y, ok = m.intPair(ops, stack, fp)
		u = absDiff(x, y)
	}
	n := int64(len(g.members))
	if !ok || m.labelSteps+n > m.cfg.MaxLabelSteps {
		return m.runGroup(gi, stack, fp, cnt)
	}
	ls := g.labels
	j := 0
	for ; j < len(ls) && u < uint64(ls[j].bound); j++ {
		cnt[ls[j].counter] = 1 // setBranch
	}
	if j > 0 {
		m.fired = true
	}
	if !g.firedOnly {
		for _, l := range ls[j:] {
			cnt[l.falseC] = 1
		}
	}
	m.labelSteps += n
	return g.end
}

// intOperands reads the operands of ts, an integer comparison: v the
// variable's integer and k the constant or the other variable's; ok is
// false unless every operand is a bound integer (the plain code then
// runs the test).
func (m *Machine) intOperands(ts *groupTest, stack []value.Value, fp int) (v, k int64, ok bool) {
	var x *value.Value
	ok = true
	if ts.global {
		x, ok = &m.globals[ts.slot], m.gset[ts.slot]
	} else {
		x = &stack[fp+int(ts.slot)]
	}
	k = ts.k
	if ts.y != yConst {
		var y *value.Value
		if ts.y == yGlobal {
			y, ok = &m.globals[ts.ySlot], ok && m.gset[ts.ySlot]
		} else {
			y = &stack[fp+int(ts.ySlot)]
		}
		ok = ok && y.Kind() == value.KInt
		k = y.Int()
	}
	return x.Int(), k, ok && x.Kind() == value.KInt
}

// stopGroup ends a run of g before its member i: it writes the counters
// of the retired members before i and charges the label steps of the
// members before i, and returns member i's entry.
func (m *Machine) stopGroup(g *probeGroup, i int, cnt []uint8) int {
	for j := range g.members[:i] {
		if mb := &g.members[j]; mb.pr == nil {
			writeRetired(cnt, mb.counter, mb.sub)
		}
	}
	m.labelSteps += int64(i)
	return int(g.members[i].pc)
}

// writeRetired is a retired label's work (opRetired): its branch
// counters, from the true one at c, read what they read when it retired
// (sub: bit 0 true, bit 1 false).
func writeRetired(cnt []uint8, c int32, sub uint8) {
	cnt[c] = sub & 1
	if sub&2 != 0 {
		cnt[c+1] = 1
	}
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
	if pr.Cmp == 'x' {
		return m.probeExpr(pr.Ops, stack, fp), true
	}
	if pr.Cmp == 'd' {
		if x, y, ok := m.intPair(pr.Ops, stack, fp); ok {
			return absDiff(x, y) < uint64(pr.Bound), true
		}
		x, y, ok := m.distOperands(pr.Ops, stack, fp)
		return ok && distHolds(x, y, pr.Bound), true
	}
	x, k, bound := m.probeOperands(pr, stack, fp)
	if !bound {
		return false, false
	}
	switch kx := x.Kind(); {
	case pr.Cmp == 't':
		t = x.Truthy()
	case pr.Cmp == 'm':
		t = isMember(x, k)
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

// isMember is (member x l) of a compare probe's constant list l.
func isMember(x, l value.Value) bool {
	for ; l.Kind() == value.KCons; l = l.Cdr() {
		if value.Eql(x, l.Car()) {
			return true
		}
	}
	return false
}
