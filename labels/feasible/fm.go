package feasible

import (
	"slices"
)

// Linear arithmetic over the rationals for the path analysis (paths.go):
// linear terms over symbols, constraints on them, and a Fourier–Motzkin
// satisfiability test. "Unsatisfiable" is exact (no real point, or for
// known integers no integer point, meets the constraints); whenever a
// limit is reached the answer is "maybe", which callers treat as
// satisfiable.

// lin is c + Σ k·x_s, its terms sorted by symbol with non-zero
// coefficients. Its term slice is never modified once built.
type lin struct {
	c rat
	t []lterm
}

type lterm struct {
	s int
	k rat
}

func linConst(r rat) lin { return lin{c: r} }

func linInt(i int64) lin { return lin{c: ri(i)} }

func linSym(s int) lin { return lin{c: ratZero, t: []lterm{{s, ratOne}}} }

func (a lin) isConst() bool { return len(a.t) == 0 }

// single reports the symbol of a term that is exactly one symbol.
func (a lin) single() (int, bool) {
	if len(a.t) == 1 && a.c.n == 0 && a.t[0].k == ratOne {
		return a.t[0].s, true
	}
	return 0, false
}

// plus is a + k·b (it panics with errOverflow when a number overflows).
func (a lin) plus(b lin, k rat) lin {
	return a.plusTo(make([]lterm, 0, len(a.t)+len(b.t)), b, k)
}

// plusTo is plus writing the terms to buf (empty, with room for
// len(a.t)+len(b.t) of them).
func (a lin) plusTo(buf []lterm, b lin, k rat) lin {
	out := lin{c: a.c.add(k.mul(b.c)), t: buf}
	i, j := 0, 0
	for i < len(a.t) || j < len(b.t) {
		switch {
		case j >= len(b.t) || i < len(a.t) && a.t[i].s < b.t[j].s:
			out.t = append(out.t, a.t[i])
			i++
		case i >= len(a.t) || b.t[j].s < a.t[i].s:
			if k.n != 0 {
				out.t = append(out.t, lterm{b.t[j].s, k.mul(b.t[j].k)})
			}
			j++
		default:
			if r := a.t[i].k.add(k.mul(b.t[j].k)); r.n != 0 {
				out.t = append(out.t, lterm{a.t[i].s, r})
			}
			i++
			j++
		}
	}
	return out
}

func (a lin) scale(k rat) lin { return lin{c: ratZero}.plus(a, k) }

func (a lin) coef(s int) (rat, bool) {
	for _, t := range a.t {
		if t.s == s {
			return t.k, true
		}
	}
	return rat{}, false
}

// Constraint relations: the term is ≤ 0, < 0, = 0 or ≠ 0.
const (
	relLE int32 = iota
	relLT
	relEQ
	relNE
)

type constraint struct {
	e   lin
	rel int32
	// kid is key's number in the path analysis's memo keys (0: not yet
	// given); whatever sets key sets it to 0.
	kid uint32
	// key identifies the constraint for memoization (paths.go); empty
	// for constraints elimination derives.
	key string
}

// fmLimit bounds the constraints Fourier–Motzkin may hold at once.
const fmLimit = 2000

// satisfiable reports whether some point meets cs (false only when none
// does); isInt tells the symbols known to be integers, whose strict
// constraints tighten (a < b to a ≤ b-1 over integers).
func satisfiable(cs []constraint, isInt func(int) bool) (sat bool) {
	return (&fmScratch{}).satisfiable(cs, isInt)
}

// fmScratch is the memory Fourier–Motzkin works in, kept from one test
// to the next: it keeps nothing else (no answer depends on it).
type fmScratch struct {
	cur, next, pos, neg []constraint
	red, ineq           []constraint // reduce's output, decide's inequalities
	count               [][2]int     // by symbol: constraints with a positive, a negative coefficient
}

// satisfiable is satisfiable working in sc.
func (sc *fmScratch) satisfiable(cs []constraint, isInt func(int) bool) (sat bool) {
	if !noOverflow(func() { sat = sc.decide(cs, isInt) }) {
		return true // too large to tell
	}
	return sat
}

