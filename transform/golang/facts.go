package golang

// Range contradictions: labels whose relations on integer operands cannot
// hold together with the types' ranges and the conditions that guard
// their point.

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	gonorm "github.com/labelcov/labelcov/normalize/golang"
)

// fact is a condition known to hold where statements are being
// enumerated: an enclosing if's condition (or its negation in the else
// branch), a for loop's condition in its body, or the negation of the
// condition of an earlier `if C { ... return }` of the same block. Only
// conditions over stable variables are facts (stableExpr).
// It is the same pair as lazy (a condition, maybe negated): only where it
// holds differs.
type fact = lazy

// writeCounts counts, per local variable of f, its definitions (:=, var)
// and its other writes (=, op=, ++, --, a range with =, its address
// taken), over every function of f (closures included).
func (e *enumerator) writeCounts(f *dst.File) {
	e.defs, e.writes = map[types.Object]int{}, map[types.Object]int{}
	obj := func(x dst.Expr) types.Object {
		if id, ok := gonorm.Unparen(x).(*dst.Ident); ok && id.Path == "" {
			return e.t.ObjectOf(id)
		}
		return nil
	}
	count := func(m map[types.Object]int, x dst.Expr) {
		if o := obj(x); o != nil {
			m[o]++
		}
	}
	dst.Inspect(f, func(n dst.Node) bool {
		switch s := n.(type) {
		case *dst.AssignStmt:
			for _, l := range s.Lhs {
				if s.Tok == token.DEFINE {
					count(e.defs, l)
				} else {
					count(e.writes, l)
				}
			}
		case *dst.IncDecStmt:
			count(e.writes, s.X)
		case *dst.UnaryExpr:
			if s.Op == token.AND {
				count(e.writes, s.X)
			}
		case *dst.RangeStmt:
			for _, x := range []dst.Expr{s.Key, s.Value} {
				if x == nil {
					continue
				}
				if s.Tok == token.DEFINE {
					count(e.defs, x)
				} else {
					count(e.writes, x)
				}
			}
		case *dst.ValueSpec:
			for _, id := range s.Names {
				count(e.defs, id)
			}
		}
		return true
	})
}

// stableExpr reports whether x reads only variables whose value never
// changes once defined — local variables (parameters included) of unnamed
// basic or slice types that are defined once and never assigned,
// incremented or have their address taken — with constants, len and cap
// of such variables (not of maps or channels), conversions to basic types
// and operators: its value is the same wherever it is read after its
// definition. Fields, indexes, calls and package variables are
// not stable (another alias or function may change them).
func (e *enumerator) stableExpr(x dst.Expr) bool {
	if e.t.Const(x) != nil {
		return true
	}
	switch y := x.(type) {
	case *dst.ParenExpr:
		return e.stableExpr(y.X)
	case *dst.Ident:
		o, ok := e.t.ObjectOf(y).(*types.Var)
		if !ok || y.Path != "" || o.Pkg() == nil || o.Parent() == o.Pkg().Scope() || o.Parent() == nil {
			return false
		}
		// Of an unnamed basic or slice type: a method with a pointer
		// receiver could change a named one without a visible &.
		switch o.Type().(type) {
		case *types.Basic, *types.Slice:
		default:
			return false
		}
		return e.writes[o] == 0 && e.defs[o] <= 1
	case *dst.UnaryExpr:
		return (y.Op == token.NOT || y.Op == token.SUB || y.Op == token.ADD) && e.stableExpr(y.X)
	case *dst.BinaryExpr:
		return e.stableExpr(y.X) && e.stableExpr(y.Y)
	case *dst.CallExpr:
		if len(y.Args) != 1 {
			return false
		}
		if id, ok := y.Fun.(*dst.Ident); ok && id.Path == "" && (id.Name == "len" || id.Name == "cap") {
			if _, b := e.t.ObjectOf(id).(*types.Builtin); b {
				// Not of a map or channel: their length changes without a
				// write to the variable.
				switch e.t.TypeOf(y.Args[0]).Underlying().(type) {
				case *types.Map, *types.Chan:
					return false
				}
				return e.stableExpr(y.Args[0])
			}
		}
		if e.t.IsType(y.Fun) && gonorm.Basic(e.t.TypeOf(y.Fun)) != nil {
			return e.stableExpr(y.Args[0])
		}
	}
	return false
}

// pushFact adds c (negated with neg) to the facts when it is stable, and
// returns how many facts it added (0 or 1).
func (e *enumerator) pushFact(c dst.Expr, neg bool) int {
	if e.inGoto || c == nil || e.t.Impure(c) || !e.stableExpr(c) {
		return 0
	}
	e.facts = append(e.facts, fact{c, neg})
	return 1
}

