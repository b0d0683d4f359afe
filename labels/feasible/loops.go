package feasible

import (
	"fmt"
	"math"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Bounds a loop keeps. A let binding of X whose measure m(X) — X itself
// for a counter (bound to 0, changed only by (incf X): counters.go), the
// length of X for a list (bound to nil, changed only by (push E X);
// plan values are immutable, so nothing else changes that length) — has
// an upper bound everywhere in the binding's scope when each change is
// guarded:
//
//   - a retry loop: every (incf X) is a top-level element of a handler
//     clause of one with-failure-handling W (once per clause), and every
//     (retry) of such a clause comes after it and only where a test that
//     bounds X from above (X < K, X <= K, X = K) held since; W runs at
//     most once per binding (nothing between the binding and W loops,
//     retries or makes a closure). The k-th increment (k >= 2) then needs
//     a retry after the (k-1)-th, so k-1 <= U (the test's bound): X <=
//     max(1, U+1);
//   - a guarded change: the one change of X in its scope sits in the body
//     of (while C ...) or in the branch of an if, when, cond or and that
//     a test bounding m(X) from above (<= U) chose, with nothing in
//     between that loops, retries or makes a closure: each change follows
//     its own test, so m(X) <= max(0, U+1).
//
// X must not be bound again in the scope (nor be a failure variable
// there), and no closure there may mention it. A label whose point lies
// in the scope and whose predicate bounds m(X) against that bound
// (Contradiction) is infeasible: the handler retries only while the
// counter is below the bound, so it never passes it.

// loopBound is what a binding's scope knows of m(X).
type loopBound struct {
	operand string // "attempts" or "(length load)"
	hi      float64
	why     string
}

// seqForms are the special forms that evaluate each element at most once
// per evaluation of the form and bind nothing a path needs to check
// (let and let* are checked for their names).
var seqForms = map[string]bool{"progn": true, "let": true, "let*": true, "if": true, "when": true, "unless": true,
	"cond": true, "and": true, "or": true, "block": true, "ignore-errors": true}

// binderForms are the forms that bind variables.
var binderForms = map[string]bool{"let": true, "let*": true, "dolist": true, "dotimes": true, "lambda": true,
	"flet": true, "labels": true, "macrolet": true, "multiple-value-bind": true, "destructuring-bind": true,
	"do": true, "do*": true, "loop": true, "handler-case": true, "defun": true, "def-cram-function": true,
	"def-plan": true, "with-retry-counters": true, "prog": true, "prog*": true}

// loopBounds finds the bound of every binding that has one, keyed by the
// nodes of its scope (the binding's body).
func (g *guardAnalysis) loopBounds() map[syntax.Node][]loopBound {
	out := map[syntax.Node][]loopBound{}
	if g.off || g.a == nil {
		return out
	}
	var pending []pendingCount // counters for the element counts (elemcount.go)
	defer func() { g.elementCounts(pending, out) }()
	for _, f := range g.res.Forms {
		if g.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || (forms.Head(l) != "let" && forms.Head(l) != "let*") || len(l.Elems) < 3 {
				return true
			}
			bl, ok := l.Elems[1].(*syntax.List)
			if !ok {
				return true
			}
			for i, b := range bl.Elems {
				name, list := bindingOf(b)
				if name == "" || (!list && g.a.counters[name] != counterNote) {
					continue
				}
				later := false // let*: a later binding's value is in the scope
				for _, o := range bl.Elems[i+1:] {
					later = later || forms.Head(l) == "let*" && mentions(o, name)
				}
				if later {
					continue
				}
				lb, ok := g.bindingBound(l, name, list)
				if !ok {
					if !list {
						pending = append(pending, pendingCount{l, name})
					}
					continue
				}
				for _, e := range l.Elems[2:] {
					syntax.Walk(e, func(x syntax.Node) bool {
						out[x] = append(out[x], lb)
						return true
					})
				}
			}
			return true
		})
	}
	return out
}

// bindingOf is the name a let binding binds when it is a counter's (X 0)
// or an empty list's (X nil), X, (X), (X '()); list says which.
func bindingOf(b syntax.Node) (string, bool) {
	switch b := b.(type) {
	case *syntax.Symbol:
		return b.Name, true
	case *syntax.List:
		if len(b.Elems) == 0 {
			return "", false
		}
		s, ok := b.Elems[0].(*syntax.Symbol)
		if !ok {
			return "", false
		}
		if len(b.Elems) == 1 {
			return s.Name, true
		}
		if len(b.Elems) != 2 {
			return "", false
		}
		switch v := b.Elems[1].(type) {
		case *syntax.Int:
			if v.Value == 0 {
				return s.Name, false
			}
		case *syntax.Symbol:
			if v.Name == "nil" && v.Pkg == "" {
				return s.Name, true
			}
		case *syntax.Quote:
			if l, ok := v.X.(*syntax.List); ok && len(l.Elems) == 0 {
				return s.Name, true
			}
		}
	}
	return "", false
}