func (sc *fmScratch) decide(cs []constraint, isInt func(int) bool) bool {
	// Most conditions hold inequalities only: Fourier–Motzkin then reads
	// them where they are (it copies what it changes), without a copy of
	// the list for substituting equalities into.
	if !slices.ContainsFunc(cs, func(c constraint) bool { return c.rel == relEQ || c.rel == relNE }) {
		return sc.fmFeasible(cs, isInt)
	}
	var ne []constraint
	var eqs []lin
	ineq := sc.ineq[:0]
	defer func() { sc.ineq = ineq[:0] }()
	for _, c := range cs {
		switch c.rel {
		case relEQ:
			eqs = append(eqs, c.e)
		case relNE:
			ne = append(ne, c)
		default:
			ineq = append(ineq, c)
		}
	}
	// Equalities: solve each for one symbol and substitute it away.
	for len(eqs) > 0 {
		e := eqs[0]
		eqs = eqs[1:]
		if e.isConst() {
			if e.c.n != 0 {
				return false
			}
			continue
		}
		if allInt(e, isInt) && !intSolvable(e) {
			return false
		}
		s, k := e.t[0].s, e.t[0].k
		// x_s = -(e - k x_s)/k
		sub := func(x lin) lin {
			kx, ok := x.coef(s)
			if !ok {
				return x
			}
			return x.plus(e, kx.quo(k).neg())
		}
		for i := range eqs {
			eqs[i] = sub(eqs[i])
		}
		for i := range ineq {
			ineq[i].e = sub(ineq[i].e)
		}
		for i := range ne {
			ne[i].e = sub(ne[i].e)
		}
		// A symbol solved for may be an integer the others do not
		// show; tightening then stays valid only for the terms that
		// remain over integers (allInt checks each).
	}
	if !sc.fmFeasible(ineq, isInt) {
		return false
	}
	// A convex set avoids finitely many hyperplanes unless it lies in
	// one of them: each disequality is checked on its own.
	for _, d := range ne {
		if d.e.isConst() {
			if d.e.c.n == 0 {
				return false
			}
			continue
		}
		lt := append(slices.Clip(ineq), constraint{e: d.e, rel: relLT})
		gt := append(slices.Clip(ineq), constraint{e: d.e.scale(ratNeg1), rel: relLT})
		if !sc.fmFeasible(lt, isInt) && !sc.fmFeasible(gt, isInt) {
			return false
		}
	}
	return true
}

func allInt(e lin, isInt func(int) bool) bool {
	for _, t := range e.t {
		if !isInt(t.s) {
			return false
		}
	}
	return true
}

// intScale returns the least positive L making every coefficient of e
// an integer.
func intScale(e lin) int64 {
	l := int64(1)
	for _, t := range e.t {
		l = mulOK(l, t.k.d/gcd(l, t.k.d))
	}
	return l
}

// coefGCD is the gcd of e's coefficients scaled by l (integers).
func coefGCD(e lin, l int64) int64 {
	g := int64(0)
	for _, t := range e.t {
		g = gcd(g, t.k.mul(ri(l)).n)
	}
	return g
}

// intSolvable reports whether Σ k x + c = 0 may have an integer solution:
// the gcd of the scaled coefficients divides the scaled constant.
func intSolvable(e lin) bool {
	l := intScale(e)
	g := coefGCD(e, l)
	c := e.c.mul(ri(l))
	if !c.isInt() {
		return false
	}
	return g == 0 || c.n%g == 0
}

// tighten turns a constraint over integers into its integer hull's
// non-strict form: g·y + c < 0 (y an integer combination, g the gcd of
// the scaled coefficients) becomes y ≤ ceil(-c/g) - 1, and ≤ becomes
// y ≤ floor(-c/g).
//
// It works in place, since a constraint is 64 bytes and most are left as
// they are; one it changes loses its key (derived constraints have none).
func tighten(c *constraint, isInt func(int) bool) {
	if c.e.isConst() || !allInt(c.e, isInt) {
		return
	}
	l := intScale(c.e)
	g := coefGCD(c.e, l)
	e := c.e // the terms (scaled) are an integer y with coprime coefficients
	if k := mk(l, g); k != ratOne {
		e = e.scale(k)
	}
	bound := e.c.neg() // y < bound or y ≤ bound
	var b int64
	if c.rel == relLT {
		b = addOK(bound.ceil(), -1)
	} else {
		b = bound.floor()
	}
	e.c = ri(negOK(b))
	*c = constraint{e: e, rel: relLE}
}

