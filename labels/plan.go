package labels

import (
	"fmt"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// DefaultMCCMaxAtoms is the default bound on the atoms of a decision for
// MCC; decisions with more atoms fall back to CC (2^n labels would explode).
const DefaultMCCMaxAtoms = 8

// Options select what Enumerate produces.
type Options struct {
	Criteria Criteria
	// MCCMaxAtoms bounds MCC (0 means DefaultMCCMaxAtoms).
	MCCMaxAtoms int
}

// Set is the outcome of enumerating the labels of one plan.
type Set struct {
	File        string
	Criteria    Criteria
	MCCMaxAtoms int
	// Labels in source order; active ones carry ids 1, 2, ...
	Labels []*Label
	// Warnings such as MCC falling back to CC, each at file:line:col.
	Warnings []*syntax.Error
}

// Active returns the active labels in id order.
func (s *Set) Active() []*Label {
	var out []*Label
	for _, l := range s.Labels {
		if l.Status == Active {
			out = append(out, l)
		}
	}
	return out
}

// Summary counts labels per selected key.
func (s *Set) Summary() map[Key]*Counts { return Summarize(s.Criteria, s.Labels) }

// Enumerate lists the labels of a normalized plan. Only code that exists in
// the original plan carries labels: scaffolding that normalize introduced
// (its let* and the if that guards a hoisted operand) carries none, while
// temporaries stand for the operands they hold.
func Enumerate(res *normalize.Result, opts Options) (*Set, error) {
	if opts.Criteria == 0 {
		return nil, fmt.Errorf("labels: no criterion selected")
	}
	if opts.MCCMaxAtoms <= 0 {
		opts.MCCMaxAtoms = DefaultMCCMaxAtoms
	}
	e := &enumerator{res: res, opts: opts, seen: map[dedupKey]bool{}, skipped: map[string]int{},
		set: &Set{File: res.Orig.Name, Criteria: opts.Criteria, MCCMaxAtoms: opts.MCCMaxAtoms}}
	for _, f := range res.Forms {
		e.visit(f)
	}
	e.warnShadowed()
	ls := e.set.Labels
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].Pos.Offset < ls[j].Pos.Offset })
	id := 0
	for _, l := range ls {
		if l.Status == Active {
			id++
			l.ID = id
		}
	}
	return e.set, nil
}

type dedupKey struct {
	point     syntax.Node
	crit      Key
	pred, grd string
}

type enumerator struct {
	res     *normalize.Result
	opts    Options
	set     *Set
	seen    map[dedupKey]bool
	skipped map[string]int // builtin redefined by the plan -> labels left out
}

// shadowed returns the name of a builtin that predicate p calls in code
// this package wrote (not in the plan's own atoms) and that the plan
// redefines with defun: such a label would call the plan's function.
func (e *enumerator) shadowed(p syntax.Node) string {
	l, ok := p.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return ""
	}
	if e.res.Origin(l) != nil {
		return "" // the plan's own code, evaluated by the plan anyway
	}
	if h := syntax.Head(l); h != "" && e.res.IsUserFunc(h) {
		return h
	}
	for _, a := range l.Elems[1:] {
		if s := e.shadowed(a); s != "" {
			return s
		}
	}
	return ""
}

func (e *enumerator) warnShadowed() {
	names := make([]string, 0, len(e.skipped))
	for n := range e.skipped {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		at := syntax.Pos{Line: 1, Col: 1}
		for _, f := range e.res.Orig.Forms {
			if l, ok := f.(*syntax.List); ok && len(l.Elems) > 1 && syntax.IsSymbol(l.Elems[1], n) {
				at, _ = l.Elems[1].Span()
				break
			}
		}
		e.set.Warnings = append(e.set.Warnings, syntax.Errorf(e.res.Orig.Name, e.res.Orig.Src, at,
			"warning: the plan redefines the builtin %s, so %d labels that need it are left out", n, e.skipped[n]))
	}
}

// where is what a label is about: its original position and source text.
type where struct {
	pos Position
	src string
}

// maxSource bounds the source text recorded with a label.
const maxSource = 80

func (e *enumerator) where(n syntax.Node, fallback syntax.Node) where {
	o := e.res.Origin(n)
	if o == nil {
		o = e.res.Origin(fallback)
	}
	if o == nil {
		return where{pos: Position{File: e.res.Orig.Name}}
	}
	start, end := o.Span()
	src := string(e.res.Orig.Src[start.Offset:end.Offset])
	if len(src) > maxSource || strings.ContainsAny(src, "\n;") {
		src = syntax.NodeString(o) // one line, no comments
		if len(src) > maxSource {
			src = src[:maxSource-3] + "..."
		}
	}
	return where{pos: PositionOf(e.res.Orig.Name, start), src: src}
}

