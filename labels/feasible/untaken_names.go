package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Lists of names (untaken.go, continued). A label's conjunct (member
// (object-name X) S), S a special variable, is decided for X under two
// more facts the plan's text shows, each only when S only grows (every
// assignment of S is a push or pushnew onto it, it starts nil and
// nothing else binds it):
//
//   - the picking-ups' names: every picking-up's object is a variable V
//     whose name, (desig-prop V 'name) directly or through a plan
//     function of one form, the same activation pushed onto S before
//     (an earlier form of a body that holds the call), or a parameter
//     every call of whose function passes such a variable; then an
//     object whose name is not in S was never picked up (the simulator
//     picks by a designator's name) and stays where it started;
//   - inclusion: every push onto S1 pushes the name of a variable whose
//     values come only from reads of detecting loops (the trace of
//     untaken.go) each of which comes after a push of the detected
//     designator's name onto S2 in its pass of the loop; then a name in
//     S1 is in S2.
//
// X bound by (dolist (X (initial-objects-in-region 'R)) ...) starts in R.

// nameOfVar returns V when n reads the name of V: (desig-prop V 'name),
// or a call of a plan function defined once whose one form is that of
// its one parameter.
func (t *pickTrace) nameOfVar(n syntax.Node) (*syntax.Symbol, bool) {
	h := t.h
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 2 && len(l.Elems) != 3 {
		return nil, false
	}
	head := forms.Head(l)
	if head == "desig-prop" && len(l.Elems) == 3 && !h.res.IsUserFunc(head) && h.defs[head] == nil {
		q, isQ := l.Elems[2].(*syntax.Quote)
		v, isSym := l.Elems[1].(*syntax.Symbol)
		if isQ && isSym && syntax.IsSymbol(q.X, h.sig.NameKey) {
			return v, true
		}
		return nil, false
	}
	f := h.defs[head]
	if len(l.Elems) != 2 || f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
		return nil, false
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != 1 {
		return nil, false
	}
	p, ok := ps.Elems[0].(*syntax.Symbol)
	inner, isL := f.Elems[3].(*syntax.List)
	if !ok || !isL || forms.Head(inner) != "desig-prop" || len(inner.Elems) != 3 || !syntax.IsSymbol(inner.Elems[1], p.Name) {
		return nil, false
	}
	if q, isQ := inner.Elems[2].(*syntax.Quote); !isQ || !syntax.IsSymbol(q.X, h.sig.NameKey) {
		return nil, false
	}
	v, ok := l.Elems[1].(*syntax.Symbol)
	return v, ok
}

// growOnly reports whether special s starts nil, is assigned only by
// push or pushnew onto it and bound nowhere else.
func (t *pickTrace) growOnly(s string) bool {
	h := t.h
	if !h.a.specials[s] || h.a.closureAssigned()[s] {
		return false
	}
	ok := true
	defs := 0
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, isL := n.(*syntax.List)
			if !isL || !ok {
				return ok
			}
			switch head := forms.Head(l); {
			case head == "defparameter" || head == "defvar" || head == "defconstant":
				if syntax.IsSymbol(argAt(l, 1), s) {
					defs++
					if v := argAt(l, 2); head == "defconstant" || v != nil && !syntax.IsSymbol(v, "nil") {
						ok = false
					}
				}
			case head == "push" || head == "pushnew":
				if len(l.Elems) < 3 || !syntax.IsSymbol(l.Elems[2], s) && mentions(l.Elems[2], s) {
					ok = false
				}
			case assignHeads[head]:
				if mentions(l, s) {
					ok = false
				}
			case head == "let" || head == "let*" || head == "dolist" || head == "dotimes" || head == "lambda" ||
				head == "destructuring-bind" || head == "multiple-value-bind" || head == "flet" || head == "labels":
				if len(l.Elems) > 1 && mentions(l.Elems[1], s) {
					if head == "dolist" || head == "dotimes" {
						if spec, isL := l.Elems[1].(*syntax.List); isL && !syntax.IsSymbol(argAt(spec, 0), s) {
							return true // the list read, not bound
						}
					}
					if head == "let" || head == "let*" {
						if bl, isL := l.Elems[1].(*syntax.List); isL {
							for _, b := range bl.Elems {
								if bb, isL := b.(*syntax.List); syntax.IsSymbol(b, s) || isL && syntax.IsSymbol(argAt(bb, 0), s) {
									ok = false
								}
							}
							return ok
						}
					}
					ok = false
				}
			case head == "defun" || head == "def-plan" || head == "def-check" || head == "def-policy" || head == "def-cram-function":
				if mentions(argAt(l, 2), s) {
					ok = false
				}
			}
			return ok
		})
	}
	return ok && defs == 1
}

