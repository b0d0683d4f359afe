package feasible

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Bound is one conjunct of a label that bounds an operand by a
// constant: Operand Rel Value. Operand names the operand (two bounds on
// the same name are on the same value); Const is the constant as the
// reason shows it.
type Bound struct {
	Operand string
	Rel     labels.Relation
	Value   float64
	Const   string
}

// bound is an interval constraint on one variable.
type bound struct {
	lo, hi         float64
	loOpen, hiOpen bool
	ne             []float64
	why            []string
}

// infeasibleConj reports, with a reason, when no numbers satisfy a
// conjunction of signed atoms of the form (op VAR LITERAL) or
// (op LITERAL VAR). Atoms on non-numbers make the whole label fail inside
// ignore-errors, so assuming numbers is sound for infeasibility.
func infeasibleConj(lits []labels.Literal) (string, bool) {
	var bs []Bound
	for _, s := range lits {
		l, ok := s.Atom.(*syntax.List)
		if !ok || len(l.Elems) != 3 {
			continue
		}
		m, ok := labels.RelationOf(syntax.Head(l))
		if !ok {
			continue
		}
		v, c, flipped, ok := varConst(l.Elems[1], l.Elems[2])
		if !ok {
			continue
		}
		if flipped { // c op v  ==  v op' c
			m = m.Swap()
		}
		if !s.Value {
			m = m.Not()
		}
		x, _ := number(c)
		bs = append(bs, Bound{Operand: v, Rel: m, Value: x, Const: numText(c)})
	}
	return Contradiction(bs, labels.Relation.String)
}

// Contradiction reports, with a reason, when no number satisfies every
// bound of bs (ordered values: a NaN satisfies no relation and its
// negation alike, so the caller bounds only operands that cannot be NaN
// or whose failure makes the label fail). op spells a relation for the
// reason, in the front end's syntax.
func Contradiction(bs []Bound, op func(labels.Relation) string) (string, bool) {
	vars := map[string]*bound{}
	var order []string
	for _, c := range bs {
		v, m := c.Operand, c.Rel
		b := vars[v]
		if b == nil {
			b = &bound{lo: math.Inf(-1), hi: math.Inf(1)}
			vars[v] = b
			order = append(order, v)
		}
		b.why = append(b.why, fmt.Sprintf("%s %s %s", v, op(m), c.Const))
		x := c.Value
		switch m {
		case labels.Less:
			if x < b.hi || x == b.hi && !b.hiOpen {
				b.hi, b.hiOpen = x, true
			}
		case labels.LessEqual:
			if x < b.hi {
				b.hi, b.hiOpen = x, false
			}
		case labels.Greater:
			if x > b.lo || x == b.lo && !b.loOpen {
				b.lo, b.loOpen = x, true
			}
		case labels.GreaterEqual:
			if x > b.lo {
				b.lo, b.loOpen = x, false
			}
		case labels.Equal:
			if x < b.hi || x == b.hi && !b.hiOpen {
				b.hi, b.hiOpen = x, false
			}
			if x > b.lo || x == b.lo && !b.loOpen {
				b.lo, b.loOpen = x, false
			}
			if x > b.hi || x < b.lo {
				b.lo, b.hi = 1, 0 // empty
			}
		case labels.NotEqual:
			b.ne = append(b.ne, x)
		}
	}
	for _, v := range order {
		b := vars[v]
		empty := b.lo > b.hi || b.lo == b.hi && (b.loOpen || b.hiOpen)
		if !empty && b.lo == b.hi {
			for _, x := range b.ne {
				if x == b.lo {
					empty = true
				}
			}
		}
		if empty {
			return "no number satisfies " + strings.Join(b.why, " and "), true
		}
	}
	return "", false
}

func varConst(a, b syntax.Node) (string, syntax.Node, bool, bool) {
	return splitVarConst(a, b, func(s *syntax.Symbol) bool { return s.Name != "t" && s.Name != "nil" },
		func(n syntax.Node) bool { _, ok := number(n); return ok })
}

// splitVarConst splits a comparison's operands a and b into a variable
// (a symbol isVar accepts) and a constant (a node isConst accepts),
// flipped when the constant comes first.
func splitVarConst(a, b syntax.Node, isVar func(*syntax.Symbol) bool, isConst func(syntax.Node) bool) (string, syntax.Node, bool, bool) {
	if s, ok := a.(*syntax.Symbol); ok && isVar(s) && isConst(b) {
		return s.Name, b, false, true
	}
	if s, ok := b.(*syntax.Symbol); ok && isVar(s) && isConst(a) {
		return s.Name, a, true, true
	}
	return "", nil, false, false
}

// number is the value of a numeric literal.
func number(n syntax.Node) (float64, bool) {
	switch n := n.(type) {
	case *syntax.Int:
		return float64(n.Value), true
	case *syntax.Float:
		return n.Value, true
	}
	return 0, false
}

// numText renders numeric literal n canonically (#x1F as 31, 1d0 as 1.0).
func numText(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Int:
		return strconv.FormatInt(n.Value, 10)
	case *syntax.Float:
		raw := strconv.FormatFloat(n.Value, 'g', -1, 64)
		if !strings.ContainsAny(raw, ".eEnI") {
			raw += ".0"
		}
		return raw
	}
	return syntax.NodeString(n)
}
