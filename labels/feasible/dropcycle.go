package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Placings that never fail at a cycle's drop cells. The simulator
// declares (domain.Signals.Reach.Drops) the cells from which a placing's
// drift carries every object off its surface: there the placing never
// signals the placing failure (DropKind). In
//
//	(let* (... (V (nth (mod C K) L)) ...) ... (with-failure-handling
//	  ((KIND (e) (incf C) ... (setq V (nth (mod C K) L)) ... (retry) ...))
//	  (perform (an action (type placing) ... (target (a location ... (cell V)))))) ...)
//
// with C a global counter (an integer from 0 that only (incf C) changes,
// counters.go), L a global bound to a literal list and only read, K its
// length, and the handlers' only other source of KIND's failures absent,
// V is (nth (mod C n) L) at every perform: the binding sets it so and
// nothing between it and the handler form assigns C or V; a clause that
// retries increments C first and sets V again after, with nothing after
// that assigns C. A clause is entered only after the placing failed with
// KIND, so from a cell of L it may fail at; after its (incf C), C is one
// more than a count whose (mod _ n) is such an index. A label's conjunct
// (= C X), X a constant v, in that clause after the (incf C) with nothing
// in between that assigns C, needs (mod (- v 1) n) to index a cell the
// placing may fail at: when that cell is a drop cell, it never holds.

// dropCycleVerdicts marks infeasible the active labels of ls with such
// a conjunct.
func (h *handlerAnalysis) dropCycleVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Reach == nil || sig.Reach.DropKind == "" || len(sig.Reach.Drops) == 0 || sig.Places == "" || h.a == nil ||
		h.defs["perform"] != nil || h.local["perform"] || h.res.IsUserFunc("perform") {
		return
	}
	var r *reachAnalysis
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			cv, v, ok := h.counterEq(c)
			if !ok {
				continue
			}
			if r == nil {
				if h.sites == nil {
					h.findSites()
				}
				if h.dynamic {
					return
				}
				r = &reachAnalysis{h: h, parent: h.parentMap(), setters: map[string]*torsoSetter{}}
			}
			if why, ok := r.dropCycle(pl.l.Point, cv, v); ok {
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s is never true: %s", h.show(c), why)
				break
			}
		}
	}
}

// counterEq reads (= C X) or (= X C) with C a global counter and X a
// constant integer.
func (h *handlerAnalysis) counterEq(c syntax.Node) (string, int64, bool) {
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) != 3 || forms.Head(l) != "=" || h.defs["="] != nil || h.local["="] {
		return "", 0, false
	}
	for _, k := range []int{1, 2} {
		s, ok := l.Elems[k].(*syntax.Symbol)
		if !ok || h.a.counters[s.Name] != globalCounterNote {
			continue
		}
		if v, ok := h.constInt(l.Elems[3-k]); ok {
			return s.Name, v, true
		}
	}
	return "", 0, false
}

// constInt is the integer n always is: a literal, or (length L) of a
// global bound to a literal list and only read.
func (h *handlerAnalysis) constInt(n syntax.Node) (int64, bool) {
	switch x := n.(type) {
	case *syntax.Int:
		return x.Value, true
	case *syntax.List:
		if forms.Head(x) == "length" && len(x.Elems) == 2 && h.defs["length"] == nil && !h.local["length"] && !h.res.IsUserFunc("length") {
			if g, ok := x.Elems[1].(*syntax.Symbol); ok {
				if _, lit := h.a.litLists[g.Name]; lit {
					if elems, ok := (&reachAnalysis{h: h}).globalList(g.Name); ok {
						return int64(len(elems)), true
					}
				}
			}
		}
	}
	return 0, false
}

