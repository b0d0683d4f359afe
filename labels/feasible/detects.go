package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Regions of detected objects. The simulator declares which regions an
// object detected from each location may be in (domain.Signals.Seen),
// and that navigating to a location by name returns only with the robot
// there (Moves). A loop (dolist (d (perform (an action (type detecting)
// ...))) ...) whose robot location is known — the loop's list is the
// first thing evaluated after a call (go-to X) of a function that
// returns only with the robot at its parameter, with nothing that may
// navigate in between, in the same body, or known through loops, calls
// and handlers as locations.go reads it — gives d a region among those
// seen from X's values. A label's conjunct (eq (desig-prop d 'region)
// 'R), or its negation, read through a one-form function such as
// (obj-region d), is then decided, and a conjunction with a conjunct
// that cannot hold is infeasible.

// detectVerdicts marks infeasible the active labels of ls with such a
// conjunct.
func (h *handlerAnalysis) detectVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Detects == "" || sig.Moves == "" || len(sig.Seen) == 0 || h.a == nil || !h.parkingFacts() {
		return
	}
	// The detecting loops: the binding key of their variable, and the
	// regions it may be in.
	loops := map[string][]string{}
	why := map[string]string{}
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || forms.Head(l) != "dolist" || len(l.Elems) < 2 {
				return true
			}
			spec, ok := l.Elems[1].(*syntax.List)
			if !ok || len(spec.Elems) < 2 {
				return true
			}
			v, ok := spec.Elems[0].(*syntax.Symbol)
			if !ok {
				return true
			}
			p, ok := h.detection(spec.Elems[1])
			if !ok {
				return true
			}
			key := h.a.lexKey(v.Name, v)
			if key == "" || h.a.assignedKeys[key] || h.a.closureAssigned()[v.Name] {
				return true
			}
			locs, at, ok := h.locationAt(l, 0)
			if !ok {
				return true
			}
			var regions []string
			for _, loc := range locs {
				seen, known := sig.Seen[loc]
				if !known {
					return true
				}
				for _, r := range seen {
					if !slices.Contains(regions, r) {
						regions = append(regions, r)
					}
				}
			}
			loops[key] = regions
			what := h.where(p)
			if spec.Elems[1] != syntax.Node(p) {
				what = fmt.Sprintf("%s, which performs %s,", h.where(spec.Elems[1]), what)
			}
			why[key] = fmt.Sprintf("%s detects from %s, where the robot stands %s (%s), and from there an object may be in %s only",
				what, strings.Join(locs, " or "), at, sig.Why, strings.Join(regions, ", "))
			return true
		})
	}
	if len(loops) == 0 {
		return
	}
	inits := letInits(h.res, h.a)
	for _, pl := range ls {
		if pl.l.Status != labels.Active {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			c, neg := negated(c)
			if key, sym, ok := h.regionEq(c); ok {
				if regions, found := loops[key]; found {
					always := len(regions) == 1 && regions[0] == sym
					never := !slices.Contains(regions, sym)
					if neg && always || !neg && never {
						pl.l.Status = labels.Infeasible
						pl.l.Reason = fmt.Sprintf("%s is never true: %s", h.show(c), why[key])
						if neg {
							pl.l.Reason = fmt.Sprintf("%s is never false: %s", h.show(c), why[key])
						}
						break
					}
					continue
				}
			}
			// Any other test of the detected object's region, through
			// plan functions and let bindings (detectvals.go).
			ev := &regionEval{h: h, loops: loops, inits: inits}
			vals, ok := ev.eval(c, nil, 0)
			if !ok || len(ev.keys) == 0 {
				continue
			}
			mayTrue, mayFalse := truthOf(vals)
			if neg && !mayFalse || !neg && !mayTrue {
				what := "true"
				if neg {
					what = "false"
				}
				notes := ""
				if len(ev.notes) > 0 {
					notes = " (" + strings.Join(ev.notes, "; ") + ")"
				}
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s is never %s for any region the detected object may be in%s: %s", h.show(c), what, notes, why[ev.keys[0]])
				break
			}
		}
	}
}

