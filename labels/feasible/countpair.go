package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Counting pairs (untaken.go, continued). Two local counters X and Y,
// bound to 0 by one let L and each changed only by one (incf X) and one
// (incf Y) in the body of one loop (dolist (V LIST) ...) that is a form
// of L's body, where the loop's body only tests (when, unless, if, and,
// or, not, eq and the world's region, initial-region and type queries,
// through normalize's temporaries) and increments X and Y: nothing in a
// pass exits it early or changes anything else, so each pass increments
// each counter at most once, as its conditions say. When every condition
// under which a pass increments Y (below the forms the two increments
// share) implies one under which it increments X, every pass that
// increments Y increments X and, after the loop, X >= Y: a label later in
// L's body that needs X < Y is infeasible. A condition implies itself
// (the same text, no counter in it: nothing it reads changes within a
// pass), and (eq (initial-region V) R) implies (eq (object-region V) R)
// when, for every region R may name, no picking-up of the plan takes an
// object that starts there (untaken.go): by the simulator's declaration
// such an object stays where it started, so its region is its initial
// one.

// countPassHeads are the forms a counting loop's body may use besides
// the world's queries.
var countPassHeads = map[string]bool{"when": true, "unless": true, "if": true, "progn": true, "and": true, "or": true, "not": true,
	"null": true, "eq": true, "eql": true, "incf": true, "let": true, "let*": true, "quote": true}

// countPairVerdicts marks infeasible the active labels one of whose
// conjuncts needs X < Y of a counting pair whose Y implies X.
func (h *handlerAnalysis) countPairVerdicts(ls []*pathLabel) {
	if !h.untakenReady() {
		return
	}
	var cp *countPairs
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			lo, hi, ok := lessThan(h, c)
			if !ok {
				continue
			}
			if cp == nil {
				cp = &countPairs{h: h, parent: parentMap(h)}
			}
			why, ok := cp.atLeast(lo, hi, pl.l.Point)
			if ok {
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s cannot hold: %s", h.show(c), why)
				break
			}
		}
	}
}

// lessThan reads c as (< LO HI), (> HI LO), (not (>= LO HI)) or
// (not (<= HI LO)) of two variables.
func lessThan(h *handlerAnalysis, c syntax.Node) (lo, hi *syntax.Symbol, ok bool) {
	c = untemp(h.res, unwrapTemps(h.res, c))
	l := asList(c)
	if l == nil || len(l.Elems) != 3 && !(len(l.Elems) == 2 && forms.Head(l) == "not") {
		return nil, nil, false
	}
	op := forms.Head(l)
	if op == "not" {
		in := asList(untemp(h.res, unwrapTemps(h.res, l.Elems[1])))
		if in == nil || len(in.Elems) != 3 {
			return nil, nil, false
		}
		switch forms.Head(in) {
		case ">=":
			op = "<"
		case "<=":
			op = ">"
		default:
			return nil, nil, false
		}
		l = in
	}
	a, aok := untemp(h.res, l.Elems[1]).(*syntax.Symbol)
	b, bok := untemp(h.res, l.Elems[2]).(*syntax.Symbol)
	if !aok || !bok || h.res.IsUserFunc(op) || h.defs[op] != nil {
		return nil, nil, false
	}
	switch op {
	case "<":
		return a, b, true
	case ">":
		return b, a, true
	}
	return nil, nil, false
}

type countPairs struct {
	h      *handlerAnalysis
	parent map[syntax.Node]*syntax.List
	trace  *pickTrace
	traced bool
	picks  string
}

// keyAt is the binding s refers to, looked up by name in point when s
// (a label's predicate may be built anew) was not resolved.
func (cp *countPairs) keyAt(s *syntax.Symbol, point syntax.Node) string {
	a := cp.h.a
	if k, met := a.symKey[s]; met {
		if k == conflictKey {
			return ""
		}
		return k
	}
	key := ""
	syntax.Walk(point, func(n syntax.Node) bool {
		if x, ok := n.(*syntax.Symbol); ok && x.Name == s.Name {
			k, met := a.symKey[x]
			if !met || k == conflictKey || key != "" && key != k {
				key = conflictKey
			} else {
				key = k
			}
		}
		return true
	})
	if key == conflictKey {
		return ""
	}
	return key
}

