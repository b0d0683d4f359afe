package feasible

import (
	"fmt"
	"slices"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Two objects of a survey in one cell. The simulator declares
// (domain.Signals.DistinctCells) that while only Fixed actions have run,
// two objects detected under different names never share a region and a
// cell. A plan that, first thing in its def-plan, surveys
//
//	(defun survey ()
//	  (let ((found nil))
//	    (dolist (stand ...) ...
//	      (dolist (d (perform (an action (type detecting))))
//	        (when (and ... (eq (REG d) 'R) ... (not (member (N d) G)) ...)
//	          (push (N d) G)
//	          (push d found))))
//	    (sort-by-col (reverse found))))
//	(def-plan main () (let ((todo (survey)) ...) ...))
//
// and then compares, in a function the sorted-list rule (sorted.go)
// accepts, the first element a of todo with a later one d,
//
//	(and (= (row d) (row a)) (<= (col a) (col d)) ...)
//
// never sees (col a) = (col d) there: a and d sit at different places of
// a list whose elements are different objects (each pushed under a name
// G did not hold, and G only grows; the sort is an insertion fold of its
// argument, pop and the sublist function keep distinct places), both
// detected in region R while only Fixed actions had run (survey runs
// before anything else and performs only Fixed actions), and row and col
// are the second and first of the cell property. The and asks the rows
// equal before it reaches the label. So the labels (= (col a) (col d)),
// and (>= (col a) (col d)) which the sorted order reduces to it, are
// infeasible. The conditions, on the text: every top-level form is a
// definition, globals start as constants, the def-plan takes no
// parameters, nothing calls it, its body starts with the let whose first
// binding is todo's, (survey) takes no arguments and survey (with every
// plan function it calls) performs only Fixed actions; found is bound
// once, mentioned only by that push and the final (reverse found) or
// found; G is assigned only by push anywhere and bound nowhere (no set,
// symbol-value or progv in the plan); REG reads the region property, N
// the name, col and row the first and second of the cell property (or
// the other way round), each a plan function of one parameter or the
// desig-prop itself; the sort's body is the insertion fold of its only
// parameter (sorted.go's shape).

// sortedCellVerdicts marks such labels of ls infeasible.
func sortedCellVerdicts(res *normalize.Result, a *valueAnalysis, sig *domain.Signals, show func(syntax.Node) string, entry string, ls []*pathLabel) {
	if a == nil || entry == "" || sig == nil || !sig.DistinctCells || sig.CellKey == "" || sig.Detects == "" ||
		!slices.Contains(sig.Fixed, sig.Detects) || res.Orig == nil {
		return
	}
	var s *sortedAnalysis
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		p, ok := untemp(res, pl.pred).(*syntax.List)
		if !ok || len(p.Elems) != 3 {
			continue
		}
		x, y := untemp(res, p.Elems[1]), untemp(res, p.Elems[2])
		var orders [][2]syntax.Node // (hi, lo): (K hi) <= (K lo) by sorting
		switch forms.Head(p) {
		case "=":
			orders = [][2]syntax.Node{{x, y}, {y, x}}
		case ">=":
			orders = [][2]syntax.Node{{x, y}}
		case "<=":
			orders = [][2]syntax.Node{{y, x}}
		default:
			continue
		}
		if s == nil {
			h := &handlerAnalysis{res: res, a: a, sig: sig, show: show}
			h.collectDefs()
			h.findSites()
			if h.dynamic {
				return
			}
			s = &sortedAnalysis{h: h, parent: parentMap(h), entry: entry, memo: map[string]int8{}}
		}
		if userFn(s, forms.Head(p)) {
			continue
		}
		for _, o := range orders {
			if why, ok := s.sameCell(pl.l.Point, o[0], o[1]); ok {
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s is never true: %s", show(pl.pred), why)
				break
			}
		}
	}
}

