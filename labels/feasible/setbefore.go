package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Variables set before a clause's failures. In
//
//	(let ((v nil) ...) ... (with-failure-handling (C1 ... Cj ...) F1 ... Fk-1 (setq v E) ...))
//
// a clause Cj runs only when a failure of its kinds escapes the body. If
// nothing F1 ... Fk-1 and E may signal (what may escape them, as the
// handler analysis computes it from what the simulator declares) escapes
// to Cj (each such kind is one an earlier clause C1 ... Cj-1 takes, and
// the earlier clauses' bodies signal nothing Cj takes), every failure Cj
// meets comes after (setq v E) returned, in this activation of the body or
// an earlier one its retries repeat. When E is never nil (the value
// analysis) and nothing else assigns v, binds it again or captures it in
// a closure, v is not nil wherever Cj's body reads it: a label's
// conjunct (not v) or (null v) there never holds.

// setBeforeVerdicts marks infeasible the active labels of ls in a
// handler clause with a conjunct (not V) or (null V) for such a V.
func (h *handlerAnalysis) setBeforeVerdicts(ls []*pathLabel) {
	if h.a == nil {
		return
	}
	type nilTest struct {
		pl  *pathLabel
		c   syntax.Node
		v   string
		pos syntax.Node
	}
	var todo []nilTest
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			if v, ok := nilTestVar(c); ok && !h.res.IsTemp(v) && !h.a.specials[v] {
				todo = append(todo, nilTest{pl, c, v, pl.l.Point})
				break
			}
		}
	}
	if len(todo) == 0 {
		return
	}
	if h.sites == nil {
		h.findSites()
	}
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			let, ok := n.(*syntax.List)
			if !ok || (forms.Head(let) != "let" && forms.Head(let) != "let*") || len(let.Elems) < 3 {
				return true
			}
			for i := range todo {
				t := &todo[i]
				if t.pl.l.Status != labels.Active || !bindsVar(let, t.v) || !contains(let, t.pos) {
					continue
				}
				if why, ok := h.setBefore(let, t.v, t.pos); ok {
					t.pl.l.Status = labels.Infeasible
					t.pl.l.Reason = fmt.Sprintf("%s is never true: %s", h.show(t.c), why)
				}
			}
			return true
		})
	}
}

// nilTestVar returns V when c is (not V) or (null V).
func nilTestVar(c syntax.Node) (string, bool) {
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) != 2 || (forms.Head(l) != "not" && forms.Head(l) != "null") {
		return "", false
	}
	s, ok := l.Elems[1].(*syntax.Symbol)
	if !ok || s.Name == "nil" || s.Name == "t" {
		return "", false
	}
	return s.Name, true
}

// bindsVar reports whether let form l binds name.
func bindsVar(l *syntax.List, name string) bool {
	bs, ok := l.Elems[1].(*syntax.List)
	if !ok {
		return false
	}
	for _, b := range bs.Elems {
		if bindingName(b) == name {
			return true
		}
	}
	return false
}

// bindingName is the variable a let binding (V INIT), (V) or V binds.
func bindingName(b syntax.Node) string {
	switch b := b.(type) {
	case *syntax.Symbol:
		return b.Name
	case *syntax.List:
		if len(b.Elems) > 0 {
			if s, ok := b.Elems[0].(*syntax.Symbol); ok {
				return s.Name
			}
		}
	}
	return ""
}

// contains reports whether x lies in n.
func contains(n, x syntax.Node) bool {
	found := false
	syntax.Walk(n, func(y syntax.Node) bool {
		if y == x {
			found = true
		}
		return !found
	})
	return found
}

// bindingForms are the forms that bind variables in their second element
// or take parameters.
var bindingForms = map[string]bool{"let": true, "let*": true, "dolist": true, "dotimes": true, "lambda": true,
	"flet": true, "labels": true, "destructuring-bind": true, "multiple-value-bind": true, "do": true, "do*": true,
	"with-failure-handling": true, "handler-case": true, "defun": true, "function": true}

