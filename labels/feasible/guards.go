package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// The guard analysis: a label inside a conditional is evaluated only
// where the conditional's tests said so. Walking up from the label's
// point within its top-level form, (if C A B), (when C ...), (unless C
// ...), the clauses of a cond before the label's, and the operands of an
// and or an or before the label's give conditions that held when the
// run got there. A condition that compares a variable with a constant
// (a literal, or a global the value analysis proves to hold one value)
// bounds the variable; when the bounds and those of the label's
// predicate contradict each other (Contradiction), the label is
// infeasible: (cond ((<= col 5) ...) ((<= col 10) ...)) never asks (= col
// 0) in its second test.
//
// Counters (counters.go) only grow: a condition that bounds one from
// below still holds further on, and an (incf X) that runs before the
// label's point (an earlier element of a progn-like body, of a
// function call's arguments, of a clause's body) leaves X at least 1.
//
// A condition is used only when its value cannot have changed by the
// time the label is evaluated: its variable is assigned nowhere in the
// plan (no setq, setf, incf, decf, push, pop or other assignment of its
// name; no set or symbol-value anywhere), it is not bound again between
// the condition and the label (a let, let*, dolist or dotimes on the
// way; any other special form stops the walk), and the value analysis
// knows it is never NaN or the label's predicate compares it as written
// (a NaN satisfies a comparison's negation). Loops
// and runs as a whole are none of its business: it is local and cheap,
// and runs on world plans, which the path analysis (paths.go) does not.

// assignHeads are forms that assign the variable they name.
var assignHeads = map[string]bool{"setq": true, "setf": true, "incf": true, "decf": true, "push": true, "pop": true,
	"psetq": true, "psetf": true, "multiple-value-setq": true, "shiftf": true, "rotatef": true, "pushnew": true}

// guardSafe are the special forms a label's point may sit in, below a
// condition, without changing what the condition's variables hold
// (binding forms are checked by name).
var guardSafe = map[string]bool{"if": true, "when": true, "unless": true, "cond": true, "and": true, "or": true,
	"progn": true, "let": true, "let*": true, "dolist": true, "dotimes": true, "ignore-errors": true}

type guardAnalysis struct {
	res *normalize.Result
	a   *valueAnalysis
	// assigns memoizes mayAssign per global and function (1 no, 2 yes,
	// 3 pending); defsByName are the plan's functions (nil: defined
	// twice).
	assigns    map[string]int8
	defsByName map[string]*syntax.List
	// own: the bounds asked are the label predicate's own (verdict).
	own      bool
	parent   map[syntax.Node]syntax.Node
	shared   map[syntax.Node]bool // nodes at two places of the tree
	assigned map[string]bool
	off      bool // the plan assigns symbols by name: no verdicts
	// copies are normalize's temporaries bound once to a variable
	// ((let* ((%lc1 level) ...) ...)), nil for one bound twice.
	copies map[string]*syntax.Symbol
	// inits maps let bindings' keys to their values (elemcount.go).
	inits map[string]syntax.Node
	// readCopied memoizes readCopies per list: a dist ladder's rungs
	// share their distance and other conjuncts, which would otherwise
	// be walked once a rung. Read-only once copies and assigned are
	// built, so a list's result never changes.
	readCopied map[*syntax.List]syntax.Node
}

func newGuardAnalysis(res *normalize.Result, a *valueAnalysis) *guardAnalysis {
	g := &guardAnalysis{res: res, a: a, parent: map[syntax.Node]syntax.Node{}, shared: map[syntax.Node]bool{}, assigned: map[string]bool{},
		copies: map[string]*syntax.Symbol{}, readCopied: map[*syntax.List]syntax.Node{}}
	for _, f := range res.Forms {
		if res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(x syntax.Node) bool {
			l, ok := x.(*syntax.List)
			if !ok {
				return true
			}
			for _, e := range l.Elems {
				if q, seen := g.parent[e]; seen && q != syntax.Node(l) {
					g.shared[e] = true
				}
				g.parent[e] = l
			}
			h := forms.Head(l)
			switch {
			case h == "set" || h == "symbol-value" || h == "progv" || h == "makunbound":
				g.off = true
			case assignHeads[h]:
				// Every symbol in an assignment's place positions
				// (conservatively: every symbol of the form but the head).
				markSymbols(l.Elems[1:], g.assigned)
			case h == "let" || h == "let*":
				g.noteCopies(l)
			}
			return true
		})
	}
	return g
}

// guardBound is a condition on the way to a label: its bound and where
// it comes from.
type guardBound struct {
	b     Bound
	where string
	// direct: a comparison that held as written (not negated), which a
	// NaN never satisfies.
	direct bool
}

