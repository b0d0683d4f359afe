package vm

import "github.com/labelcov/labelcov/interp/compile"

// Retirement (Config.Labels.Retire). A label probe whose branch counted
// true in a run is retired at the next ResetCounters: its first
// instruction becomes opRetired in the plain code (and so in the fused
// copy regroup rebuilds from it), which skips the predicate and writes
// the branch counters as they read then.
//
// Retiring between runs, from what a whole run counted, keeps the coverage
// map stable: an input that made a label fire writes the same counters on
// every later run (its run that retired the label wrote them too), as
// AFL++'s calibration requires; any other input reaching the label writes
// the same counters on every run after the retirement.
//
// With Labels.SilentRetire (the built-in engine, which never runs an
// input twice to compare maps) the first instruction becomes opDead
// instead: the label writes nothing and charges no step, and in the
// fused code it is not even dispatched (dead.go). The engine lost
// nothing: the run that made the label fire showed it the label's true
// counter, and no later run can show it more. The counters stay a
// function of the input for a given set of retired labels; only
// retirement itself changes them. A run whose context is done when the
// next run starts (a hang, whose counters the engine drops) retires
// nothing.
//
// Atom probes are retired too, once they are useless. The label pipeline
// evaluates the atoms of a decision once, in a probe that stores them in
// globals only label probes read (its predicate is false: it is no label
// anyone covers), and the decision's labels read those globals. Such a
// probe never fires; it is retired when every probe reading its globals
// is retired, after which nobody reads what it would compute.

// labelProbe is a label probe of the program: its first instruction (a
// PROBE or a PROBECMP), the pc after it and its branch.
type labelProbe struct {
	entry, end int
	branch     int32
}

// liveProbe is a probe not yet retired (an index in Machine.probes) and
// the index of its branch's true counter.
type liveProbe struct {
	probe, counter int32
}

// atomProbe is a probe that stores globals read only by label probes, and
// the probes (indexes in Machine.probes) reading them.
type atomProbe struct {
	probe   int
	readers []int
}

// labelProbes lists the label probes of the code, in pc order: a
// PROBECMP, a PROBE block, or a PROBEGUARD and the block it guards.
func (m *Machine) labelProbes() []labelProbe {
	var out []labelProbe
	for pc, in := range m.plain {
		switch in.op {
		case compile.PROBECMP:
			out = append(out, labelProbe{entry: pc, end: pc + 1, branch: in.b})
		case compile.PROBEGUARD:
			out = append(out, labelProbe{entry: pc, end: int(m.prog.Probes[in.a].Skip), branch: in.b})
		case compile.PROBE:
			if pc > 0 && m.plain[pc-1].op == compile.PROBEGUARD {
				continue // its guard's
			}
			end := m.probeEnd(pc)
			out = append(out, labelProbe{entry: pc, end: end, branch: m.plain[end-2].b})
		}
	}
	return out
}

// probeEnd is the pc after the PROBE block at pc: PROBEOK; PROBEFAIL; end.
func (m *Machine) probeEnd(pc int) int {
	return m.prog.Handlers[m.plain[pc].a].Clauses[0].PC + 1
}

// setupRetirement makes every probe live and finds the atom probes: a
// PROBE whose predicate sets globals that no code outside label probes
// reads, and the probes that read them.
func (m *Machine) setupRetirement() {
	probes := m.probes
	m.retired = make([]bool, len(probes))
	m.live = make([]liveProbe, len(probes))
	for i, lp := range probes {
		m.live[i] = liveProbe{probe: int32(i), counter: m.counter(lp.branch)}
	}
	inProbe := make([]bool, len(m.plain))
	for _, lp := range probes {
		for pc := lp.entry; pc < lp.end; pc++ {
			inProbe[pc] = true
		}
	}
	visible := make([]bool, len(m.prog.Globals)) // read outside probes
	for pc, in := range m.plain {
		if in.op == compile.GETVALUE && !inProbe[pc] {
			visible[in.a] = true
		}
	}
	reads := func(lp labelProbe, g int32) bool {
		if in := m.plain[lp.entry]; in.op == compile.PROBECMP || in.op == compile.PROBEGUARD {
			pr := &m.prog.Probes[in.a]
			if pr.XGlobal && pr.Slot == g || pr.YGlobal && pr.Y == g {
				return true
			}
			for _, t := range pr.Terms {
				if t.Global && t.Slot == g {
					return true
				}
			}
			if in.op == compile.PROBECMP {
				return false
			}
		}
		for pc := lp.entry; pc < lp.end; pc++ {
			if m.plain[pc].op == compile.GETVALUE && m.plain[pc].a == g {
				return true
			}
		}
		return false
	}
	for i, lp := range probes {
		if m.plain[lp.entry].op != compile.PROBE {
			continue
		}
		var sets []int32
		atom := true
		for pc := lp.entry; pc < lp.end && atom; pc++ {
			if in := m.plain[pc]; in.op == compile.SETVALUE {
				sets = append(sets, in.a)
				atom = !visible[in.a]
			}
		}
		if !atom || len(sets) == 0 {
			continue
		}
		a := atomProbe{probe: i}
		for j, r := range probes {
			if j == i {
				continue
			}
			for _, g := range sets {
				if reads(r, g) {
					a.readers = append(a.readers, j)
					break
				}
			}
		}
		if len(a.readers) > 0 {
			m.atoms = append(m.atoms, a)
		}
	}
	// Atom probes never fire (their predicate is nil): they retire with
	// their readers, not from their counters, so retire need not look at
	// them.
	live := m.live[:0]
	isAtom := make([]bool, len(probes))
	for _, a := range m.atoms {
		isAtom[a.probe] = true
	}
	for _, lv := range m.live {
		if !isAtom[lv.probe] {
			live = append(live, lv)
		}
	}
	m.live = live
	m.setupAtomExits(visible)
}

// retire retires the live label probes whose true counter is set, then
// the atom probes all of whose readers are retired, and reports whether
// it retired any. It runs before every run of a fuzzing process, so it
// looks at each live probe's counter once and at the atom probes only
// when a label retired.
func (m *Machine) retire() bool {
	live := m.live[:0]
	for _, lv := range m.live {
		if m.counters[lv.counter] == 0 {
			live = append(live, lv)
		} else {
			m.retireProbe(int(lv.probe))
		}
	}
	any := len(live) < len(m.live)
	m.live = live
	if !any {
		return false
	}
	atoms := m.atoms[:0]
	for _, a := range m.atoms {
		done := true
		for _, r := range a.readers {
			done = done && m.retired[r]
		}
		if done {
			m.retireProbe(a.probe)
		} else {
			atoms = append(atoms, a)
		}
	}
	m.atoms = atoms
	return true
}

// retireProbe retires probe i with the branch counters it reads now, or
// silently. The fused code follows at the next regroup.
func (m *Machine) retireProbe(i int) {
	lp := m.probes[i]
	in := instr{op: opDead, a: int32(lp.end)}
	if !m.cfg.Labels.SilentRetire {
		bc := m.counter(lp.branch)
		in = instr{op: opRetired, a: int32(lp.end), b: lp.branch}
		if m.counters[bc] != 0 {
			in.sub |= 1
		}
		if m.counters[bc+1] != 0 {
			in.sub |= 2
		}
	}
	m.plain[lp.entry] = in
	m.retired[i] = true
}