// bindingBound is the bound of name bound by let form l (list: m is its
// length), when its changes are guarded as above.
func (g *guardAnalysis) bindingBound(l *syntax.List, name string, list bool) (loopBound, bool) {
	changes, ok := g.changesOf(l, name, list)
	if !ok {
		return loopBound{}, false
	}
	operand := name
	if list {
		operand = "(length " + name + ")"
	}
	if len(changes) == 1 {
		if u, test, ok := g.guardedChange(l, changes[0], name, list); ok {
			return loopBound{operand: operand, hi: max(0, u+1),
				why: fmt.Sprintf("%s is changed only by %s, which runs only right after %s held (one change per test, nothing loops in between): %s <= %s",
					name, syntax.NodeString(changes[0]), syntax.NodeString(test), operand, numString(max(0, u+1)))}, true
		}
	}
	if list {
		return loopBound{}, false
	}
	return g.retryBound(l, changes, name)
}

// changesOf are the changes of name ((incf name), or (push E name) for a
// list) in the scope of let form l; false when name is changed any other
// way there, bound again, captured by a closure or a failure variable.
func (g *guardAnalysis) changesOf(l *syntax.List, name string, list bool) ([]*syntax.List, bool) {
	var changes []*syntax.List
	bad := false
	for _, e := range l.Elems[2:] {
		syntax.Walk(e, func(n syntax.Node) bool {
			if bad {
				return false
			}
			if g.shared[n] {
				bad = true
				return false
			}
			x, ok := n.(*syntax.List)
			if !ok {
				return true
			}
			h := forms.Head(x)
			switch {
			case h == "quote":
				return false
			case binderForms[h] && mentions(x, name):
				switch h {
				case "let", "let*":
					if !bindsName(asList(x.Elems[1%len(x.Elems)]), name) {
						return true
					}
				case "dolist", "dotimes":
					if spec := asList(x.Elems[1%len(x.Elems)]); spec != nil && len(spec.Elems) > 0 && !isSym(spec.Elems[0], name) {
						return true
					}
				}
				bad = true // rebound, or captured by a closure
				return false
			case h == "with-failure-handling" && len(x.Elems) > 1:
				if cl, ok := x.Elems[1].(*syntax.List); ok {
					for _, c := range cl.Elems {
						if c, ok := c.(*syntax.List); ok && len(c.Elems) > 1 && mentions(asList(c.Elems[1]), name) {
							bad = true // a failure variable of that name
						}
					}
				}
			case !list && h == "incf":
				if len(x.Elems) == 2 && isSym(x.Elems[1], name) {
					changes = append(changes, x)
					return false
				}
				if mentions(x, name) {
					bad = true
				}
			case list && h == "push":
				if len(x.Elems) == 3 && isSym(x.Elems[2], name) {
					changes = append(changes, x)
					if mentions(x.Elems[1], name) && assigns(x.Elems[1], name) {
						bad = true
					}
					return false
				}
				if assigns(x, name) {
					bad = true
				}
			case assignHeads[h] && mentions(x, name):
				bad = true
			}
			return true
		})
	}
	if bad || len(changes) == 0 {
		return nil, false
	}
	return changes, true
}

// guardedChange finds the test that bounds m(name) from above before
// change c: the nearest while, if, when, cond or and above c whose test
// chose c's branch, with only sequential forms in between (inside let
// form l).
func (g *guardAnalysis) guardedChange(l *syntax.List, c syntax.Node, name string, list bool) (float64, syntax.Node, bool) {
	cur := c
	for {
		p, ok := g.parent[cur].(*syntax.List)
		if !ok || p == l {
			return 0, nil, false
		}
		idx := indexOf(p, cur)
		h := forms.Head(p)
		var test syntax.Node
		switch {
		case h == "while" && idx >= 2:
			test = p.Elems[1]
		case h == "if" && idx == 2, (h == "when") && idx >= 2:
			test = p.Elems[1]
		case forms.Head(g.parent[p]) == "cond" && g.isClause(p) && idx >= 1:
			test = p.Elems[0]
		case h == "and" && idx >= 2:
			for _, t := range p.Elems[1:idx] {
				if u, ok := g.upperBound(t, name, list); ok {
					return u, t, true
				}
			}
		}
		if test != nil {
			if u, ok := g.upperBound(test, name, list); ok {
				return u, unwrapTest(test), true
			}
		}
		if h == "while" || (!seqForms[h] && !(h == "" || forms.Head(g.parent[p]) == "cond")) {
			return 0, nil, false // loops, retries, closures, calls
		}
		cur = p
	}
}