// pairShape is a counting pair as the rules read it: the let that binds
// both to 0, the loop that increments them, each one's increment, the
// loop variable's binding and the conditions of each increment below
// the forms they share.
type pairShape struct {
	let, loop, inLo, inHi *syntax.List
	vkey                  string
	gLo, gHi              []guardAtom
}

// pair reads lo and hi as a counting pair (the comment at the top)
// whose loop ends before point runs, in a later form of the let's body.
func (cp *countPairs) pair(lo, hi *syntax.Symbol, point syntax.Node) (*pairShape, bool) {
	h := cp.h
	klo, khi := cp.keyAt(lo, point), cp.keyAt(hi, point)
	if klo == "" || khi == "" || klo == khi {
		return nil, false
	}
	for _, s := range []*syntax.Symbol{lo, hi} {
		if h.a.specials[s.Name] || h.a.closureAssigned()[s.Name] {
			return nil, false
		}
	}
	// One let binds both to 0.
	let, ok := cp.zeroLet(lo.Name, klo)
	if !ok {
		return nil, false
	}
	if l2, ok := cp.zeroLet(hi.Name, khi); !ok || l2 != let {
		return nil, false
	}
	// Each changes only by one (incf _), in one loop, a form of L's body.
	inLo, ok := cp.onlyIncf(lo.Name, klo)
	if !ok {
		return nil, false
	}
	inHi, ok := cp.onlyIncf(hi.Name, khi)
	if !ok {
		return nil, false
	}
	loop := cp.loopOf(inLo)
	if loop == nil || cp.loopOf(inHi) != loop || cp.parent[loop] != let {
		return nil, false
	}
	li := slices.Index(let.Elems, syntax.Node(loop))
	if li < 2 {
		return nil, false
	}
	spec := asList(argAt(loop, 1))
	if spec == nil || len(spec.Elems) != 2 {
		return nil, false
	}
	v, ok := spec.Elems[0].(*syntax.Symbol)
	if !ok {
		return nil, false
	}
	vkey := h.a.lexKey(v.Name, v)
	if vkey == "" || h.a.assignedKeys[vkey] {
		return nil, false
	}
	for _, b := range loop.Elems[2:] {
		if !cp.passSafe(b, klo, khi) {
			return nil, false
		}
	}
	// The point runs after the loop, in a later form of L's body.
	n := point
	for depth := 0; ; depth++ {
		p := cp.parent[n]
		if p == nil || depth > 400 {
			return nil, false
		}
		if p == let {
			if slices.Index(let.Elems, n) <= li {
				return nil, false
			}
			break
		}
		n = p
	}
	// The conditions of each increment below what they share.
	gLo, gHi, ok := cp.ownGuards(inLo, inHi, loop)
	if !ok {
		return nil, false
	}
	return &pairShape{let: let, loop: loop, inLo: inLo, inHi: inHi, vkey: vkey, gLo: gLo, gHi: gHi}, true
}

