package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/dave/dst"
	"github.com/dave/dst/decorator"
)

// Types answers type questions about the nodes of dst trees decorated from
// a type-checked package, including the temporaries that normalization
// introduces (which have no go/ast counterpart).
type Types struct {
	Info *types.Info
	Fset *token.FileSet
	Pkg  *types.Package
	dec  *decorator.Decorator
	// extra holds the types of nodes made after decoration.
	extra map[dst.Expr]types.TypeAndValue
	// origin maps a temporary to the expression it holds; originName
	// does by name (every use of a temporary, and copies of it).
	origin     map[*dst.Ident]dst.Expr
	originName map[string]dst.Expr
	// standsFor maps code made by normalization to the original code it
	// replaces (the residue of conditional extraction, a negated loop
	// condition).
	standsFor map[dst.Node]dst.Node
}

// NewTypes ties type information to the trees made by dec (for a package
// loaded with decorator.Load: pkg.TypesInfo, pkg.Fset, pkg.Types,
// pkg.Decorator).
func NewTypes(info *types.Info, fset *token.FileSet, pkg *types.Package, dec *decorator.Decorator) *Types {
	return &Types{Info: info, Fset: fset, Pkg: pkg, dec: dec,
		extra: map[dst.Expr]types.TypeAndValue{}, origin: map[*dst.Ident]dst.Expr{}, originName: map[string]dst.Expr{},
		standsFor: map[dst.Node]dst.Node{}}
}

// Ast returns the go/ast node n was decorated from, or nil for new nodes.
func (t *Types) Ast(n dst.Node) ast.Node {
	if t == nil || t.dec == nil {
		return nil
	}
	return t.dec.Ast.Nodes[n]
}

// TypeAndValue returns what the type checker recorded for e.
func (t *Types) TypeAndValue(e dst.Expr) (types.TypeAndValue, bool) {
	if tv, ok := t.extra[e]; ok {
		return tv, true
	}
	if p, ok := e.(*dst.ParenExpr); ok {
		return t.TypeAndValue(p.X)
	}
	a, ok := t.Ast(e).(ast.Expr)
	if !ok || t.Info == nil {
		return types.TypeAndValue{}, false
	}
	tv, ok := t.Info.Types[a]
	if !ok {
		if id, isID := a.(*ast.Ident); isID {
			if obj := t.Info.ObjectOf(id); obj != nil {
				return types.TypeAndValue{Type: obj.Type()}, true
			}
		}
	}
	return tv, ok
}

// TypeOf returns the type of e, or nil when unknown.
func (t *Types) TypeOf(e dst.Expr) types.Type {
	tv, _ := t.TypeAndValue(e)
	return tv.Type
}

// Const returns the constant value of e, or nil.
func (t *Types) Const(e dst.Expr) constant.Value {
	tv, _ := t.TypeAndValue(e)
	return tv.Value
}

// IsType reports whether e denotes a type.
func (t *Types) IsType(e dst.Expr) bool {
	tv, ok := t.TypeAndValue(e)
	return ok && tv.IsType()
}

// Record sets the type of a node made after decoration.
func (t *Types) Record(e dst.Expr, typ types.Type) {
	t.extra[e] = types.TypeAndValue{Type: typ}
}

// ObjectOf returns the object an identifier refers to (nil for temporaries).
func (t *Types) ObjectOf(id *dst.Ident) types.Object {
	if a, ok := t.Ast(id).(*ast.Ident); ok && t.Info != nil {
		return t.Info.ObjectOf(a)
	}
	return nil
}

// Origin returns the expression a temporary holds (nil if id is not one).
func (t *Types) Origin(id *dst.Ident) dst.Expr { return t.origin[id] }

// TempOrigin returns the original expression the temporary called name
// holds (nil if no temporary has that name). Unlike Origin it also
// answers for copies of a temporary's identifier (label predicates).
func (t *Types) TempOrigin(name string) dst.Expr { return t.originName[name] }

func (t *Types) setOrigin(name string, e dst.Expr) { t.originName[name] = e }

// StandsFor records that made stands for orig (positions follow it).
func (t *Types) StandsFor(made, orig dst.Node) { t.standsFor[made] = orig }

// Original returns the original expression e stands for (itself if none).
func (t *Types) Original(e dst.Expr) dst.Expr {
	if id, ok := e.(*dst.Ident); ok {
		if o := t.origin[id]; o != nil {
			return o
		}
	}
	if o, ok := t.standsFor[e].(dst.Expr); ok {
		return o
	}
	return e
}

// Pos returns the source position of a decorated node; for a temporary,
// the position of the expression it holds; the zero Position when unknown.
func (t *Types) Pos(n dst.Node) token.Position {
	if id, ok := n.(*dst.Ident); ok {
		if o := t.origin[id]; o != nil {
			return t.Pos(o)
		}
	}
	if o := t.standsFor[n]; o != nil {
		return t.Pos(o)
	}
	if a := t.Ast(n); a != nil && t.Fset != nil {
		return t.Fset.Position(a.Pos())
	}
	return token.Position{}
}

// Basic returns the basic underlying type of typ, or nil.
func Basic(typ types.Type) *types.Basic {
	if typ == nil {
		return nil
	}
	b, _ := typ.Underlying().(*types.Basic)
	return b
}
