package feasible

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// domains decides labels from ranges: those of the plan's own arithmetic
// (the value analysis, values.go) and those Options.Domains gives for the
// functions the plan calls (a call of a function with a domain, an
// element of its list result taken with first/second/third/car/nth).
// Without either it knows nothing.
type domains struct {
	a *valueAnalysis // nil: no value analysis (Options.NoValues)
	// show renders an operand for reasons (temporaries as the source
	// they hold).
	show func(syntax.Node) string
}

func newDomains(res *normalize.Result, fns map[string]domain.Domain, off bool) *domains {
	d := &domains{show: syntax.NodeString}
	if !off {
		d.a = analyzeValues(res, fns)
		if !d.a.ok {
			d.a = nil // no fixpoint: no verdicts
		}
	}
	return d
}

// Outcomes of comparing two operands: less, equal, greater (labels.Relation's
// bits) and unordered (a NaN).
const unordered = 8

// outcomes are the outcomes (a op b) may meet in a run: as labels.Relation bits
// plus unordered, with sure set when both always evaluate to numbers
// without failing (the predicate then holds or not, never fails).
func (d *domains) outcomes(a, b syntax.Node) (va, vb aval, mask int, sure, ok bool) {
	if d.a == nil {
		return
	}
	va, vb = d.a.ev(a, 0), d.a.ev(b, 0)
	if !va.num && !va.other || !vb.num && !vb.other {
		// No value at all: code no run reaches (a function never
		// called) or a call that never returns; not worth a verdict.
		return va, vb, 0, false, false
	}
	if !va.num || !vb.num {
		return va, vb, 0, false, true // never two numbers: the relation fails
	}
	mask = relMask(va, vb) // (the intervals', or their sets', sets.go)
	if va.nan || vb.nan {
		mask |= unordered
	}
	sure = !va.other && !vb.other && d.cannotFail(a) && d.cannotFail(b)
	return va, vb, mask, sure, true
}

