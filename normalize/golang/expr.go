package golang

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
)

// Unparen strips parentheses.
func Unparen(e dst.Expr) dst.Expr {
	for {
		p, ok := e.(*dst.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

func (t *Types) object(id *dst.Ident) types.Object {
	switch a := t.Ast(id).(type) {
	case *ast.Ident:
		return t.Info.ObjectOf(a)
	case *ast.SelectorExpr: // a qualified identifier pkg.Name
		return t.Info.ObjectOf(a.Sel)
	}
	return nil
}

// pureBuiltins cannot have effects or panic on any operands.
var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true,
	"real": true, "imag": true, "complex": true}

// NeedsHoist reports whether evaluating e itself (its operands aside) may
// have an effect, or may panic in a way a label cannot guard against:
// calls (not conversions or len, cap, min, max, real, imag, complex),
// receives, type assertions, slicing, method values, indexing a type
// parameter, slice-to-array conversions, and == / != on values whose
// comparison may panic (interfaces, structs and arrays holding them).
func (t *Types) NeedsHoist(e dst.Expr) bool {
	switch x := e.(type) {
	case *dst.CallExpr:
		if t.IsType(x.Fun) {
			if len(x.Args) == 1 {
				from, to := t.TypeOf(x.Args[0]), t.TypeOf(x)
				if from != nil && to != nil {
					if _, ok := from.Underlying().(*types.Slice); ok {
						switch u := to.Underlying().(type) {
						case *types.Array:
							return true
						case *types.Pointer:
							_, isArr := u.Elem().Underlying().(*types.Array)
							return isArr
						}
					}
				}
			}
			return false
		}
		if id, ok := Unparen(x.Fun).(*dst.Ident); ok {
			if b, ok := t.object(id).(*types.Builtin); ok && pureBuiltins[b.Name()] {
				return false
			}
		}
		return true
	case *dst.UnaryExpr:
		return x.Op == token.ARROW
	case *dst.TypeAssertExpr, *dst.SliceExpr:
		return true
	case *dst.SelectorExpr:
		if a, ok := t.Ast(x).(*ast.SelectorExpr); ok && t.Info != nil {
			if sel := t.Info.Selections[a]; sel != nil {
				if sel.Kind() == types.MethodVal {
					return true
				}
				if sel.Kind() == types.FieldVal && sel.Indirect() && len(sel.Index()) > 1 {
					return true
				}
			}
		}
		return false
	case *dst.IndexExpr:
		tx := t.TypeOf(x.X)
		if tx == nil {
			return true
		}
		switch u := tx.Underlying().(type) {
		case *types.Signature:
			return false // instantiation
		case *types.Slice, *types.Array, *types.Map:
			return false
		case *types.Basic:
			return u.Info()&types.IsString == 0
		case *types.Pointer:
			_, isArr := u.Elem().Underlying().(*types.Array)
			return !isArr
		}
		return true
	case *dst.BinaryExpr:
		if x.Op != token.EQL && x.Op != token.NEQ {
			return false
		}
		if t.isNil(x.X) || t.isNil(x.Y) {
			return false
		}
		return mayPanicCompare(t.TypeOf(x.X), 0) || mayPanicCompare(t.TypeOf(x.Y), 0)
	}
	return false
}

func (t *Types) isNil(e dst.Expr) bool {
	tv, ok := t.TypeAndValue(e)
	return ok && tv.IsNil()
}

func mayPanicCompare(typ types.Type, depth int) bool {
	if typ == nil || depth > 8 {
		return true
	}
	switch u := typ.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if mayPanicCompare(u.Field(i).Type(), depth+1) {
				return true
			}
		}
	case *types.Array:
		return mayPanicCompare(u.Elem(), depth+1)
	}
	return false
}

