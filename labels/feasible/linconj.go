package feasible

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// A conjunction of comparisons between sums of the same terms can be
// contradictory although no term is bounded by a constant: table
// columns (>= (first cell) col) false and (< (first cell) (+ col 4))
// false ask x < col and x >= col + 4. linearConj reads such
// conjunctions as linear constraints over their terms (a symbol or a
// pure form like (first cell), one unknown per distinct text: a label's
// predicate is evaluated at one point with no side effect, so equal
// texts are equal values) and asks Fourier–Motzkin (fm.go) whether any
// point meets them all.
//
// Exact rational reasoning is sound only where the VM's arithmetic is
// exact: every term must be an integer, never NaN (a NaN fails a
// comparison and its negation alike), within ±2^40 by the value
// analysis, and the sums stay small (a few terms, small factors), so
// nothing wraps around or rounds. A term that may be a non-number is
// fine: the comparison then fails and the label with it.
const linTermBound = 1 << 40

// linearConj says why no run satisfies the relational literals of lits
// together; ok is false when they may hold (or are not all linear).
func (d *domains) linearConj(lits []labels.Literal) (string, bool) {
	if d.a == nil || len(lits) < 2 {
		return "", false
	}
	terms := &linTerms{ids: map[string]int{}}
	var cs []constraint
	var used []labels.Literal
	for _, l := range lits {
		c, ok := d.linLiteral(l, terms)
		if !ok {
			continue
		}
		cs = append(cs, c)
		used = append(used, l)
	}
	isInt := func(s int) bool { return terms.ints[s] }
	if len(cs) < 2 || satisfiable(cs, isInt) {
		return "", false
	}
	// Keep the fewest literals that still contradict, for the reason.
	for i := 0; i < len(cs) && len(cs) > 2; {
		rest := append(append([]constraint(nil), cs[:i]...), cs[i+1:]...)
		if !satisfiable(rest, isInt) {
			cs = rest
			used = append(append([]labels.Literal(nil), used[:i]...), used[i+1:]...)
			continue
		}
		i++
	}
	var parts []string
	for _, l := range used {
		parts = append(parts, fmt.Sprintf("%s %v", d.show(l.Atom), l.Value))
	}
	return fmt.Sprintf("no numbers satisfy %s together (linear arithmetic over %s, never NaN, within ±2^40)",
		strings.Join(parts, " and "), strings.Join(slices.Sorted(maps.Keys(terms.ids)), ", ")), true
}

// linLiteral reads one literal (op A B) or its negation as a constraint
// e rel 0.
func (d *domains) linLiteral(l labels.Literal, terms *linTerms) (c constraint, ok bool) {
	n, isList := l.Atom.(*syntax.List)
	if !isList || len(n.Elems) != 3 {
		return c, false
	}
	op := syntax.Head(n)
	switch op {
	case "<", "<=", ">", ">=", "=":
	default:
		return c, false
	}
	if d.a.res.IsUserFunc(op) {
		return c, false
	}
	a, okA := d.linTerm(n.Elems[1], terms, 0, false)
	b, okB := d.linTerm(n.Elems[2], terms, 0, false)
	if !okA || !okB {
		return c, false
	}
	if !l.Value {
		op = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "/="}[op]
	}
	// a op b as e rel 0: e is a - b, or b - a where the relation swaps.
	rel := map[string]struct {
		swap bool
		rel  int32
	}{"<": {false, relLT}, "<=": {false, relLE}, ">": {true, relLT}, ">=": {true, relLE}, "=": {false, relEQ}, "/=": {false, relNE}}[op]
	if rel.swap {
		a, b = b, a
	}
	overflowed := !noOverflow(func() { c = constraint{e: a.plus(b, ratNeg1), rel: rel.rel} })
	return c, !overflowed
}

// linTerm reads n as a linear term: integer literals, + and - of terms,
// * by an integer literal, 1+ and 1-, and leaves (symbols, pure forms)
// the value analysis knows to be integers within linTermBound.
func (d *domains) linTerm(n syntax.Node, terms *linTerms, depth int, arith bool) (lin, bool) {
	if depth > 4 {
		return lin{}, false
	}
	switch n := n.(type) {
	case *syntax.Int:
		if n.Value > linTermBound || n.Value < -linTermBound {
			return lin{}, false
		}
		return linInt(n.Value), true
	case *syntax.List:
		h := syntax.Head(n)
		if d.a.res.IsUserFunc(h) {
			break
		}
		switch h {
		case "+", "-":
			if len(n.Elems) < 2 || len(n.Elems) > 4 {
				return lin{}, false
			}
			first, ok := d.linTerm(n.Elems[1], terms, depth+1, true)
			if !ok {
				return lin{}, false
			}
			if h == "-" && len(n.Elems) == 2 {
				return first.scale(ratNeg1), true
			}
			k := ratOne
			if h == "-" {
				k = ratNeg1
			}
			for _, x := range n.Elems[2:] {
				t, ok := d.linTerm(x, terms, depth+1, true)
				if !ok {
					return lin{}, false
				}
				first = first.plus(t, k)
			}
			return first, true
		case "1+", "1-":
			if len(n.Elems) != 2 {
				return lin{}, false
			}
			t, ok := d.linTerm(n.Elems[1], terms, depth+1, true)
			if !ok {
				return lin{}, false
			}
			if h == "1+" {
				return t.plus(linInt(1), ratOne), true
			}
			return t.plus(linInt(1), ratNeg1), true
		case "*":
			if len(n.Elems) != 3 {
				return lin{}, false
			}
			for i, x := range n.Elems[1:] {
				k, ok := x.(*syntax.Int)
				if !ok || k.Value > 1<<10 || k.Value < -(1<<10) {
					continue
				}
				t, ok := d.linTerm(n.Elems[2-i], terms, depth+1, true)
				if !ok {
					return lin{}, false
				}
				return t.scale(ri(k.Value)), true
			}
			return lin{}, false
		}
	}
	return d.linLeaf(n, terms, arith)
}

// linTerms numbers the unknowns of one conjunction by their text.
type linTerms struct {
	ids  map[string]int
	ints []bool // by id: an integer
}

// linLeaf makes n one unknown if the value analysis bounds it within
// linTermBound and never NaN. Inside arithmetic (arith) it must be an
// integer, so that sums are exact; compared directly, a float is exact
// too.
func (d *domains) linLeaf(n syntax.Node, terms *linTerms, arith bool) (lin, bool) {
	switch n.(type) {
	case *syntax.Symbol, *syntax.List:
	default:
		return lin{}, false
	}
	if l, ok := n.(*syntax.List); ok && !d.a.res.Pure(l) {
		return lin{}, false
	}
	v := d.a.ev(n, 0)
	if !v.num || v.nan || arith && v.frac || math.IsInf(v.lo, 0) || math.IsInf(v.hi, 0) || v.lo < -linTermBound || v.hi > linTermBound {
		return lin{}, false
	}
	key := syntax.NodeString(n)
	s, ok := terms.ids[key]
	if !ok {
		s = len(terms.ids)
		terms.ids[key] = s
		terms.ints = append(terms.ints, !v.frac)
	} else if v.frac {
		terms.ints[s] = false
	}
	return linSym(s), true
}
