package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// A search repeated without changing the view. The simulator declares
// the actions after which a detection returns what it did before
// (domain.Signals.KeepsView: moving the torso, detecting). A loop
//
//	(while (and V (not F)) (G (pop V)) B2 ... Bn)
//
// whose V is bound, by the nearest binder around it, to a quoted list of
// two or more elements (or a global defined as one and never assigned),
// and used nowhere but in the test and that one (pop V), stops with V
// empty only after its last element's iteration, the second or later.
// Every iteration starts with F nil (the test said so), and when
//   - F is a lexical variable that only B2 ... Bn mention, outside any
//     lambda;
//   - the loop (test, body and the plan functions they call) performs
//     only actions of KeepsView, written as literal action designators,
//     B2 ... Bn only the detecting action, and B2 ... Bn call no
//     simulator query, no function through a value, no local function
//     and nothing that changes data in place (setf, nconc, ...);
//   - no variable B2 ... Bn read from outside themselves (a binding
//     around the loop, a global, a callee's global) is assigned anywhere
//     in the loop but F;
// then B2 ... Bn compute the same F in every iteration: the robot's
// base, the objects and what the detections return are those of the
// first iteration, and so is everything else they read. The first
// iteration ended with F nil (a second one ran), so no later one sets
// it, and the conjunction (not V) and F at the loop's test (the search
// ran out of heights and found something) is infeasible.

// repeatViewVerdicts marks infeasible the active labels of ls with such
// a conjunction at such a loop's test.
func (h *handlerAnalysis) repeatViewVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Detects == "" || !slices.Contains(sig.KeepsView, sig.Detects) || h.a == nil || h.hasPolicy() {
		return
	}
	parent := h.parentMap()
	memo := map[*syntax.List]string{}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		w := parent[pl.l.Point]
		if w == nil || forms.Head(w) != "while" || len(w.Elems) < 4 || w.Elems[1] != pl.l.Point {
			continue
		}
		v, f, ok := andNotTest(w.Elems[1])
		if !ok {
			continue
		}
		vEmpty, fSet := false, false
		for _, c := range conjuncts(pl.pred) {
			if syntax.IsSymbol(c, f) {
				fSet = true
			}
			if l, isList := c.(*syntax.List); isList && (forms.Head(l) == "not" || forms.Head(l) == "null") && len(l.Elems) == 2 && syntax.IsSymbol(l.Elems[1], v) {
				vEmpty = true
			}
		}
		if !vEmpty || !fSet {
			continue
		}
		why, done := memo[w]
		if !done {
			why = h.sameEachIteration(w, v, f)
			memo[w] = why
		}
		if why == "" {
			continue
		}
		pl.l.Status = labels.Infeasible
		pl.l.Reason = fmt.Sprintf("%s empty with %s set is never true at %s: %s", v, f, h.where(w.Elems[1]), why)
	}
}

// andNotTest reads (and V (not F)) or (and (not F) V).
func andNotTest(n syntax.Node) (v, f string, ok bool) {
	l, isList := n.(*syntax.List)
	if !isList || forms.Head(l) != "and" || len(l.Elems) != 3 {
		return "", "", false
	}
	a, b := l.Elems[1], l.Elems[2]
	if _, isSym := a.(*syntax.Symbol); !isSym {
		a, b = b, a
	}
	vs, isSym := a.(*syntax.Symbol)
	nl, isList := b.(*syntax.List)
	if !isSym || !isList || forms.Head(nl) != "not" && forms.Head(nl) != "null" || len(nl.Elems) != 2 {
		return "", "", false
	}
	fs, isSym := nl.Elems[1].(*syntax.Symbol)
	if !isSym || vs.Name == fs.Name || vs.Name == "nil" || vs.Name == "t" || fs.Name == "nil" || fs.Name == "t" {
		return "", "", false
	}
	return vs.Name, fs.Name, true
}

