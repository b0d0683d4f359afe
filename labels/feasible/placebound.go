package feasible

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Objects put into a region, counted (countpair.go, continued). The
// simulator declares (domain.Signals.Spots) that only picking-ups and
// placings change an object's place, that a placing whose target names
// a region or surface N and a cell C leaves the object in no region or
// at one of the points Spots(N, C), that no two objects ever stand at
// one point at once, and that AllQuery lists every object once.
//
// So an object that is in region R but did not start there was last put
// there by a placing, at a point of R some placing of the plan can
// reach; distinct such objects stand at distinct points. When every
// perform of the plan spells its action designator and every placing
// names a cell the analysis enumerates (a quoted (COL ROW), or (list A
// B) of integers and variables whose integers the value analysis knows;
// values that are no cell make the placing fail), at most S_R objects
// are in R without having started there, S_R the number of points of R
// in Spots(N, C) over those placings' names N and cells C.
//
// A counting pair X, Y (countpair.go) whose loop runs over (AllQuery)
// with, below the forms the increments share, X's increment under
// (eq (RegionQuery V) E) and each condition of Y's increment either
// (eq (InitialRegionQuery V) E) or one of X's (E the same text, a
// region name or a variable whose symbols, all regions, the value
// analysis knows): every object X counts that started in E is counted
// by Y, so after the loop X <= Y + S, S the largest S_R over E's
// regions. A label whose conjuncts and the conditions it sits under
// (and, when, unless, if between it and the let) need X >= K and Y <= L
// with K > L + S, K and L constants, is infeasible.

// placeBoundVerdicts marks infeasible the active labels that need more
// objects counted in a region than its start and the plan's placings
// allow.
func (h *handlerAnalysis) placeBoundVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Spots == nil || sig.AllQuery == "" || sig.Places == "" || !h.untakenReady() {
		return
	}
	for _, q := range []string{sig.AllQuery, "list"} {
		if h.defs[q] != nil || h.local[q] || h.res.IsUserFunc(q) {
			return
		}
	}
	var cp *countPairs
	var pb *placeBound
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		if cp == nil {
			cp = &countPairs{h: h, parent: parentMap(h)}
		}
		atoms := cp.pointAtoms(pl)
		var bounds []boundAtom
		for _, a := range atoms {
			if b, ok := h.boundOf(a); ok {
				bounds = append(bounds, b)
			}
		}
		for _, bx := range bounds {
			if !bx.lower {
				continue
			}
			for _, by := range bounds {
				if by.lower || by.v.Name == bx.v.Name {
					continue
				}
				if pb == nil {
					pb = &placeBound{h: h}
					pb.collect()
				}
				if pb.fail != "" {
					return
				}
				s, why, ok := pb.atMost(cp, bx.v, by.v, pl.l.Point)
				if !ok || bx.k <= by.k+float64(s) {
					continue
				}
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s and %s cannot both hold: %s; so %s <= %s + %d, and %s >= %s needs %s >= %s",
					h.show(bx.atom), h.show(by.atom), why, bx.v.Name, by.v.Name, s, bx.v.Name, fmtNum(bx.k), by.v.Name, fmtNum(bx.k-float64(s)))
				break
			}
			if pl.l.Status != labels.Active {
				break
			}
		}
	}
}

func fmtNum(x float64) string { return fmt.Sprintf("%g", x) }

// boundAtom is a condition that bounds variable v: v >= k (lower) or
// v <= k.
type boundAtom struct {
	atom  syntax.Node
	v     *syntax.Symbol
	lower bool
	k     float64
}

// pointAtoms are the label's conjuncts and the conditions it sits under
// (and, when, unless, if) up to the forms of the function it is in.
func (cp *countPairs) pointAtoms(pl *pathLabel) []guardAtom {
	t := &pickTrace{h: cp.h}
	var out []guardAtom
	for _, c := range conjuncts(pl.pred) {
		out = append(out, t.split(c, true)...)
	}
	n := pl.l.Point
	for depth := 0; depth < 400; depth++ {
		p := cp.parent[n]
		if p == nil {
			break
		}
		i := slices.Index(p.Elems, n)
		switch forms.Head(p) {
		case "and":
			for _, a := range p.Elems[1:max(i, 1)] {
				out = append(out, t.split(a, true)...)
			}
		case "when", "unless":
			if i >= 2 {
				out = append(out, t.split(p.Elems[1], forms.Head(p) == "when")...)
			}
		case "if":
			if i == 2 || i == 3 {
				out = append(out, t.split(p.Elems[1], i == 2)...)
			}
		}
		n = p
	}
	return out
}