// pushedBefore reports whether, walking up from at to the function that
// holds it, an earlier form of a body on the way is (push NAME s) or
// (pushnew NAME s) with NAME the name of a reference of binding key.
func (t *pickTrace) pushedBefore(at syntax.Node, key, s string) bool {
	h := t.h
	n := at
	for depth := 0; depth < 200; depth++ {
		p := t.parent[n]
		if p == nil {
			return false
		}
		i := slices.Index(p.Elems, n)
		start := -1
		switch head := forms.Head(p); head {
		case "progn":
			start = 1
		case "let", "let*", "when", "unless", "dolist", "dotimes", "while", "with-failure-handling":
			start = 2
		case "defun", "def-plan", "def-check", "def-cram-function":
			start = 3
		default:
			if g := t.parent[p]; g != nil && forms.Head(g) == "cond" && slices.Index(g.Elems, syntax.Node(p)) >= 1 {
				start = 1 // a cond clause's body
			}
		}
		if start >= 0 && i > start {
			for _, x := range p.Elems[start:i] {
				if pl, ok := x.(*syntax.List); ok && (forms.Head(pl) == "push" || forms.Head(pl) == "pushnew") && len(pl.Elems) == 3 && syntax.IsSymbol(pl.Elems[2], s) {
					if v, ok := t.nameOfVar(pl.Elems[1]); ok {
						if k, met := h.a.symKey[v]; met && k == key {
							return true
						}
					}
				}
			}
		}
		switch forms.Head(p) {
		case "defun", "def-plan", "def-check", "def-cram-function", "lambda", "flet", "labels":
			return false
		}
		n = p
	}
	return false
}

// namedBefore reports whether the value of x at node at is a variable
// whose name was pushed onto s before, in this activation or, for a
// parameter, at every call (depth bounds the calls followed).
func (t *pickTrace) namedBefore(x syntax.Node, at syntax.Node, s string, depth int) bool {
	h := t.h
	v, ok := x.(*syntax.Symbol)
	if !ok || depth > 6 || h.a.specials[v.Name] || h.a.closureAssigned()[v.Name] {
		return false
	}
	key, met := h.a.symKey[v]
	if !met || key == "" || key == conflictKey || h.a.assignedKeys[key] {
		return false
	}
	if t.pushedBefore(at, key, s) {
		return true
	}
	fn, p, found := strings.Cut(key, "\x00")
	fi := h.a.funcs[fn]
	if !found || fi == nil || fi.free || h.dup[fn] || h.local[fn] || h.a.paramKey(fn, p) != key || forms.Head(h.defs[fn]) != "defun" {
		return false
	}
	idx := slices.Index(fi.params, p)
	if idx < 0 || h.dynamic {
		return false
	}
	for _, site := range h.sites[fn] {
		if len(site.call.Elems) != len(fi.params)+1 || !t.namedBefore(site.call.Elems[idx+1], site.call, s, depth+1) {
			return false
		}
	}
	return true
}

// picksNamed reports whether every picking-up's object had its name
// pushed onto s before, and says so.
func (t *pickTrace) picksNamed(s string) (string, bool) {
	h := t.h
	if !t.growOnly(s) {
		return "", false
	}
	ok := true
	n := 0
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(x syntax.Node) bool {
			l, isL := x.(*syntax.List)
			if !isL || !ok || forms.Head(l) != "perform" {
				return ok
			}
			typ, props, known := actionDesig(l)
			if !known {
				ok = false
			} else if typ == h.sig.Grips {
				n++
				obj := props[h.sig.PickKey]
				if obj == nil || !t.namedBefore(obj, l, s, 0) {
					ok = false
				}
			}
			return ok
		})
	}
	if !ok {
		return "", false
	}
	return fmt.Sprintf("the name of every object the plan's %d picking-up(s) take was pushed onto %s before (which only grows), so an object whose name is not in %s was never picked up", n, s, s), true
}

