package labels

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// Predicates are built as syntax trees and simplified before they are
// judged: constant subexpressions over literals fold, and/or/not absorb
// constants. A predicate that folds to t is trivial, to nil infeasible.

func sym(name string) *syntax.Symbol { return &syntax.Symbol{Name: name} }

func call(head string, args ...syntax.Node) *syntax.List {
	return &syntax.List{Elems: append([]syntax.Node{sym(head)}, args...)}
}

// truth returns (truthy, true) when n is a constant.
func truth(n syntax.Node) (bool, bool) {
	switch n := n.(type) {
	case *syntax.Int, *syntax.Float, *syntax.String, *syntax.Keyword:
		return true, true
	case *syntax.Symbol:
		switch n.Name {
		case "t":
			return true, true
		case "nil":
			return false, true
		}
	case *syntax.Quote:
		if s, ok := n.X.(*syntax.Symbol); ok && s.Name == "nil" {
			return false, true
		}
		if l, ok := n.X.(*syntax.List); ok && len(l.Elems) == 0 {
			return false, true
		}
		return true, true
	case *syntax.List:
		if len(n.Elems) == 0 {
			return false, true
		}
	}
	return false, false
}

// boolNode returns a fresh t or nil: nodes are never shared between
// predicates, since passes key maps by node identity.
func boolNode(b bool) syntax.Node {
	if b {
		return sym("t")
	}
	return sym("nil")
}

// num is a numeric literal value.
type num struct {
	isInt bool
	i     int64
	f     float64
}

func (v num) float() float64 {
	if v.isInt {
		return float64(v.i)
	}
	return v.f
}

func numOf(n syntax.Node) (num, bool) {
	switch n := n.(type) {
	case *syntax.Int:
		return num{isInt: true, i: n.Value}, true
	case *syntax.Float:
		return num{f: n.Value}, true
	}
	return num{}, false
}

func numNode(v num) syntax.Node {
	if v.isInt {
		return &syntax.Int{Value: v.i, Raw: strconv.FormatInt(v.i, 10)}
	}
	raw := strconv.FormatFloat(v.f, 'g', -1, 64)
	if !strings.ContainsAny(raw, ".eEnI") {
		raw += ".0"
	}
	if math.IsInf(v.f, 0) || math.IsNaN(v.f) {
		return nil
	}
	return &syntax.Float{Value: v.f, Raw: raw}
}

// cmp3 compares two numbers: -1, 0, 1.
func cmp3(a, b num) int {
	if a.isInt && b.isInt {
		switch {
		case a.i < b.i:
			return -1
		case a.i > b.i:
			return 1
		}
		return 0
	}
	x, y := a.float(), b.float()
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// fold applies arithmetic on two numeric literals, as the VM would.
func fold(op string, a, b num) (num, bool) {
	if a.isInt && b.isInt {
		switch op {
		case "+":
			return num{isInt: true, i: a.i + b.i}, true
		case "-":
			return num{isInt: true, i: a.i - b.i}, true
		case "*":
			return num{isInt: true, i: a.i * b.i}, true
		case "/":
			if b.i == 0 || (a.i == math.MinInt64 && b.i == -1) {
				return num{}, false
			}
			return num{isInt: true, i: a.i / b.i}, true
		}
		return num{}, false
	}
	x, y := a.float(), b.float()
	switch op {
	case "+":
		return num{f: x + y}, true
	case "-":
		return num{f: x - y}, true
	case "*":
		return num{f: x * y}, true
	case "/":
		if y == 0 {
			return num{}, false
		}
		return num{f: x / y}, true
	}
	return num{}, false
}

// Simplify folds constants in a predicate built by this package. It only
// rewrites forms it knows (and, or, not, null, numberp, zerop, relational
// and arithmetic builtins); anything else is kept as is.
func Simplify(n syntax.Node) syntax.Node {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return n
	}
	h := syntax.Head(l)
	// args are l's own operands until one simplifies to another node:
	// most predicates have nothing to fold, and are then not copied.
	args, changed := l.Elems[1:], false
	for i, a := range args {
		s := Simplify(a)
		if s == a {
			continue
		}
		if !changed {
			args, changed = slices.Clone(args), true
		}
		args[i] = s
	}
	switch h {
	case "and", "or":
		stop := h == "or" // the value that decides
		// keep is a head (set last), then the operands kept.
		keep := make([]syntax.Node, 1, 1+len(args))
		for _, a := range args {
			if v, ok := truth(a); ok {
				if v == stop {
					return boolNode(stop)
				}
				continue
			}
			keep = append(keep, a)
		}
		switch len(keep) {
		case 1:
			return boolNode(!stop)
		case 2:
			return keep[1]
		}
		keep[0] = sym(h)
		return &syntax.List{Elems: keep}
	case "not", "null":
		if len(args) == 1 {
			if v, ok := truth(args[0]); ok {
				return boolNode(!v)
			}
		}
	case "numberp":
		if len(args) == 1 {
			if _, ok := numOf(args[0]); ok {
				return boolNode(true)
			}
			if _, ok := truth(args[0]); ok {
				return boolNode(false)
			}
		}
	case "abs":
		if len(args) == 1 {
			if v, ok := numOf(args[0]); ok && (!v.isInt || v.i != math.MinInt64) {
				if cmp3(v, num{isInt: true}) < 0 {
					v = num{isInt: v.isInt, i: -v.i, f: -v.f}
				}
				if nn := numNode(v); nn != nil {
					return nn
				}
			}
		}
	case "zerop":
		if len(args) == 1 {
			if v, ok := numOf(args[0]); ok {
				return boolNode(cmp3(v, num{isInt: true}) == 0)
			}
		}
	case "<", "<=", ">", ">=", "=", "/=":
		if len(args) == 2 {
			a, aok := numOf(args[0])
			b, bok := numOf(args[1])
			if aok && bok {
				r, _ := RelationOf(h)
				return boolNode(r.Holds(cmp3(a, b)))
			}
		}
	case "+", "-", "*", "/":
		if len(args) == 2 {
			a, aok := numOf(args[0])
			b, bok := numOf(args[1])
			if aok && bok {
				if v, ok := fold(h, a, b); ok {
					if nn := numNode(v); nn != nil {
						return nn
					}
				}
			}
			// Identities with an integer 0 or 1 (the predicates are only
			// meaningful on numbers, where these hold exactly).
			switch {
			case bok && isIntLit(b, 0) && (h == "+" || h == "-"):
				return args[0]
			case aok && isIntLit(a, 0) && h == "+":
				return args[1]
			case bok && isIntLit(b, 1) && (h == "*" || h == "/"):
				return args[0]
			case aok && isIntLit(a, 1) && h == "*":
				return args[1]
			}
		}
	}
	if changed {
		return &syntax.List{Elems: append([]syntax.Node{l.Elems[0]}, args...)}
	}
	return l // unchanged: keep the node, and with it its identity
}

func isIntLit(v num, x int64) bool { return v.isInt && v.i == x }

// isConstant reports whether n folds to a constant.
func isConstant(n syntax.Node) bool {
	if normalize.IsConstant(n) {
		return true
	}
	_, ok := truth(Simplify(n))
	return ok
}