// boundOf reads atom a as a bound on a variable by a constant: (< V K),
// (<= V K), (> V K), (>= V K), (= V K), either way round and negated.
func (h *handlerAnalysis) boundOf(a guardAtom) (boundAtom, bool) {
	c := untemp(h.res, unwrapTemps(h.res, a.test))
	l := asList(c)
	if l == nil || len(l.Elems) != 3 {
		return boundAtom{}, false
	}
	op := forms.Head(l)
	if h.defs[op] != nil || h.local[op] || h.res.IsUserFunc(op) {
		return boundAtom{}, false
	}
	x, y := untemp(h.res, l.Elems[1]), untemp(h.res, l.Elems[2])
	v, isVar := x.(*syntax.Symbol)
	k, isConst := h.constNum(y)
	if !isVar || !isConst {
		v, isVar = y.(*syntax.Symbol)
		k, isConst = h.constNum(x)
		if !isVar || !isConst {
			return boundAtom{}, false
		}
		switch op { // K op V: turned round
		case "<":
			op = ">"
		case ">":
			op = "<"
		case "<=":
			op = ">="
		case ">=":
			op = "<="
		}
	}
	if h.a.specials[v.Name] {
		return boundAtom{}, false
	}
	if !a.want {
		switch op {
		case "<":
			op = ">="
		case ">=":
			op = "<"
		case ">":
			op = "<="
		case "<=":
			op = ">"
		default:
			return boundAtom{}, false
		}
	}
	// The variables are counters: integers, so v > k is v >= floor(k)+1.
	switch op {
	case ">":
		return boundAtom{c, v, true, math.Floor(k) + 1}, true
	case ">=":
		return boundAtom{c, v, true, math.Ceil(k)}, true
	case "<":
		return boundAtom{c, v, false, math.Ceil(k) - 1}, true
	case "<=", "=":
		// (= V K) also bounds V below; the upper side is what the rule
		// uses of a count that started things.
		return boundAtom{c, v, false, math.Floor(k)}, true
	}
	return boundAtom{}, false
}

// constNum is the one number n may be: an integer literal, or a variable
// the value analysis knows to hold one number.
func (h *handlerAnalysis) constNum(n syntax.Node) (float64, bool) {
	switch x := n.(type) {
	case *syntax.Int:
		return float64(x.Value), true
	case *syntax.Symbol:
		v := h.a.ev(x, 0)
		if v.other || !v.num || v.nan || v.frac || v.lo != v.hi || math.IsInf(v.lo, 0) {
			return 0, false
		}
		return v.lo, true
	}
	return 0, false
}

// placeBound holds the plan's placings: the points each region may
// receive.
type placeBound struct {
	h      *handlerAnalysis
	fail   string
	spots  map[string][][2]float64 // region -> distinct points
	sites  []string                // the placings, for reasons
	placed []string                // name (col row) pairs
}

// collect enumerates the placings of the plan, or sets fail.
func (pb *placeBound) collect() {
	h, sig := pb.h, pb.h.sig
	if h.sites == nil {
		h.findSites()
	}
	if h.dynamic {
		pb.fail = "a call through a value"
		return
	}
	pb.spots = map[string][][2]float64{}
	r := &reachAnalysis{h: h}
	performs, mentions := 0, 0
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if pb.fail != "" {
				return false
			}
			if s, ok := n.(*syntax.Symbol); ok && s.Name == "perform" {
				mentions++
			}
			l := asList(n)
			if l == nil || forms.Head(l) != "perform" {
				return true
			}
			performs++
			typ, props, ok := actionDesig(l)
			if !ok {
				pb.fail = h.where(l) + " performs a designator the text does not spell"
				return false
			}
			if typ != sig.Places {
				return true
			}
			regionN, cellN, ok := h.placeTarget(props)
			if !ok {
				pb.fail = h.where(l) + " places without a region and a cell"
				return false
			}
			names, ok := r.names(regionN, true)
			if !ok {
				pb.fail = h.where(l) + " places on a region the analysis does not know"
				return false
			}
			cells, ok := pb.cells(cellN)
			if !ok {
				pb.fail = h.where(l) + " places at a cell the analysis does not know"
				return false
			}
			var cs []string
			for _, name := range names {
				for _, c := range cells {
					for _, sp := range sig.Spots(name, c[0], c[1]) {
						if !slices.Contains(pb.spots[sp.Region], sp.At) {
							pb.spots[sp.Region] = append(pb.spots[sp.Region], sp.At)
						}
					}
				}
			}
			for _, c := range cells {
				cs = append(cs, fmt.Sprintf("(%d %d)", c[0], c[1]))
			}
			pb.sites = append(pb.sites, fmt.Sprintf("%s on %s at %s", h.where(l), orList(names), strings.Join(cs, " ")))
			return true
		})
	}
	if pb.fail == "" && mentions != performs {
		pb.fail = "perform is named other than as the head of a call"
	}
}

// cells are the cells (COL ROW) placing cell form n may name; values
// that are no cell are left out (the placing fails on them).
func (pb *placeBound) cells(n syntax.Node) ([][2]int, bool) {
	h := pb.h
	if q := quotedData(n); q != nil {
		if c, ok := cellDatum(q); ok {
			return [][2]int{c}, true
		}
		return nil, true
	}
	l := asList(n)
	if l == nil || forms.Head(l) != "list" || len(l.Elems) != 3 {
		return nil, false
	}
	cols, ok1 := pb.ints(l.Elems[1])
	rows, ok2 := pb.ints(l.Elems[2])
	if !ok1 || !ok2 {
		return nil, false
	}
	var out [][2]int
	for _, c := range cols {
		for _, rw := range rows {
			out = append(out, [2]int{c, rw})
		}
	}
	_ = h
	return out, true
}