// add records a label unless an identical one (same point, criterion,
// predicate and guard) exists, and returns it (nil when it was not added).
func (e *enumerator) add(crit Key, op string, point syntax.Node, pred syntax.Node, guard syntax.Node, at where) *Label {
	pred = Simplify(pred)
	if name := e.shadowed(pred); name != "" {
		e.skipped[name]++
		return nil
	}
	l := &Label{Criterion: crit, Operator: op, Point: point, Cond: pred, Pos: at.pos, Source: at.src, Status: Active}
	l.Predicate = syntax.NodeString(pred)
	if guard != nil {
		if g := Simplify(guard); !isTrue(g) {
			l.Guard = syntax.NodeString(g)
		}
	}
	if v, ok := truth(pred); ok {
		if v {
			l.Status, l.Reason = Trivial, "predicate is constant true"
		} else {
			l.Status, l.Reason = Infeasible, "predicate is constant false"
		}
	}
	k := dedupKey{point, crit, l.Predicate, l.Guard}
	if e.seen[k] {
		return nil
	}
	e.seen[k] = true
	e.set.Labels = append(e.set.Labels, l)
	return l
}

func isTrue(n syntax.Node) bool { v, ok := truth(n); return ok && v }

func (e *enumerator) visit(n syntax.Node) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return
	}
	original := e.res.Origin(l) != nil
	h := syntax.Head(l)
	for _, s := range normalize.Slots(l) {
		c := normalize.At(l, s.Path)
		if s.Test && original {
			e.decision(e.res.Unwrap(c))
		}
		e.visit(c)
	}
	if original && !e.res.IsUserFunc(h) && !normalize.Opaque(l) {
		e.mutations(l, h)
	}
}

// atoms collects the maximal subexpressions of a decision that are not
// and/or/not forms, in order.
func atoms(n syntax.Node, out []syntax.Node) []syntax.Node {
	l, ok := n.(*syntax.List)
	if ok && !normalize.Opaque(l) {
		switch syntax.Head(l) {
		case "and", "or":
			for _, a := range l.Elems[1:] {
				out = atoms(a, out)
			}
			return out
		case "not":
			if len(l.Elems) == 2 {
				return atoms(l.Elems[1], out)
			}
		}
	}
	return append(out, n)
}

func (e *enumerator) decision(d syntax.Node) {
	c := e.opts.Criteria
	if !c.Has(MCC) && !c.Has(CC) {
		return
	}
	// Distinct, non-constant atoms: a repeated atom is one condition.
	var as []syntax.Node
	seen := map[string]bool{}
	for _, a := range atoms(d, nil) {
		if isConstant(a) {
			continue
		}
		k := syntax.NodeString(a)
		if !seen[k] {
			seen[k] = true
			as = append(as, a)
		}
	}
	if len(as) == 0 {
		return
	}
	at := e.where(d, nil)
	if c.Has(CC) {
		e.cc(CC, "", d, as)
	}
	if !c.Has(MCC) {
		return
	}
	if len(as) > e.opts.MCCMaxAtoms {
		o := e.res.Origin(d)
		if o == nil {
			o = d
		}
		start, _ := o.Span()
		e.set.Warnings = append(e.set.Warnings, syntax.Errorf(e.res.Orig.Name, e.res.Orig.Src, start,
			"warning: decision has %d atoms, more than --mcc-max-atoms %d: MCC falls back to CC here", len(as), e.opts.MCCMaxAtoms))
		e.cc(MCC, "cc fallback: ", d, as)
		return
	}
	n := len(as)
	for m := 0; m < 1<<n; m++ {
		lits := make([]signed, n)
		conj := make([]syntax.Node, n)
		var op strings.Builder
		for i, a := range as {
			v := m&(1<<(n-1-i)) == 0
			lits[i] = signed{a, v}
			if v {
				conj[i] = a
				op.WriteByte('T')
			} else {
				conj[i] = call("not", a)
				op.WriteByte('F')
			}
		}
		var pred syntax.Node = conj[0]
		if n > 1 {
			pred = call("and", conj...)
		}
		if l := e.add(MCC, op.String(), d, pred, nil, at); l != nil && l.Status == Active {
			if why, ok := infeasibleConj(lits); ok {
				l.Status, l.Reason = Infeasible, why
			} else if why, ok := e.shortCircuit(lits); ok {
				l.Status, l.Reason = Infeasible, why
			}
		}
	}
}

