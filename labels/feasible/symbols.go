package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Symbols. Besides numbers and lists, the value analysis keeps which
// symbols a value may be (aval.syms): a quoted symbol, nil and t are
// themselves, a predicate is t or nil, an if without else, a when, an
// unless or a cond without a catch-all may give nil, a world query gives
// the symbols its domain names (domain.Domain.Symbols: the world's
// regions, locations, object types, ...), and joins union them. A value
// with syms is, when no number, one of those symbols (keywords written
// :k) — never a cons, a string or a designator; a value that may be
// anything else has none (nil), and so does a set grown past
// maxSymbols. So (eq want nil) never holds for a want of (left right),
// and a conjunction that asks (not load) evaluates (first (first load))
// as (first (first nil)), which is nil.

// maxSymbols bounds the symbols a value keeps.
const maxSymbols = 32

// symVal is one of the symbols names (nil and t included as "nil" and
// "t"; keywords as ":k").
func symVal(names ...string) aval {
	s := slices.Clone(names)
	slices.Sort(s)
	return aval{other: true, noCons: true, syms: slices.Compact(s)}
}

// nilVal is nil.
func nilVal() aval { return symVal("nil") }

// boolVal is t or nil: what a predicate returns.
func boolVal() aval { return symVal("nil", "t") }

// symsKnown reports whether v's non-numbers are known symbols.
func (v aval) symsKnown() bool { return !v.other || v.syms != nil && v.noCons }

// joinSyms is the symbols of join(a, b) (both may be non-numbers).
func joinSyms(a, b aval) []string {
	switch {
	case !a.other:
		return b.syms
	case !b.other:
		return a.syms
	case a.syms == nil || b.syms == nil || !a.noCons || !b.noCons:
		return nil
	}
	return unionCapped(a.syms, b.syms, maxSymbols)
}

func sameSyms(a, b []string) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return slices.Equal(a, b)
}

// mayBeNil reports whether v may be nil.
func (v aval) mayBeNil() bool {
	return v.other && (!v.symsKnown() || slices.Contains(v.syms, "nil"))
}

// mayBeNonNil reports whether v may be anything but nil.
func (v aval) mayBeNonNil() bool {
	return v.num || v.other && (!v.symsKnown() || slices.ContainsFunc(v.syms, func(s string) bool { return s != "nil" }))
}

// symsText writes what is known of v's values for reasons: "is one of
// left, right", "is nil", "is never nil".
func symsText(v aval) string {
	var parts []string
	if v.other && !v.symsKnown() {
		return "may be anything"
	}
	if v.other {
		parts = append(parts, v.syms...)
	}
	if v.num {
		if v.setOK() {
			parts = append(parts, strings.TrimPrefix(setText(v), "one of "))
		} else {
			parts = append(parts, "a number")
		}
	}
	world := ""
	if v.world != "" {
		world = " (" + v.world + ")"
	}
	switch len(parts) {
	case 0:
		return "never returns"
	case 1:
		return "is " + parts[0] + world
	}
	return "is one of " + strings.Join(parts, ", ") + world
}

// mayEq reports whether (eq a b) (or eql, equal) may hold, given what is
// known of both; false only when no value of one can be eq to a value of
// the other: their symbols are disjoint and their numbers cannot meet.
func mayEq(a, b aval) bool {
	if a.num && b.num && (a.nan || b.nan || relMask(a, b)&2 != 0) {
		return true
	}
	if !a.other || !b.other {
		return false
	}
	if !a.symsKnown() || !b.symsKnown() {
		return true
	}
	for _, s := range a.syms {
		if slices.Contains(b.syms, s) {
			return true
		}
	}
	return false
}

// alwaysEq reports whether (eq a b) holds whenever both return: both are
// the same single symbol.
func alwaysEq(a, b aval) bool {
	return !a.num && !b.num && a.symsKnown() && b.symsKnown() && len(a.syms) == 1 && slices.Equal(a.syms, b.syms)
}