// dropCycle says why counter c is never v at point, or false.
func (r *reachAnalysis) dropCycle(point syntax.Node, c string, v int64) (string, bool) {
	h, sig := r.h, r.h.sig
	// The clause and the form of its body that holds point.
	var clause *syntax.List
	var wfh *syntax.List
	j := -1
	for n, steps := point, 0; steps < 64; steps++ {
		p := r.parent[n]
		if p == nil {
			return "", false
		}
		if cl := r.parent[p]; cl != nil {
			if w := r.parent[cl]; w != nil && forms.Head(w) == "with-failure-handling" && len(w.Elems) > 1 && w.Elems[1] == syntax.Node(cl) {
				clause, wfh = p, w
				j = slices.Index(p.Elems, n) - 2
				break
			}
		}
		n = p
	}
	if clause == nil || j < 1 {
		return "", false
	}
	kinds, body, ok := clauseParts(clause)
	if !ok || !h.decidable(kinds) || !r.incfs(body[0], c) {
		return "", false
	}
	for _, b := range body[1:j] {
		if r.assignsGlobal(b, c, 0) {
			return "", false
		}
	}
	if at := body[j]; at != point {
		switch forms.Head(at) {
		case "when", "unless", "if":
			l := at.(*syntax.List)
			if len(l.Elems) < 2 || !contains(l.Elems[1], point) || r.assignsGlobal(l.Elems[1], c, 0) {
				return "", false
			}
		default:
			return "", false
		}
	}
	// The handler form's body: one placing with (cell V).
	if len(wfh.Elems) != 3 {
		return "", false
	}
	perf, ok := wfh.Elems[2].(*syntax.List)
	if !ok || forms.Head(perf) != "perform" {
		return "", false
	}
	s := &sigSet{}
	h.walk(perf, s, 0)
	if s.top != "" {
		return "", false
	}
	for k := range s.kinds {
		if h.catches(kinds, &sigSet{kinds: map[string]bool{k: true}}) && k != sig.Reach.DropKind {
			return "", false
		}
	}
	typ, props, ok := actionDesig(perf)
	if !ok || typ != sig.Places || !plainProps(props) {
		return "", false
	}
	regionN, cellN, ok := h.placeTarget(props)
	if !ok {
		return "", false
	}
	cellV, ok := cellN.(*syntax.Symbol)
	if !ok || !forms.IsDesignatorVar(cellV.Name) || h.a.specials[cellV.Name] || h.a.closureAssigned()[cellV.Name] {
		return "", false
	}
	regions, ok := r.names(regionN, true)
	if !ok || len(regions) == 0 {
		return "", false
	}
	// V's binding: (nth (mod C K) L) in a let* of which the handler form
	// is a body form.
	let := r.parent[wfh]
	if let == nil || (forms.Head(let) != "let*" && forms.Head(let) != "let") || len(let.Elems) < 3 {
		return "", false
	}
	k := slices.Index(let.Elems, syntax.Node(wfh))
	binds, ok := let.Elems[1].(*syntax.List)
	if k < 2 || !ok {
		return "", false
	}
	bi := -1
	for i, b := range binds.Elems {
		if bl, ok := b.(*syntax.List); ok && len(bl.Elems) == 2 && syntax.IsSymbol(bl.Elems[0], cellV.Name) {
			bi = i
		}
	}
	if bi < 0 {
		return "", false
	}
	init := binds.Elems[bi].(*syntax.List).Elems[1]
	list, n, ok := r.cycleExpr(init, c)
	if !ok {
		return "", false
	}
	// Nothing between the binding and the handler form assigns C or V.
	var between []syntax.Node
	if forms.Head(let) == "let*" {
		for _, b := range binds.Elems[bi+1:] {
			if bl, ok := b.(*syntax.List); ok && len(bl.Elems) == 2 {
				if syntax.IsSymbol(bl.Elems[0], cellV.Name) || syntax.IsSymbol(bl.Elems[0], c) {
					return "", false
				}
				between = append(between, bl.Elems[1])
			}
		}
	}
	between = append(between, let.Elems[2:k]...)
	for _, b := range between {
		if r.assignsGlobal(b, c, 0) || mayAssign(b, cellV.Name) {
			return "", false
		}
	}
	// Every clause that retries keeps V = (nth (mod C K) L).
	cl := wfh.Elems[1].(*syntax.List)
	for _, x := range cl.Elems {
		_, cb, ok := clauseParts(x)
		if !ok {
			return "", false
		}
		retries := false
		for _, b := range cb {
			syntax.Walk(b, func(y syntax.Node) bool {
				if forms.Head(y) == "retry" {
					retries = true
				}
				return !retries
			})
		}
		if !retries {
			continue // it leaves the handler form
		}
		if len(cb) == 0 || !r.incfs(cb[0], c) {
			return "", false
		}
		set := -1
		for i, b := range cb[1:] {
			if bl, ok := b.(*syntax.List); ok && forms.Head(bl) == "setq" && len(bl.Elems) == 3 && syntax.IsSymbol(bl.Elems[1], cellV.Name) {
				if set >= 0 || syntax.NodeString(bl.Elems[2]) != syntax.NodeString(init) {
					return "", false
				}
				set = i + 1
				continue
			}
			if r.assignsGlobal(b, c, 0) || mayAssign(b, cellV.Name) {
				return "", false
			}
		}
		if set < 0 {
			return "", false
		}
		for _, b := range cb[1:set] {
			hasRetry := false
			syntax.Walk(b, func(y syntax.Node) bool {
				if forms.Head(y) == "retry" {
					hasRetry = true
				}
				return !hasRetry
			})
			if hasRetry {
				return "", false
			}
		}
	}
	// The cells of L a placing there may fail at.
	elems, ok := r.globalList(list)
	if !ok || int64(len(elems)) != n || n <= 0 {
		return "", false
	}
	idx := ((v-1)%n + n) % n
	cell, isCell := cellDatum(elems[idx])
	if !isCell {
		return "", false
	}
	for _, rg := range regions {
		if !slices.Contains(sig.Reach.Drops[rg], cell) {
			return "", false
		}
	}
	var drops []string
	for i, e := range elems {
		if dc, ok := cellDatum(e); ok {
			all := true
			for _, rg := range regions {
				if !slices.Contains(sig.Reach.Drops[rg], dc) {
					all = false
				}
			}
			if all {
				drops = append(drops, fmt.Sprintf("%d (%d %d)", i, dc[0], dc[1]))
			}
		}
	}
	return fmt.Sprintf("the %s handler %s is entered only when the placing %s signals it, with %s = (nth (mod %s %d) %s) (bound so %s and set so before each retry; %s is %s), and from %s's cells %s a placing on %s never signals %s (every object drifts off there: %s); the handler's (incf %s) makes it %d only from %d, index %d",
		strings.Join(kinds, "/"), h.where(clause), h.where(perf), cellV.Name, c, n, list, h.where(init), c, globalCounterNote,
		list, strings.Join(drops, ", "), strings.Join(regions, ", "), sig.Reach.DropKind, sig.Why, c, v, v-1, idx), true
}

