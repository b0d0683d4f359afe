package feasible

import (
	"fmt"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// Counts of elements. A counter X (bound to 0 by a let, changed only by
// (incf X): counters.go) whose every increment sits in the body of one
// (dolist (V L) ...) of its scope, at most once per iteration (only
// sequential forms between the dolist and the incf), with that dolist
// run at most once per binding (only sequential forms between the
// binding and it), counts at most as many elements as L has: X <=
// (length L) everywhere in the scope. The length of L is bounded through
// the data when L is
//
//   - a parameter of a function (a defun, defined once, never used as a
//     value) no code assigns: the greatest bound over every call's argument;
//   - a let binding no code assigns: its value's bound;
//   - (car E) or (first E) of a call of such a function whose result is
//     (cons A B) (the last form of its body, through let and progn, with
//     no return-from): A's bound;
//   - a list a loop keeps short (loops.go): the loop bound where the
//     reference lies in that binding's scope.
//
// kitchen's deliver counts the bottles of its load, a parameter every
// call of which passes (car (pick-load todo)), whose load pick-load keeps
// at two elements: bottles <= 2, and (> bottles 2) cannot hold.

// pendingCount is a counter binding the loop rules gave no bound.
type pendingCount struct {
	l    *syntax.List
	name string
}

// maxLenDepth bounds the chain of parameters and bindings lenBound
// follows.
const maxLenDepth = 8

// elementCounts adds to bounds the counters of pending that count the
// elements of a list of bounded length.
func (g *guardAnalysis) elementCounts(pending []pendingCount, bounds map[syntax.Node][]loopBound) {
	if len(pending) == 0 || g.a.dynamicCalls() {
		return
	}
	for _, pc := range pending {
		lb, ok := g.elementCount(pc.l, pc.name, bounds)
		if !ok {
			continue
		}
		for _, e := range pc.l.Elems[2:] {
			syntax.Walk(e, func(x syntax.Node) bool {
				bounds[x] = append(bounds[x], lb)
				return true
			})
		}
	}
}

// elementCount is the bound of counter name bound by let form l.
func (g *guardAnalysis) elementCount(l *syntax.List, name string, bounds map[syntax.Node][]loopBound) (loopBound, bool) {
	changes, ok := g.changesOf(l, name, false)
	if !ok {
		return loopBound{}, false
	}
	var loop *syntax.List
	for _, c := range changes {
		d, ok := g.onceDolist(c)
		if !ok || loop != nil && d != loop {
			return loopBound{}, false
		}
		loop = d
	}
	if !g.seqBetween(loop, l) {
		return loopBound{}, false
	}
	spec := asList(loop.Elems[1])
	if spec == nil || len(spec.Elems) < 2 || isSym(spec.Elems[0], name) || mentions(spec.Elems[1], name) {
		return loopBound{}, false
	}
	n, why, ok := g.lenBound(spec.Elems[1], bounds, 0)
	if !ok {
		return loopBound{}, false
	}
	return loopBound{operand: name, hi: n,
		why: fmt.Sprintf("%s is changed only by (incf %s), at most once per element of %s, whose length is at most %s (%s): %s <= %s",
			name, name, syntax.NodeString(spec.Elems[1]), numString(n), why, name, numString(n))}, true
}

// onceDolist is the dolist whose body holds c with only sequential
// forms in between (c then runs at most once per iteration).
func (g *guardAnalysis) onceDolist(c syntax.Node) (*syntax.List, bool) {
	cur := c
	for {
		if g.shared[cur] {
			return nil, false
		}
		p, ok := g.parent[cur].(*syntax.List)
		if !ok {
			return nil, false
		}
		h := forms.Head(p)
		switch {
		case h == "dolist" && indexOf(p, cur) >= 2:
			return p, true
		case seqForms[h]:
		case forms.Lookup(h) == nil && h != "":
			// A call's arguments, evaluated once each.
		default:
			return nil, false
		}
		cur = p
	}
}

// seqBetween reports whether only sequential forms lie between inner
// and its ancestor outer (so inner runs at most once per run of outer).
func (g *guardAnalysis) seqBetween(inner, outer *syntax.List) bool {
	cur := syntax.Node(inner)
	for {
		if g.shared[cur] {
			return false
		}
		p, ok := g.parent[cur].(*syntax.List)
		if !ok {
			return false
		}
		if p == outer {
			return indexOf(p, cur) >= 2
		}
		if h := forms.Head(p); !seqForms[h] && (forms.Lookup(h) != nil || h == "") {
			return false
		}
		cur = p
	}
}

// lenBound bounds the length of the list n evaluates to (see above),
// with the reason.
func (g *guardAnalysis) lenBound(n syntax.Node, bounds map[syntax.Node][]loopBound, depth int) (float64, string, bool) {
	if depth > maxLenDepth {
		return 0, "", false
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		for _, lb := range bounds[x] {
			if lb.operand == "(length "+x.Name+")" {
				return lb.hi, lb.why, true
			}
		}
		key, ok := g.a.symKey[x]
		if !ok || key == conflictKey || key == "" || g.a.assignedKeys[key] || g.a.closureAssigned()[x.Name] {
			return 0, "", false
		}
		if init, ok := g.bindingInits()[key]; ok {
			return g.lenBound(init, bounds, depth+1)
		}
		fn, p, found := strings.Cut(key, "\x00")
		if !found {
			return 0, "", false
		}
		return g.paramLenBound(fn, p, bounds, depth)
	case *syntax.List:
		h := forms.Head(x)
		if (h == "car" || h == "first") && len(x.Elems) == 2 && !g.res.IsUserFunc(h) {
			return g.carLenBound(x.Elems[1], bounds, depth+1)
		}
	}
	return 0, "", false
}

// paramLenBound bounds parameter p of function fn over its calls.
func (g *guardAnalysis) paramLenBound(fn, p string, bounds map[syntax.Node][]loopBound, depth int) (float64, string, bool) {
	fi := g.a.funcs[fn]
	if fi == nil || fi.free || fi.def == nil || g.a.localFns[fn] || g.a.paramKey(fn, p) != fn+"\x00"+p {
		return 0, "", false
	}
	idx := -1
	for i, q := range fi.params {
		if q == p {
			idx = i
		}
	}
	calls, ok := g.callsOf(fn)
	if idx < 0 || !ok || len(calls) == 0 {
		return 0, "", false
	}
	hi := 0.0
	var whys []string
	for _, c := range calls {
		if len(c.Elems) != len(fi.params)+1 {
			return 0, "", false
		}
		n, why, ok := g.lenBound(c.Elems[idx+1], bounds, depth+1)
		if !ok {
			return 0, "", false
		}
		hi = max(hi, n)
		whys = append(whys, why)
	}
	return hi, fmt.Sprintf("%s's %s over its %d call(s): %s", fn, p, len(calls), strings.Join(dedup(whys), "; ")), true
}

// carLenBound bounds the length of the first element of the list n
// evaluates to.
func (g *guardAnalysis) carLenBound(n syntax.Node, bounds map[syntax.Node][]loopBound, depth int) (float64, string, bool) {
	if depth > maxLenDepth {
		return 0, "", false
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		key, ok := g.a.symKey[x]
		if !ok || key == conflictKey || key == "" || g.a.assignedKeys[key] || g.a.closureAssigned()[x.Name] {
			return 0, "", false
		}
		if init, ok := g.bindingInits()[key]; ok {
			return g.carLenBound(init, bounds, depth+1)
		}
	case *syntax.List:
		h := forms.Head(x)
		if h == "cons" && len(x.Elems) == 3 && !g.res.IsUserFunc(h) {
			return g.lenBound(x.Elems[1], bounds, depth+1)
		}
		fi := g.a.funcs[h]
		if h == "" || fi == nil || fi.def == nil || g.a.localFns[h] || g.defCount(h) != 1 || mayReturnEarly(fi.def) {
			return 0, "", false
		}
		last := lastForm(fi.def.Elems[3:])
		if c, ok := last.(*syntax.List); ok && forms.Head(c) == "cons" && len(c.Elems) == 3 {
			return g.lenBound(c.Elems[1], bounds, depth+1)
		}
	}
	return 0, "", false
}

// lastForm is the form a body returns, through let, let* and progn.
func lastForm(body []syntax.Node) syntax.Node {
	for len(body) > 0 {
		x := body[len(body)-1]
		l, ok := x.(*syntax.List)
		switch h := forms.Head(l); {
		case ok && (h == "let" || h == "let*") && len(l.Elems) >= 3:
			body = l.Elems[2:]
		case ok && h == "progn" && len(l.Elems) >= 2:
			body = l.Elems[1:]
		default:
			return x
		}
	}
	return nil
}

// mayReturnEarly reports whether def may return other than by its last
// form: a return-from (of any block), or a return outside the loops
// that establish a nil block.
func mayReturnEarly(def *syntax.List) bool {
	found := false
	var walk func(n syntax.Node, inLoop bool)
	walk = func(n syntax.Node, inLoop bool) {
		l, ok := n.(*syntax.List)
		if !ok || found {
			return
		}
		switch forms.Head(l) {
		case "return-from":
			found = true
			return
		case "return":
			if !inLoop {
				found = true
				return
			}
		case "dolist", "dotimes", "while", "loop", "do", "do*":
			inLoop = true
		case "quote":
			return
		}
		for _, e := range l.Elems {
			walk(e, inLoop)
		}
	}
	for _, e := range def.Elems[3:] {
		walk(e, false)
	}
	return found
}

// defCount is how many top-level forms define name.
func (g *guardAnalysis) defCount(name string) int {
	n := 0
	for _, f := range g.res.Forms {
		if l, ok := f.(*syntax.List); ok && len(l.Elems) > 1 && syntax.IsSymbol(l.Elems[1], name) {
			n++
		}
	}
	return n
}

// callsOf are the calls of plan function fn by name (false when fn is
// defined twice or named anywhere but at the head of a call).
func (g *guardAnalysis) callsOf(fn string) ([]*syntax.List, bool) {
	if g.defCount(fn) != 1 {
		return nil, false
	}
	var calls []*syntax.List
	ok := true
	for _, f := range g.res.Forms {
		if g.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(x syntax.Node) bool {
			switch x := x.(type) {
			case *syntax.List:
				if forms.Head(x) == fn {
					calls = append(calls, x)
				}
				for i, e := range x.Elems {
					if i > 0 && isSym(e, fn) && !(i == 1 && forms.Head(x) == "defun") {
						ok = false // named as a value
					}
				}
			case *syntax.Quote, *syntax.Prefixed:
				if mentions(quotedOrPrefixed(x), fn) {
					ok = false
				}
				return false
			}
			return ok
		})
	}
	return calls, ok
}