// sameCell checks the rule for a label at point comparing (K hi) with
// (K lo), and says why they are never equal there.
func (s *sortedAnalysis) sameCell(point, hx, lx syntax.Node) (string, bool) {
	res, h := s.h.res, s.h
	k, hi, ok1 := keyCall(res, hx)
	k2, lo, ok2 := keyCall(res, lx)
	if !ok1 || !ok2 || k != k2 || hi == lo {
		return "", false
	}
	if s.h.a.ev(hx, 0).nan || s.h.a.ev(lx, 0).nan {
		return "", false // a NaN key breaks the sorted order
	}
	kp := s.cellPart(k)
	if kp < 0 {
		return "", false
	}
	// The and around the label asks (= (R lo) (R hi)) first.
	and := s.parent[point]
	idx := -1
	if and != nil {
		idx = slices.Index(and.Elems, point)
	}
	if forms.Head(and) != "and" || idx < 2 || userFn(s, "and") {
		return "", false
	}
	row := ""
	for _, c := range and.Elems[1:idx] {
		cl, ok := untemp(res, c).(*syntax.List)
		if !ok || len(cl.Elems) != 3 || forms.Head(cl) != "=" || userFn(s, "=") {
			continue
		}
		r1, v1, ok1 := keyCall(res, untemp(res, cl.Elems[1]))
		r2, v2, ok2 := keyCall(res, untemp(res, cl.Elems[2]))
		if ok1 && ok2 && r1 == r2 && (v1 == hi && v2 == lo || v1 == lo && v2 == hi) && s.cellPart(r1) == 1-kp {
			row = show1(s, c)
			break
		}
	}
	if row == "" {
		return "", false
	}
	s.srcs = nil
	why, ok := s.firstBelow(point, k, hi, lo)
	if !ok || len(s.srcs) == 0 {
		return "", false
	}
	var survey string
	for _, src := range s.srcs {
		w, ok := s.survey(src[0], src[1], k)
		if !ok || survey != "" && w != survey {
			return "", false
		}
		survey = w
	}
	return fmt.Sprintf("%s; %s, and %s was asked true before, so %s and %s would be two objects in one cell (%s: %s)",
		why, survey, row, hi, lo, h.sig.Why, "objects never share a cell of a region while only "+joinOr(h.sig.Fixed)+" ran"), true
}

func show1(s *sortedAnalysis, n syntax.Node) string { return s.h.show(untemp(s.h.res, n)) }

// cellPart is 0 when plan function k gives the first of its argument's
// cell property, 1 the second, else -1.
func (s *sortedAnalysis) cellPart(k string) int {
	d := s.h.origDefs()[k]
	if d == nil || s.h.dup[k] || s.h.local[k] || forms.Head(d) != "defun" || len(d.Elems) != 4 {
		return -1
	}
	ps, ok := params(d)
	if !ok || len(ps) != 1 || s.special(ps[0]) {
		return -1
	}
	b, ok := d.Elems[3].(*syntax.List)
	if !ok || len(b.Elems) != 2 || userFn(s, forms.Head(b)) || !s.propOf(b.Elems[1], ps[0], s.h.sig.CellKey) {
		return -1
	}
	switch forms.Head(b) {
	case "first", "car":
		return 0
	case "second":
		return 1
	}
	return -1
}

// propOf reports whether n is (desig-prop v 'key).
func (s *sortedAnalysis) propOf(n syntax.Node, v, key string) bool {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 3 || forms.Head(l) != "desig-prop" || userFn(s, "desig-prop") || !isSym(l.Elems[1], v) {
		return false
	}
	q, ok := l.Elems[2].(*syntax.Quote)
	return ok && isSym(q.X, key)
}

// readsProp reports whether n is (desig-prop v 'key) or (F v), F a plan
// function of one parameter whose body is that.
func (s *sortedAnalysis) readsProp(n syntax.Node, v, key string) bool {
	if s.propOf(n, v, key) {
		return true
	}
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 2 || !isSym(l.Elems[1], v) {
		return false
	}
	f := forms.Head(l)
	d := s.h.origDefs()[f]
	if d == nil || s.h.dup[f] || s.h.local[f] || forms.Head(d) != "defun" || len(d.Elems) != 4 {
		return false
	}
	ps, ok := params(d)
	return ok && len(ps) == 1 && !s.special(ps[0]) && s.propOf(d.Elems[3], ps[0], key)
}