// atLeast says why lo >= hi wherever point runs, when it can.
func (cp *countPairs) atLeast(lo, hi *syntax.Symbol, point syntax.Node) (string, bool) {
	h := cp.h
	ps, ok := cp.pair(lo, hi, point)
	if !ok {
		return "", false
	}
	klo, khi := cp.keyAt(lo, point), cp.keyAt(hi, point)
	let, loop, inLo, inHi, vkey, gLo, gHi := ps.let, ps.loop, ps.inLo, ps.inHi, ps.vkey, ps.gLo, ps.gHi
	var notes, regions []string
	for _, gn := range gLo {
		found := false
		for _, gb := range gHi {
			if note, rs, ok := cp.implies(gb, gn, vkey, klo, khi); ok {
				found = true
				if note != "" && !slices.Contains(notes, note) {
					notes = append(notes, note)
				}
				for _, r := range rs {
					if !slices.Contains(regions, r) {
						regions = append(regions, r)
					}
				}
				break
			}
		}
		if !found {
			return "", false
		}
	}
	why := fmt.Sprintf("%s and %s start at 0 (%s) and change only by %s and %s in the loop at %s, whose passes only test and count (no early exit), so each pass increments each at most once; a pass that increments %s increments %s too",
		lo.Name, hi.Name, h.where(let), h.show(inLo), h.show(inHi), h.where(loop), hi.Name, lo.Name)
	if len(notes) > 0 {
		why += ": " + strings.Join(notes, "; ")
	}
	if len(regions) > 0 {
		combos, outs, ok := cp.untaken(regions)
		if !ok {
			return "", false
		}
		why += fmt.Sprintf("; by %s an object stays where it started until a picking-up names it, and %s; %s", h.sig.Why, cp.picks, cp.trace.whyUntaken(combos, outs))
	}
	return why + fmt.Sprintf("; so %s >= %s after the loop", lo.Name, hi.Name), true
}

// zeroLet is the let or let* that binds key to 0.
func (cp *countPairs) zeroLet(name, key string) (*syntax.List, bool) {
	h := cp.h
	var out *syntax.List
	n := 0
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			l := asList(x)
			if l == nil || forms.Head(l) != "let" && forms.Head(l) != "let*" {
				return true
			}
			bl := asList(argAt(l, 1))
			if bl == nil {
				return true
			}
			for _, b := range bl.Elems {
				bb := asList(b)
				if bb == nil || !syntax.IsSymbol(argAt(bb, 0), name) || h.a.lexKey(name, bb) != key {
					continue
				}
				n++
				if i, ok := argAt(bb, 1).(*syntax.Int); ok && i.Value == 0 && len(bb.Elems) == 2 {
					out = l
				}
			}
			return true
		})
	}
	return out, n == 1 && out != nil
}

// onlyIncf is the one assignment of binding key: an (incf NAME).
func (cp *countPairs) onlyIncf(name, key string) (*syntax.List, bool) {
	h := cp.h
	var out *syntax.List
	ok := true
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			l := asList(x)
			if l == nil || !assignHeads[forms.Head(l)] || !ok {
				return ok
			}
			var targets []syntax.Node
			switch forms.Head(l) {
			case "setq", "setf", "psetq", "psetf":
				for i := 1; i < len(l.Elems); i += 2 {
					targets = append(targets, l.Elems[i])
				}
			case "push", "pushnew":
				targets = append(targets, argAt(l, 2))
			case "incf", "decf", "pop":
				targets = append(targets, argAt(l, 1))
			default:
				targets = l.Elems[1:]
			}
			for _, tg := range targets {
				if tg == nil || !mentions(tg, name) {
					continue
				}
				s, isSym := tg.(*syntax.Symbol)
				if !isSym {
					ok = false
					return false
				}
				k, met := h.a.symKey[s]
				if !met || k == conflictKey {
					ok = false
					return false
				}
				if k != key {
					continue
				}
				if forms.Head(l) != "incf" || len(l.Elems) != 2 || out != nil {
					ok = false
					return false
				}
				out = l
			}
			return ok
		})
	}
	return out, ok && out != nil
}

// loopOf is the dolist n is in, when no other loop, function or
// handler stands between them.
func (cp *countPairs) loopOf(n syntax.Node) *syntax.List {
	for depth := 0; depth < 400; depth++ {
		p := cp.parent[n]
		if p == nil {
			return nil
		}
		switch forms.Head(p) {
		case "dolist":
			if slices.Index(p.Elems, n) >= 2 {
				return p
			}
			return nil
		case "when", "unless", "if", "progn", "and", "or", "let", "let*":
		default:
			return nil
		}
		n = p
	}
	return nil
}