// sameEachIteration checks the conditions on loop w (V v, F f) and
// returns the reason, "" when one fails.
func (h *handlerAnalysis) sameEachIteration(w *syntax.List, v, f string) string {
	sig := h.sig
	if h.a.specials[v] || h.a.specials[f] || h.local[v] || h.local[f] {
		return ""
	}
	// V: bound around w to a list of two or more, used only in the test
	// and in one (pop V) that the first body form evaluates.
	binder, init := h.binderOf(w, v)
	if binder == nil {
		return ""
	}
	n, initWhy := h.literalLength(init)
	if n < 2 {
		return ""
	}
	first, ok := w.Elems[2].(*syntax.List)
	if !ok || len(first.Elems) < 1 {
		return ""
	}
	var pop syntax.Node
	if forms.Head(first) == "pop" {
		pop = first
	} else if h.defs[forms.Head(first)] != nil && !h.dup[forms.Head(first)] {
		for _, a := range first.Elems[1:] {
			if forms.Head(a) == "pop" {
				if pop != nil {
					return ""
				}
				pop = a
			} else if !plainArgs([]syntax.Node{a}) {
				return ""
			}
		}
	}
	if pop == nil || len(pop.(*syntax.List).Elems) != 2 || !syntax.IsSymbol(pop.(*syntax.List).Elems[1], v) {
		return ""
	}
	uses := 0
	bad := false
	for _, b := range binder.Elems[1:] {
		syntax.Walk(b, func(x syntax.Node) bool {
			if syntax.IsSymbol(x, v) {
				uses++
			}
			return true
		})
	}
	syntax.Walk(w.Elems[1], func(x syntax.Node) bool {
		if syntax.IsSymbol(x, v) {
			uses--
		}
		return true
	})
	if uses != 2 { // the binding's name and the pop's argument
		return ""
	}
	// F: only B2 ... Bn mention it, and no lambda does.
	rest := w.Elems[3:]
	for _, x := range append([]syntax.Node{first}, rest...) {
		syntax.Walk(x, func(y syntax.Node) bool {
			if l, isList := y.(*syntax.List); isList {
				switch forms.Head(l) {
				case "lambda", "flet", "labels", "macrolet", "function":
					bad = true
				}
			}
			if _, isPre := y.(*syntax.Prefixed); isPre {
				bad = true
			}
			return !bad
		})
	}
	syntax.Walk(first, func(y syntax.Node) bool {
		if syntax.IsSymbol(y, f) {
			bad = true
		}
		return !bad
	})
	if bad {
		return ""
	}
	// Effects.
	e1 := &viewEffects{h: h, allowed: sig.KeepsView, queriesOK: true, visited: map[string]bool{}}
	e1.forms([]syntax.Node{w.Elems[1], first}, 0)
	e2 := &viewEffects{h: h, allowed: []string{sig.Detects}, visited: map[string]bool{}}
	e2.forms(rest, 0)
	if e1.bad != "" || e2.bad != "" {
		return ""
	}
	for name := range e2.reads {
		if name == f {
			continue
		}
		if e1.writes[name] || e2.writes[name] {
			return ""
		}
	}
	return fmt.Sprintf("%s starts as %s, and each iteration pops it once, so it is empty only after iteration %d or later; every iteration starts with %s nil, and the loop performs only %s (%s: a detection from where the robot stands returns what it did before), while %s read nothing the loop assigns but %s, so every iteration computes the %s of the first, which was nil",
		v, initWhy, n, f, strings.Join(sig.KeepsView, " and "), sig.Why, h.where(rest[0]), f, f)
}

// binderOf returns the nearest let, let* around n binding name, and the
// binding's init.
func (h *handlerAnalysis) binderOf(n syntax.Node, name string) (*syntax.List, syntax.Node) {
	parent := h.parentMap()
	for x := parent[n]; x != nil; x = parent[x] {
		head := forms.Head(x)
		switch head {
		case "lambda", "dolist", "dotimes", "flet", "labels":
			// A binder of other kinds: V must come from a let.
			if head == "dolist" || head == "dotimes" {
				if spec, ok := argAt(x, 1).(*syntax.List); ok && len(spec.Elems) > 0 && syntax.IsSymbol(spec.Elems[0], name) {
					return nil, nil
				}
				continue
			}
			return nil, nil
		case "let", "let*":
			bs, ok := argAt(x, 1).(*syntax.List)
			if !ok {
				return nil, nil
			}
			for _, b := range bs.Elems {
				if syntax.IsSymbol(b, name) {
					return nil, nil
				}
				if bl, ok := b.(*syntax.List); ok && len(bl.Elems) == 2 && syntax.IsSymbol(bl.Elems[0], name) {
					return x, bl.Elems[1]
				}
			}
		}
		if strings.HasPrefix(head, "def") {
			return nil, nil
		}
	}
	return nil, nil
}