// survey checks that the let lv, binding its first variable to the call
// vc, starts the entry, and that vc's function returns an insertion
// sort by key of objects with different names detected in one region
// while only Fixed actions ran. It says so.
func (s *sortedAnalysis) survey(lv, vc *syntax.List, key string) (string, bool) {
	h, res := s.h, s.h.res
	// Every top-level form defines; globals start as constants; checks
	// perform only Fixed actions.
	for _, f := range res.Orig.Forms {
		l, ok := f.(*syntax.List)
		if !ok {
			return "", false
		}
		switch forms.Head(l) {
		case "defun", "def-plan":
		case "def-check":
			if !h.fixedOnly(l, map[string]bool{}, 0) {
				return "", false
			}
		case "defparameter", "defvar", "defconstant":
			for _, e := range l.Elems[min(2, len(l.Elems)):] {
				if _, ok := e.(*syntax.List); ok {
					return "", false
				}
			}
		default:
			return "", false
		}
		if hasHead(l, "set", "symbol-value", "progv", "makunbound", "eval", "setf", "psetf", "rplaca", "rplacd", "nconc", "nreverse", "delete", "sort") || placesStructure(l) {
			return "", false // no list changes in place
		}
	}
	// (def-plan entry () (let ((V (S)) ...) ...)), nothing calls entry.
	e := h.defs[s.entry]
	if e == nil || h.dup[s.entry] || forms.Head(e) != "def-plan" || len(e.Elems) < 4 || e.Elems[3] != syntax.Node(lv) || len(h.sites[s.entry]) > 0 {
		return "", false
	}
	if ps, ok := params(e); !ok || len(ps) > 0 {
		return "", false
	}
	bl := asList(lv.Elems[1])
	if bl == nil || len(bl.Elems) == 0 {
		return "", false
	}
	if b0 := asList(bl.Elems[0]); b0 == nil || len(b0.Elems) != 2 || b0.Elems[1] != syntax.Node(vc) || len(vc.Elems) != 1 {
		return "", false
	}
	sname := forms.Head(vc)
	sd := h.origDefs()[sname]
	if sd == nil || h.dup[sname] || h.local[sname] || forms.Head(sd) != "defun" || len(sd.Elems) != 4 || !h.fixedOnly(sd, map[string]bool{}, 0) {
		return "", false
	}
	if ps, ok := params(sd); !ok || len(ps) > 0 {
		return "", false
	}
	// (let ((F nil)) FORMS... (SORT X)), X F or (reverse F).
	let := asList(sd.Elems[3])
	if let == nil || forms.Head(let) != "let" && forms.Head(let) != "let*" || len(let.Elems) < 3 {
		return "", false
	}
	lb := asList(let.Elems[1])
	if lb == nil || len(lb.Elems) != 1 {
		return "", false
	}
	var f string
	switch b := lb.Elems[0].(type) {
	case *syntax.Symbol:
		f = b.Name
	case *syntax.List:
		if len(b.Elems) != 2 || !isSym(b.Elems[1], "nil") {
			return "", false
		}
		fs, ok := b.Elems[0].(*syntax.Symbol)
		if !ok {
			return "", false
		}
		f = fs.Name
	default:
		return "", false
	}
	if f == "" || s.special(f) || binders(sd, f) != 1 {
		return "", false
	}
	last := asList(let.Elems[len(let.Elems)-1])
	if last == nil || len(last.Elems) != 2 {
		return "", false
	}
	if x := last.Elems[1]; !isSym(x, f) && !s.builtinCall(x, f, "reverse") {
		return "", false
	}
	sort := forms.Head(last)
	if !s.insertionSort(sort, key) {
		return "", false
	}
	// F: the binding, one (push d F), the final read.
	uses := 0
	syntax.Walk(sd, func(x syntax.Node) bool {
		if isSym(x, f) {
			uses++
		}
		return true
	})
	pushes := placeAssigns(sd, f)
	if uses != 3 || len(pushes) != 1 {
		return "", false
	}
	pf := pushes[0]
	d, ok := argAt(pf, 1).(*syntax.Symbol)
	if forms.Head(pf) != "push" || len(pf.Elems) != 3 || !ok || s.special(d.Name) || d.Name == f {
		return "", false
	}
	op := h.origParents()
	w := op[pf]
	if w == nil || forms.Head(w) != "when" || len(w.Elems) != 4 || w.Elems[3] != syntax.Node(pf) {
		return "", false
	}
	pg := asList(w.Elems[2])
	if pg == nil || forms.Head(pg) != "push" || len(pg.Elems) != 3 || !h.nameOf(pg.Elems[1], d.Name) {
		return "", false
	}
	gs, ok := pg.Elems[2].(*syntax.Symbol)
	if !ok || gs.Name == f || gs.Name == d.Name {
		return "", false
	}
	g := gs.Name
	// G only grows and is bound nowhere: every mention of it names it
	// in its definition, pushes onto it or asks member of it.
	for _, form := range res.Orig.Forms {
		if binders(form, g) > 0 {
			return "", false
		}
		ok := true
		syntax.Walk(form, func(x syntax.Node) bool {
			l, isList := x.(*syntax.List)
			if !isList {
				if isSym(x, g) {
					ok = false // a mention the cases below do not skip
				}
				return ok
			}
			switch hd := forms.Head(l); {
			case (hd == "defparameter" || hd == "defvar") && len(l.Elems) >= 2 && isSym(l.Elems[1], g):
				for _, e := range l.Elems[2:] {
					syntax.Walk(e, func(y syntax.Node) bool { ok = ok && !isSym(y, g); return ok })
				}
				return false
			case (hd == "push" && len(l.Elems) == 3 || hd == "member" && len(l.Elems) == 3 && !userFn(s, "member")) && isSym(l.Elems[2], g):
				syntax.Walk(l.Elems[1], func(y syntax.Node) bool { ok = ok && !isSym(y, g); return ok })
				return false
			}
			return ok
		})
		if !ok {
			return "", false
		}
	}
	cond := asList(w.Elems[1])
	if cond == nil || forms.Head(cond) != "and" {
		return "", false
	}
	region, fresh := "", false
	for _, c := range cond.Elems[1:] {
		cl := asList(c)
		if cl == nil || len(cl.Elems) < 2 {
			continue
		}
		switch forms.Head(cl) {
		case "eq":
			if len(cl.Elems) != 3 || userFn(s, "eq") {
				continue
			}
			for i := 1; i <= 2; i++ {
				q, ok := cl.Elems[3-i].(*syntax.Quote)
				if ok && s.readsProp(cl.Elems[i], d.Name, h.sig.RegionKey) {
					if qs, ok := q.X.(*syntax.Symbol); ok && region == "" {
						region = qs.Name
					}
				}
			}
		case "not":
			m := asList(cl.Elems[1])
			if len(cl.Elems) == 2 && m != nil && forms.Head(m) == "member" && len(m.Elems) == 3 && !userFn(s, "member") && !userFn(s, "not") &&
				h.nameOf(m.Elems[1], d.Name) && isSym(m.Elems[2], g) {
				fresh = true
			}
		}
	}
	if region == "" || !fresh {
		return "", false
	}
	loop := op[w]
	spec := asList(argAt(loop, 1))
	if loop == nil || forms.Head(loop) != "dolist" || slices.Index(loop.Elems, syntax.Node(w)) < 2 || spec == nil || len(spec.Elems) != 2 ||
		!isSym(spec.Elems[0], d.Name) || mayAssignIn(loop.Elems[2:], d.Name) {
		return "", false
	}
	if _, ok := h.detection(spec.Elems[1]); !ok {
		return "", false
	}
	return fmt.Sprintf("%s runs first in %s and performs only %s; it pushes onto %s only objects %s returned in region %s under a name %s did not hold, and pushes that name onto %s, which only grows, so %s holds different objects in different places (%s is an insertion sort of its argument)",
		sname, s.entry, joinOr(h.sig.Fixed), f, h.where(spec.Elems[1]), region, g, g, s.entryVar(lv), sort), true
}

