package vm

import (
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// Early exit from atom probes (Config.Labels.Retire). An atom probe
// (retire.go) evaluates the atoms of a decision into globals, between
// clearing and setting a flag global:
//
//	(setq F nil) (setq G1 atom1) … (setq Gn atomn) (setq F t) nil
//
// and the labels after it are conjunctions of the flag, the atoms and
// variables of the plan (compare probes with Cmp '&'). Once a label
// retired it no longer reads the globals, so in a fuzzing process the
// probe often computes atoms no live label can use: after each atom,
// if no live label's conjunction can still be true (a term already
// false: a plan variable, or an atom set so far), the rest is useless.
// The probe then ends at once, its flag still nil, as if its predicate
// had returned nil: every reader is false, as it would have been, and
// the globals the probe did not set are read by no one (every reader
// tests the flag). What is saved is label steps: the plan's steps,
// output and counters are untouched (the probe's own instructions count
// into the sink).
//
// The SETVALUEs of the flag's clearing and of the atoms become
// opAtomSet (in both copies of the code), which does SETVALUE's work and
// then the test, with a bit mask over the live readers (at most 64; with
// more the probe runs whole).

// atomSite is an atom probe whose SETVALUEs are opAtomSet.
type atomSite struct {
	okPC    int     // its PROBEOK
	flag    int32   // the flag global
	sets    []int32 // the atom globals, in order
	readers []int32 // its readers (indexes in Machine.probes)
	// Recomputed when readers retire (refreshAtomSites):
	on    bool                  // 1 to 64 live readers
	all   uint64                // a bit per live reader
	terms [][]compile.ProbeTerm // per live reader, its terms on plan variables
	kill  [][2]uint64           // per atom: the live readers false when it is nil [0], true [1]
}

// setupAtomExits makes opAtomSet of the SETVALUEs of the atom probes of
// the usual shape whose readers are all flag-guarded conjunctions.
// visible tells the globals that code outside probes reads.
func (m *Machine) setupAtomExits(visible []bool) {
	atomGlobal := make([]bool, len(visible))
	for _, a := range m.atoms {
		lp := m.probes[a.probe]
		for pc := lp.entry; pc < lp.end; pc++ {
			if in := m.plain[pc]; in.op == compile.SETVALUE {
				atomGlobal[in.a] = true
			}
		}
	}
	for _, a := range m.atoms {
		lp := m.probes[a.probe]
		okPC := lp.end - 2
		var setPCs []int
		for pc := lp.entry; pc < lp.end; pc++ {
			if m.plain[pc].op == compile.SETVALUE {
				setPCs = append(setPCs, pc)
			}
		}
		n := len(setPCs)
		if n < 3 || n > 255 || m.plain[okPC].op != compile.PROBEOK {
			continue
		}
		first, last := setPCs[0], setPCs[n-1]
		flag := m.plain[first].a
		if m.plain[last].a != flag || m.plain[first-1].op != compile.NIL || m.plain[last-1].op != compile.T {
			continue
		}
		s := atomSite{okPC: okPC, flag: flag}
		mine := map[int32]bool{flag: true}
		for _, pc := range setPCs[1 : n-1] {
			g := m.plain[pc].a
			if mine[g] {
				s.sets = nil
				break
			}
			mine[g] = true
			s.sets = append(s.sets, g)
		}
		ok := len(s.sets) == n-2
		for _, r := range a.readers {
			in := m.plain[m.probes[r].entry]
			if in.op != compile.PROBECMP || m.prog.Probes[in.a].Cmp != '&' || m.prog.Probes[in.a].Not {
				ok = false
				break
			}
			guarded := false
			for _, t := range m.prog.Probes[in.a].Terms {
				guarded = guarded || t.Global && t.Slot == flag && !t.Not
			}
			ok = ok && guarded
			s.readers = append(s.readers, int32(r))
		}
		if !ok {
			continue
		}
		site := int32(len(m.atomSites))
		m.atomSites = append(m.atomSites, s)
		for j, pc := range setPCs[:n-1] {
			m.plain[pc] = instr{op: opAtomSet, sub: uint8(j), a: m.plain[pc].a, b: site}
		}
	}
	m.atomGlobal = atomGlobal
	m.refreshAtomSites()
}

// refreshAtomSites recomputes the live readers of every atom site.
func (m *Machine) refreshAtomSites() {
	for i := range m.atomSites {
		s := &m.atomSites[i]
		s.all, s.terms = 0, s.terms[:0]
		s.kill = append(s.kill[:0], make([][2]uint64, len(s.sets))...)
		n := 0
		for _, r := range s.readers {
			if m.retired[r] {
				continue
			}
			if n == 64 {
				n++
				break
			}
			bit := uint64(1) << n
			s.all |= bit
			var plan []compile.ProbeTerm
			for _, t := range m.prog.Probes[m.plain[m.probes[r].entry].a].Terms {
				j := -1
				for k, g := range s.sets {
					if t.Global && t.Slot == g {
						j = k
					}
				}
				switch {
				case j >= 0 && t.Not:
					s.kill[j][1] |= bit
				case j >= 0:
					s.kill[j][0] |= bit
				case !t.Global || !m.atomGlobal[t.Slot]:
					plan = append(plan, t) // a plan variable: known when the probe starts
				}
			}
			s.terms = append(s.terms, plan)
			n++
		}
		s.on = n >= 1 && n <= 64
	}
}

// atomSet is the test of opAtomSet in, just after its SETVALUE: whether
// no live reader of the site can be true any more.
func (m *Machine) atomSet(in instr, stack []value.Value, fp, sp int) bool {
	s := &m.atomSites[in.b]
	if !s.on {
		return false
	}
	if in.sub == 0 {
		// The flag is cleared: the probe starts. Readers with a plan
		// variable's term false are out.
		m.atomMask = s.all
		for i, terms := range s.terms {
			for _, t := range terms {
				var v value.Value
				if !t.Global {
					v = stack[fp+int(t.Slot)]
				} else {
					v = m.globals[t.Slot]
				}
				// An unbound global fails the conjunction (probeAll):
				// false too.
				if t.Global && !m.gset[t.Slot] || v.Truthy() == t.Not {
					m.atomMask &^= 1 << i
					break
				}
			}
		}
	} else if stack[sp-1].Truthy() {
		m.atomMask &^= s.kill[in.sub-1][1]
	} else {
		m.atomMask &^= s.kill[in.sub-1][0]
	}
	return m.atomMask == 0
}