// verdict judges label l with predicate pred: the reason when the
// conditions on the way to its point contradict it.
func (g *guardAnalysis) verdict(l *labels.Label, pred syntax.Node) (string, bool) {
	if g.off || g.a == nil || l.Point == nil {
		return "", false
	}
	// The label's own predicate reads its variables where it stands: a
	// counter that (setq X 0) resets counts there too (incfsBefore),
	// never in a condition on the way.
	g.own = true
	own := g.bounds(g.readCopies(pred), true)
	g.own = false
	if len(own) == 0 {
		return "", false
	}
	// A NaN satisfies the negation of every comparison: a variable is
	// bounded only when it cannot be NaN (the value analysis) or the
	// label's predicate compares it as written (then a NaN makes the
	// label false).
	vars := map[string]bool{}
	for _, b := range own {
		if b.direct || !g.a.varVal(b.b.Operand).nan {
			vars[b.b.Operand] = true
		}
	}
	var path []guardBound
	rebound := map[string]bool{}
	cur := l.Point
	inner := []syntax.Node{l.Point}
	for {
		if g.shared[cur] {
			return "", false
		}
		p, ok := g.parent[cur].(*syntax.List)
		if !ok {
			break
		}
		next := syntax.Node(p)
		var conds []syntax.Node
		var truth []bool
		h := forms.Head(p)
		idx := -1
		for i, e := range p.Elems {
			if e == cur {
				idx = i
			}
		}
		switch {
		case idx < 0:
			return "", false
		}
		path = append(path, g.incfsBefore(p, idx, vars, rebound, inner)...)
		// What runs between an (incf X) further up and the label lies
		// among the other elements of the forms on the way (all of
		// them: a superset).
		for i, e := range p.Elems {
			if i != idx {
				inner = append(inner, e)
			}
		}
		switch {
		case h == "if" && len(p.Elems) >= 3 && idx >= 2:
			conds, truth = []syntax.Node{p.Elems[1]}, []bool{idx == 2}
		case (h == "when" || h == "unless") && idx >= 2:
			conds, truth = []syntax.Node{p.Elems[1]}, []bool{h == "when"}
		case (h == "and" || h == "or") && idx >= 1:
			for _, c := range p.Elems[1:idx] {
				conds, truth = append(conds, c), append(truth, h == "and")
			}
		case forms.Head(g.parent[p]) == "cond" && g.isClause(p):
			// cur is in clause p of a cond: the earlier clauses' tests
			// were false; p's test was true when cur is in its body.
			cnd := g.parent[p].(*syntax.List)
			for _, c := range cnd.Elems[1:] {
				if c == p {
					break
				}
				if cl, ok := c.(*syntax.List); ok && len(cl.Elems) > 0 {
					conds, truth = append(conds, cl.Elems[0]), append(truth, false)
				}
			}
			if idx >= 1 {
				conds, truth = append(conds, p.Elems[0]), append(truth, true)
			}
			next = cnd // the clause and its cond are one step
		case h == "let" || h == "let*":
			if bl, ok := p.Elems[1%len(p.Elems)].(*syntax.List); ok {
				for _, b := range bl.Elems {
					if s, ok := b.(*syntax.Symbol); ok {
						rebound[s.Name] = true
					} else if bb, ok := b.(*syntax.List); ok && len(bb.Elems) > 0 {
						if s, ok := bb.Elems[0].(*syntax.Symbol); ok {
							rebound[s.Name] = true
						}
					}
				}
			}
		case h == "dolist" || h == "dotimes":
			if spec, ok := p.Elems[1%len(p.Elems)].(*syntax.List); ok && len(spec.Elems) > 0 {
				if s, ok := spec.Elems[0].(*syntax.Symbol); ok {
					rebound[s.Name] = true
				}
			}
		case (h == "setq" || h == "setf") && idx == 2 && len(p.Elems) >= 3:
			// The value of the first assignment is computed before
			// anything is assigned: what held above holds there.
		case forms.Lookup(h) != nil && !guardSafe[h]:
			// A function definition, a lambda, a handler, a loop form:
			// what holds above it need not hold where cur runs.
			next = nil
		}
		if next == nil {
			break
		}
		for i, c := range conds {
			for _, b := range g.bounds(c, truth[i]) {
				if g.grows(b.b.Operand) && b.b.Rel != labels.Greater && b.b.Rel != labels.Greater|labels.Equal {
					continue // the counter may have grown since
				}
				if vars[b.b.Operand] && !rebound[b.b.Operand] {
					path = append(path, b)
				}
			}
		}
		cur = next
	}
	if len(path) == 0 {
		return "", false
	}
	var bs []Bound
	for _, b := range own {
		if vars[b.b.Operand] {
			bs = append(bs, b.b)
		}
	}
	var wheres []string
	for _, b := range path {
		bs = append(bs, b.b)
		wheres = append(wheres, b.where)
	}
	why, ok := Contradiction(bs, labels.Relation.String)
	if !ok {
		why, ok = g.setContradiction(pred, bs)
	}
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%s: only reached where %s", why, strings.Join(wheres, ", ")), true
}