// literalLength is the length of init, a quoted list or a global
// defined as one and never assigned, with how it reads.
func (h *handlerAnalysis) literalLength(init syntax.Node) (int, string) {
	if q, ok := init.(*syntax.Quote); ok {
		if l, ok := q.X.(*syntax.List); ok {
			return len(l.Elems), h.where(init)
		}
		return 0, ""
	}
	s, ok := init.(*syntax.Symbol)
	if !ok || !h.a.specials[s.Name] {
		return 0, ""
	}
	var def syntax.Node
	for _, f := range h.res.Forms {
		l, ok := f.(*syntax.List)
		if !ok || h.res.Skipped(f) {
			continue
		}
		switch forms.Head(l) {
		case "defparameter", "defvar", "defconstant":
			if len(l.Elems) >= 3 && syntax.IsSymbol(l.Elems[1], s.Name) {
				if def != nil {
					return 0, ""
				}
				def = l.Elems[2]
			}
		}
	}
	if def == nil {
		return 0, ""
	}
	assigned := false
	for _, f := range h.res.Forms {
		if !h.res.Skipped(f) && mayAssign(f, s.Name) {
			assigned = true
		}
	}
	if assigned {
		return 0, ""
	}
	if q, ok := def.(*syntax.Quote); ok {
		if l, ok := q.X.(*syntax.List); ok {
			return len(l.Elems), fmt.Sprintf("%s, %s, which nothing assigns", s.Name, h.where(def))
		}
	}
	return 0, ""
}

// viewEffects collects what forms (and the plan functions they call)
// read and assign, by name, and rules out what the rule cannot follow
// (bad says what).
type viewEffects struct {
	h         *handlerAnalysis
	allowed   []string // the action types a perform may have
	queriesOK bool
	reads     map[string]bool // names read from outside the forms
	writes    map[string]bool // names assigned outside the forms' own bindings
	visited   map[string]bool
	bad       string
}

// inPlace are builtins that change data in place.
var inPlace = map[string]bool{"setf": true, "psetf": true, "nconc": true, "rplaca": true, "rplacd": true, "sort": true,
	"stable-sort": true, "delete": true, "delete-if": true, "nreverse": true, "mapcan": true, "shiftf": true, "rotatef": true,
	"set": true, "makunbound": true, "fill": true, "replace": true, "remhash": true, "clrhash": true, "eval": true}

func (e *viewEffects) forms(xs []syntax.Node, depth int) {
	if e.reads == nil {
		e.reads, e.writes = map[string]bool{}, map[string]bool{}
	}
	for _, x := range xs {
		e.walk(x, nil, depth)
		if e.bad != "" {
			return
		}
	}
}

