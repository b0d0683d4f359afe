package feasible

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Counters. A local variable that every binding starts at 0 and that
// only (incf X) changes is a count of the increments since its binding:
// each is one VM instruction (ADD1), all of them lie in the one run (the
// plan's or a check's) its binding belongs to, and a run executes at most
// its step budget, an int64, of instructions. So the counter never passes
// 2^63-1 and never wraps around: it is in [0, 2^63-1], where the interval
// analysis alone, widening a bound that keeps growing, would let the
// increment wrap to any integer. A global (defparameter or defvar, once,
// to 0) lives through the plan and all its checks, whose budgets add up:
// it counts only when no (incf X) lies in code the checks, the policies
// or the top-level forms may run (their forms, and every function their
// code names, transitively), so that all its increments are the def-plan
// run's. No name bound or assigned any other way anywhere in the plan (a
// parameter, a loop or handler variable, setq, decf, (incf X 2), a
// binding to anything but 0, a global also bound by let) is a counter,
// nor a name that occurs in a closure, which may outlive its run.

// counterNote and globalCounterNote say what a counter's range rests on,
// for reasons.
const (
	counterNote       = "a local counter, bound to 0 and changed only by (incf _), one step each: no step budget lets it wrap past 2^63-1"
	globalCounterNote = "a global counter, defined as 0 and changed only by (incf _), one step each, in code only the def-plan runs: no step budget lets it wrap past 2^63-1"
	// resetCounterNote: a global counter that (setq X 0) also resets. It
	// never wraps either (between two resets it counts increments of one
	// run), but it does not only grow: the guard analysis does not read
	// it as a counter.
	resetCounterNote = "a global counter, defined as 0 and changed only by (incf _), one step each, in code only the def-plan runs, and by (setq _ 0): no step budget lets it wrap past 2^63-1"
)

// findCounters fills a.counters.
func (a *valueAnalysis) findCounters() {
	a.counters = map[string]string{}
	a.resets = map[string]bool{}
	globals := map[string]int{}
	okSym := map[*syntax.Symbol]bool{}
	for _, f := range a.res.Forms {
		l, ok := f.(*syntax.List)
		if !ok || a.res.Skipped(f) || len(l.Elems) != 3 {
			continue
		}
		switch forms.Head(l) {
		case "defparameter", "defvar":
			s, ok1 := l.Elems[1].(*syntax.Symbol)
			z, ok2 := l.Elems[2].(*syntax.Int)
			if ok1 && ok2 && z.Value == 0 {
				okSym[s] = true
				globals[s.Name]++
			}
		}
	}
	for _, f := range a.res.Forms {
		if a.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Quote:
				return false
			case *syntax.List:
				a.counterUses(n, okSym)
				return forms.Head(n) != "quote"
			}
			return true
		})
	}
	bad := map[string]bool{}
	for _, f := range a.res.Forms {
		if a.res.Skipped(f) {
			continue
		}
		if s, ok := f.(*syntax.Symbol); ok {
			okSym[s] = true // a top-level read
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Quote:
				return false
			case *syntax.List:
				if forms.Head(n) == "quote" {
					return false
				}
				switch forms.Head(n) {
				case "lambda", "flet", "labels", "macrolet":
					// A closure may outlive the run its binding began in.
					syntax.Walk(n, func(x syntax.Node) bool {
						if s, ok := x.(*syntax.Symbol); ok {
							bad[s.Name] = true
						}
						return true
					})
				}
			case *syntax.Symbol:
				if !okSym[n] {
					bad[n.Name] = true
				}
			}
			return true
		})
	}
	letBound := map[string]bool{}
	for name := range a.counters {
		letBound[name] = true
		if bad[name] || globals[name] > 0 || a.resets[name] {
			delete(a.counters, name)
		}
	}
	if len(globals) == 0 {
		return
	}
	outside := a.outsidePlanIncfs()
	for name, n := range globals {
		if n == 1 && !bad[name] && !letBound[name] && !outside[name] {
			a.counters[name] = globalCounterNote
			if a.resets[name] {
				a.counters[name] = resetCounterNote
			}
		}
	}
}