// retryBound is the bound of counter name of let form l when every
// change is a handler clause's increment guarding its retries.
func (g *guardAnalysis) retryBound(l *syntax.List, changes []*syntax.List, name string) (loopBound, bool) {
	var w *syntax.List
	clauses := map[*syntax.List]bool{}
	for _, c := range changes {
		cl, ok := g.parent[c].(*syntax.List)
		if !ok {
			return loopBound{}, false
		}
		cls, ok := g.parent[cl].(*syntax.List)
		if !ok {
			return loopBound{}, false
		}
		wf, ok := g.parent[cls].(*syntax.List)
		if !ok || forms.Head(wf) != "with-failure-handling" || len(wf.Elems) < 2 || wf.Elems[1] != syntax.Node(cls) {
			return loopBound{}, false
		}
		if w != nil && w != wf || clauses[cl] {
			return loopBound{}, false
		}
		w = wf
		clauses[cl] = true
	}
	// W runs at most once per binding.
	for cur := syntax.Node(w); cur != syntax.Node(l); {
		p, ok := g.parent[cur].(*syntax.List)
		if !ok || !seqForms[forms.Head(p)] && !(forms.Head(p) == "" && forms.Head(g.parent[p]) == "cond") {
			return loopBound{}, false
		}
		cur = p
	}
	u := math.Inf(-1)
	var tests []string
	for cl := range clauses {
		at := -1
		for i, e := range cl.Elems {
			for _, c := range changes {
				if e == syntax.Node(c) {
					at = i
				}
			}
		}
		ok := true
		for i, e := range cl.Elems[2:] {
			syntax.Walk(e, func(n syntax.Node) bool {
				if !ok || forms.Head(n) != "retry" {
					return ok
				}
				if i+2 <= at {
					ok = false
					return false
				}
				b, t, found := g.guardedRetry(cl, n, name)
				if !found {
					ok = false
					return false
				}
				u = max(u, b)
				tests = append(tests, syntax.NodeString(t))
				return false
			})
		}
		if !ok {
			return loopBound{}, false
		}
	}
	hi := max(1, u+1)
	if math.IsInf(u, -1) {
		hi = 1 // no clause that counts retries
	}
	return loopBound{operand: name, hi: hi,
		why: fmt.Sprintf("%s is bound to 0 and changed only by (incf %s) in the handlers of a with-failure-handling it runs once, which retry only where %s held after it: %s <= %s",
			name, name, strings.Join(dedup(tests), ", "), name, numString(hi))}, true
}

// guardedRetry finds the test that bounds name from above on the way from
// (retry) r up to handler clause cl: the branch of an if, when, cond or
// and that the test chose, only sequential forms in between.
func (g *guardAnalysis) guardedRetry(cl *syntax.List, r syntax.Node, name string) (float64, syntax.Node, bool) {
	found := false
	var u float64
	var test syntax.Node
	for cur := r; ; {
		p, ok := g.parent[cur].(*syntax.List)
		if !ok {
			return 0, nil, false
		}
		if p == cl {
			return u, test, found
		}
		idx := indexOf(p, cur)
		h := forms.Head(p)
		var t syntax.Node
		switch {
		case h == "if" && idx == 2, h == "when" && idx >= 2:
			t = p.Elems[1]
		case forms.Head(g.parent[p]) == "cond" && g.isClause(p) && idx >= 1:
			t = p.Elems[0]
		}
		if t != nil && !found {
			if b, ok := g.upperBound(t, name, false); ok {
				found, u, test = true, b, unwrapTest(t)
			}
		}
		if !seqForms[h] && !(h == "" && forms.Head(g.parent[p]) == "cond") {
			return 0, nil, false
		}
		if (h == "let" || h == "let*") && bindsName(asList(p.Elems[1%len(p.Elems)]), name) {
			return 0, nil, false
		}
		cur = p
	}
}

// upperBound is U when test, true, bounds m(name) by U from above (and
// nothing in it changes name).
func (g *guardAnalysis) upperBound(test syntax.Node, name string, list bool) (float64, bool) {
	if assigns(test, name) {
		return 0, false
	}
	best, ok := math.Inf(1), false
	for _, b := range g.measureBounds(test, true) {
		if b.Operand != measureOf(name, list) {
			continue
		}
		var u float64
		switch b.Rel {
		case labels.Less:
			u = b.Value - 1
		case labels.LessEqual, labels.Equal:
			u = b.Value
		default:
			continue
		}
		if b.Value != math.Trunc(b.Value) {
			continue
		}
		best, ok = min(best, u), true
	}
	return best, ok
}

func measureOf(name string, list bool) string {
	if list {
		return "(length " + name + ")"
	}
	return name
}