// symTruth judges predicate p from what the analysis knows of symbols,
// under assumptions (a conjunction's other conjuncts): whether it may be
// true and whether it may be false (a failure makes it neither), with
// what each operand is for reasons. ok is false when p is none of the
// forms it judges: (eq A B), (eql A B), (equal A B), (member A 'LIST),
// (not X), (null X) and a bare variable (its truth).
func (d *domains) symTruth(p syntax.Node) (mayTrue, mayFalse bool, why []string, ok bool) {
	a := d.a
	switch p := p.(type) {
	case *syntax.Symbol:
		if p.Name == "t" || p.Name == "nil" {
			return false, false, nil, false
		}
		v := a.ev(p, 0)
		if !v.num && !v.other {
			return false, false, nil, false
		}
		return v.mayBeNonNil(), v.mayBeNil(), []string{d.show(p) + " " + symsText(v)}, true
	case *syntax.List:
		h := forms.Head(p)
		if h == "" || a.res.IsUserFunc(h) || a.funcs[h] != nil || a.localFns[h] {
			return false, false, nil, false
		}
		switch {
		case (h == "not" || h == "null") && len(p.Elems) == 2:
			t, f, why, ok := d.symTruth(p.Elems[1])
			return f, t, why, ok
		case (h == "eq" || h == "eql" || h == "equal") && len(p.Elems) == 3:
			va, vb := a.ev(p.Elems[1], 0), a.ev(p.Elems[2], 0)
			if !va.num && !va.other || !vb.num && !vb.other {
				return false, false, nil, false // no value: code no run reaches
			}
			if !va.symsKnown() && !vb.symsKnown() {
				return false, false, nil, false
			}
			why := d.operandTexts(p.Elems[1:], []aval{va, vb})
			return mayEq(va, vb), !alwaysEq(va, vb), why, true
		case h == "member" && len(p.Elems) == 3:
			lst, isLit := quotedData(p.Elems[2]).(*syntax.List)
			if !isLit && !normalize.IsConstant(p.Elems[2]) {
				return d.memberOf(p)
			}
			if !isLit || slices.ContainsFunc(lst.Elems, func(n syntax.Node) bool { return syntax.IsSymbol(n, ".") }) {
				return false, false, nil, false
			}
			va := a.ev(p.Elems[1], 0)
			if !va.num && !va.other || !va.symsKnown() {
				return false, false, nil, false
			}
			may := false
			for _, e := range lst.Elems {
				ev := datumVal(e, 0)
				if !ev.num && !ev.symsKnown() || mayEq(va, ev) {
					may = true
				}
			}
			return may, true, d.operandTexts(p.Elems[1:2], []aval{va}), true
		}
	}
	return false, false, nil, false
}

// memberOf judges (member A L) for an L the plan computes: A may be one
// of L's elements (the join of what the value analysis knows of the lists
// L may be: a shape every push, cons and literal keeps) or not.
func (d *domains) memberOf(p *syntax.List) (mayTrue, mayFalse bool, why []string, ok bool) {
	a := d.a
	va, vl := a.ev(p.Elems[1], 0), a.ev(p.Elems[2], 0)
	if !va.num && !va.other || !va.symsKnown() || vl.num || !vl.other {
		return false, false, nil, false
	}
	e, known := allElems(vl)
	if !known || e.num && !e.symsKnown() || e.other && !e.symsKnown() {
		return false, false, nil, false
	}
	if e.num || e.other {
		if mayEq(va, e) {
			return true, true, nil, true
		}
	}
	what := "no element"
	if e.other {
		what = "elements that are each " + strings.TrimPrefix(symsText(e), "is ")
	}
	return false, true, []string{d.show(p.Elems[1]) + " " + symsText(va) + " and " + d.show(p.Elems[2]) + " has " + what + " (every push, cons and literal that makes it)"}, true
}

// operandTexts describes the operands that are not literals.
func (d *domains) operandTexts(ns []syntax.Node, vs []aval) []string {
	var out []string
	for i, n := range ns {
		if normalize.IsConstant(n) {
			continue
		}
		out = append(out, d.show(n)+" "+symsText(vs[i]))
	}
	return out
}

// worldVal is the value of a call of a function with world domain d.
func worldVal(d domain.Domain) aval {
	var v aval
	if d.Value != nil {
		v = numRange(d.Value.Lo, d.Value.Hi, true, nil)
		v.world = d.Why
	}
	switch {
	case d.Symbols != nil:
		w := symVal(d.Symbols...)
		w.world = d.Why
		v = join(v, w)
	case d.Value != nil:
		v.other = true
	default:
		return top()
	}
	return v
}