// isClause reports whether p is a clause of its parent cond (not the
// cond's head).
func (g *guardAnalysis) isClause(p *syntax.List) bool {
	c, ok := g.parent[p].(*syntax.List)
	return ok && len(c.Elems) > 0 && c.Elems[0] != syntax.Node(p)
}

// bounds are the bounds condition c puts on variables when it has truth
// value truth: a comparison of a variable with a constant, its negation
// (not), or, when true, a conjunction of those (and); nothing otherwise.
func (g *guardAnalysis) bounds(c syntax.Node, truth bool) []guardBound {
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return nil
	}
	switch h := forms.Head(l); {
	case (h == "not" || h == "null") && len(l.Elems) == 2 && !g.res.IsUserFunc(h):
		return g.bounds(l.Elems[1], !truth)
	case unwrapTest(l) != syntax.Node(l):
		// (let* () X), as normalize wraps a condition: X's truth.
		return g.bounds(unwrapTest(l), truth)
	case h == "and" && truth:
		var out []guardBound
		for _, x := range l.Elems[1:] {
			out = append(out, g.bounds(x, true)...)
		}
		return out
	case h == "or" && !truth:
		var out []guardBound
		for _, x := range l.Elems[1:] {
			out = append(out, g.bounds(x, false)...)
		}
		return out
	}
	if len(l.Elems) != 3 || g.res.IsUserFunc(forms.Head(l)) {
		return nil
	}
	m, ok := labels.RelationOf(forms.Head(l))
	if !ok {
		return nil
	}
	v, k, flipped, ok := g.varConst(l.Elems[1], l.Elems[2])
	if !ok {
		return nil
	}
	if flipped {
		m = m.Swap()
	}
	if !truth {
		m = m.Not()
	}
	ks := numText(k)
	if _, lit := number(k); !lit {
		ks = fmt.Sprintf("%s (%s)", numText(g.constOf(k)), syntax.NodeString(k))
	}
	x, _ := number(g.constOf(k))
	word := "true"
	if !truth {
		word = "false"
	}
	return []guardBound{{b: Bound{Operand: v, Rel: m, Value: x, Const: ks},
		where: fmt.Sprintf("%s is %s", syntax.NodeString(l), word), direct: truth && m != labels.NotEqual}}
}

// varConst splits a comparison's operands into a variable no one assigns
// and a constant; flipped when the constant comes first.
func (g *guardAnalysis) varConst(a, b syntax.Node) (string, syntax.Node, bool, bool) {
	return splitVarConst(a, b, g.variable, func(n syntax.Node) bool { return g.constOf(n) != nil })
}

func (g *guardAnalysis) variable(s *syntax.Symbol) bool {
	return s.Name != "t" && s.Name != "nil" && (!g.assigned[s.Name] || g.grows(s.Name) || g.unassignedBinding(s) ||
		g.own && g.a.counters[s.Name] == resetCounterNote)
}

// unassignedBinding reports whether reference s reads a lexical binding
// (the value analysis resolved it, lexical.go) that nothing assigns once
// bound, though a same-named variable elsewhere is assigned.
func (g *guardAnalysis) unassignedBinding(s *syntax.Symbol) bool {
	k, ok := g.a.symKey[s]
	return ok && k != conflictKey && !g.a.assignedKeys[k]
}

// incfSeq are the special forms that evaluate their elements in order,
// each once (those of an if only its test before its branches); lists
// that are no special form (calls, clauses) do too.
var incfSeq = map[string]bool{"progn": true, "seq": true, "let": true, "let*": true, "when": true, "unless": true,
	"and": true, "or": true, "dolist": true, "dotimes": true, "block": true, "ignore-errors": true, "while": true}