// ints are the integers n may be (its other values are no integers).
func (pb *placeBound) ints(n syntax.Node) ([]int, bool) {
	switch x := n.(type) {
	case *syntax.Int:
		return []int{int(x.Value)}, true
	case *syntax.Symbol:
		if x.Name == "nil" || x.Name == "t" {
			return nil, true
		}
		v := pb.h.a.ev(x, 0)
		if !v.num {
			return nil, true
		}
		if v.set == nil || len(v.set) > 64 {
			return nil, false
		}
		var out []int
		for _, f := range v.set {
			out = append(out, int(f))
		}
		return out, true
	}
	return nil, false
}

// atMost says why, after the loop of counting pair x, y that point runs
// after, x <= y + s, when it can.
func (pb *placeBound) atMost(cp *countPairs, x, y *syntax.Symbol, point syntax.Node) (int, string, bool) {
	h, sig := pb.h, pb.h.sig
	ps, ok := cp.pair(x, y, point)
	if !ok {
		return 0, "", false
	}
	spec := asList(argAt(ps.loop, 1))
	all := asList(untemp(h.res, spec.Elems[1]))
	if all == nil || len(all.Elems) != 1 || forms.Head(all) != sig.AllQuery {
		return 0, "", false
	}
	kx, ky := cp.keyAt(x, point), cp.keyAt(y, point)
	counterFree := func(n syntax.Node) bool {
		ok := true
		syntax.Walk(n, func(m syntax.Node) bool {
			if s, isSym := m.(*syntax.Symbol); isSym {
				if k := h.a.symKey[s]; k == kx || k == ky {
					ok = false
				}
			}
			return ok
		})
		return ok
	}
	// X's increment under (eq (RegionQuery V) E).
	var e syntax.Node
	for _, g := range ps.gLo {
		if g.keys != nil || !g.want {
			continue
		}
		t := untempAll(h.res, g.test)
		if _, ex, ok := cp.regionTest(t, sig.RegionQuery, ps.vkey); ok && counterFree(t) {
			e = ex
			break
		}
	}
	if e == nil {
		return 0, "", false
	}
	// Each of Y's conditions: (eq (InitialRegionQuery V) E) or one of X's.
	for _, g := range ps.gHi {
		if g.keys != nil {
			return 0, "", false
		}
		t := untempAll(h.res, g.test)
		if !counterFree(t) {
			return 0, "", false
		}
		if _, ey, ok := cp.regionTest(t, sig.InitialRegionQuery, ps.vkey); ok && g.want && syntax.NodeString(ey) == syntax.NodeString(e) {
			continue
		}
		if !slices.ContainsFunc(ps.gLo, func(o guardAtom) bool {
			return o.keys == nil && o.want == g.want && syntax.NodeString(untempAll(h.res, o.test)) == syntax.NodeString(t)
		}) {
			return 0, "", false
		}
	}
	// E's regions.
	var syms []string
	switch ex := e.(type) {
	case *syntax.Quote:
		s, ok := ex.X.(*syntax.Symbol)
		if !ok {
			return 0, "", false
		}
		syms = []string{s.Name}
	case *syntax.Symbol:
		k, met := h.a.symKey[ex]
		if !met || k == conflictKey || k == "" || h.a.assignedKeys[k] {
			return 0, "", false
		}
		v, ok := h.a.lexRef(ex)
		if !ok || v.num || !v.symsKnown() {
			return 0, "", false
		}
		syms = v.syms
	default:
		return 0, "", false
	}
	s := 0
	var per []string
	for _, r := range syms {
		if r == "nil" {
			return 0, "", false // objects in no region are not placed
		}
		n := len(pb.spots[r])
		s = max(s, n)
		if slices.Contains(sig.Regions, r) {
			per = append(per, fmt.Sprintf("%s %d", r, n))
		}
	}
	sites := "the plan places nothing"
	if len(pb.sites) > 0 {
		sites = "the plan's placings are " + strings.Join(pb.sites, "; ")
	}
	why := fmt.Sprintf("%s and %s start at 0 (%s) and change only by %s and %s in the loop over (%s) at %s, which lists each object once, and a pass that counts in %s an object that started in %s (%s being %s) counts it in %s; by %s only picking-ups and placings move objects, a placing with a cell leaves its object in no region or at one of the points it declares for that cell, and no two objects stand at one point; %s, whose points per region are %s, so at most that many objects are in %s without having started there",
		x.Name, y.Name, h.where(ps.let), h.show(ps.inLo), h.show(ps.inHi), sig.AllQuery, h.where(ps.loop), x.Name, h.show(e), h.show(e), orList(syms), y.Name,
		sig.Why, sites, strings.Join(per, ", "), h.show(e))
	return s, why, true
}