// decideSyms decides predicate p from symbols: "never" with a reason
// when it cannot be true, "" otherwise. A conjunction is never true when
// one conjunct never is, each judged under what the others assume of
// the variables they test ((not load) makes load nil while the others
// are evaluated; see assumptions).
func (d *domains) decideSyms(p syntax.Node) (string, string) {
	conj := []syntax.Node{p}
	if l, ok := p.(*syntax.List); ok && forms.Head(l) == "and" && !d.a.res.IsUserFunc("and") {
		conj = l.Elems[1:]
	}
	as, texts := d.assumptions(conj)
	for name, v := range as {
		if !v.num && !v.other {
			return "never", fmt.Sprintf("cannot hold: no value of %s satisfies both:%s", name, strings.TrimPrefix(underText(texts), ", where"))
		}
	}
	d.a.assume = as
	defer func() { d.a.assume = nil }()
	for _, c := range conj {
		if call, arg, ok := d.failingCall(c); ok {
			return "never", fmt.Sprintf("cannot hold: %s signals a failure: %s is nil and %s fails on nil (no object)%s",
				d.show(call), d.show(arg), forms.Head(call), underText(texts))
		}
		mayTrue, _, why, ok := d.symTruth(c)
		if !ok || mayTrue {
			if len(as) == 0 || len(conj) == 1 {
				continue
			}
			// A relation of numbers under the assumptions.
			if v, w := d.decideRel(c); v == "never" {
				return v, w + underText(texts)
			}
			continue
		}
		what := strings.Join(why, " and ")
		if what == "" {
			what = "its operands are constants"
		}
		pre := ""
		if len(conj) > 1 {
			pre = d.show(c) + " is never true: "
		}
		return "never", "cannot hold: " + pre + what + underText(texts)
	}
	return "", ""
}

// decideRel is decideNum on a relation or its negation (no conjunction).
func (d *domains) decideRel(c syntax.Node) (string, string) {
	if l, ok := c.(*syntax.List); ok && forms.Head(l) != "and" {
		return d.decideNum(c)
	}
	return "", ""
}

func underText(texts []string) string {
	if len(texts) == 0 {
		return ""
	}
	return ", where " + strings.Join(texts, " and ")
}