// shortCircuit finds a conjunction that asks a temporary holding a lazy
// and/or operand to be true while the operand it depends on has the
// wrong truth: the temporary is nil then, since the operand never ran.
func (e *enumerator) shortCircuit(lits []signed) (string, bool) {
	val := map[string]bool{}
	for _, s := range lits {
		if sym, ok := s.atom.(*syntax.Symbol); ok {
			val[sym.Name] = s.val
		}
	}
	for _, s := range lits {
		sym, ok := s.atom.(*syntax.Symbol)
		if !ok || !s.val {
			continue
		}
		for _, r := range e.res.Requires(sym.Name) {
			if v, ok := val[r.Temp]; ok && v != r.Truthy {
				want := "true"
				if !r.Truthy {
					want = "false"
				}
				return fmt.Sprintf("%s is only evaluated when %s is %s (short-circuit)", sym.Name, r.Temp, want), true
			}
		}
	}
	return "", false
}

func (e *enumerator) cc(crit Key, prefix string, d syntax.Node, as []syntax.Node) {
	for _, a := range as {
		at := e.where(a, d)
		e.add(crit, prefix+"true", d, a, nil, at)
		e.add(crit, prefix+"false", d, call("not", a), nil, at)
	}
}

// numberGuard is the domain of a numeric label: its non-literal operands
// are numbers.
func numberGuard(xs ...syntax.Node) syntax.Node {
	var gs []syntax.Node
	for _, x := range xs {
		if _, ok := numOf(x); !ok {
			gs = append(gs, call("numberp", x))
		}
	}
	switch len(gs) {
	case 0:
		return nil
	case 1:
		return gs[0]
	}
	return call("and", gs...)
}

func (e *enumerator) mutations(l *syntax.List, h string) {
	c := e.opts.Criteria
	at := e.where(l, nil)
	args := l.Elems[1:]
	switch {
	case normalize.IsRelational(h) && len(args) == 2 && c.Has(WMROR):
		a, b := args[0], args[1]
		for _, m := range []string{"<", "<=", ">", ">=", "=", "/="} {
			if m == h {
				continue
			}
			var pred syntax.Node
			switch diff := relMask[h] ^ relMask[m]; diff {
			case 7:
				pred = boolNode(true)
			case 0:
				pred = boolNode(false)
			default:
				pred = call(relOf(diff), a, b)
			}
			e.add(WMROR, h+" -> "+m, l, pred, numberGuard(a, b), at)
		}
	case normalize.IsArithmetic(h) && len(args) == 2 && c.Has(WMAOR):
		a, b := args[0], args[1]
		for _, m := range []string{"+", "-", "*", "/"} {
			if m == h {
				continue
			}
			var pred syntax.Node
			if (h == "+" && m == "-") || (h == "-" && m == "+") {
				pred = call("/=", b, zero()) // a+b and a-b differ iff b /= 0
			} else {
				pred = call("/=", call(h, a, b), call(m, a, b))
				if h == "/" || m == "/" {
					// A zero divisor makes exactly one side fail: they differ.
					pred = call("or", call("=", b, zero()), pred)
				}
			}
			e.add(WMAOR, h+" -> "+m, l, pred, numberGuard(a, b), at)
		}
	case h == "-" && len(args) == 1 && c.Has(WMAOR):
		e.add(WMAOR, "(- x) -> x", l, call("/=", args[0], zero()), numberGuard(args[0]), at)
	case (h == "and" || h == "or") && len(args) >= 2 && c.Has(WMCOR):
		other := map[string]string{"and": "or", "or": "and"}[h]
		var pred syntax.Node
		_, ca := truth(args[0])
		_, cb := truth(args[1])
		if len(args) == 2 && !ca && !cb {
			// Truthiness differs iff exactly one operand is true; this form
			// has no branches, which keeps the label cheap to run.
			pred = call("not", call("eq", call("null", args[0]), call("null", args[1])))
		} else {
			pred = call("and", call("or", args...), call("not", call("and", args...)))
		}
		e.add(WMCOR, h+" -> "+other, l, pred, nil, at)
	}
	if normalize.IsNumeric(h) && c.Has(WMABS) {
		for _, a := range args {
			s, ok := a.(*syntax.Symbol)
			if !ok || s.Name == "t" || s.Name == "nil" {
				continue
			}
			if _, isVar := e.res.Origin(a).(*syntax.Symbol); !isVar {
				continue // a temporary holding a computed operand
			}
			vat := e.where(a, l)
			g := call("numberp", a)
			e.add(WMABS, "x -> (abs x)", a, call("<", a, zero()), g, vat)
			e.add(WMABS, "x -> (- (abs x))", a, call(">", a, zero()), g, vat)
			e.add(WMABS, "x -> 0", a, call("=", a, zero()), g, vat)
		}
	}
}

func zero() syntax.Node { return &syntax.Int{Value: 0, Raw: "0"} }
