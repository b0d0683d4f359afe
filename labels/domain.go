package labels

import (
	"fmt"
	"math"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Range and Domain describe what the caller knows of the numeric results
// of a function the plan calls (see package domain, which imports only the
// standard library so that the simulator can build them).
type (
	Range  = domain.Range
	Domain = domain.Domain
)

// domains answers "what range can this expression take?" from
// Options.Domains: a call of a function with a domain, an element of its
// list result taken with first/second/third/car/nth, and a variable bound
// once (let, let*) to such an expression and never assigned or rebound
// anywhere in the plan — temporaries included.
type domains struct {
	fns  map[string]Domain
	res  *normalize.Result
	vars map[string]syntax.Node // variable -> the one expression bound to it
}

func newDomains(res *normalize.Result, fns map[string]Domain) *domains {
	d := &domains{fns: fns, res: res, vars: map[string]syntax.Node{}}
	if len(fns) == 0 {
		return d
	}
	bound := map[string]int{}
	assigned := map[string]bool{}
	for _, f := range res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok {
				return true
			}
			switch syntax.Head(l) {
			case "let", "let*":
				if len(l.Elems) > 1 {
					if bl, ok := l.Elems[1].(*syntax.List); ok {
						for _, b := range bl.Elems {
							switch b := b.(type) {
							case *syntax.Symbol:
								bound[b.Name] += 2 // bound to nil: no range
							case *syntax.List:
								if len(b.Elems) == 2 {
									if s, ok := b.Elems[0].(*syntax.Symbol); ok {
										bound[s.Name]++
										d.vars[s.Name] = b.Elems[1]
									}
								}
							}
						}
					}
				}
			case "setq", "setf", "incf", "decf", "push", "pop":
				for _, a := range l.Elems[1:] {
					if s, ok := a.(*syntax.Symbol); ok {
						assigned[s.Name] = true
					}
				}
			case "defun", "def-plan", "def-check", "def-policy", "lambda", "dolist", "dotimes", "defparameter":
				// Parameters, loop variables and globals are bound by
				// other means: never trust a let of the same name.
				i := 2
				if syntax.Head(l) == "lambda" || syntax.Head(l) == "defparameter" {
					i = 1
				}
				if i < len(l.Elems) {
					switch p := l.Elems[i].(type) {
					case *syntax.List:
						for _, x := range p.Elems {
							if s, ok := x.(*syntax.Symbol); ok {
								bound[s.Name] += 2
							}
						}
					case *syntax.Symbol:
						bound[p.Name] += 2
					}
				}
			}
			return true
		})
	}
	for name := range d.vars {
		if bound[name] != 1 || assigned[name] {
			delete(d.vars, name)
		}
	}
	return d
}

// rangeOf returns the range of n, with the domain it comes from.
func (d *domains) rangeOf(n syntax.Node, depth int) (Range, string, bool) {
	if depth > 8 || len(d.fns) == 0 {
		return Range{}, "", false
	}
	switch n := n.(type) {
	case *syntax.Int, *syntax.Float:
		v, _ := numOf(n)
		return Range{Lo: v.float(), Hi: v.float()}, "", true
	case *syntax.Symbol:
		if init, ok := d.vars[n.Name]; ok {
			return d.rangeOf(init, depth+1)
		}
		if d.res.IsTemp(n.Name) {
			if o := d.res.Origin(n); o != nil && o != syntax.Node(n) {
				return d.rangeOf(o, depth+1)
			}
		}
	case *syntax.List:
		h := syntax.Head(n)
		if dom, ok := d.fns[h]; ok && dom.Value != nil && !d.res.IsUserFunc(h) {
			return *dom.Value, dom.Why, true
		}
		idx := -1
		var arg syntax.Node
		switch {
		case (h == "first" || h == "car") && len(n.Elems) == 2:
			idx, arg = 0, n.Elems[1]
		case h == "second" && len(n.Elems) == 2:
			idx, arg = 1, n.Elems[1]
		case h == "third" && len(n.Elems) == 2:
			idx, arg = 2, n.Elems[1]
		case h == "nth" && len(n.Elems) == 3:
			if k, ok := n.Elems[1].(*syntax.Int); ok && k.Value >= 0 && k.Value < 1<<20 {
				idx, arg = int(k.Value), n.Elems[2]
			}
		}
		if idx < 0 || d.res.IsUserFunc(h) {
			return Range{}, "", false
		}
		if s, ok := arg.(*syntax.Symbol); ok {
			if init, ok := d.vars[s.Name]; ok {
				arg = init
			} else if d.res.IsTemp(s.Name) {
				if o := d.res.Origin(s); o != nil {
					arg = o
				}
			}
		}
		if l, ok := arg.(*syntax.List); ok {
			if dom, ok := d.fns[syntax.Head(l)]; ok && idx < len(dom.Elems) && !d.res.IsUserFunc(syntax.Head(l)) {
				return dom.Elems[idx], dom.Why, true
			}
		}
	}
	return Range{}, "", false
}