// cannotFail reports whether evaluating n cannot fail: variables that
// always hold numbers, literals, and + - * abs min max 1+ 1- of such (no
// division, no call).
func (d *domains) cannotFail(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Symbol:
		v := d.a.ev(n, 0)
		return v.num && !v.other
	case *syntax.Int, *syntax.Float:
		return true
	case *syntax.List:
		switch syntax.Head(n) {
		case "abs", "1+", "1-": // the VM fails them on more than one operand
			return len(n.Elems) == 2 && d.cannotFail(n.Elems[1])
		case "+", "-", "*", "min", "max":
			if len(n.Elems) < 2 {
				return false
			}
			for _, x := range n.Elems[1:] {
				if !d.cannotFail(x) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// informative reports whether v says more than "any number".
func informative(v aval) bool {
	return !v.num || v.lo > minInt || v.hi < maxInt || v.setOK()
}

// judge decides the relation (op a b), negated when neg (the (not REL)
// of CC and MCC: true on unordered operands, false on failures). It
// returns "never" or "always" with a reason, or "" when the ranges do not
// decide it. It calls a relation always true only when both operands are
// always numbers that cannot fail to evaluate.
func (d *domains) judge(op string, a, b syntax.Node, neg bool) (string, string) {
	r, rel := labels.RelationOf(op)
	if !rel {
		return "", ""
	}
	m := int(r)
	va, vb, mask, sure, ok := d.outcomes(a, b)
	_, la := number(a)
	_, lb := number(b)
	if !ok || la && lb || !(!la && informative(va) || !lb && informative(vb)) {
		return "", ""
	}
	accept := m // the outcomes the predicate holds on
	if mask&unordered != 0 && op == "/=" {
		accept |= unordered
	}
	if neg {
		accept = (7 | unordered) &^ accept
	}
	var verdict string
	switch {
	case mask&accept == 0:
		verdict = "never"
	case sure && mask&^accept == 0:
		verdict = "always"
	default:
		return "", ""
	}
	return verdict, d.reason(verdict, a, b, va, vb, la, lb)
}

// reason explains a verdict: the operands' ranges and where they come
// from — the world's domains, or the plan's own expressions.
func (d *domains) reason(verdict string, a, b syntax.Node, va, vb aval, la, lb bool) string {
	var desc []string
	var world, notes []string
	var srcs []vsrc
	more := false
	for _, x := range []struct {
		n   syntax.Node
		v   aval
		lit bool
	}{{a, va, la}, {b, vb, lb}} {
		if x.lit {
			continue
		}
		desc = append(desc, d.show(x.n)+" "+describeVal(x.v, len(desc) > 0))
		if x.v.world != "" && !slices.Contains(world, x.v.world) {
			world = append(world, x.v.world)
		}
		if x.v.note != "" && !slices.Contains(notes, x.v.note) {
			notes = append(notes, x.v.note)
		}
		for _, s := range x.v.src {
			// (no node, or a copy the labels made: no place in the plan)
			if s.n == nil || d.a.res.Origin(s.n) == nil || slices.ContainsFunc(srcs, func(t vsrc) bool { return t.n == s.n }) {
				continue
			}
			if len(srcs) < 2 {
				srcs = append(srcs, s)
			} else {
				more = true
			}
		}
		more = more || x.v.more
	}
	what := strings.Join(desc, " and ")
	var from []string
	for _, s := range srcs {
		from = append(from, d.a.where(s.n))
	}
	why := strings.Join(append(world, notes...), "; ")
	if len(from) > 0 {
		if why != "" {
			why += "; "
		}
		why += "from " + strings.Join(from, ", ")
		if more {
			why += ", ..."
		}
	}
	if why != "" {
		why = " (" + why + ")"
	}
	in := ""
	if len(world) > 0 {
		in = " in the world"
	}
	if verdict == "always" {
		return "always holds" + in + ": " + what + why
	}
	return "cannot hold" + in + ": " + what + why
}

// describeVal says what is known of v: "is in [0, 4095]", "is 150", "is
// never a number"; short (without "is") for a second operand.
func describeVal(v aval, short bool) string {
	is := "is "
	if short {
		is = ""
	}
	switch {
	case !v.num:
		return is + "never a number"
	case v.lo == v.hi:
		return "is " + fmtBound(v.lo, v.intOnly())
	case v.setOK() && len(v.pieces()) < 2:
		return "is " + setText(v)
	case v.setOK():
		return is + setText(v)
	}
	return fmt.Sprintf("%sin [%s, %s]", is, fmtBound(v.lo, v.intOnly()), fmtBound(v.hi, v.intOnly()))
}

// fmtBound writes a bound: integers in full (2^63 as MaxInt64).
func fmtBound(x float64, isInt bool) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case isInt && x >= maxInt:
		return "9223372036854775807"
	case isInt && x <= minInt:
		return "-9223372036854775808"
	case x == math.Trunc(x) && math.Abs(x) < 1e18:
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// decide returns a verdict on predicate p ("never", "always" or "") with
// its reason: a relation judge decides, its negation (not REL), or a
// conjunction (an MCC label): never when a conjunct never holds, always
// when all always do.
func (d *domains) decide(p syntax.Node) (string, string) {
	if d.a == nil {
		return "", ""
	}
	if v, why := d.decideSyms(p); v != "" {
		return v, why
	}
	return d.decideNum(p)
}

// decideNum is decide from the ranges of numbers alone.
func (d *domains) decideNum(p syntax.Node) (string, string) {
	l, ok := p.(*syntax.List)
	if !ok {
		return "", ""
	}
	switch syntax.Head(l) {
	case "and":
		all, first := true, ""
		for _, c := range l.Elems[1:] {
			v, why := d.decideNum(c)
			if v == "never" {
				return v, why
			}
			if v != "always" {
				all = false
			} else if first == "" {
				first = why
			}
		}
		if all && len(l.Elems) > 1 {
			return "always", first
		}
	case "not":
		if len(l.Elems) == 2 {
			if r, ok := l.Elems[1].(*syntax.List); ok && len(r.Elems) == 3 {
				return d.judge(syntax.Head(r), r.Elems[1], r.Elems[2], true)
			}
		}
	default:
		if len(l.Elems) == 3 {
			return d.judge(syntax.Head(l), l.Elems[1], l.Elems[2], false)
		}
	}
	return "", ""
}
