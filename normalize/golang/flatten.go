package golang

import (
	"go/token"
	"go/types"

	"github.com/dave/dst"
)

// Atoms appends to out the atoms of decision d: its maximal
// subexpressions that are not &&, || or ! (parentheses stripped), in
// evaluation order.
func Atoms(d dst.Expr, out []dst.Expr) []dst.Expr {
	switch x := Unparen(d).(type) {
	case *dst.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return Atoms(x.Y, Atoms(x.X, out))
		}
	case *dst.UnaryExpr:
		if x.Op == token.NOT {
			return Atoms(x.X, out)
		}
	}
	return append(out, Unparen(d))
}

// IsDecision reports whether e is a && or || (under parentheses and !).
func IsDecision(e dst.Expr) bool {
	switch x := Unparen(e).(type) {
	case *dst.BinaryExpr:
		return x.Op == token.LAND || x.Op == token.LOR
	case *dst.UnaryExpr:
		return x.Op == token.NOT && IsDecision(x.X)
	}
	return false
}

func (n *normalizer) isBool(e dst.Expr) bool {
	t := n.t.TypeOf(e)
	return t != nil && types.Identical(types.Default(t), types.Typ[types.Bool])
}

// flattenable reports whether every atom of the && / || tree x, and x
// itself, is of type bool (or untyped bool), so that each atom can be kept
// in a bool temporary.
func (n *normalizer) flattenable(x dst.Expr) bool {
	if !n.isBool(x) {
		return false
	}
	for _, a := range Atoms(x, nil) {
		if !n.isBool(a) {
			return false
		}
	}
	return true
}

// flatten is conditional extraction of a && / || tree whose later
// operands need hoisting that keeps one bool temporary per atom in the
// scope of the statement, so that labels see every atom of the original
// decision:
//
//	if id(a) == 0 && id(b) == 0 {
//
// becomes
//
//	lc1 := id(a)
//	lc2 := lc1 == 0
//	var lc3 bool
//	if lc2 {
//		lc4 := id(b)
//		lc3 = lc4 == 0
//	}
//	if lc2 && lc3 {
//
// An atom the original evaluates only under a condition (short-circuit)
// is declared before and assigned when that condition holds: it stays
// false otherwise (Result.Lazy). Atoms up to the last one that needs
// hoisting are saved (a call may change what an earlier atom reads);
// later ones stay in place. The residue is the original tree, its atoms
// replaced.
func (n *normalizer) flatten(x dst.Expr, pre *[]dst.Stmt) dst.Expr {
	f := &flattener{n: n, decls: pre, last: -1}
	for i, a := range Atoms(x, nil) {
		if n.impure(a) {
			f.last = i
		}
	}
	return f.gen(x, pre, false)
}

type flattener struct {
	n     *normalizer
	decls *[]dst.Stmt // where declarations of lazy atoms go
	last  int         // index of the last atom that needs hoisting
	next  int         // index of the next atom to visit
}

// gen rewrites e, appending its code to cur (a conditional block when
// lazy), and returns its residue.
func (f *flattener) gen(e dst.Expr, cur *[]dst.Stmt, lazy bool) dst.Expr {
	if f.next > f.last {
		return e
	}
	switch x := e.(type) {
	case *dst.ParenExpr:
		x.X = f.gen(x.X, cur, lazy)
		return x
	case *dst.UnaryExpr:
		if x.Op == token.NOT {
			x.X = f.gen(x.X, cur, lazy)
			return x
		}
	case *dst.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			x.X = f.gen(x.X, cur, lazy)
			if f.next > f.last {
				return x
			}
			// Every atom of x.X is saved now: the guard reads temporaries.
			guard := f.n.copyResidue(x.X)
			if x.Op == token.LOR {
				if _, isID := guard.(*dst.Ident); !isID {
					guard = &dst.ParenExpr{X: guard}
					f.n.t.Record(guard, types.Typ[types.Bool])
				}
				guard = &dst.UnaryExpr{Op: token.NOT, X: guard}
				f.n.t.Record(guard, types.Typ[types.Bool])
			}
			var inner []dst.Stmt
			x.Y = f.gen(x.Y, &inner, true)
			ifs := &dst.IfStmt{Cond: guard, Body: &dst.BlockStmt{List: inner}}
			ifs.Decs.Before = dst.NewLine
			f.n.res.Scaffold[ifs] = true
			*cur = append(*cur, ifs)
			return x
		}
	}
	f.next++
	boolT := types.Typ[types.Bool]
	v := f.n.expr(e, cur)
	// expr may have saved the whole atom (a call) in a temporary just now:
	// that statement then computes the atom.
	var made *dst.AssignStmt
	if id, ok := v.(*dst.Ident); ok && len(*cur) > 0 {
		if as, ok := (*cur)[len(*cur)-1].(*dst.AssignStmt); ok && as.Tok == token.DEFINE && len(as.Lhs) == 1 {
			if l, ok := as.Lhs[0].(*dst.Ident); ok && l.Name == id.Name {
				made = as
			}
		}
	}
	if !lazy {
		if made != nil {
			f.n.t.setOrigin(made.Lhs[0].(*dst.Ident).Name, e)
			return f.n.use(made.Lhs[0].(*dst.Ident).Name, e, boolT)
		}
		name := f.n.newTemp()
		*cur = append(*cur, f.n.define(name, v, e, boolT))
		return f.n.use(name, e, boolT)
	}
	name := f.n.newTemp()
	spec := &dst.ValueSpec{Names: []*dst.Ident{f.n.use(name, e, boolT)}, Type: dst.NewIdent("bool")}
	decl := &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{spec}}}
	decl.Decs.Before = dst.NewLine
	*f.decls = append(*f.decls, decl)
	f.n.res.Lazy[name] = false
	if made != nil {
		made.Tok = token.ASSIGN
		made.Lhs[0] = f.n.use(name, e, boolT)
	} else {
		set := &dst.AssignStmt{Lhs: []dst.Expr{f.n.use(name, e, boolT)}, Tok: token.ASSIGN, Rhs: []dst.Expr{v}}
		set.Decs.Before = dst.NewLine
		*cur = append(*cur, set)
	}
	return f.n.use(name, e, boolT)
}

// copyResidue copies a residue made of temporaries, parentheses, !, &&
// and ||, keeping what is known of its nodes.
func (n *normalizer) copyResidue(e dst.Expr) dst.Expr {
	var c dst.Expr
	switch x := e.(type) {
	case *dst.Ident:
		return n.use(x.Name, n.t.origin[x], n.t.TypeOf(x))
	case *dst.ParenExpr:
		c = &dst.ParenExpr{X: n.copyResidue(x.X)}
	case *dst.UnaryExpr:
		c = &dst.UnaryExpr{Op: x.Op, X: n.copyResidue(x.X)}
	case *dst.BinaryExpr:
		c = &dst.BinaryExpr{X: n.copyResidue(x.X), Op: x.Op, Y: n.copyResidue(x.Y)}
	default:
		c = dst.Clone(e).(dst.Expr)
	}
	n.t.Record(c, n.t.TypeOf(e))
	return c
}
