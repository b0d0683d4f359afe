package feasible

import (
	"fmt"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// A reachFact says what the labels of one decision may assume because a
// lazy operand of it never returns. normalize binds the operands of (or
// A B) as temporaries, the second as (if %lcA nil B); when B is (fail
// ...) the let* body, where the decision's labels sit, runs only when
// %lcA was true. Under (and A B) the second is (if %lcA B nil), so the
// body runs only when %lcA was false. Several earlier operands of an or
// give (if (or %lcA %lcB) nil C): at least one of them was true.
type reachFact struct {
	temps  []*syntax.Symbol // at least one of these had truth want
	want   bool
	failed syntax.Node // the operand that never returns
}

// reachFacts collects the facts of every decision of the plan, by the
// temporary its never-returning operand is bound to. Only temporaries
// count: no user code assigns them, so what held when they were bound
// still holds at the decision's labels.
func reachFacts(res *normalize.Result) []reachFact {
	var facts []reachFact
	for _, f := range res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || forms.Head(l) != "let*" || len(l.Elems) < 2 {
				return true
			}
			bs, ok := l.Elems[1].(*syntax.List)
			if !ok {
				return true
			}
			for _, b := range bs.Elems {
				if fact, ok := reachFactOf(res, b); ok {
					facts = append(facts, fact)
				}
			}
			return true
		})
	}
	return facts
}

// reachFactOf reads one binding (%lcN (if TEST X Y)) in which one branch
// is nil and the other never returns.
func reachFactOf(res *normalize.Result, b syntax.Node) (reachFact, bool) {
	bl, ok := b.(*syntax.List)
	if !ok || len(bl.Elems) != 2 {
		return reachFact{}, false
	}
	if v, ok := bl.Elems[0].(*syntax.Symbol); !ok || !res.IsTemp(v.Name) {
		return reachFact{}, false
	}
	c, ok := bl.Elems[1].(*syntax.List)
	if !ok || forms.Head(c) != "if" || len(c.Elems) != 4 || res.IsUserFunc("if") {
		return reachFact{}, false
	}
	test, then, els := c.Elems[1], c.Elems[2], c.Elems[3]
	var fact reachFact
	switch {
	case isNil(then) && neverReturns(res, els):
		// The body is reached only when the test was true.
		fact.want, fact.failed = true, els
	case isNil(els) && neverReturns(res, then):
		fact.want, fact.failed = false, then
	default:
		return reachFact{}, false
	}
	var syms []syntax.Node
	if tl, ok := test.(*syntax.List); ok && forms.Head(tl) == "or" && fact.want && !res.IsUserFunc("or") {
		// (or %lcA %lcB ...) true: at least one of them was true.
		syms = tl.Elems[1:]
	} else {
		syms = []syntax.Node{test}
	}
	for _, s := range syms {
		sym, ok := s.(*syntax.Symbol)
		if !ok || !res.IsTemp(sym.Name) {
			return reachFact{}, false
		}
		fact.temps = append(fact.temps, sym)
	}
	return fact, len(fact.temps) > 0
}

func isNil(n syntax.Node) bool {
	s, ok := n.(*syntax.Symbol)
	return ok && strings.EqualFold(s.Name, "nil") || isEmptyList(n)
}

// unreachedBy says why a label asserting lits never runs: they give every
// temporary of a fact the truth that sends the decision into the operand
// that never returns.
func unreachedBy(facts []reachFact, show func(syntax.Node) string, lits []labels.Literal) (string, bool) {
	val, atom := map[string]bool{}, map[string]syntax.Node{}
	for _, l := range lits {
		if s, ok := l.Atom.(*syntax.Symbol); ok {
			val[s.Name], atom[s.Name] = l.Value, s
		}
	}
	for _, f := range facts {
		all := true
		for _, t := range f.temps {
			if v, ok := val[t.Name]; !ok || v == f.want {
				all = false
				break
			}
		}
		if !all {
			continue
		}
		truth := "false"
		if !f.want {
			truth = "true"
		}
		var which []string
		for _, t := range f.temps {
			// The label's own node: show prints a temporary as the
			// operand it stands for.
			which = append(which, show(atom[t.Name]))
		}
		return fmt.Sprintf("never reached: where %s %s %s, %s runs first, and (fail ...) signals a failure, it never returns",
			strings.Join(which, " and "), map[bool]string{false: "is", true: "are all"}[len(which) > 1], truth, show(f.failed)), true
	}
	return "", false
}

// literals reads the literals a label predicate asserts: a temporary,
// (not T), (null T), and those among the conjuncts of an and (a
// conjunction asserts each of its conjuncts; the others are left out).
func literals(res *normalize.Result, p syntax.Node) []labels.Literal {
	switch n := p.(type) {
	case *syntax.Symbol:
		if res.IsTemp(n.Name) {
			return []labels.Literal{{Atom: n, Value: true}}
		}
	case *syntax.List:
		h := forms.Head(n)
		if res.IsUserFunc(h) {
			return nil
		}
		switch {
		case (h == "not" || h == "null") && len(n.Elems) == 2:
			if s, ok := n.Elems[1].(*syntax.Symbol); ok && res.IsTemp(s.Name) {
				return []labels.Literal{{Atom: s, Value: false}}
			}
		case h == "and":
			var out []labels.Literal
			for _, c := range n.Elems[1:] {
				out = append(out, literals(res, c)...)
			}
			return out
		}
	}
	return nil
}