// walk visits n with bound the names bound inside the forms around it.
func (e *viewEffects) walk(n syntax.Node, bound []string, depth int) {
	h := e.h
	if e.bad != "" {
		return
	}
	if depth > maxWalkDepth {
		e.bad = "too deep"
		return
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		if x.Name != "nil" && x.Name != "t" && !slices.Contains(bound, x.Name) {
			e.reads[x.Name] = true
		}
		return
	case *syntax.Quote, *syntax.Int, *syntax.Float, *syntax.String, *syntax.Keyword:
		return
	case *syntax.List:
		if len(x.Elems) == 0 {
			return
		}
		if forms.Opaque(x) || dynamicCall(x) {
			e.bad = "opaque"
			return
		}
		hs, isSym := x.Elems[0].(*syntax.Symbol)
		if !isSym {
			e.bad = "computed head"
			return
		}
		head := forms.Name(hs)
		switch {
		case h.local[head] || inPlace[head] || funcallHeads[head] || head == "lambda" || head == "function" || head == "flet" || head == "labels" || head == "macrolet":
			e.bad = head
			return
		case head == "quote":
			return
		case head == "cond" || head == "case":
			from := 1
			if head == "case" {
				e.walk(argAt(x, 1), bound, depth+1)
				from = 2
			}
			for _, c := range x.Elems[from:] {
				cl, ok := c.(*syntax.List)
				if !ok || len(cl.Elems) == 0 {
					e.bad = head
					return
				}
				start := 0
				if head == "case" {
					start = 1
				}
				for _, b := range cl.Elems[start:] {
					e.walk(b, bound, depth+1)
				}
			}
			return
		case head == "let" || head == "let*":
			bs, ok := argAt(x, 1).(*syntax.List)
			if !ok {
				e.bad = "let"
				return
			}
			inner := slices.Clone(bound)
			for _, b := range bs.Elems {
				switch b := b.(type) {
				case *syntax.Symbol:
					inner = append(inner, b.Name)
				case *syntax.List:
					if len(b.Elems) == 0 || len(b.Elems) > 2 {
						e.bad = "binding"
						return
					}
					s, ok := b.Elems[0].(*syntax.Symbol)
					if !ok {
						e.bad = "binding"
						return
					}
					if len(b.Elems) == 2 {
						if head == "let*" {
							e.walk(b.Elems[1], inner, depth+1)
						} else {
							e.walk(b.Elems[1], bound, depth+1)
						}
					}
					inner = append(inner, s.Name)
				default:
					e.bad = "binding"
					return
				}
			}
			for _, b := range x.Elems[2:] {
				e.walk(b, inner, depth+1)
			}
			return
		case head == "dolist" || head == "dotimes":
			spec, ok := argAt(x, 1).(*syntax.List)
			if !ok || len(spec.Elems) < 2 {
				e.bad = head
				return
			}
			s, ok := spec.Elems[0].(*syntax.Symbol)
			if !ok {
				e.bad = head
				return
			}
			e.walk(spec.Elems[1], bound, depth+1)
			inner := append(slices.Clone(bound), s.Name)
			for _, b := range spec.Elems[2:] {
				e.walk(b, inner, depth+1)
			}
			for _, b := range x.Elems[2:] {
				e.walk(b, inner, depth+1)
			}
			return
		case head == "with-failure-handling":
			cl, ok := argAt(x, 1).(*syntax.List)
			if !ok {
				e.bad = head
				return
			}
			for _, c := range cl.Elems {
				c, ok := c.(*syntax.List)
				if !ok || len(c.Elems) < 2 {
					e.bad = head
					return
				}
				inner := slices.Clone(bound)
				if vs, ok := c.Elems[1].(*syntax.List); ok {
					for _, v := range vs.Elems {
						if s, ok := v.(*syntax.Symbol); ok {
							inner = append(inner, s.Name)
						}
					}
				}
				for _, b := range c.Elems[2:] {
					e.walk(b, inner, depth+1)
				}
			}
			for _, b := range x.Elems[2:] {
				e.walk(b, bound, depth+1)
			}
			return
		case assignHeads[head]:
			// (setq V X ...), (incf V ...), (push X V), (pop V), ...
			var targets []syntax.Node
			switch head {
			case "setq", "psetq":
				for i := 1; i < len(x.Elems); i += 2 {
					targets = append(targets, x.Elems[i])
				}
			case "push", "pushnew":
				if len(x.Elems) >= 3 {
					targets = append(targets, x.Elems[2])
				}
			case "incf", "decf", "pop":
				if len(x.Elems) >= 2 {
					targets = append(targets, x.Elems[1])
				}
			default:
				e.bad = head
				return
			}
			for _, t := range targets {
				s, ok := t.(*syntax.Symbol)
				if !ok {
					e.bad = head
					return
				}
				if !slices.Contains(bound, s.Name) {
					e.writes[s.Name] = true
				}
			}
			for _, a := range x.Elems[1:] {
				e.walk(a, bound, depth+1)
			}
			return
		case head == "perform":
			typ, _, ok := actionDesig(x)
			if !ok || !slices.Contains(e.allowed, typ) || h.defs["perform"] != nil {
				e.bad = "perform"
				return
			}
		case head == "fail" || head == "retry" || head == "return" || forms.Lookup(head) != nil:
		case h.defs[head] != nil:
			if h.dup[head] || forms.Head(h.defs[head]) != "defun" {
				e.bad = head
				return
			}
			if !e.visited[head] {
				e.visited[head] = true
				f := h.defs[head]
				var params []string
				if ps, ok := argAt(f, 2).(*syntax.List); ok {
					for _, p := range ps.Elems {
						s, ok := p.(*syntax.Symbol)
						if !ok || strings.HasPrefix(s.Name, "&") {
							e.bad = "parameters of " + head
							return
						}
						params = append(params, s.Name)
					}
				}
				for _, b := range f.Elems[min(3, len(f.Elems)):] {
					e.walk(b, params, depth+1)
				}
			}
		case h.sig.Queries[head] != nil && !h.res.IsUserFunc(head):
			if !e.queriesOK {
				e.bad = "query " + head
				return
			}
		}
		for _, a := range x.Elems[1:] {
			e.walk(a, bound, depth+1)
		}
		return
	}
	e.bad = "form"
}