// incfs reports whether n is (incf c).
func (r *reachAnalysis) incfs(n syntax.Node, c string) bool {
	l, ok := n.(*syntax.List)
	return ok && forms.Head(l) == "incf" && len(l.Elems) == 2 && syntax.IsSymbol(l.Elems[1], c)
}

// cycleExpr reads (nth (mod C K) L), K being (length L) or its length.
func (r *reachAnalysis) cycleExpr(n syntax.Node, c string) (string, int64, bool) {
	h := r.h
	l, ok := n.(*syntax.List)
	if !ok || forms.Head(l) != "nth" || len(l.Elems) != 3 || h.defs["nth"] != nil || h.local["nth"] || h.res.IsUserFunc("nth") {
		return "", 0, false
	}
	m, ok := l.Elems[1].(*syntax.List)
	g, isSym := l.Elems[2].(*syntax.Symbol)
	if !ok || !isSym || forms.Head(m) != "mod" || len(m.Elems) != 3 || h.defs["mod"] != nil || h.local["mod"] || h.res.IsUserFunc("mod") || !syntax.IsSymbol(m.Elems[1], c) {
		return "", 0, false
	}
	if _, lit := h.a.litLists[g.Name]; !lit {
		return "", 0, false
	}
	k, ok := h.constInt(m.Elems[2])
	if !ok {
		return "", 0, false
	}
	return g.Name, k, true
}

// assignsGlobal reports whether evaluating n may assign global c: an
// assignment form naming it, a binding of it, a call of a plan function
// that may, or a call the analysis cannot follow.
func (r *reachAnalysis) assignsGlobal(n syntax.Node, c string, depth int) bool {
	h := r.h
	if depth > 8 {
		return true
	}
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if found {
			return false
		}
		if s, ok := x.(*syntax.Symbol); ok && s.Name == c {
			if p := r.parent[s]; p == nil || assignHeads[forms.Head(p)] || forms.Head(p) == c {
				found = true
			}
			return !found
		}
		l, ok := x.(*syntax.List)
		if !ok || len(l.Elems) == 0 {
			return true
		}
		head := forms.Head(l)
		switch {
		case h.local[head] || dynamicCall(l) || head == "funcall" || head == "apply":
			found = true
		case h.defs[head] != nil:
			if h.dup[head] || r.fnAssigns(head, c, depth) {
				found = true
			}
		}
		return !found
	})
	return found
}

// fnAssigns is assignsGlobal of function name's definition, memoized; a
// function met again while its own answer is pending may assign.
func (r *reachAnalysis) fnAssigns(name, c string, depth int) bool {
	if r.assignMemo == nil {
		r.assignMemo = map[string]int8{}
	}
	key := c + "\x00" + name
	switch r.assignMemo[key] {
	case 1:
		return false
	case 2, 3:
		return true
	}
	r.assignMemo[key] = 3
	res := r.assignsGlobal(r.h.defs[name], c, depth+1)
	r.assignMemo[key] = 1
	if res {
		r.assignMemo[key] = 2
	}
	return res
}