// regionEq reads (eq A 'SYM) or (eq 'SYM A) where A reads the region of a
// designator variable: (desig-prop d 'region), or a call (f d) of a
// defun whose body is that of its parameter; it returns the variable's
// binding key and SYM.
func (h *handlerAnalysis) regionEq(c syntax.Node) (string, string, bool) {
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) != 3 || forms.Head(l) != "eq" || h.defs["eq"] != nil || h.local["eq"] {
		return "", "", false
	}
	a, q := l.Elems[1], l.Elems[2]
	if _, isQ := a.(*syntax.Quote); isQ {
		a, q = q, a
	}
	quote, ok := q.(*syntax.Quote)
	if !ok {
		return "", "", false
	}
	s, ok := quote.X.(*syntax.Symbol)
	if !ok {
		return "", "", false
	}
	if t, ok := a.(*syntax.Symbol); ok && h.res.IsTemp(t.Name) {
		if o := h.res.Origin(t); o != nil {
			a = o
		}
	}
	d, ok := h.regionOf(a)
	if !ok {
		return "", "", false
	}
	k, met := h.a.symKey[d]
	if !met || k == conflictKey || k == "" {
		return "", "", false
	}
	return k, s.Name, true
}

// regionOf returns d when n is (desig-prop d 'region) or (f d) with f a
// defun of one parameter whose body is (desig-prop PARAM 'region).
func (h *handlerAnalysis) regionOf(n syntax.Node) (*syntax.Symbol, bool) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return nil, false
	}
	head := forms.Head(l)
	if head == "desig-prop" && len(l.Elems) == 3 && h.defs[head] == nil && !h.local[head] {
		d, ok := l.Elems[1].(*syntax.Symbol)
		q, isQ := l.Elems[2].(*syntax.Quote)
		if ok && isQ && syntax.IsSymbol(q.X, "region") {
			return d, true
		}
		return nil, false
	}
	f := h.defs[head]
	if f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 || len(l.Elems) != 2 {
		return nil, false
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != 1 {
		return nil, false
	}
	p, ok := ps.Elems[0].(*syntax.Symbol)
	d, isSym := l.Elems[1].(*syntax.Symbol)
	if !ok || !isSym {
		return nil, false
	}
	if inner, ok := h.regionOfBody(f.Elems[3]); !ok || inner != p.Name {
		return nil, false
	}
	return d, true
}

func (h *handlerAnalysis) regionOfBody(n syntax.Node) (string, bool) {
	l, ok := n.(*syntax.List)
	if !ok || forms.Head(l) != "desig-prop" || len(l.Elems) != 3 || h.defs["desig-prop"] != nil {
		return "", false
	}
	d, ok := l.Elems[1].(*syntax.Symbol)
	q, isQ := l.Elems[2].(*syntax.Quote)
	if !ok || !isQ || !syntax.IsSymbol(q.X, "region") {
		return "", false
	}
	return d.Name, true
}

// goTo returns the locations n, a call of a function that returns only
// with the robot at its parameter, takes it to.
func (h *handlerAnalysis) goTo(n syntax.Node) ([]string, bool) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 2 {
		return nil, false
	}
	head := forms.Head(l)
	f := h.defs[head]
	if f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) < 4 {
		return nil, false
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != 1 {
		return nil, false
	}
	p, ok := ps.Elems[0].(*syntax.Symbol)
	if !ok || !h.endsAt(f.Elems[len(f.Elems)-1], head, p.Name, 0) {
		return nil, false
	}
	if h.sites == nil {
		h.findSites()
	}
	site, found := callSite{call: l}, false
	for _, s := range h.sites[head] {
		if s.call == l {
			site, found = s, true
		}
	}
	if !found || h.dynamic {
		return nil, false
	}
	v := h.argVal(site, 0, 0)
	if v.num || !v.symsKnown() || slices.Contains(v.syms, "nil") || len(v.syms) == 0 {
		return nil, false
	}
	return v.syms, true
}

// endsAt reports whether n, the last form of function fn, returns only
// with the robot at the location its parameter p names.
func (h *handlerAnalysis) endsAt(n syntax.Node, fn, p string, depth int) bool {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 || depth > 8 {
		return false
	}
	head := forms.Head(l)
	switch head {
	case "perform":
		typ, props, ok := actionDesig(l)
		if !ok || typ != h.sig.Moves || h.defs["perform"] != nil {
			return false
		}
		var val syntax.Node
		for _, k := range h.sig.MoveKeys {
			if v, ok := props[k]; ok {
				val = v
				break
			}
		}
		if val == nil {
			return false
		}
		if forms.IsDesignator(val) {
			sub, ok := desigProps(val.(*syntax.List))
			if !ok || sub[h.sig.MoveSub] == nil {
				return false
			}
			val = sub[h.sig.MoveSub]
		}
		return h.isParam(val, fn, p)
	case "progn", "let", "let*":
		return len(l.Elems) > bodyStart[head] && h.endsAt(l.Elems[len(l.Elems)-1], fn, p, depth+1)
	case "unless":
		// (unless (eq (robot-location) p) ... LAST)
		if len(l.Elems) < 3 || !h.atParamTest(l.Elems[1], fn, p) {
			return false
		}
		return h.endsAt(l.Elems[len(l.Elems)-1], fn, p, depth+1)
	case "with-failure-handling":
		cl, ok := argAt(l, 1).(*syntax.List)
		if !ok || len(l.Elems) < 3 {
			return false
		}
		for _, c := range cl.Elems {
			_, body, ok := clauseParts(c)
			if !ok || len(body) == 0 || forms.Head(body[len(body)-1]) != "fail" || h.defs["fail"] != nil {
				return false // a clause that may return normally
			}
		}
		return h.endsAt(l.Elems[len(l.Elems)-1], fn, p, depth+1)
	}
	return false
}