// fmFeasible decides a conjunction of ≤ and < constraints by
// Fourier–Motzkin elimination; true when feasible or past fmLimit.
func (sc *fmScratch) fmFeasible(cs []constraint, isInt func(int) bool) bool {
	cur := sc.cur[:0]
	defer func() { sc.cur = cur[:0] }()
	for i := range cs {
		cur = append(cur, cs[i])
		c := &cur[len(cur)-1]
		tighten(c, isInt)
		if c.e.isConst() {
			if !constOK(*c) {
				return false
			}
			cur = cur[:len(cur)-1]
		}
	}
	count := sc.count
	defer func() { sc.count = count[:0] }()
	for len(cur) > 0 {
		// reduce writes into a buffer of its own; cur's becomes the
		// next call's.
		red := reduce(sc.red[:0], cur)
		sc.red, cur = cur[:0], red
		// Eliminate the symbol with the fewest new constraints (the
		// smallest of those that tie).
		top := 0
		for _, c := range cur {
			for _, t := range c.e.t {
				top = max(top, t.s+1)
			}
		}
		count = slices.Grow(count[:0], top)[:top]
		clear(count)
		for _, c := range cur {
			for _, t := range c.e.t {
				if t.k.sign() > 0 {
					count[t.s][0]++
				} else {
					count[t.s][1]++
				}
			}
		}
		best, cost := -1, 0
		for s, n := range count {
			if n == [2]int{} {
				continue
			}
			if k := n[0] * n[1]; best < 0 || k < cost {
				best, cost = s, k
			}
		}
		pos, neg, next := sc.pos[:0], sc.neg[:0], sc.next[:0]
		for _, c := range cur {
			k, ok := c.e.coef(best)
			switch {
			case !ok:
				next = append(next, c)
			case k.sign() > 0:
				pos = append(pos, c)
			default:
				neg = append(neg, c)
			}
		}
		if len(next)+len(pos)*len(neg) > fmLimit {
			return true
		}
		for _, p := range pos {
			kp, _ := p.e.coef(best)
			for _, n := range neg {
				kn, _ := n.e.coef(best)
				// p/kp + n/(-kn): the symbol cancels.
				e := p.e
				if kp != ratOne {
					e = e.scale(kp.inv())
				}
				e = e.plus(n.e, kn.inv().neg())
				rel := relLE
				if p.rel == relLT || n.rel == relLT {
					rel = relLT
				}
				next = append(next, constraint{e: e, rel: rel})
				c := &next[len(next)-1]
				tighten(c, isInt)
				if c.e.isConst() {
					if !constOK(*c) {
						return false
					}
					next = next[:len(next)-1]
				}
			}
		}
		// The buffers change places: next is the new cur, cur (reduce's)
		// the next next.
		sc.pos, sc.neg, sc.next = pos[:0], neg[:0], cur[:0]
		cur = next
	}
	return true
}

func constOK(c constraint) bool {
	if c.rel == relLT {
		return c.e.c.sign() < 0
	}
	return c.e.c.sign() <= 0
}

// reduceScan is the most constraints reduce compares pairwise.
const reduceScan = 48

// unitLead scales e (not constant) so that its first coefficient is ±1:
// constraints with the same terms then bound the same direction Σ k·x,
// by their constants.
func unitLead(e lin) lin {
	if k := e.t[0].k.abs(); k != ratOne {
		e = e.scale(k.inv())
	}
	return e
}

// direction is unitLead, and appends to key what identifies the terms.
func direction(e lin, key []byte) (lin, []byte) {
	e = unitLead(e)
	for _, t := range e.t {
		key = appendInt36(key, int64(t.s))
		key = t.k.appendTo(append(key, ':'))
		key = append(key, ' ')
	}
	return e, key
}

// reduce keeps, of the constraints with proportional coefficients, the
// tightest one: without it Fourier–Motzkin drowns in redundant bounds.
// It returns them in dst's storage (dst empty, sharing none with cs).
func reduce(dst, cs []constraint) []constraint {
	if len(cs) < 2 {
		return append(dst, cs...)
	}
	// Few constraints compare their directions themselves (no keys, no
	// map); more find them by key.
	var index map[string]int
	if len(cs) > reduceScan {
		index = make(map[string]int, len(cs))
	}
	out := dst
	var key []byte
	for ci := range cs {
		// Scale so that the first coefficient is ±1. The constraint is
		// read in place and copied only into out (it is 64 bytes).
		c := &cs[ci]
		var e lin
		i := -1
		if index == nil {
			e = unitLead(c.e)
			for j := range out {
				if slices.Equal(out[j].e.t, e.t) {
					i = j
					break
				}
			}
		} else {
			e, key = direction(c.e, key[:0])
			if j, ok := index[string(key)]; ok {
				i = j
			} else {
				index[string(key)] = len(out)
			}
		}
		if i < 0 {
			out = append(out, constraint{e: e, rel: c.rel, key: c.key})
			continue
		}
		// Σ + c ≤ 0 is tighter the larger c is; at equal c, < is.
		switch d := e.c.cmp(out[i].e.c); {
		case d > 0, d == 0 && c.rel == relLT:
			out[i] = constraint{e: e, rel: c.rel, key: c.key}
		}
	}
	return out
}