// judge decides a simplified predicate (OP a b), OP relational, from the
// ranges of a and b (abs, + and - of ranged operands included): it
// returns a reason when no values in the domains satisfy it. It never
// calls a label trivial: a query may return nil (no cell while held), and
// a label on a non-number is false.
func (d *domains) judge(p syntax.Node) (string, bool) {
	l, isList := p.(*syntax.List)
	if !isList || len(l.Elems) != 3 || len(d.fns) == 0 {
		return "", false
	}
	op := syntax.Head(l)
	if _, rel := relMask[op]; !rel {
		return "", false
	}
	ra, wa, oka := d.exprRange(l.Elems[1])
	rb, wb, okb := d.exprRange(l.Elems[2])
	if !oka || !okb || (wa == "" && wb == "") {
		return "", false
	}
	// The outcomes (less, equal, greater) that a in ra and b in rb allow.
	if ra.Lo < rb.Hi && holds(op, -1) ||
		ra.Lo <= rb.Hi && rb.Lo <= ra.Hi && holds(op, 0) ||
		ra.Hi > rb.Lo && holds(op, 1) {
		return "", false
	}
	desc := fmt.Sprintf("%s is in %s", syntax.NodeString(l.Elems[1]), ra)
	if wb != "" {
		desc += fmt.Sprintf(" and %s in %s", syntax.NodeString(l.Elems[2]), rb)
	}
	why := wa
	if why == "" || (wb != "" && wb != wa) {
		if why != "" {
			why += "; "
		}
		why += wb
	}
	return fmt.Sprintf("cannot hold in the world: %s (%s)", desc, why), true
}

// never reports, with a reason, a predicate that no values in the
// domains satisfy: a relation judge rules out, its negation (not REL), or
// a conjunction with such a conjunct (an MCC label).
func (d *domains) never(p syntax.Node) (string, bool) {
	l, ok := p.(*syntax.List)
	if !ok || len(d.fns) == 0 {
		return "", false
	}
	switch syntax.Head(l) {
	case "and":
		for _, c := range l.Elems[1:] {
			if why, ok := d.never(c); ok {
				return why, true
			}
		}
	case "not":
		if len(l.Elems) == 2 {
			if r, ok := l.Elems[1].(*syntax.List); ok && len(r.Elems) == 3 {
				if m, rel := relMask[syntax.Head(r)]; rel {
					return d.judge(call(relOf(7&^m), r.Elems[1], r.Elems[2]))
				}
			}
		}
	default:
		return d.judge(l)
	}
	return "", false
}

// exprRange extends rangeOf with (abs x) and (- a b), the shapes of the
// dist criterion's predicates.
func (d *domains) exprRange(n syntax.Node) (Range, string, bool) {
	if l, ok := n.(*syntax.List); ok && !d.res.IsUserFunc(syntax.Head(l)) {
		switch h := syntax.Head(l); {
		case h == "abs" && len(l.Elems) == 2:
			r, why, ok := d.exprRange(l.Elems[1])
			if !ok {
				return r, why, false
			}
			lo := 0.0
			if r.Lo > 0 {
				lo = r.Lo
			} else if r.Hi < 0 {
				lo = -r.Hi
			}
			return Range{Lo: lo, Hi: math.Max(math.Abs(r.Lo), math.Abs(r.Hi))}, why, true
		case (h == "-" || h == "+") && len(l.Elems) == 3:
			a, wa, oka := d.exprRange(l.Elems[1])
			b, wb, okb := d.exprRange(l.Elems[2])
			if !oka || !okb {
				return Range{}, "", false
			}
			why := wa
			if why == "" {
				why = wb
			}
			if h == "-" {
				return Range{Lo: a.Lo - b.Hi, Hi: a.Hi - b.Lo}, why, true
			}
			return Range{Lo: a.Lo + b.Lo, Hi: a.Hi + b.Hi}, why, true
		}
	}
	return d.rangeOf(n, 0)
}