// assumptions are what a conjunction's conjuncts say of the variables
// they test, for evaluating the others: V true makes V anything but
// nil, (not V) or (null V) nil, (eq V 'S) the symbol S, (not (eq V 'S))
// anything but S, (member V '(S...)) one of the Ss, (not (member V
// '(S...))) none of them. A label evaluates its conjuncts one after the other at
// one point of the run, so they hold of every conjunct alike when none
// can change V in between: V is a lexical variable (no special, which a
// called function may assign) that no closure assigns (lambda, flet and
// labels bodies), and the conjuncts assign nothing themselves.
func (d *domains) assumptions(conj []syntax.Node) (map[string]aval, []string) {
	if len(conj) < 2 || !d.pureConj(conj) {
		return nil, nil
	}
	out := map[string]aval{}
	var texts []string
	for _, c := range conj {
		name, v, ok := d.assumption(c)
		if !ok || d.a.specials[name] || strings.HasPrefix(name, "*") || d.a.closureAssigned()[name] {
			continue
		}
		texts = append(texts, name+" "+symsText(v)+" by "+syntax.NodeString(c))
		if w, dup := out[name]; dup {
			v = meetSyms(w, v) // two conditions on one variable: both hold
		}
		out[name] = v
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, texts
}

// assumption is what conjunct c says of the variable it tests.
func (d *domains) assumption(c syntax.Node) (string, aval, bool) {
	neg := false
	for {
		l, ok := c.(*syntax.List)
		if !ok || (forms.Head(l) != "not" && forms.Head(l) != "null") || len(l.Elems) != 2 {
			break
		}
		neg, c = !neg, l.Elems[1]
	}
	if s, ok := c.(*syntax.Symbol); ok && d.a.res.IsTemp(s.Name) {
		// A temporary normalize bound once to a call, in the label's
		// let*: the call of a one-test plan function.
		if init, ok := d.a.once[s.Name].(*syntax.List); ok && forms.Head(init) != "" && d.a.funcs[forms.Head(init)] != nil {
			c = init
		}
	}
	if l, ok := c.(*syntax.List); ok {
		if in, ok := d.a.inlinePred(l); ok {
			return d.assumption(notIf(neg, in))
		}
	}
	switch c := c.(type) {
	case *syntax.Symbol:
		if c.Name == "t" || c.Name == "nil" || d.a.res.IsTemp(c.Name) {
			return "", aval{}, false
		}
		if neg {
			return c.Name, nilVal(), true
		}
		v := d.a.ev(c, 0)
		if v.other && v.symsKnown() {
			v.syms = slices.DeleteFunc(slices.Clone(v.syms), func(s string) bool { return s == "nil" })
			if len(v.syms) == 0 {
				v.other, v.syms, v.noCons = false, nil, false
			}
			return c.Name, v, true
		}
	case *syntax.List:
		if s, syms, ok := memberLiteral(c); ok && !d.a.res.IsTemp(s.Name) {
			if !neg {
				return s.Name, symVal(syms...), true
			}
			v := d.a.ev(s, 0)
			if v.other && v.symsKnown() {
				v.syms = slices.DeleteFunc(slices.Clone(v.syms), func(x string) bool { return slices.Contains(syms, x) })
				if len(v.syms) == 0 {
					v.other, v.syms, v.noCons = false, nil, false
				}
				return s.Name, v, true
			}
			return "", aval{}, false
		}
		if h := forms.Head(c); (h == "eq" || h == "eql") && len(c.Elems) == 3 {
			x, k := c.Elems[1], c.Elems[2]
			if _, ok := x.(*syntax.Symbol); !ok {
				x, k = k, x
			}
			s, ok := x.(*syntax.Symbol)
			sym, isSym := symbolConst(k)
			if !ok || !isSym || s.Name == "t" || s.Name == "nil" || d.a.res.IsTemp(s.Name) {
				return "", aval{}, false
			}
			if !neg {
				return s.Name, symVal(sym), true
			}
			v := d.a.ev(s, 0)
			if v.other && v.symsKnown() {
				v.syms = slices.DeleteFunc(slices.Clone(v.syms), func(x string) bool { return x == sym })
				if len(v.syms) == 0 {
					v.other, v.syms, v.noCons = false, nil, false
				}
				return s.Name, v, true
			}
		}
	}
	return "", aval{}, false
}

// symbolConst is the symbol a constant operand denotes: 'S, :K, nil, t.
func symbolConst(n syntax.Node) (string, bool) {
	switch n := n.(type) {
	case *syntax.Keyword:
		return ":" + n.Name, true
	case *syntax.Symbol:
		if n.Name == "t" || n.Name == "nil" {
			return n.Name, true
		}
	}
	if s, ok := quotedData(n).(*syntax.Symbol); ok {
		return s.Name, true
	}
	return "", false
}

// pureHeads are the builtins a conjunct may call while its assumptions
// hold of the others: none assigns a variable.
var pureHeads = map[string]bool{"not": true, "null": true, "eq": true, "eql": true, "equal": true, "member": true,
	"first": true, "car": true, "second": true, "third": true, "nth": true, "rest": true, "cdr": true, "quote": true,
	"<": true, "<=": true, ">": true, ">=": true, "=": true, "/=": true, "+": true, "-": true, "*": true,
	"length": true, "abs": true, "min": true, "max": true, "1+": true, "1-": true, "numberp": true,
	"assoc": true, "desig-prop": true, "and": true, "or": true, "if": true}

// pureConj reports whether the conjuncts call only pure builtins, the
// world's queries and the plan's own functions (which assign no lexical
// variable of the caller unless through a closure: assumptions checks).
func (d *domains) pureConj(conj []syntax.Node) bool {
	pure := true
	for _, c := range conj {
		syntax.Walk(c, func(n syntax.Node) bool {
			if _, q := n.(*syntax.Quote); q {
				return false // data
			}
			l, ok := n.(*syntax.List)
			if !ok || !pure {
				return pure
			}
			h := forms.Head(l)
			switch {
			case h == "":
				pure = false
			case d.a.funcs[h] != nil && !d.a.localFns[h]:
			case d.a.localFns[h] || d.a.res.IsUserFunc(h):
				pure = false
			case pureHeads[h]:
			case d.a.fns[h].Why != "" || d.a.fns[h].Symbols != nil || d.a.fns[h].Value != nil || d.a.fns[h].Elems != nil:
			default:
				pure = false
			}
			return pure && h != "quote"
		})
	}
	return pure
}

// closureAssigned are the names a lambda, flet or labels body assigns
// anywhere in the plan (computed once).
func (a *valueAnalysis) closureAssigned() map[string]bool {
	if a.closAssigned != nil {
		return a.closAssigned
	}
	a.closAssigned = map[string]bool{}
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok {
				return true
			}
			switch forms.Head(l) {
			case "lambda", "flet", "labels":
				syntax.Walk(l, func(x syntax.Node) bool {
					if xl, ok := x.(*syntax.List); ok && assignHeads[forms.Head(xl)] {
						markSymbols(xl.Elems[1:], a.closAssigned)
					}
					return true
				})
				return false
			}
			return true
		})
	}
	return a.closAssigned
}