// terminates reports whether the block's last statement leaves it: a
// return, a branch statement (break, continue, goto) or a call of panic.
func (e *enumerator) terminates(b *dst.BlockStmt) bool {
	if b == nil || len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *dst.ReturnStmt, *dst.BranchStmt:
		return true
	case *dst.ExprStmt:
		if c, ok := s.X.(*dst.CallExpr); ok {
			if id, ok := c.Fun.(*dst.Ident); ok && id.Name == "panic" && id.Path == "" {
				_, b := e.t.ObjectOf(id).(*types.Builtin)
				return b
			}
		}
	}
	return false
}

// rangeBound is a relation of a typed operand with a constant.
type rangeBound struct {
	x   string
	typ types.Type
	b   feasible.Bound
}

// rangeContradiction says why the conjunction conj of a label (its
// predicate and checks) cannot hold together with the facts at its point
// and the ranges of its operands' types, or "": relations of integer
// operands with constants (feasible.Contradiction over the operand's
// bounds: an unsigned operand, len and cap are at least 0; an operand of
// 32 bits or fewer lies in its type's range), and a string less than ""
// (no string is). typed are original expressions of conj's operands,
// whose types and constants are read by their text.
func (e *enumerator) rangeContradiction(conj []pe, typed []dst.Expr) (string, bool) {
	byText := map[string]dst.Expr{}
	// A name that stands for two variables (shadowing) makes every
	// expression reading it ambiguous: no bound on those.
	objs := map[string]types.Object{}
	ambiguous := map[string]bool{}
	record := func(x dst.Expr) {
		dst.Inspect(x, func(n dst.Node) bool {
			if id, ok := n.(*dst.Ident); ok {
				if o := e.t.ObjectOf(id); o != nil {
					if prev, seen := objs[id.Name]; seen && prev != o {
						ambiguous[id.Name] = true
					}
					objs[id.Name] = o
				}
			}
			if y, ok := n.(dst.Expr); ok && e.t.TypeOf(y) != nil {
				if _, seen := byText[ExprString(y)]; !seen {
					byText[ExprString(y)] = y
				}
			}
			return true
		})
	}
	readsAmbiguous := func(x dst.Expr) bool {
		found := false
		dst.Inspect(x, func(n dst.Node) bool {
			if id, ok := n.(*dst.Ident); ok && ambiguous[id.Name] {
				found = true
			}
			return !found
		})
		return found
	}
	for _, x := range typed {
		record(x)
	}
	all := append([]pe(nil), conj...)
	nLabel := len(all)
	for _, f := range e.facts {
		record(f.e)
		all = append(all, f.pe())
	}
	var flat []pe
	var fromFact []bool
	var split func(p pe, isFact bool)
	split = func(p pe, isFact bool) {
		switch y := gonorm.Unparen(p.d).(type) {
		case *dst.BinaryExpr:
			if y.Op == token.LAND {
				split(pe{y.X, ExprString(y.X)}, isFact)
				split(pe{y.Y, ExprString(y.Y)}, isFact)
				return
			}
		case *dst.UnaryExpr:
			if y.Op == token.NOT {
				if b, ok := gonorm.Unparen(y.X).(*dst.BinaryExpr); ok && b.Op == token.LOR {
					split(not(pe{b.X, ExprString(b.X)}), isFact)
					split(not(pe{b.Y, ExprString(b.Y)}), isFact)
					return
				}
			}
		}
		flat = append(flat, p)
		fromFact = append(fromFact, isFact)
	}
	for i, p := range all {
		split(p, i >= nLabel)
	}
	// Bounds of the label's own relations, of its operands' types and of
	// the facts, tried in that order, so that the reason says no more
	// than it needs (a label contradicted by its own relations reads as
	// the plan front end's reason).
	var own, typ, facts []feasible.Bound
	ranged := map[string]bool{}
	for i, p := range flat {
		x, r, c, ctext, ok := e.relationOf(p, byText)
		if !ok || readsAmbiguous(x) {
			continue
		}
		if t := gonorm.Basic(e.typeByText(x, byText)); t != nil && t.Info()&types.IsString != 0 {
			if c.Kind() == constant.String && constant.StringVal(c) == "" && r == labels.Less && !fromFact[i] {
				return fmt.Sprintf("no string is less than \"\": %s", p.s), true
			}
			continue
		}
		t := gonorm.Basic(e.typeByText(x, byText))
		if t == nil || t.Info()&types.IsInteger == 0 {
			continue
		}
		f, exact := constant.Float64Val(constant.ToFloat(c))
		if !exact {
			continue
		}
		name := ExprString(x)
		b := feasible.Bound{Operand: name, Rel: r, Value: f, Const: ctext}
		if fromFact[i] {
			facts = append(facts, b)
			continue
		}
		own = append(own, b)
		if !ranged[name] {
			ranged[name] = true
			typ = append(typ, typeBounds(x, name, t)...)
		}
	}
	if len(own) == 0 {
		return "", false
	}
	op := func(r labels.Relation) string { return relToken(r).String() }
	var bs []feasible.Bound
	var why string
	ok := false
	stage := 0
	for i, more := range [][]feasible.Bound{own, typ, facts} {
		bs = append(bs, more...)
		if why, ok = feasible.Contradiction(bs, op); ok {
			stage = i
			break
		}
	}
	if !ok {
		return "", false
	}
	if stage < 2 {
		return why, true
	}
	// The facts that bound the contradicted operand.
	var fs []string
	for _, f := range e.facts {
		t := f.pe().s
		for _, b := range bs {
			if strings.Contains(why, b.Operand+" ") && strings.Contains(t, b.Operand) {
				fs = append(fs, t)
				break
			}
		}
	}
	if len(fs) > 0 {
		why += " (where it is evaluated, " + strings.Join(fs, " and ") + ")"
	}
	return why, true
}