func quotedOrPrefixed(n syntax.Node) syntax.Node {
	switch x := n.(type) {
	case *syntax.Quote:
		return x.X
	case *syntax.Prefixed:
		return x.X
	}
	return nil
}

// bindingInits maps the key of each let binding (NAME INIT) to INIT
// (computed once).
func (g *guardAnalysis) bindingInits() map[string]syntax.Node {
	if g.inits == nil {
		g.inits = letInits(g.res, g.a)
	}
	return g.inits
}

// letInits maps the key of each let binding (NAME INIT) of res to INIT.
func letInits(res *normalize.Result, a *valueAnalysis) map[string]syntax.Node {
	inits := map[string]syntax.Node{}
	for _, f := range res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			l, ok := x.(*syntax.List)
			if !ok || (forms.Head(l) != "let" && forms.Head(l) != "let*") || len(l.Elems) < 2 {
				return true
			}
			if bl, ok := l.Elems[1].(*syntax.List); ok {
				for _, b := range bl.Elems {
					if bb, ok := b.(*syntax.List); ok && len(bb.Elems) == 2 {
						if s, ok := bb.Elems[0].(*syntax.Symbol); ok {
							if k := a.lexKey(s.Name, b); k != "" {
								inits[k] = bb.Elems[1]
							}
						}
					}
				}
			}
			return true
		})
	}
	return inits
}