// strictHeads are the builtins that evaluate every argument before they
// return (a failure in one fails the call).
var strictHeads = map[string]bool{"not": true, "null": true, "eq": true, "eql": true, "equal": true, "member": true,
	"first": true, "car": true, "second": true, "third": true, "nth": true, "rest": true, "cdr": true,
	"<": true, "<=": true, ">": true, ">=": true, "=": true, "/=": true, "+": true, "-": true, "*": true,
	"length": true, "abs": true, "min": true, "max": true, "1+": true, "1-": true, "numberp": true}

// failingCall finds, among the calls evaluating c always evaluates, a
// world query that fails on nil (domain.Domain.FailsOnNil) given an
// argument that is always nil: c then never returns.
func (d *domains) failingCall(c syntax.Node) (*syntax.List, syntax.Node, bool) {
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) < 2 {
		return nil, nil, false
	}
	h := forms.Head(l)
	if h == "" || d.a.funcs[h] != nil || d.a.localFns[h] || d.a.res.IsUserFunc(h) {
		return nil, nil, false
	}
	if dom, ok := d.a.fns[h]; ok {
		if !dom.FailsOnNil {
			return nil, nil, false
		}
		v := d.a.ev(l.Elems[1], 0)
		if !v.num && v.other && v.symsKnown() && slices.Equal(v.syms, []string{"nil"}) {
			return l, l.Elems[1], true
		}
		return nil, nil, false
	}
	if !strictHeads[h] {
		return nil, nil, false
	}
	for _, x := range l.Elems[1:] {
		if call, arg, ok := d.failingCall(x); ok {
			return call, arg, true
		}
	}
	return nil, nil, false
}

// memberLiteral splits (member V 'LIST), LIST all symbols, into V and
// the symbols.
func memberLiteral(c *syntax.List) (*syntax.Symbol, []string, bool) {
	if forms.Head(c) != "member" || len(c.Elems) != 3 {
		return nil, nil, false
	}
	s, ok := c.Elems[1].(*syntax.Symbol)
	lst, isLit := quotedData(c.Elems[2]).(*syntax.List)
	if !ok || !isLit || s.Name == "t" || s.Name == "nil" {
		return nil, nil, false
	}
	var syms []string
	for _, e := range lst.Elems {
		name, ok := symbolDatum(e)
		if !ok || name == "." {
			return nil, nil, false
		}
		syms = append(syms, name)
	}
	return s, syms, true
}

// symbolDatum is the symbol a quoted datum is (keywords as :k).
func symbolDatum(e syntax.Node) (string, bool) {
	switch e := e.(type) {
	case *syntax.Symbol:
		return e.Name, true
	case *syntax.Keyword:
		return ":" + e.Name, true
	}
	return "", false
}

// meetSyms is what both a and b (assumptions on one variable) allow:
// the common symbols (when both are known), numbers when both allow
// them (a's range: b's adds nothing an assumption gives).
func meetSyms(a, b aval) aval {
	r := a
	r.num = a.num && b.num
	switch {
	case !b.other:
		r.other, r.syms, r.noCons, r.lists = false, nil, false, nil
	case a.other && a.symsKnown() && b.symsKnown():
		r.syms = slices.DeleteFunc(slices.Clone(a.syms), func(x string) bool { return !slices.Contains(b.syms, x) })
		if len(r.syms) == 0 {
			r.other, r.syms, r.noCons = false, nil, false
		}
	case a.other && !a.symsKnown() && b.symsKnown():
		r.other, r.syms, r.noCons, r.lists = true, slices.Clone(b.syms), true, nil
	}
	return r
}

// notIf is (not c) when neg, else c.
func notIf(neg bool, c syntax.Node) syntax.Node {
	if !neg {
		return c
	}
	return &syntax.List{Elems: []syntax.Node{sym("not"), c}}
}