// outsidePlanIncfs are the names (incf X) changes in code that the
// checks, the policies or the top-level forms may run: their own forms
// and the functions any symbol in them names, transitively.
func (a *valueAnalysis) outsidePlanIncfs() map[string]bool {
	defs := map[string]*syntax.List{}
	var roots []syntax.Node
	for _, f := range a.res.Forms {
		if a.res.Skipped(f) {
			continue
		}
		l, ok := f.(*syntax.List)
		switch h := forms.Head(f); {
		case ok && (h == "defun" || h == "def-cram-function" || h == "def-plan") && len(l.Elems) > 1:
			if s, ok := l.Elems[1].(*syntax.Symbol); ok && h != "def-plan" {
				if defs[s.Name] != nil {
					roots = append(roots, f) // defined twice: either may run
				}
				defs[s.Name] = l
			}
		default:
			roots = append(roots, f) // checks, policies, top-level code
		}
	}
	out := map[string]bool{}
	seen := map[string]bool{}
	for len(roots) > 0 {
		r := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		syntax.Walk(r, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Symbol:
				if d := defs[n.Name]; d != nil && !seen[n.Name] {
					seen[n.Name] = true
					roots = append(roots, d)
				}
			case *syntax.List:
				if forms.Head(n) == "incf" && len(n.Elems) >= 2 {
					if s, ok := n.Elems[1].(*syntax.Symbol); ok {
						out[s.Name] = true
					}
				}
			}
			return true
		})
	}
	return out
}

// counterUses marks in okSym the symbols of l that are reads of a
// variable, (incf X) and let bindings (X 0), and records the names so
// bound as candidates.
func (a *valueAnalysis) counterUses(l *syntax.List, okSym map[*syntax.Symbol]bool) {
	h := forms.Head(l)
	switch {
	case h == "let" || h == "let*":
		if bl, ok := l.Elems[1%len(l.Elems)].(*syntax.List); ok && len(l.Elems) >= 2 {
			for _, b := range bl.Elems {
				if b, ok := b.(*syntax.List); ok && len(b.Elems) == 2 {
					s, ok1 := b.Elems[0].(*syntax.Symbol)
					z, ok2 := b.Elems[1].(*syntax.Int)
					if ok1 && ok2 && z.Value == 0 {
						okSym[s] = true
						a.counters[s.Name] = counterNote
					}
				}
			}
		}
	case h == "incf" && len(l.Elems) == 2:
		if s, ok := l.Elems[1].(*syntax.Symbol); ok {
			okSym[s] = true
		}
		return
	case h == "setq" && len(l.Elems) == 3:
		// (setq X 0): a reset, allowed to global counters only.
		s, ok1 := l.Elems[1].(*syntax.Symbol)
		z, ok2 := l.Elems[2].(*syntax.Int)
		if ok1 && ok2 && z.Value == 0 {
			okSym[s] = true
			a.resets[s.Name] = true
			return
		}
	}
	// The places of setq, setf, decf, push, pop and (incf X DELTA) are no
	// reads.
	place := map[syntax.Node]bool{}
	if f := forms.Lookup(h); f != nil && f.Effect == forms.Assign {
		if f.Shape == forms.Places {
			for i := 1; i < len(l.Elems); i += 2 {
				place[l.Elems[i]] = true
			}
		} else if f.Place < len(l.Elems) {
			place[l.Elems[f.Place]] = true
		}
	}
	for _, s := range forms.Slots(l) {
		if x, ok := forms.At(l, s.Path).(*syntax.Symbol); ok && !place[x] {
			okSym[x] = true
		}
	}
}

// increment is the value of (incf X) for counter X whose value is cur: one
// more, and never past 2^63-1 (see above).
func increment(cur aval, n syntax.Node, note string) aval {
	c, ok := numeric(cur)
	if !ok {
		return aval{} // fails
	}
	v := numRange(c.lo+1, min(c.hi+1, maxInt), false, n)
	v.src = c.src
	v.more = c.more
	v.note = note
	return v
}