// passSafe reports whether n only tests and increments the pair: no
// early exit, no call of a plan function, no action, no other change.
func (cp *countPairs) passSafe(n syntax.Node, klo, khi string) bool {
	h := cp.h
	switch x := n.(type) {
	case *syntax.Int, *syntax.Quote, *syntax.Symbol, *syntax.Keyword, *syntax.String:
		return true
	case *syntax.List:
		head := forms.Head(x)
		if h.defs[head] != nil || h.local[head] || h.res.IsUserFunc(head) {
			return false
		}
		switch {
		case head == "incf":
			s, ok := argAt(x, 1).(*syntax.Symbol)
			k := h.a.symKey[s]
			return ok && len(x.Elems) == 2 && (k == klo || k == khi)
		case head == "let" || head == "let*":
			bl := asList(argAt(x, 1))
			if bl == nil {
				return false
			}
			for _, b := range bl.Elems {
				bb := asList(b)
				s, ok := argAt(bb, 0).(*syntax.Symbol)
				if bb == nil || !ok || !h.res.IsTemp(s.Name) || len(bb.Elems) != 2 || !cp.passSafe(bb.Elems[1], klo, khi) {
					return false
				}
			}
			for _, b := range x.Elems[2:] {
				if !cp.passSafe(b, klo, khi) {
					return false
				}
			}
			return true
		case countPassHeads[head] || head == h.sig.RegionQuery || head == h.sig.InitialRegionQuery || head == h.sig.TypeQuery:
			if head == "quote" {
				return true
			}
			for _, a := range x.Elems[1:] {
				if !cp.passSafe(a, klo, khi) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// chain is n's ancestors up to loop, innermost first, with n's index in
// each.
type chainStep struct {
	p *syntax.List
	i int
}

func (cp *countPairs) chain(n syntax.Node, loop *syntax.List) []chainStep {
	var out []chainStep
	for p := cp.parent[n]; p != nil; n, p = p, cp.parent[p] {
		out = append(out, chainStep{p, slices.Index(p.Elems, n)})
		if p == loop {
			return out
		}
	}
	return nil
}

// ownGuards are the conditions under which each increment runs, below
// the forms they share (which run both or neither, in order).
func (cp *countPairs) ownGuards(a, b *syntax.List, loop *syntax.List) ([]guardAtom, []guardAtom, bool) {
	ca, cb := cp.chain(a, loop), cp.chain(b, loop)
	if ca == nil || cb == nil {
		return nil, nil, false
	}
	inB := map[*syntax.List]int{}
	for _, s := range cb {
		inB[s.p] = s.i
	}
	lca := -1
	for i, s := range ca {
		if _, ok := inB[s.p]; ok {
			lca = i
			break
		}
	}
	if lca < 0 {
		return nil, nil, false
	}
	top := ca[lca]
	ia, ib := top.i, inB[top.p]
	// Both increments must be in forms of a body that runs in order.
	switch forms.Head(top.p) {
	case "dolist", "when", "unless", "let", "let*":
		if ia < 2 || ib < 2 {
			return nil, nil, false
		}
	case "progn":
		if ia < 1 || ib < 1 {
			return nil, nil, false
		}
	default:
		return nil, nil, false
	}
	lb := slices.IndexFunc(cb, func(s chainStep) bool { return s.p == top.p })
	ga, ok := cp.guardsOf(ca[:lca])
	if !ok {
		return nil, nil, false
	}
	gb, ok := cp.guardsOf(cb[:lb])
	return ga, gb, ok
}

func (cp *countPairs) guardsOf(steps []chainStep) ([]guardAtom, bool) {
	t := &pickTrace{h: cp.h}
	var out []guardAtom
	for _, s := range steps {
		switch forms.Head(s.p) {
		case "when", "unless":
			if s.i < 2 {
				return nil, false
			}
			out = append(out, t.split(s.p.Elems[1], forms.Head(s.p) == "when")...)
		case "if":
			if s.i != 2 && s.i != 3 {
				return nil, false
			}
			out = append(out, t.split(s.p.Elems[1], s.i == 2)...)
		case "and", "or":
			for _, a := range s.p.Elems[1:s.i] {
				out = append(out, t.split(a, forms.Head(s.p) == "and")...)
			}
		case "progn":
		case "let", "let*":
			if s.i < 2 {
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// implies reports whether condition gb holding implies gn, and why.
func (cp *countPairs) implies(gb, gn guardAtom, vkey, klo, khi string) (string, []string, bool) {
	h := cp.h
	if gb.keys != nil || gn.keys != nil || gb.want != gn.want {
		return "", nil, false
	}
	tb, tn := untempAll(h.res, gb.test), untempAll(h.res, gn.test)
	for _, x := range []syntax.Node{tb, tn} {
		bad := false
		syntax.Walk(x, func(y syntax.Node) bool {
			if s, ok := y.(*syntax.Symbol); ok {
				if k := h.a.symKey[s]; k == klo || k == khi {
					bad = true
				}
			}
			return !bad
		})
		if bad {
			return "", nil, false
		}
	}
	if syntax.NodeString(tb) == syntax.NodeString(tn) {
		return "", nil, true
	}
	if !gb.want {
		return "", nil, false
	}
	ob, xb, okb := cp.regionTest(tb, h.sig.InitialRegionQuery, vkey)
	on, xn, okn := cp.regionTest(tn, h.sig.RegionQuery, vkey)
	if !okb || !okn || syntax.NodeString(xb) != syntax.NodeString(xn) || ob != on {
		return "", nil, false
	}
	var syms []string
	switch x := xb.(type) {
	case *syntax.Quote:
		s, ok := x.X.(*syntax.Symbol)
		if !ok {
			return "", nil, false
		}
		syms = []string{s.Name}
	case *syntax.Symbol:
		k, met := h.a.symKey[x]
		if !met || k == conflictKey || k == "" || h.a.assignedKeys[k] {
			return "", nil, false
		}
		v, ok := h.a.lexRef(x)
		if !ok || !v.symsKnown() {
			return "", nil, false
		}
		syms = v.syms
	default:
		return "", nil, false
	}
	var regions []string
	for _, s := range syms {
		if slices.Contains(h.sig.Regions, s) {
			regions = append(regions, s)
		}
	}
	note := fmt.Sprintf("%s holds where %s does, %s being %s", h.show(tn), h.show(tb), h.show(xb), orList(syms))
	return note, regions, true
}

// regionTest reads x as (eq (QUERY V) X) or (eq X (QUERY V)), V the
// loop's variable; it returns V's key and X.
func (cp *countPairs) regionTest(x syntax.Node, query, vkey string) (string, syntax.Node, bool) {
	l := asList(x)
	if l == nil || len(l.Elems) != 3 || forms.Head(l) != "eq" && forms.Head(l) != "eql" {
		return "", nil, false
	}
	for i := 1; i <= 2; i++ {
		q := asList(l.Elems[i])
		if q == nil || len(q.Elems) != 2 || forms.Head(q) != query {
			continue
		}
		v, ok := q.Elems[1].(*syntax.Symbol)
		if !ok {
			continue
		}
		if k, met := cp.h.a.symKey[v]; met && k == vkey {
			return k, l.Elems[3-i], true
		}
	}
	return "", nil, false
}

// untaken says, for regions, that no picking-up takes an object that
// starts there, whatever its type.
func (cp *countPairs) untaken(regions []string) ([][2]string, [][][]int, bool) {
	h := cp.h
	if !cp.traced {
		cp.traced = true
		t := newPickTrace(h, cp.parent)
		picks, ok := t.run()
		if ok {
			cp.trace, cp.picks = t, picks
		}
	}
	if cp.trace == nil {
		return nil, nil, false
	}
	inits := letInits(h.res, h.a)
	var combos [][2]string
	var outs [][][]int
	for _, r := range regions {
		for _, ty := range h.sig.Types {
			o := make([][]int, len(cp.trace.reads))
			for i, rd := range cp.trace.reads {
				if o[i] = cp.trace.rulesOut(rd, r, ty, inits); len(o[i]) == 0 {
					return nil, nil, false
				}
			}
			combos, outs = append(combos, [2]string{r, ty}), append(outs, o)
		}
	}
	return combos, outs, true
}