// measureBounds are the bounds condition c, with truth value truth, puts
// on a variable or on (length X) against an integer constant.
func (g *guardAnalysis) measureBounds(c syntax.Node, truth bool) []Bound {
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) == 0 || g.res.IsUserFunc(forms.Head(l)) {
		return nil
	}
	if u := unwrapTest(l); u != syntax.Node(l) {
		return g.measureBounds(u, truth)
	}
	switch h := forms.Head(l); {
	case (h == "not" || h == "null") && len(l.Elems) == 2:
		return g.measureBounds(l.Elems[1], !truth)
	case h == "and" && truth, h == "or" && !truth:
		var out []Bound
		for _, x := range l.Elems[1:] {
			out = append(out, g.measureBounds(x, truth)...)
		}
		return out
	}
	m, ok := labels.RelationOf(forms.Head(l))
	if !ok || len(l.Elems) != 3 {
		return nil
	}
	a, b := l.Elems[1], l.Elems[2]
	op, k := g.measureOperand(a), g.constOf(b)
	if op == "" || k == nil {
		op, k = g.measureOperand(b), g.constOf(a)
		m = m.Swap()
	}
	if op == "" || k == nil {
		return nil
	}
	if !truth {
		m = m.Not()
	}
	x, _ := number(k)
	return []Bound{{Operand: op, Rel: m, Value: x, Const: numText(k)}}
}

// unwrapTest is test c without the (let* () ...) normalization wraps a
// test in (or a progn of one form): the form whose value it is (the one
// place that knows the wrapper: the guard and loop analyses read tests
// through it).
func unwrapTest(c syntax.Node) syntax.Node {
	for {
		l, ok := c.(*syntax.List)
		if !ok {
			return c
		}
		switch h := forms.Head(l); {
		case (h == "let" || h == "let*") && len(l.Elems) == 3 && (syntax.IsSymbol(l.Elems[1], "nil") || isEmptyList(l.Elems[1])),
			h == "progn" && len(l.Elems) == 2:
			c = l.Elems[len(l.Elems)-1]
		default:
			return c
		}
	}
}

// measureOperand is n as a variable's name or (length X), "" otherwise.
func (g *guardAnalysis) measureOperand(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Symbol:
		if n.Name != "t" && n.Name != "nil" && n.Pkg == "" {
			return n.Name
		}
	case *syntax.List:
		if forms.Head(n) == "length" && len(n.Elems) == 2 && !g.res.IsUserFunc("length") {
			if s, ok := n.Elems[1].(*syntax.Symbol); ok && s.Pkg == "" {
				return "(length " + s.Name + ")"
			}
		}
	}
	return ""
}

// loopVerdict judges label l with predicate pred against the bounds of
// the bindings whose scope holds its point.
func (g *guardAnalysis) loopVerdict(bounds map[syntax.Node][]loopBound, l *labels.Label, pred syntax.Node) (string, bool) {
	lbs := bounds[l.Point]
	if len(lbs) == 0 || g.shared[l.Point] {
		return "", false
	}
	own := g.measureBounds(pred, true)
	for _, lb := range lbs {
		var bs []Bound
		for _, b := range own {
			if b.Operand == lb.operand {
				bs = append(bs, b)
			}
		}
		if len(bs) == 0 {
			continue
		}
		bs = append(bs, Bound{Operand: lb.operand, Rel: labels.LessEqual, Value: lb.hi, Const: numString(lb.hi)})
		if why, ok := Contradiction(bs, labels.Relation.String); ok {
			return fmt.Sprintf("%s: %s", why, lb.why), true
		}
	}
	return "", false
}

func numString(x float64) string { return fmt.Sprintf("%d", int64(x)) }

func indexOf(p *syntax.List, n syntax.Node) int {
	for i, e := range p.Elems {
		if e == n {
			return i
		}
	}
	return -1
}

func isSym(n syntax.Node, name string) bool {
	s, ok := n.(*syntax.Symbol)
	return ok && s.Name == name
}

func asList(n syntax.Node) *syntax.List {
	l, _ := n.(*syntax.List)
	return l
}

// mentions reports whether n holds symbol name anywhere.
func mentions(n syntax.Node, name string) bool {
	if l, ok := n.(*syntax.List); n == nil || ok && l == nil {
		return false
	}
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if isSym(x, name) {
			found = true
		}
		return !found
	})
	return found
}

// assigns reports whether n holds an assignment form that mentions name.
func assigns(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if l, ok := x.(*syntax.List); ok && assignHeads[forms.Head(l)] && mentions(l, name) {
			found = true
		}
		return !found
	})
	return found
}

// bindsName reports whether binding list bl binds name.
func bindsName(bl *syntax.List, name string) bool {
	if bl == nil {
		return true // unknown shape: assume it does
	}
	for _, b := range bl.Elems {
		if isSym(b, name) {
			return true
		}
		if bb, ok := b.(*syntax.List); ok && len(bb.Elems) > 0 && isSym(bb.Elems[0], name) {
			return true
		}
	}
	return false
}

func dedup(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}
