package feasible

import (
	"slices"

	"github.com/labelcov/labelcov/interp/syntax"
)

// List shapes. Plan values are immutable (no builtin place is writable),
// so the elements of a list are those it was built with: a quoted literal,
// (list ...), (cons ...), and what first, nth, rest, assoc, reverse and
// the like take out of such lists. The value analysis keeps, with the
// range of a value's numbers, what it knows of the conses the value may
// be (aval.lists): the range of each of their first elements, and of all
// later ones. So a cell taken out of a literal table ((nth k *drop-cells*)
// into a variable, then into a designator's cell property) keeps its
// columns and rows. Atoms (nil, t, symbols, strings) are no conses
// (aval.noCons); a non-number the analysis knows nothing of may be any
// cons.

// listShape is what is known of the conses a value may be: element i,
// where there is one, lies in elems[i] (i < len(elems)), every later
// element in rest (the empty aval: there are none).
type listShape struct {
	elems []aval
	rest  aval
	// min: every cons the value may be has at least min elements;
	// atoms says what else than those conses the value's non-numbers
	// may be (precise.go): atomsAny, atomsNil (nil only) or atomsNone.
	min   int
	atoms int8
}

const (
	// maxShapeDepth bounds the nesting of shapes (a table of slots of
	// cells is 4 deep); deeper lists are unknown conses.
	maxShapeDepth = 4
	// maxShapeElems bounds the elements tracked one by one; the later
	// ones join in rest.
	maxShapeElems = 16
	// widenShapes is how often a slot's shape may change before it is
	// dropped (the walk must settle).
	widenShapes = 8
)

// atomVal is a non-number that is no cons: nil, t, a symbol, a string.
func atomVal() aval { return aval{other: true, noCons: true} }

// mayCons reports whether v may be a cons, and unknownCons whether it may
// be one the analysis knows nothing of.
func (v aval) mayCons() bool     { return v.other && !v.noCons }
func (v aval) unknownCons() bool { return v.mayCons() && v.lists == nil }

// listVal is a cons with elements elems (then rest), or nil when no
// elements are given and rest is empty.
func listVal(elems []aval, rest aval) aval {
	if len(elems) > maxShapeElems {
		for _, e := range elems[maxShapeElems:] {
			rest = join(rest, e)
		}
		elems = elems[:maxShapeElems]
	}
	s := &listShape{elems: make([]aval, len(elems)), rest: capDepth(rest, maxShapeDepth-1)}
	for i, e := range elems {
		s.elems[i] = capDepth(e, maxShapeDepth-1)
	}
	return aval{other: true, lists: s}
}

// consVal is listVal of a value that is always a cons of at least
// minLen (>= 1) elements.
func consVal(elems []aval, rest aval, minLen int) aval {
	v := listVal(elems, rest)
	v.lists.min, v.lists.atoms = minLen, atomsNone
	return v
}

// capDepth forgets the shapes of v nested deeper than d.
func capDepth(v aval, d int) aval {
	if v.lists == nil {
		return v
	}
	if d <= 0 {
		v.lists = nil
		return v
	}
	s := &listShape{elems: make([]aval, len(v.lists.elems)), rest: capDepth(v.lists.rest, d-1), min: v.lists.min, atoms: v.lists.atoms}
	for i, e := range v.lists.elems {
		s.elems[i] = capDepth(e, d-1)
	}
	v.lists = s
	return v
}

// joinShape joins two shapes: elements both track join one by one, the
// others join the rest.
func joinShape(a, b *listShape) *listShape {
	n := min(len(a.elems), len(b.elems))
	s := &listShape{elems: make([]aval, n), rest: join(a.rest, b.rest), min: min(a.min, b.min), atoms: min(a.atoms, b.atoms)}
	for i := range n {
		s.elems[i] = join(a.elems[i], b.elems[i])
	}
	for _, e := range a.elems[n:] {
		s.rest = join(s.rest, e)
	}
	for _, e := range b.elems[n:] {
		s.rest = join(s.rest, e)
	}
	return s
}

func sameShape(a, b *listShape) bool {
	if a == nil || b == nil {
		return a == b
	}
	if len(a.elems) != len(b.elems) || !a.rest.same(b.rest) || a.min != b.min || a.atoms != b.atoms {
		return false
	}
	for i := range a.elems {
		if !a.elems[i].same(b.elems[i]) {
			return false
		}
	}
	return true
}