// atParamTest reports whether t is (eq (robot-location) p) or (eq p
// (robot-location)).
func (h *handlerAnalysis) atParamTest(t syntax.Node, fn, p string) bool {
	if s, ok := t.(*syntax.Symbol); ok && h.res.IsTemp(s.Name) {
		t = h.res.Unwrap(t)
	}
	l, ok := t.(*syntax.List)
	if ok && forms.Head(l) == "let*" && len(l.Elems) == 3 {
		// normalize's (let* ((%t (robot-location))) (eq %t p))
		bs, ok := l.Elems[1].(*syntax.List)
		if !ok || len(bs.Elems) != 1 {
			return false
		}
		b, ok := bs.Elems[0].(*syntax.List)
		if !ok || len(b.Elems) != 2 || !h.isRobotLocation(b.Elems[1]) {
			return false
		}
		tmp, ok := b.Elems[0].(*syntax.Symbol)
		if !ok {
			return false
		}
		body := l.Elems[2]
		if forms.Head(body) == "progn" {
			pl := body.(*syntax.List)
			body = pl.Elems[len(pl.Elems)-1]
		}
		e, ok := body.(*syntax.List)
		if !ok || forms.Head(e) != "eq" || len(e.Elems) != 3 {
			return false
		}
		return syntax.IsSymbol(e.Elems[1], tmp.Name) && h.isParam(e.Elems[2], fn, p) ||
			syntax.IsSymbol(e.Elems[2], tmp.Name) && h.isParam(e.Elems[1], fn, p)
	}
	if !ok || forms.Head(l) != "eq" || len(l.Elems) != 3 {
		return false
	}
	return h.isRobotLocation(l.Elems[1]) && h.isParam(l.Elems[2], fn, p) ||
		h.isRobotLocation(l.Elems[2]) && h.isParam(l.Elems[1], fn, p)
}

func (h *handlerAnalysis) isRobotLocation(n syntax.Node) bool {
	l, ok := n.(*syntax.List)
	return ok && len(l.Elems) == 1 && forms.Head(l) == "robot-location" && h.defs["robot-location"] == nil && !h.local["robot-location"]
}

// isParam reports whether n reads parameter p of fn, never assigned.
func (h *handlerAnalysis) isParam(n syntax.Node, fn, p string) bool {
	s, ok := n.(*syntax.Symbol)
	if !ok || s.Name != p {
		return false
	}
	k, met := h.a.symKey[s]
	return met && k == h.a.paramKey(fn, p) && k != "" && !h.a.assignedKeys[k] && !h.a.closureAssigned()[p]
}

// mayNavigate reports whether evaluating n may move the robot: a perform
// of the moving action or of an action the text does not name, a call of
// a function that may, or a call the analysis cannot follow.
func (h *handlerAnalysis) mayNavigate(n syntax.Node, depth int) bool {
	if depth > 8 {
		return true
	}
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if found {
			return false
		}
		l, ok := x.(*syntax.List)
		if !ok || len(l.Elems) == 0 {
			return true
		}
		head := forms.Head(l)
		switch {
		case head == "perform":
			if typ, _, ok := actionDesig(l); !ok || typ == h.sig.Moves || h.defs["perform"] != nil {
				found = true
			}
		case h.local[head] || dynamicCall(l) || head == "funcall":
			found = true
		case h.defs[head] != nil:
			if h.dup[head] || h.fnMayNavigate(head, depth) {
				found = true
			}
		}
		return !found
	})
	return found
}

// fnMayNavigate is mayNavigate of function name's definition, memoized;
// a function met again while its own answer is pending may navigate.
func (h *handlerAnalysis) fnMayNavigate(name string, depth int) bool {
	if h.navMemo == nil {
		h.navMemo = map[string]int8{}
	}
	switch h.navMemo[name] {
	case 1:
		return false
	case 2, 3:
		return true
	}
	h.navMemo[name] = 3 // pending
	r := h.mayNavigate(h.defs[name], depth+1)
	h.navMemo[name] = 1
	if r {
		h.navMemo[name] = 2
	}
	return r
}