// Impure reports whether e or one of its subexpressions (outside function
// literals) needs hoisting.
func (t *Types) Impure(e dst.Expr) bool {
	found := false
	dst.Inspect(e, func(x dst.Node) bool {
		if found || x == nil {
			return false
		}
		if _, ok := x.(*dst.FuncLit); ok {
			return false
		}
		if ex, ok := x.(dst.Expr); ok {
			if t.IsType(ex) {
				return false
			}
			if t.NeedsHoist(ex) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (n *normalizer) impure(e dst.Expr) bool     { return n.t.Impure(e) }
func (n *normalizer) needsHoist(e dst.Expr) bool { return n.t.NeedsHoist(e) }

// expr normalizes e, appending hoisted statements to pre, and returns the
// expression to use in its place.
func (n *normalizer) expr(e dst.Expr, pre *[]dst.Stmt) dst.Expr {
	if e == nil || !n.impure(e) {
		return e
	}
	switch x := e.(type) {
	case *dst.ParenExpr:
		x.X = n.expr(x.X, pre)
		return x
	case *dst.BinaryExpr:
		if (x.Op == token.LAND || x.Op == token.LOR) && n.impure(x.Y) {
			if n.flattenable(x) {
				return n.flatten(x, pre)
			}
			return n.extract(x, pre)
		}
	}
	n.children(e, pre)
	if n.needsHoist(e) && !n.tupleCall(e) {
		return n.hoist(e, e, pre)
	}
	return e
}

// extract is conditional extraction of a && or || whose right operand
// needs hoisting, for trees flatten cannot keep in bool temporaries (named
// boolean types): the left operand's value and the right's are saved,
// so the atoms of a compound operand are seen as one.
func (n *normalizer) extract(x *dst.BinaryExpr, pre *[]dst.Stmt) dst.Expr {
	origX, origY := x.X, x.Y
	xv := n.expr(x.X, pre)
	typ := n.t.TypeOf(origX)
	if typ == nil {
		typ = types.Typ[types.Bool]
	}
	typ = types.Default(typ)
	a := n.newTemp()
	da := n.define(a, xv, origX, typ)
	if IsDecision(xv) {
		n.res.Derived[da] = true
	}
	*pre = append(*pre, da)
	b := n.newTemp()
	*pre = append(*pre, n.define(b, n.use(a, origX, typ), origY, typ))
	n.res.Lazy[b] = x.Op == token.LOR
	var inner []dst.Stmt
	yv := n.expr(x.Y, &inner)
	if ty := n.t.TypeOf(origY); ty != nil && !types.Identical(types.Default(ty), typ) {
		conv := &dst.CallExpr{Fun: dst.NewIdent("bool"), Args: []dst.Expr{yv}}
		n.t.Record(conv, types.Typ[types.Bool])
		yv = conv
	}
	set := &dst.AssignStmt{Lhs: []dst.Expr{n.use(b, origY, typ)}, Tok: token.ASSIGN, Rhs: []dst.Expr{yv}}
	if IsDecision(yv) {
		n.res.Derived[set] = true
	}
	inner = append(inner, set)
	var guard dst.Expr = n.use(a, origX, typ)
	if x.Op == token.LOR {
		guard = &dst.UnaryExpr{Op: token.NOT, X: guard}
		n.t.Record(guard, typ)
	}
	ifs := &dst.IfStmt{Cond: guard, Body: &dst.BlockStmt{List: inner}}
	ifs.Decs.Before = dst.NewLine
	n.res.Scaffold[ifs] = true
	*pre = append(*pre, ifs)
	res := &dst.BinaryExpr{X: n.use(a, origX, typ), Op: x.Op, Y: n.use(b, origY, typ)}
	n.t.Record(res, typ)
	n.t.StandsFor(res, x)
	return res
}

// children normalizes the operands of e in evaluation order, in place.
func (n *normalizer) children(e dst.Expr, pre *[]dst.Stmt) {
	ex := func(p *dst.Expr) {
		if *p != nil && !n.t.IsType(*p) && !n.tupleCall(*p) {
			*p = n.expr(*p, pre)
		}
	}
	switch x := e.(type) {
	case *dst.ParenExpr:
		ex(&x.X)
	case *dst.BinaryExpr:
		ex(&x.X)
		ex(&x.Y)
	case *dst.UnaryExpr:
		ex(&x.X)
	case *dst.StarExpr:
		ex(&x.X)
	case *dst.SelectorExpr:
		ex(&x.X)
	case *dst.CallExpr:
		switch f := x.Fun.(type) {
		case *dst.SelectorExpr:
			ex(&f.X)
		case *dst.IndexExpr, *dst.IndexListExpr, *dst.Ident, *dst.FuncLit:
		default:
			ex(&x.Fun)
		}
		for i := range x.Args {
			ex(&x.Args[i])
		}
	case *dst.IndexExpr:
		ex(&x.X)
		ex(&x.Index)
	case *dst.SliceExpr:
		ex(&x.X)
		ex(&x.Low)
		ex(&x.High)
		ex(&x.Max)
	case *dst.TypeAssertExpr:
		ex(&x.X)
	case *dst.CompositeLit:
		for i := range x.Elts {
			if kv, ok := x.Elts[i].(*dst.KeyValueExpr); ok {
				if _, isID := kv.Key.(*dst.Ident); !isID {
					ex(&kv.Key)
				}
				ex(&kv.Value)
				continue
			}
			ex(&x.Elts[i])
		}
	}
}

func (n *normalizer) newTemp() string {
	n.res.Temps++
	return n.res.Prefix + strconv.Itoa(n.res.Temps)
}

// use returns a fresh identifier node for temporary name.
func (n *normalizer) use(name string, origin dst.Expr, typ types.Type) *dst.Ident {
	id := dst.NewIdent(name)
	n.t.Record(id, typ)
	if origin != nil {
		n.t.origin[id] = origin
		if n.t.originName[name] == nil {
			n.t.originName[name] = origin
		}
	}
	return id
}

func (n *normalizer) define(name string, val, origin dst.Expr, typ types.Type) dst.Stmt {
	d := val.Decorations()
	d.Before, d.After = dst.None, dst.None
	s := &dst.AssignStmt{Lhs: []dst.Expr{n.use(name, origin, typ)}, Tok: token.DEFINE, Rhs: []dst.Expr{val}}
	s.Decs.Before = dst.NewLine
	return s
}

// hoist saves e in a new temporary and returns a use of it.
func (n *normalizer) hoist(e, origin dst.Expr, pre *[]dst.Stmt) dst.Expr {
	typ := n.t.TypeOf(e)
	if typ != nil {
		typ = types.Default(typ)
	}
	name := n.newTemp()
	*pre = append(*pre, n.define(name, e, origin, typ))
	return n.use(name, origin, typ)
}