// typeBounds are the bounds x's type puts on it: at least 0 when it is
// unsigned or a len or cap, within the type's range when it has 32 bits
// or fewer (exact as float64).
func typeBounds(x dst.Expr, name string, t *types.Basic) []feasible.Bound {
	var out []feasible.Bound
	unsigned := t.Info()&types.IsUnsigned != 0
	if c, ok := gonorm.Unparen(x).(*dst.CallExpr); ok {
		if id, ok := c.Fun.(*dst.Ident); ok && (id.Name == "len" || id.Name == "cap") && id.Path == "" {
			out = append(out, feasible.Bound{Operand: name, Rel: labels.GreaterEqual, Value: 0, Const: "0 (a length)"})
		}
	}
	bits, fixed := intBits(t.Kind())
	if t.Kind() == types.Uintptr {
		fixed = false
	}
	if unsigned {
		out = append(out, feasible.Bound{Operand: name, Rel: labels.GreaterEqual, Value: 0, Const: "0 (" + t.Name() + " is unsigned)"})
	}
	if fixed && bits <= 32 {
		lo, hi := intRange(t, bits)
		l, _ := constant.Float64Val(lo)
		h, _ := constant.Float64Val(hi)
		if !unsigned {
			out = append(out, feasible.Bound{Operand: name, Rel: labels.GreaterEqual, Value: l, Const: lo.ExactString() + " (the least " + t.Name() + ")"})
		}
		out = append(out, feasible.Bound{Operand: name, Rel: labels.LessEqual, Value: h, Const: hi.ExactString() + " (the greatest " + t.Name() + ")"})
	}
	return out
}

// typeByText is the type of x (a copy) by its text among byText's
// originals, or of x itself.
func (e *enumerator) typeByText(x dst.Expr, byText map[string]dst.Expr) types.Type {
	if o, ok := byText[ExprString(x)]; ok {
		return e.t.TypeOf(o)
	}
	return e.t.TypeOf(x)
}

// constByText is the constant value of x (a copy): a literal, or by its
// text among byText's originals; nil when it is none.
func (e *enumerator) constByText(x dst.Expr, byText map[string]dst.Expr) constant.Value {
	x = gonorm.Unparen(x)
	if o, ok := byText[ExprString(x)]; ok {
		if v := e.t.Const(o); v != nil {
			return v
		}
	}
	if v := e.t.Const(x); v != nil {
		return v
	}
	switch y := x.(type) {
	case *dst.BasicLit:
		if v := constant.MakeFromLiteral(y.Value, y.Kind, 0); v.Kind() != constant.Unknown {
			return v
		}
	case *dst.UnaryExpr:
		if y.Op == token.SUB {
			if v := e.constByText(y.X, byText); v != nil && (v.Kind() == constant.Int || v.Kind() == constant.Float) {
				return constant.UnaryOp(token.SUB, v, 0)
			}
		}
	}
	return nil
}

// relationOf reads p as `X rel C` (or its negation, or C rel X) with a
// constant C and a non-constant X.
func (e *enumerator) relationOf(p pe, byText map[string]dst.Expr) (dst.Expr, labels.Relation, constant.Value, string, bool) {
	neg := false
	x := gonorm.Unparen(p.d)
	for {
		u, ok := x.(*dst.UnaryExpr)
		if !ok || u.Op != token.NOT {
			break
		}
		neg = !neg
		x = gonorm.Unparen(u.X)
	}
	b, ok := x.(*dst.BinaryExpr)
	if !ok {
		return nil, 0, nil, "", false
	}
	r, ok := relation(b.Op)
	if !ok {
		return nil, 0, nil, "", false
	}
	l, c := gonorm.Unparen(b.X), gonorm.Unparen(b.Y)
	cv := e.constByText(c, byText)
	if cv == nil {
		l, c, r = c, l, r.Swap()
		cv = e.constByText(c, byText)
	}
	if cv == nil || e.constByText(l, byText) != nil {
		return nil, 0, nil, "", false
	}
	if neg {
		r = r.Not()
	}
	return l, r, cv, ExprString(c), true
}