// setBefore says why v (bound by let) is not nil at point pos, which lies
// in a handler clause of a with-failure-handling in let's body, or false.
func (h *handlerAnalysis) setBefore(let *syntax.List, v string, pos syntax.Node) (string, bool) {
	// v's only assignment, no other binding of the name, no closure.
	var sets []*syntax.List
	bad := false
	for _, b := range let.Elems[2:] {
		syntax.Walk(b, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || bad {
				return !bad
			}
			hd := forms.Head(l)
			switch {
			case hd == "setq" && len(l.Elems) == 3 && syntax.IsSymbol(l.Elems[1], v):
				sets = append(sets, l)
			case assignHeads[hd] && assignsVar(l, v):
				bad = true
			case hd == "with-failure-handling" || hd == "handler-case":
				bad = clauseBinds(l, v) // clause variables: (KIND (VAR) ...)
			case bindingForms[hd] && rebinds(l, v):
				bad = true
			}
			return !bad
		})
	}
	if bad || len(sets) != 1 {
		return "", false
	}
	set := sets[0]
	if mentions(set.Elems[2], v) {
		return "", false
	}
	// The with-failure-handling whose body holds the setq as an element,
	// and whose clause holds pos.
	var why string
	found := false
	syntax.Walk(let, func(n syntax.Node) bool {
		l, ok := n.(*syntax.List)
		if !ok || found || forms.Head(l) != "with-failure-handling" || len(l.Elems) < 3 {
			return !found
		}
		k := slices.IndexFunc(l.Elems[2:], func(x syntax.Node) bool { return x == syntax.Node(set) })
		cl, isList := l.Elems[1].(*syntax.List)
		if k < 0 || !isList {
			return true
		}
		j := slices.IndexFunc(cl.Elems, func(c syntax.Node) bool { return contains(c, pos) })
		if j < 0 {
			return true
		}
		kinds, _, ok := clauseParts(cl.Elems[j])
		if !ok || !h.decidable(kinds) {
			return true
		}
		// What escapes before the setq returns.
		prefix := append(slices.Clone(l.Elems[2:2+k]), set.Elems[2])
		s := h.seq(prefix)
		if s.top != "" {
			return true
		}
		var earlier [][]string
		for _, c := range cl.Elems[:j] {
			ks, body, ok := clauseParts(c)
			if !ok {
				return true
			}
			if bs := h.seq(body); h.catches(kinds, bs) {
				return true // an earlier clause's body may signal to Cj
			}
			earlier = append(earlier, ks)
		}
		var taken []string
		for kind := range s.kinds {
			if !slices.ContainsFunc(kinds, func(k string) bool { return h.sig.IsKind(kind, k) }) {
				continue // a failure Cj does not take
			}
			by := ""
			for _, ks := range earlier {
				for _, e := range ks {
					if by == "" && h.sig.IsKind(kind, e) {
						by = e
					}
				}
			}
			if by == "" {
				return true
			}
			taken = append(taken, kind+" (the "+by+" clause takes it)")
		}
		nn, ok := h.neverNil(set.Elems[2], 0)
		if !ok {
			return true
		}
		slices.Sort(taken)
		what := "signals nothing"
		if len(taken) > 0 {
			what = "may signal only " + strings.Join(taken, ", ")
		}
		why = fmt.Sprintf("the %s clause runs only after %s returned (what the body evaluates before it %s), which is never nil (%s), and nothing else assigns %s",
			strings.Join(kinds, " "), h.show(set), what, nn, v)
		found = true
		return false
	})
	return why, found
}

// rebinds reports whether binding form l (let, dolist, lambda, ...)
// binds name in its second element.
func rebinds(l *syntax.List, name string) bool {
	if len(l.Elems) < 2 {
		return false
	}
	bl, _ := l.Elems[1].(*syntax.List)
	switch forms.Head(l) {
	case "let", "let*", "do", "do*":
		return bindsName(bl, name)
	case "dolist", "dotimes":
		return bl == nil || len(bl.Elems) == 0 || mentions(bl.Elems[0], name)
	case "defun":
		return len(l.Elems) < 3 || mentions(l.Elems[2], name)
	}
	return mentions(l.Elems[1], name) // parameters, flet/labels definitions: any mention
}