// incfsBefore are the bounds X >= 1 of the counters of vars that an
// (incf X) among p's elements before idx raised (not rebound since). A
// counter that (setq X 0) also resets counts when nothing that may run
// between the incf and the label may assign it: the elements of p
// between them and inner, the other forms on the way to the label
// (mayAssign).
func (g *guardAnalysis) incfsBefore(p *syntax.List, idx int, vars, rebound map[string]bool, inner []syntax.Node) []guardBound {
	h := forms.Head(p)
	switch {
	case h == "if":
		idx = min(idx, 2)
	case forms.Lookup(h) != nil && !incfSeq[h]:
		return nil
	}
	var out []guardBound
	for j, e := range p.Elems[1:max(idx, 1)] {
		l, ok := e.(*syntax.List)
		if !ok || forms.Head(l) != "incf" || len(l.Elems) != 2 {
			continue
		}
		x, ok := l.Elems[1].(*syntax.Symbol)
		if !ok || !vars[x.Name] || rebound[x.Name] {
			continue
		}
		where := fmt.Sprintf("%s ran before it (%s)", syntax.NodeString(l), g.a.counters[x.Name])
		if !g.grows(x.Name) {
			if g.a.counters[x.Name] != resetCounterNote {
				continue
			}
			between := append(slices.Clone(p.Elems[j+2:idx]), inner...)
			if g.mayAssign(x.Name, between) {
				continue
			}
			where = fmt.Sprintf("%s ran before it and nothing that runs in between assigns %s (%s)", syntax.NodeString(l), x.Name, g.a.counters[x.Name])
		}
		out = append(out, guardBound{b: Bound{Operand: x.Name, Rel: labels.Greater | labels.Equal, Value: 1, Const: "1"},
			where: where, direct: true})
	}
	return out
}

// mayAssign reports whether evaluating ns may assign global name: an
// assignment of it, set or symbol-value, a call of a plan function whose
// body may (transitively), or a call the text does not name (a local
// function, funcall or apply of a value).
func (g *guardAnalysis) mayAssign(name string, ns []syntax.Node) bool {
	if g.assigns == nil {
		g.assigns = map[string]int8{}
		g.defsByName = map[string]*syntax.List{}
		for _, f := range g.res.Forms {
			l, ok := f.(*syntax.List)
			if !ok || len(l.Elems) < 3 || g.res.Skipped(f) {
				continue
			}
			switch forms.Head(l) {
			case "defun", "def-cram-function", "def-plan", "def-check", "def-policy":
				if s, ok := l.Elems[1].(*syntax.Symbol); ok {
					if _, dup := g.defsByName[s.Name]; dup {
						g.defsByName[s.Name] = nil // defined twice: anything
					} else {
						g.defsByName[s.Name] = l
					}
				}
			}
		}
	}
	var walk func(n syntax.Node, depth int) bool
	fnMay := func(fn string, depth int) bool {
		key := name + "\x00" + fn
		switch g.assigns[key] {
		case 1:
			return false
		case 2, 3:
			return true // may, or pending (recursion): may
		}
		def, ok := g.defsByName[fn]
		if !ok || def == nil || depth > 16 {
			return true
		}
		g.assigns[key] = 3
		r := walk(def, depth+1)
		g.assigns[key] = 1
		if r {
			g.assigns[key] = 2
		}
		return r
	}
	walk = func(n syntax.Node, depth int) bool {
		found := false
		syntax.Walk(n, func(x syntax.Node) bool {
			if found {
				return false
			}
			switch x := x.(type) {
			case *syntax.Quote:
				return false
			case *syntax.List:
				h := forms.Head(x)
				switch {
				case h == "quote":
					return false
				case h == "set" || h == "symbol-value" || h == "makunbound" || h == "progv":
					found = true
				case assignHeads[h] && h != "incf":
					for _, y := range x.Elems[1:] {
						if syntax.IsSymbol(y, name) {
							found = true
						}
					}
				case g.a.localFns[h] || dynamicCall(x):
					found = true
				case g.res.IsUserFunc(h):
					found = fnMay(h, depth)
				}
			}
			return !found
		})
		return found
	}
	for _, n := range ns {
		if walk(n, 0) {
			return true
		}
	}
	return false
}

// constOf is n as an integer literal: n itself, or a global variable the
// value analysis proves always holds one integer; nil otherwise.
func (g *guardAnalysis) constOf(n syntax.Node) syntax.Node {
	switch n := n.(type) {
	case *syntax.Int:
		return n
	case *syntax.Symbol:
		if !strings.HasPrefix(n.Name, "*") {
			return nil
		}
		v := g.a.varVal(n.Name)
		if v.num && !v.other && v.intOnly() && v.lo == v.hi && v.lo > -exact && v.lo < exact {
			return &syntax.Int{Value: int64(v.lo)}
		}
	}
	return nil
}

