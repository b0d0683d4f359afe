package golang

import (
	"go/token"
	"strings"

	"github.com/dave/dst"
)

// pe is a predicate piece: a fresh dst expression and its text.
type pe struct {
	d dst.Expr
	s string
}

// clone copies e without decorations (comments inside an operand stay in
// the original only).
func clone(e dst.Expr) dst.Expr {
	c := dst.Clone(e).(dst.Expr)
	dst.Inspect(c, func(n dst.Node) bool {
		if n != nil {
			d := n.Decorations()
			d.Before, d.After = dst.None, dst.None
			d.Start.Clear()
			d.End.Clear()
		}
		return true
	})
	return c
}

func of(e dst.Expr) pe { return pe{clone(e), ExprString(e)} }

func ident(name string) pe { return pe{dst.NewIdent(name), name} }

func lit(kind token.Token, v string) pe { return pe{&dst.BasicLit{Kind: kind, Value: v}, v} }

// conv converts x to the type named typ (a predeclared type).
func conv(typ string, x pe) pe {
	return pe{&dst.CallExpr{Fun: dst.NewIdent(typ), Args: []dst.Expr{x.d}}, typ + "(" + x.s + ")"}
}

func prec(e dst.Expr) int {
	if b, ok := e.(*dst.BinaryExpr); ok {
		return b.Op.Precedence()
	}
	return 6
}

func paren(p pe) pe { return pe{&dst.ParenExpr{X: p.d}, "(" + p.s + ")"} }

// bin builds x op y with the parentheses precedence needs.
func bin(x pe, op token.Token, y pe) pe {
	if prec(x.d) < op.Precedence() {
		x = paren(x)
	}
	if prec(y.d) <= op.Precedence() {
		y = paren(y)
	}
	return pe{&dst.BinaryExpr{X: x.d, Op: op, Y: y.d}, x.s + " " + op.String() + " " + y.s}
}

func not(x pe) pe {
	if u, ok := x.d.(*dst.UnaryExpr); ok && u.Op == token.NOT {
		inner := u.X
		if p, ok := inner.(*dst.ParenExpr); ok {
			inner = p.X
		}
		s := strings.TrimPrefix(x.s, "!")
		if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
			s = s[1 : len(s)-1]
		}
		return pe{inner, s}
	}
	if prec(x.d) < 6 {
		x = paren(x)
	}
	return pe{&dst.UnaryExpr{Op: token.NOT, X: x.d}, "!" + x.s}
}

func and(xs ...pe) pe {
	var out pe
	for i, x := range xs {
		if i == 0 {
			out = x
			continue
		}
		out = bin(out, token.LAND, x)
	}
	return out
}

// ExprString renders a dst expression on one line (qualified identifiers
// as path-base.Name), for manifests and messages.
func ExprString(e dst.Expr) string {
	var b strings.Builder
	writeExprWith(&b, e, nil)
	return b.String()
}

// writeExprWith writes e; subst, when not nil, gives the expression to
// write in place of an identifier (nil: the identifier).
func writeExprWith(b *strings.Builder, e dst.Expr, subst func(name string) dst.Expr) {
	writeOperand(b, e, subst, 0)
}

// writeOperand writes e where an operand binding at least as tightly as
// precedence prec stands (0: anywhere, token.UnaryPrec: the operand of a
// unary operator, a selector or an index): an expression subst puts in an
// identifier's place is parenthesized when its operator binds less tightly,
// so that it reads as the temporary did (!(x%2 == 0), not !x % 2 == 0).
// The tree's own expressions keep their own parentheses (dst.ParenExpr).
func writeOperand(b *strings.Builder, e dst.Expr, subst func(name string) dst.Expr, prec int) {
	writeExpr := func(b *strings.Builder, e dst.Expr) { writeOperand(b, e, subst, 0) }
	tight := func(b *strings.Builder, e dst.Expr) { writeOperand(b, e, subst, token.UnaryPrec) }
	switch x := e.(type) {
	case nil:
	case *dst.Ident:
		if subst != nil && x.Path == "" {
			if o := subst(x.Name); o != nil {
				if bin, ok := o.(*dst.BinaryExpr); ok && bin.Op.Precedence() < prec {
					o = &dst.ParenExpr{X: o}
				}
				writeOperand(b, o, subst, prec)
				return
			}
		}
		if x.Path != "" {
			p := x.Path
			if i := strings.LastIndex(p, "/"); i >= 0 {
				p = p[i+1:]
			}
			b.WriteString(p + ".")
		}
		b.WriteString(x.Name)
	case *dst.BasicLit:
		b.WriteString(x.Value)
	case *dst.ParenExpr:
		b.WriteString("(")
		writeExpr(b, x.X)
		b.WriteString(")")
	case *dst.BinaryExpr:
		p := x.Op.Precedence()
		writeOperand(b, x.X, subst, p)
		b.WriteString(" " + x.Op.String() + " ")
		writeOperand(b, x.Y, subst, p+1)
	case *dst.UnaryExpr:
		b.WriteString(x.Op.String())
		tight(b, x.X)
	case *dst.StarExpr:
		b.WriteString("*")
		tight(b, x.X)
	case *dst.SelectorExpr:
		tight(b, x.X)
		b.WriteString("." + x.Sel.Name)
	case *dst.IndexExpr:
		tight(b, x.X)
		b.WriteString("[")
		writeExpr(b, x.Index)
		b.WriteString("]")
	case *dst.CallExpr:
		writeExpr(b, x.Fun)
		b.WriteString("(")
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		if x.Ellipsis {
			b.WriteString("...")
		}
		b.WriteString(")")
	case *dst.CompositeLit:
		writeExpr(b, x.Type)
		b.WriteString("{…}")
	case *dst.ArrayType:
		b.WriteString("[")
		writeExpr(b, x.Len)
		b.WriteString("]")
		writeExpr(b, x.Elt)
	case *dst.MapType:
		b.WriteString("map[")
		writeExpr(b, x.Key)
		b.WriteString("]")
		writeExpr(b, x.Value)
	case *dst.FuncLit:
		b.WriteString("func(…){…}")
	default:
		b.WriteString("…")
	}
}
