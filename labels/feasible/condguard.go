package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Earlier clauses of a cond, judged on symbols. A label in the test of a
// cond's clause is evaluated only where the tests of the clauses before
// it were false. What the label's predicate says of the lexical
// variables it tests (assumptions: (not (eq type 'cup)) makes type any
// symbol but cup) holds where the earlier tests were evaluated too when
// each such variable is a binding nothing assigns (so it held the same
// value then), and the earlier tests read it through that same binding.
// When an earlier test is always true under those assumptions (judged on
// symbols, with the calls it makes evaluated per call, precise.go), it
// was never false there, and the label never holds: in kitchen's
// verdict, ((eq region (goal-region type)) nil) before ((and (eq type
// 'cup) (eq region 'counter) ...) ...) makes (and (not (eq type 'cup))
// (eq region 'counter) ...) infeasible, since goal-region gives counter
// for every type but cup.

// clauseVerdict judges label l (predicate pred) by the earlier clauses
// of the cond whose test holds its point.
func (g *guardAnalysis) clauseVerdict(d *domains, l *labels.Label, pred syntax.Node) (string, bool) {
	if g.off || g.a == nil || !g.a.ok || l.Point == nil {
		return "", false
	}
	// The clause whose test holds the point.
	cur := l.Point
	var clause, cond *syntax.List
	for {
		if g.shared[cur] {
			return "", false
		}
		p, ok := g.parent[cur].(*syntax.List)
		if !ok {
			return "", false
		}
		switch forms.Head(p) {
		case "lambda", "flet", "labels", "defun", "def-plan", "def-check", "def-policy", "def-cram-function":
			return "", false
		}
		if q, ok := g.parent[p].(*syntax.List); ok && forms.Head(q) == "cond" && len(p.Elems) > 0 && p.Elems[0] == cur && p != q {
			clause, cond = p, q
			break
		}
		cur = p
	}
	idx := slices.IndexFunc(cond.Elems[1:], func(x syntax.Node) bool { return x == syntax.Node(clause) })
	if idx <= 0 {
		return "", false
	}
	as, keys, texts := g.bindingAssumptions(d, pred)
	if len(as) == 0 {
		return "", false
	}
	save := g.a.assume
	g.a.assume = as
	defer func() { g.a.assume = save }()
	for _, c := range cond.Elems[1 : idx+1] {
		cl, ok := c.(*syntax.List)
		if !ok || len(cl.Elems) == 0 {
			return "", false
		}
		test, ok := g.unwrapTest(cl.Elems[0])
		if !ok || !g.sameBindings(test, keys) {
			continue
		}
		mayTrue, mayFalse, why, ok := d.symTruth(test)
		if !ok || mayFalse || !mayTrue {
			continue
		}
		return fmt.Sprintf("cannot hold: only reached where the earlier clause's test %s was false, but it always holds there: %s, where %s",
			d.show(test), strings.Join(why, " and "), strings.Join(texts, " and ")), true
	}
	return "", false
}

// bindingAssumptions are what pred's conjuncts say of the lexical
// variables they test, each a binding nothing assigns (by name, with the
// binding's key, and the texts for reasons).
func (g *guardAnalysis) bindingAssumptions(d *domains, pred syntax.Node) (map[string]aval, map[string]string, []string) {
	conj := []syntax.Node{pred}
	if l, ok := pred.(*syntax.List); ok && forms.Head(l) == "and" && !g.a.res.IsUserFunc("and") {
		conj = l.Elems[1:]
	}
	as, keys := map[string]aval{}, map[string]string{}
	var texts []string
	for _, c := range conj {
		name, v, ok := d.assumption(c)
		if !ok || g.a.specials[name] || strings.HasPrefix(name, "*") || g.a.closureAssigned()[name] {
			continue
		}
		k, ok := g.bindingOf(c, name)
		if !ok || (keys[name] != "" && keys[name] != k) {
			return nil, nil, nil
		}
		if w, dup := as[name]; dup {
			v = meetSyms(w, v)
		}
		as[name], keys[name] = v, k
		texts = append(texts, name+" "+symsText(v)+" by "+d.show(c))
	}
	return as, keys, texts
}

// bindingOf is the binding every reference to name in n reads, when it
// is one binding nothing assigns.
func (g *guardAnalysis) bindingOf(n syntax.Node, name string) (string, bool) {
	k, ok := "", true
	syntax.Walk(n, func(x syntax.Node) bool {
		s, isSym := x.(*syntax.Symbol)
		if !isSym || s.Name != name || !ok {
			return ok
		}
		key, met := g.a.symKey[s]
		if !met || key == conflictKey || key == "" || (k != "" && k != key) || g.a.assignedKeys[key] {
			ok = false
			return false
		}
		k = key
		return true
	})
	return k, ok && k != ""
}

// sameBindings reports whether test reads each assumed variable through
// the binding the assumption is about.
func (g *guardAnalysis) sameBindings(test syntax.Node, keys map[string]string) bool {
	ok := true
	syntax.Walk(test, func(x syntax.Node) bool {
		if s, isSym := x.(*syntax.Symbol); isSym {
			if k, assumed := keys[s.Name]; assumed && g.a.symKey[s] != k {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// unwrapTest is the test a normalized clause test computes: the last
// form of the (let* ((TEMP EXPR) ...) (progn PROBES... TEST)) normalize
// wraps it in, with each temporary replaced by the expression it holds.
func (g *guardAnalysis) unwrapTest(n syntax.Node) (syntax.Node, bool) {
	temps := map[string]syntax.Node{}
	for {
		l, ok := n.(*syntax.List)
		if !ok || len(l.Elems) < 2 {
			break
		}
		switch forms.Head(l) {
		case "let*", "let":
			bl, ok := l.Elems[1].(*syntax.List)
			if !ok || len(l.Elems) < 3 {
				return nil, false
			}
			for _, b := range bl.Elems {
				bb, ok := b.(*syntax.List)
				if !ok || len(bb.Elems) != 2 {
					return nil, false
				}
				s, ok := bb.Elems[0].(*syntax.Symbol)
				if !ok || !g.a.res.IsTemp(s.Name) || g.assigned[s.Name] {
					return nil, false
				}
				temps[s.Name] = bb.Elems[1]
			}
			n = l.Elems[len(l.Elems)-1]
			continue
		case "progn":
			n = l.Elems[len(l.Elems)-1]
			continue
		}
		break
	}
	return g.substTemps(n, temps, 0)
}

// substTemps copies n with the temporaries of temps replaced by their
// expressions; false when n reads any other temporary.
func (g *guardAnalysis) substTemps(n syntax.Node, temps map[string]syntax.Node, depth int) (syntax.Node, bool) {
	if depth > 64 {
		return nil, false
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		if !g.a.res.IsTemp(x.Name) {
			return x, true
		}
		e, ok := temps[x.Name]
		if !ok {
			return nil, false
		}
		return g.substTemps(e, nil, depth+1)
	case *syntax.List:
		if forms.Head(x) == "quote" {
			return x, true
		}
		out := &syntax.List{Elems: make([]syntax.Node, len(x.Elems))}
		changed := false
		for i, e := range x.Elems {
			s, ok := g.substTemps(e, temps, depth+1)
			if !ok {
				return nil, false
			}
			out.Elems[i] = s
			changed = changed || s != e
		}
		if !changed {
			return x, true
		}
		return out, true
	}
	return n, true
}