// neverReturns reports whether evaluating n always signals a failure:
// (fail ...) of the core builtin, or not/null of such a form.
func neverReturns(res *normalize.Result, n syntax.Node) bool {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return false
	}
	switch h := forms.Head(l); {
	case res.IsUserFunc(h):
		return false
	case h == "fail":
		return true
	case (h == "not" || h == "null") && len(l.Elems) == 2:
		return neverReturns(res, l.Elems[1])
	}
	return false
}

// neverNonNil reports whether n is never true: it never returns, or it
// is a temporary of normalize's holding such a form (which holds nil
// until the form returns, so only its truth is impossible).
func neverNonNil(res *normalize.Result, n syntax.Node) bool {
	if s, ok := n.(*syntax.Symbol); ok && res.IsTemp(s.Name) {
		o := res.Origin(s)
		return o != nil && neverReturns(res, o)
	}
	return neverReturns(res, n)
}

// neverTrue says why predicate p can never be true: it needs a (fail
// ...) to return, alone or as a conjunct (an and is true only once every
// conjunct has returned a true value).
func neverTrue(res *normalize.Result, show func(syntax.Node) string, p syntax.Node) (string, bool) {
	if neverNonNil(res, p) {
		return fmt.Sprintf("%s is never true: (fail ...) signals a failure, it never returns", show(p)), true
	}
	if l, ok := p.(*syntax.List); ok && forms.Head(l) == "and" && !res.IsUserFunc("and") {
		for _, c := range l.Elems[1:] {
			if why, ok := neverTrue(res, show, c); ok {
				return why + ", so the conjunction is never true", true
			}
		}
	}
	return "", false
}

func isEmptyList(n syntax.Node) bool { l, ok := n.(*syntax.List); return ok && len(l.Elems) == 0 }

// markSymbols sets into[name] for every symbol in ns, at any depth: the
// conservative place set of an assignment (every symbol of the form but
// its head).
func markSymbols(ns []syntax.Node, into map[string]bool) {
	for _, e := range ns {
		syntax.Walk(e, func(y syntax.Node) bool {
			if s, ok := y.(*syntax.Symbol); ok {
				into[s.Name] = true
			}
			return true
		})
	}
}

// noteCopies records the temporaries let form l binds to a variable.
func (g *guardAnalysis) noteCopies(l *syntax.List) {
	bl, ok := l.Elems[1].(*syntax.List)
	if !ok {
		return
	}
	for _, b := range bl.Elems {
		bb, ok := b.(*syntax.List)
		if !ok || len(bb.Elems) != 2 {
			continue
		}
		t, ok := bb.Elems[0].(*syntax.Symbol)
		if !ok || !g.res.IsTemp(t.Name) {
			continue
		}
		x, isSym := bb.Elems[1].(*syntax.Symbol)
		if _, dup := g.copies[t.Name]; dup || !isSym || g.res.IsTemp(x.Name) {
			g.copies[t.Name] = nil
			continue
		}
		g.copies[t.Name] = x
	}
}

// readCopies is pred with each temporary that holds a copy of a
// variable nothing assigns (bound once, never assigned itself) read as
// that variable: (= %lc1 0), with %lc1 bound to level, is (= level 0),
// since level held then what it holds wherever the guards tested it.
func (g *guardAnalysis) readCopies(pred syntax.Node) syntax.Node {
	var sub func(n syntax.Node) syntax.Node
	sub = func(n syntax.Node) syntax.Node {
		switch x := n.(type) {
		case *syntax.Symbol:
			if c := g.copies[x.Name]; c != nil && !g.assigned[x.Name] && c.Name != "t" && c.Name != "nil" &&
				!strings.HasPrefix(c.Name, "*") && !g.a.specials[c.Name] && (!g.assigned[c.Name] || g.unassignedBinding(c)) {
				return c
			}
		case *syntax.List:
			if forms.Head(x) == "quote" {
				return x
			}
			if r, ok := g.readCopied[x]; ok {
				return r
			}
			var out *syntax.List // made at the first element that changes
			for i, e := range x.Elems {
				r := sub(e)
				if r != e && out == nil {
					out = &syntax.List{Elems: make([]syntax.Node, len(x.Elems))}
					copy(out.Elems, x.Elems[:i])
				}
				if out != nil {
					out.Elems[i] = r
				}
			}
			r := syntax.Node(x)
			if out != nil {
				r = out
			}
			g.readCopied[x] = r
			return r
		}
		return n
	}
	return sub(pred)
}

// grows reports whether name is a counter that only grows (counters.go:
// not one a (setq X 0) resets).
func (g *guardAnalysis) grows(name string) bool {
	n := g.a.counters[name]
	return n != "" && n != resetCounterNote
}
