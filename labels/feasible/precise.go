package feasible

import (
	"slices"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// Data-flow precision: what a list surely holds, and values per call.
//
// Sure conses. A list shape (shapes.go) also says how many elements every
// cons the value may be has at least (listShape.min) and what else its
// non-numbers may be (listShape.atoms): a quoted literal, (list ...) and
// (cons ...) are conses, an assoc that may miss adds nil. So (second
// entry) of an entry taken from '((milk 1) (cereal 2)) is 1 or 2, never
// nil, where the test (if entry ...) said entry is not nil; (assoc k
// ALIST) is never nil when every symbol and integer k may be is the first
// element of an element ALIST surely has; (length x) of a list whose
// elements are all known is within the shape's bounds, and (nth i x) with
// i within them is an element, never nil.
//
// Values per call. A call of a plan function whose parameters are plain
// (a defun with a simple lambda list, not used as a value) evaluates the
// function's body under the argument values of the call at hand
// (ctxCall), up to maxCtxDepth calls deep, instead of reading the
// function's result joined over all its calls: (home-of (object-type o))
// is a board when the object types are keys of the homes table, though
// other calls give it types it does not know. Inside such an evaluation a
// parameter, and a let binding, that nothing assigns holds the value
// computed for this call; every other variable reads its summary (which
// holds every value any run binds to it), so the result holds every
// value this call may return.

// atoms of a listShape: what the non-numbers of the value may be besides
// the conses the shape describes.
const (
	atomsAny  int8 = iota // anything (the default: nothing known)
	atomsNil              // nil only
	atomsNone             // nothing: the non-numbers are all conses
)

// maxCtxDepth bounds the calls evaluated per call (nested).
const maxCtxDepth = 3

// maxCtxNodes bounds the size of a function body evaluated per call.
const maxCtxNodes = 400

// atomsOf is what v's non-numbers are besides the conses of its shape.
func atomsOf(v aval) int8 {
	switch {
	case !v.other:
		return atomsNone
	case v.mayCons() && v.lists != nil:
		return v.lists.atoms
	case v.noCons && slices.Equal(v.syms, []string{"nil"}):
		return atomsNil
	}
	return atomsAny
}

// fixAtoms sets r's shape's atoms after r = join(a, b).
func fixAtoms(r aval, a, b aval) aval {
	if r.lists == nil || !r.mayCons() {
		return r
	}
	at := min(atomsOf(a), atomsOf(b))
	if r.lists.atoms != at {
		s := *r.lists
		s.atoms = at
		r.lists = &s
	}
	return r
}

// sureCons reports whether v's non-numbers are all conses of its shape.
func sureCons(v aval) bool {
	return v.other && v.mayCons() && v.lists != nil && v.lists.atoms == atomsNone
}

// sureMin is the least length of the conses v surely is (0 when v may be
// anything but such a cons).
func sureMin(v aval) int {
	if v.num || !sureCons(v) {
		return 0
	}
	return v.lists.min
}

// hasElem reports whether every non-number v may be is a cons with an
// element at idx (so that first, nth and the like never give nil for
// want of one).
func hasElem(v aval, idx int) bool {
	return idx >= 0 && sureCons(v) && idx < v.lists.min
}

// restVal is (rest v) for a v with a shape that has elements.
func restVal(v aval) aval {
	r := listVal(v.lists.elems[1:], v.lists.rest)
	if sureCons(v) && v.lists.min >= 2 {
		r.lists.min, r.lists.atoms = v.lists.min-1, atomsNone
	} else if sureCons(v) || v.lists.atoms == atomsNil {
		r.lists.atoms = atomsNil // (rest of a one-element list, or of nil) is nil
	}
	return r
}

// withoutNil is v where a test said it is not nil.
func withoutNil(v aval) aval {
	switch {
	case !v.other:
	case v.symsKnown():
		v.syms = slices.DeleteFunc(slices.Clone(v.syms), func(s string) bool { return s == "nil" })
		if len(v.syms) == 0 {
			v.other, v.syms, v.noCons = false, nil, false
		}
	case v.mayCons() && v.lists != nil && v.lists.atoms == atomsNil:
		s := *v.lists
		s.atoms = atomsNone
		v.lists = &s
	}
	return v
}

// exactKey reports whether datum value e is exactly the one value x
// (a symbol, or an integer with no other number): (eql key e) holds.
func exactKey(e aval, sym string, num float64, isNum bool) bool {
	if isNum {
		return !e.other && e.setOK() && len(e.set) == 1 && e.set[0] == num
	}
	return !e.num && e.other && e.symsKnown() && slices.Equal(e.syms, []string{sym})
}

// assocVal is (assoc key alist): the elements whose first element may
// be eql to key (every element, elems, when their shapes are unknown),
// and nil unless every value key may be is surely found.
func assocVal(key, alist, elems aval) aval {
	if !key.num && !key.other {
		return aval{} // the key never returns: no call
	}
	if !alist.mayCons() || alist.lists == nil {
		return join(nilVal(), elems)
	}
	sh := alist.lists
	r := aval{}
	for _, e := range append(slices.Clone(sh.elems), sh.rest) {
		if !e.num && !e.other {
			continue
		}
		if !e.num && sureCons(e) && !mayEq(key, elemOf(e, 0)) {
			continue // never its key
		}
		r = join(r, e)
	}
	if !assocFinds(key, alist) {
		r = join(nilVal(), r)
	}
	return r
}

// assocFinds reports whether (assoc key alist) surely finds an element:
// each symbol and integer key may be is the first element of an element
// alist surely has (the VM compares with eql; floats are never found).
func assocFinds(key, alist aval) bool {
	if key.num && (!key.setOK() || key.frac || key.nan) || key.other && !key.symsKnown() || !key.num && !key.other {
		return false
	}
	sh := alist.lists
	if alist.num || !sureCons(alist) {
		return false
	}
	found := func(sym string, num float64, isNum bool) bool {
		for i, e := range sh.elems {
			if i >= sh.min {
				break
			}
			if !e.num && hasElem(e, 0) && exactKey(elemOf(e, 0), sym, num, isNum) {
				return true
			}
		}
		return false
	}
	if key.other {
		for _, s := range key.syms {
			if !found(s, 0, false) {
				return false
			}
		}
	}
	if key.num {
		for _, x := range key.set {
			if !found("", x, true) {
				return false
			}
		}
	}
	return true
}

// lengthVal is (length v) when v's non-numbers are lists of known
// length bounds: at least the shape's min, at most its tracked elements
// when no later ones may follow (nil has length 0).
func lengthVal(v aval, n syntax.Node) (aval, bool) {
	if v.num || !v.other || !v.mayCons() || v.lists == nil || v.lists.atoms == atomsAny {
		return aval{}, false
	}
	sh := v.lists
	if sh.rest.num || sh.rest.other || len(sh.elems) >= maxShapeElems {
		return aval{}, false
	}
	lo := sh.min
	if sh.atoms == atomsNil {
		lo = 0
	}
	r := numRange(float64(lo), float64(len(sh.elems)), false, n)
	if lo == len(sh.elems) {
		r.set = singleton(int64(lo))
	}
	return r, true
}

// nthVal is (nth i v) for an index known to lie in [lo, hi] (lo >= 0):
// the elements there, with nil only where one may be missing.
func nthVal(idx, v aval) (aval, bool) {
	i, ok := numeric(idx)
	if !ok || !i.intOnly() || !i.bounded() || i.lo < 0 || i.hi-i.lo > maxShapeElems || idx.other {
		return aval{}, false
	}
	out := aval{}
	for k := int(i.lo); k <= int(i.hi); k++ {
		if i.setOK() && !slices.Contains(i.set, float64(k)) {
			continue
		}
		out = join(out, elemOf(v, k))
	}
	return out, true
}

// nodeCount counts the nodes of n (up to limit+1).
func nodeCount(n syntax.Node, limit int) int {
	c := 0
	syntax.Walk(n, func(syntax.Node) bool {
		c++
		return c <= limit
	})
	return c
}

// ctxCall is the value of call l of plan function h (fi) with argument
// values vals, its body evaluated under them (see above); false when the
// call reads the function's summary instead.
func (a *valueAnalysis) ctxCall(h string, fi *fnInfo, vals []aval, depth int) (aval, bool) {
	if fi.free || fi.def == nil || len(fi.params) == 0 || len(fi.params) != len(vals) || a.ctxDepth >= maxCtxDepth || a.deep {
		return aval{}, false
	}
	if fi.size == 0 {
		fi.size = nodeCount(fi.def, maxCtxNodes)
	}
	if fi.size > maxCtxNodes {
		return aval{}, false
	}
	for _, v := range vals {
		if !v.num && !v.other {
			return aval{}, false // an argument never returns (yet): the summary
		}
	}
	name, _ := fi.def.Elems[1].(*syntax.Symbol)
	ctx := map[string]aval{}
	for i, p := range fi.params {
		if k := a.paramKey(h, p); k != "" {
			ctx[k] = vals[i]
		}
	}
	saveRec, saveCtx, saveAssume, saveRefined := a.record, a.ctx, a.assume, a.refined
	a.record, a.ctx, a.assume, a.refined = false, ctx, nil, nil
	a.ctxDepth++
	v := a.body(fi.def.Elems[3:], depth+1)
	a.ctxDepth--
	a.record, a.ctx, a.assume, a.refined = saveRec, saveCtx, saveAssume, saveRefined
	if name != nil {
		v = join(v, a.slotOf(a.blocks, name.Name).v)
	}
	return v, true
}

// ctxRef is the value the evaluation per call gives binding key k.
func (a *valueAnalysis) ctxRef(k string) (aval, bool) {
	if a.ctx == nil || a.assignedKeys[k] {
		return aval{}, false
	}
	v, ok := a.ctx[k]
	return v, ok
}

// ctxBind records what a let binding (key k) holds in this evaluation.
func (a *valueAnalysis) ctxBind(k string, v aval) {
	if a.ctx != nil && !a.record && k != "" {
		a.ctx[k] = v
	}
}

// refineNonNil is the binding key of the variable test n reads when n is
// a bare lexical variable that nothing assigns: in the branch the test
// chose, it is not nil.
func (a *valueAnalysis) refineNonNil(n syntax.Node) (string, bool) {
	if l, ok := n.(*syntax.List); ok && forms.Head(l) == "and" && len(l.Elems) > 1 && !a.res.IsUserFunc("and") {
		n = l.Elems[1] // (and V ...) true: V is not nil
	}
	s, ok := n.(*syntax.Symbol)
	if !ok || s.Name == "t" || s.Name == "nil" || a.specials[s.Name] {
		return "", false
	}
	var k string
	if a.record {
		k = a.keyOf(s.Name)
	} else {
		k = a.symKey[s]
	}
	if k == "" || k == conflictKey || a.assignedKeys[k] {
		return "", false
	}
	return k, true
}

// evNonNil evaluates branch x where binding k is not nil.
func (a *valueAnalysis) evNonNil(k string, x syntax.Node, depth int) aval {
	if a.refined == nil {
		a.refined = map[string]aval{}
	}
	old, had := a.refined[k]
	cur := a.slotOf(a.scoped, k).v
	if v, ok := a.ctxRef(k); ok {
		cur = v
	}
	if had {
		cur = old
	}
	a.refined[k] = withoutNil(cur)
	v := a.ev(x, depth)
	if had {
		a.refined[k] = old
	} else {
		delete(a.refined, k)
	}
	return v
}

// bodyNonNil evaluates body (in sequence) where binding k is not nil.
func (a *valueAnalysis) bodyNonNil(k string, body []syntax.Node, depth int) aval {
	v := nilVal()
	for _, x := range body {
		v = a.evNonNil(k, x, depth)
	}
	return v
}

// isDefun reports whether l defines a plan function with a body.
func isDefun(l *syntax.List) bool { return forms.Head(l) == "defun" && len(l.Elems) >= 3 }

// ctxTruth says whether test n may be true and may be false, judged in
// an evaluation per call (outside one, both): a branch its test never
// chooses adds nothing to the call's value there. (eq X Y) is judged on
// the symbols and numbers both may be, (not X) and (null X) by X, any
// other test by whether its value may be nil.
func (a *valueAnalysis) ctxTruth(n syntax.Node) (mayTrue, mayFalse bool) {
	if a.ctx == nil || a.record {
		return true, true
	}
	if l, ok := n.(*syntax.List); ok {
		h := forms.Head(l)
		if h != "" && a.funcs[h] == nil && !a.localFns[h] && !a.res.IsUserFunc(h) {
			switch {
			case (h == "not" || h == "null") && len(l.Elems) == 2:
				t, f := a.ctxTruth(l.Elems[1])
				return f, t
			case (h == "eq" || h == "eql") && len(l.Elems) == 3:
				va, vb := a.ev(l.Elems[1], 0), a.ev(l.Elems[2], 0)
				if !va.num && !va.other || !vb.num && !vb.other {
					return false, false // never returns
				}
				return mayEq(va, vb), !alwaysEq(va, vb)
			}
		}
	}
	v := a.ev(n, 0)
	return v.mayBeNonNil(), v.mayBeNil()
}

// inlinePred is call c of a plan function whose whole body is one test
// of a parameter — (member P 'LIST), (eq P 'S), (eql P 'S), (not P),
// (null P) — with the call's argument in place of P: the call is true
// exactly when that test is ((board-p r) is (member r '(board-1
// board-2 board-3))). false for anything else, or a function defined
// twice.
func (a *valueAnalysis) inlinePred(c *syntax.List) (*syntax.List, bool) {
	h := forms.Head(c)
	fi := a.funcs[h]
	if h == "" || fi == nil || fi.free || fi.def == nil || a.localFns[h] || len(fi.params) != len(c.Elems)-1 || len(fi.def.Elems) != 4 {
		return nil, false
	}
	body, ok := fi.def.Elems[3].(*syntax.List)
	if !ok || len(body.Elems) < 2 {
		return nil, false
	}
	switch bh := forms.Head(body); {
	case a.funcs[bh] != nil || a.localFns[bh] || a.res.IsUserFunc(bh):
		return nil, false
	case (bh == "member" || bh == "eq" || bh == "eql") && len(body.Elems) == 3, (bh == "not" || bh == "null") && len(body.Elems) == 2:
	default:
		return nil, false
	}
	defs := 0
	for _, f := range a.res.Forms {
		if l, ok := f.(*syntax.List); ok && len(l.Elems) > 1 && syntax.IsSymbol(l.Elems[1], h) {
			defs++
		}
	}
	if defs != 1 {
		return nil, false
	}
	p, ok := body.Elems[1].(*syntax.Symbol)
	if !ok {
		return nil, false
	}
	i := slices.Index(fi.params, p.Name)
	if i < 0 {
		return nil, false
	}
	for _, x := range body.Elems[2:] {
		if _, isSym := x.(*syntax.Symbol); isSym || !normalize.IsConstant(x) {
			return nil, false // a test of the parameter against a constant only
		}
	}
	out := &syntax.List{Elems: slices.Clone(body.Elems)}
	out.Elems[1] = c.Elems[i+1]
	return out, true
}