// clauseBinds reports whether a handler clause of l binds name.
func clauseBinds(l *syntax.List, name string) bool {
	var cls []syntax.Node
	if forms.Head(l) == "with-failure-handling" {
		if cl, ok := l.Elems[1].(*syntax.List); ok {
			cls = cl.Elems
		}
	} else if len(l.Elems) > 2 {
		cls = l.Elems[2:]
	}
	for _, c := range cls {
		if cl, ok := c.(*syntax.List); ok && len(cl.Elems) > 1 && mentions(cl.Elems[1], name) {
			return true
		}
	}
	return false
}

// assignsVar reports whether assignment form l may assign variable name:
// one of its places is the symbol name.
func assignsVar(l *syntax.List, name string) bool {
	var places []syntax.Node
	switch forms.Head(l) {
	case "setq", "setf", "psetq", "psetf":
		for i := 1; i < len(l.Elems); i += 2 {
			places = append(places, l.Elems[i])
		}
	case "push", "pushnew":
		if len(l.Elems) > 2 {
			places = append(places, l.Elems[2])
		}
	case "multiple-value-setq":
		if len(l.Elems) > 1 {
			if vs, ok := l.Elems[1].(*syntax.List); ok {
				places = vs.Elems
			}
		}
	default: // incf, decf, pop, shiftf, rotatef: any place
		places = l.Elems[1:]
	}
	for _, p := range places {
		if syntax.IsSymbol(p, name) {
			return true
		}
	}
	return false
}

// neverNil says why form x never returns nil, or false: (fail ...) never
// returns; (or A... B) returns a non-nil A or B; let, let* and progn their
// last form; if both branches; a call of a plan function (defined once,
// no return-from or return in it) the last form of its body; anything
// else by its value (the value analysis).
func (h *handlerAnalysis) neverNil(x syntax.Node, depth int) (string, bool) {
	if depth > maxParamDepth {
		return "", false
	}
	if t, isSym := x.(*syntax.Symbol); isSym && h.res.IsTemp(t.Name) {
		// A temporary normalize made of an operand: the operand's form.
		if o := h.res.Origin(t); o != nil && o != syntax.Node(t) {
			x = o
		}
	}
	l, ok := x.(*syntax.List)
	if ok && len(l.Elems) > 0 {
		hd := forms.Head(l)
		user := h.res.IsUserFunc(hd) || h.local[hd]
		switch {
		case hd == "fail" && !user && h.defs[hd] == nil:
			return h.show(l) + " never returns", true
		case hd == "or" && !user && len(l.Elems) > 1:
			if why, ok := h.neverNil(l.Elems[len(l.Elems)-1], depth+1); ok {
				return "an or returns its first operand that is not nil, else its last: " + why, true
			}
		case (hd == "let" || hd == "let*" || hd == "progn") && !user && len(l.Elems) > 1:
			return h.neverNil(l.Elems[len(l.Elems)-1], depth+1)
		case hd == "if" && !user && len(l.Elems) == 4:
			a, okA := h.neverNil(l.Elems[2], depth+1)
			if ts, isSym := l.Elems[1].(*syntax.Symbol); isSym && syntax.IsSymbol(l.Elems[2], ts.Name) {
				a, okA = h.show(l.Elems[2])+" where it is true", true // (if V V ...)
			}
			b, okB := h.neverNil(l.Elems[3], depth+1)
			if okA && okB {
				return a + "; " + b, true
			}
		case h.defs[hd] != nil && !h.dup[hd] && !h.local[hd] && forms.Head(h.defs[hd]) == "defun" && len(h.defs[hd].Elems) > 3:
			def := h.defs[hd]
			exits := false
			syntax.Walk(def, func(n syntax.Node) bool {
				if hl := forms.Head(n); hl == "return-from" || hl == "return" {
					exits = true
				}
				return !exits
			})
			if !exits {
				if why, ok := h.neverNil(def.Elems[len(def.Elems)-1], depth+1); ok {
					return hd + " returns the value of its last form, and " + why, true
				}
			}
		}
	}
	if v := h.a.ev(x, 0); (v.num || v.other) && !v.mayBeNil() {
		return h.show(x) + " " + symsText(v), true
	}
	return "", false
}