// entryVar names lv's first variable.
func (s *sortedAnalysis) entryVar(lv *syntax.List) string {
	if b := asList(asList(lv.Elems[1]).Elems[0]); b != nil {
		if v, ok := b.Elems[0].(*syntax.Symbol); ok {
			return v.Name
		}
	}
	return "its list"
}

// insertionSort reports whether function sort's body is the insertion
// fold by key of its only parameter: its value holds each element of its
// argument once.
func (s *sortedAnalysis) insertionSort(sort, key string) bool {
	d := s.fn(sort)
	ps, ok := params(d0(d))
	if d == nil || !ok || len(ps) != 1 || len(d.Elems) != 4 || s.special(ps[0]) || !s.fold(d.Elems[3], key) {
		return false
	}
	_, loop, ok := collector(d.Elems[3])
	return ok && isSym(loop.Elems[1].(*syntax.List).Elems[1], ps[0]) && len(placeAssigns(d, ps[0])) == 0
}

// placesStructure reports whether n assigns a place that is no variable
// (push, pop, incf or decf of (car x), say).
func placesStructure(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		l, ok := x.(*syntax.List)
		if !ok || found {
			return !found
		}
		var place syntax.Node
		switch forms.Head(l) {
		case "push", "pushnew":
			place = argAt(l, 2)
		case "pop", "incf", "decf":
			place = argAt(l, 1)
		default:
			return true
		}
		if _, ok := place.(*syntax.Symbol); !ok {
			found = true
		}
		return !found
	})
	return found
}