// subsetOf reports whether every name pushed onto s1 is in s2, and says
// why.
func (t *pickTrace) subsetOf(s1, s2 string) (string, bool) {
	h := t.h
	if s1 == s2 || !t.growOnly(s1) || !t.growOnly(s2) {
		return "", false
	}
	sub := &pickTrace{h: h, parent: t.parent, loops: t.loops, binders: t.binders, elems: t.elems,
		visited: map[syntax.Node]bool{}, keysDone: map[string]bool{}, readSeen: map[*syntax.Symbol]bool{}}
	ok := true
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			l, isL := x.(*syntax.List)
			if !isL || !ok {
				return ok
			}
			if head := forms.Head(l); (head == "push" || head == "pushnew") && len(l.Elems) == 3 && syntax.IsSymbol(l.Elems[2], s1) {
				v, isName := t.nameOfVar(l.Elems[1])
				if !isName {
					ok = false
					return false
				}
				sub.trace(v)
			}
			return true
		})
	}
	if !ok || sub.fail != "" {
		return "", false
	}
	for _, rd := range sub.reads {
		if !t.pushedBefore(rd.sym, rd.key, s2) {
			return "", false
		}
	}
	return fmt.Sprintf("every name pushed onto %s is that of an object detected by a detecting loop that pushed its name onto %s first (both only grow), so a name in %s is in %s", s1, s2, s1, s2), true
}

// startRegion is R when key binds the variable of a loop (dolist (X
// (initial-objects-in-region 'R)) ...).
func (t *pickTrace) startRegion(key string) (string, bool) {
	h := t.h
	var out string
	found := false
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			l, isL := x.(*syntax.List)
			if !isL || found || forms.Head(l) != "dolist" {
				return !found
			}
			spec, ok := argAt(l, 1).(*syntax.List)
			if !ok || len(spec.Elems) < 2 {
				return true
			}
			v, ok := spec.Elems[0].(*syntax.Symbol)
			if !ok || h.a.lexKey(v.Name, v) != key {
				return true
			}
			found = true
			q, isL := spec.Elems[1].(*syntax.List)
			if !isL || len(q.Elems) != 2 || forms.Head(q) != h.sig.StartQuery || h.res.IsUserFunc(forms.Head(q)) || h.defs[forms.Head(q)] != nil {
				return false
			}
			if r, isQ := q.Elems[1].(*syntax.Quote); isQ {
				if rs, isSym := r.X.(*syntax.Symbol); isSym && slices.Contains(h.sig.Regions, rs.Name) {
					out = rs.Name
				}
			}
			return false
		})
	}
	return out, out != ""
}

// memberLists are the specials S of the conjuncts' (member (object-name
// X) S), X bound at key.
func (t *pickTrace) memberLists(conj []syntax.Node, key string) []string {
	var out []string
	for _, c := range conj {
		syntax.Walk(c, func(x syntax.Node) bool {
			if s, ok := t.memberTest(x, key); ok && !slices.Contains(out, s) {
				out = append(out, s)
			}
			return true
		})
	}
	return out
}

// memberTest returns S when n is (member (object-name X) S) for X bound
// at key (a temporary holding the name too).
func (t *pickTrace) memberTest(n syntax.Node, key string) (string, bool) {
	h := t.h
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 3 || forms.Head(l) != "member" || h.defs["member"] != nil || h.res.IsUserFunc("member") || h.sig.NameQuery == "" {
		return "", false
	}
	s, ok := l.Elems[2].(*syntax.Symbol)
	if !ok || !h.a.specials[s.Name] {
		return "", false
	}
	a := l.Elems[1]
	if sy, ok := a.(*syntax.Symbol); ok && h.res.IsTemp(sy.Name) {
		a = h.res.Origin(sy)
	}
	q, ok := a.(*syntax.List)
	if !ok || len(q.Elems) != 2 || forms.Head(q) != h.sig.NameQuery || h.defs[h.sig.NameQuery] != nil || h.res.IsUserFunc(h.sig.NameQuery) {
		return "", false
	}
	x, ok := q.Elems[1].(*syntax.Symbol)
	if !ok {
		return "", false
	}
	if k, met := h.a.symKey[x]; !met || k != key {
		return "", false
	}
	return s.Name, true
}