// datumVal is the value of quoted datum x.
func datumVal(x syntax.Node, depth int) aval {
	switch x := x.(type) {
	case *syntax.Int:
		return intConst(x.Value, x)
	case *syntax.Float:
		return fixFloat(x.Value, x.Value, x)
	case *syntax.Symbol:
		return symVal(x.Name)
	case *syntax.Keyword:
		return symVal(":" + x.Name)
	case *syntax.String, *syntax.Char:
		return atomVal()
	case *syntax.List:
		if len(x.Elems) == 0 {
			return nilVal()
		}
		if depth >= maxShapeDepth || slices.ContainsFunc(x.Elems, func(e syntax.Node) bool { return syntax.IsSymbol(e, ".") }) {
			return nonNum() // (a dotted list: its shape is not its elements)
		}
		elems := make([]aval, len(x.Elems))
		for i, e := range x.Elems {
			elems[i] = datumVal(e, depth+1)
		}
		return consVal(elems, aval{}, len(elems))
	}
	return nonNum()
}

// allElems joins every element of the conses v may be; ok is false when
// they are unknown.
func allElems(v aval) (aval, bool) {
	if !v.mayCons() {
		return aval{}, true
	}
	if v.lists == nil {
		return top(), false
	}
	e := v.lists.rest
	for _, x := range v.lists.elems {
		e = join(e, x)
	}
	return e, true
}

// elemOf is the value of element idx (-1: any) of v, as first, second,
// nth and car read it: nil past the end or of nil, a failure of a number.
func elemOf(v aval, idx int) aval {
	out := aval{}
	if v.other && !hasElem(v, idx) {
		out = nilVal() // nil, or past the end
	}
	switch {
	case !v.mayCons():
	case v.lists == nil:
		return top()
	case idx >= 0 && idx < len(v.lists.elems):
		out = join(out, v.lists.elems[idx])
	case idx >= 0:
		out = join(out, v.lists.rest)
	default:
		e, _ := allElems(v)
		out = join(out, e)
	}
	return out
}

// listBuiltin is the value of the list builtins whose results are made of
// their arguments' elements; ok is false for the other builtins.
func listBuiltin(h string, vals []aval) (aval, bool) {
	n := len(vals)
	// sub is a list made of elements of the arguments from: its shape is
	// known where theirs are.
	sub := func(from ...aval) aval {
		r := aval{}
		for _, v := range from {
			e, ok := allElems(v)
			if !ok {
				return nonNum()
			}
			r = join(r, e)
		}
		return listVal(nil, r)
	}
	switch h {
	case "list":
		if n == 0 {
			return nilVal(), true
		}
		return consVal(vals, aval{}, n), true
	case "cons":
		if n != 2 {
			return aval{}, false
		}
		t := vals[1]
		switch {
		case t.num || t.unknownCons():
			return consVal(vals[:1], top(), 1), true
		case t.mayCons():
			return consVal(append([]aval{vals[0]}, t.lists.elems...), t.lists.rest, 1+sureMin(t)), true
		}
		return consVal(vals[:1], aval{}, 1), true
	case "rest", "cdr":
		if n != 1 {
			return aval{}, false
		}
		v := vals[0]
		switch {
		case v.unknownCons():
			return nonNum(), true
		case !v.mayCons():
			if v.other {
				return nilVal(), true // (rest nil); (rest 'x) fails
			}
			return aval{}, true // (rest 3) fails
		case len(v.lists.elems) == 0:
			r := listVal(nil, v.lists.rest)
			switch {
			case sureCons(v) && v.lists.min >= 2:
				r.lists.min, r.lists.atoms = v.lists.min-1, atomsNone
			case v.lists.atoms != atomsAny:
				r.lists.atoms = atomsNil // the rest of nil or of a list: nil or a list
			}
			return r, true
		}
		return restVal(v), true
	case "reverse", "append":
		return sub(vals...), true
	case "member", "remove":
		if n != 2 {
			return aval{}, false
		}
		return sub(vals[1]), true
	case "assoc":
		if n != 2 {
			return aval{}, false
		}
		e, ok := allElems(vals[1])
		if !ok {
			return nonNum(), true
		}
		return assocVal(vals[0], vals[1], e), true
	}
	return aval{}, false
}
