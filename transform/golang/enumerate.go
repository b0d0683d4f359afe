package golang

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
	gonorm "github.com/labelcov/labelcov/normalize/golang"
)

// goLabel is a label with the condition to inject.
type goLabel struct {
	*labels.Label
	cond  pe
	point dst.Stmt
	stmt  *dst.IfStmt // the injected statement
	// helper, when set, is a statement injected among the labels (a
	// temporary the following labels read); the entry is no label.
	helper dst.Stmt
}

// lazy is a condition under which the original evaluates an expression:
// an operand of && (holds) or || (does not hold), or an earlier switch case
// (does not hold).
type lazy struct {
	e   dst.Expr
	neg bool
}

func (l lazy) pe() pe {
	if l.neg {
		return not(of(l.e))
	}
	return of(l.e)
}

// conjuncts splits a holding && chain into its operands.
func (l lazy) conjuncts(out []pe) []pe {
	if b, ok := gonorm.Unparen(l.e).(*dst.BinaryExpr); ok && !l.neg && b.Op == token.LAND {
		return lazy{b.Y, false}.conjuncts(lazy{b.X, false}.conjuncts(out))
	}
	return append(out, l.pe())
}

type dedupKey struct {
	point           dst.Stmt
	crit            labels.Key
	pred, guardText string
}

// enumerator lists the labels of one normalized package.
type enumerator struct {
	t        *gonorm.Types
	norm     *gonorm.Result
	crit     labels.Criteria
	maxAtoms int
	labels   []*goLabel
	seq      []*goLabel // labels and helper statements in injection order
	seen     map[dedupKey]bool
	consts   map[string]bool // names of the package's constants
	lists    []*[]dst.Stmt
	warnings []string
}

func (e *enumerator) wm() bool {
	return e.crit.Has(labels.WMABS) || e.crit.Has(labels.WMAOR) || e.crit.Has(labels.WMCOR) || e.crit.Has(labels.WMROR)
}

// position is where n was in the original source; for code normalization
// made, where the code it stands for was, else where its statement was.
func (e *enumerator) position(n dst.Node, point dst.Stmt) labels.Position {
	p := e.t.Pos(n)
	if !p.IsValid() && point != nil {
		p = e.t.Pos(point)
	}
	return labels.Position{File: p.Filename, Line: p.Line, Col: p.Column, Offset: p.Offset}
}

func source(x dst.Expr) string {
	s := ExprString(x)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// add records a label unless an identical one exists at the same point.
// The injected condition is the conjunction of the safety checks, the
// lazy conditions and pred, each conjunct once (go vet rejects a && a).
func (e *enumerator) add(crit labels.Key, op string, point dst.Stmt, at dst.Expr, pred pe, lz []lazy, operands []dst.Expr) *goLabel {
	return e.addConj(crit, op, point, at, []pe{pred}, lz, operands)
}

func (e *enumerator) addConj(crit labels.Key, op string, point dst.Stmt, at dst.Expr, pred []pe, lz []lazy, operands []dst.Expr) *goLabel {
	var chk []pe
	seen := map[string]bool{}
	for _, l := range lz {
		e.checks(l.e, &chk, seen)
	}
	for _, o := range operands {
		e.checks(o, &chk, seen)
	}
	var parts []pe
	for _, l := range lz {
		for _, p := range l.conjuncts(nil) {
			if !seen[p.s] {
				seen[p.s] = true
				parts = append(parts, p)
			}
		}
	}
	for _, p := range pred {
		if !seen[p.s] {
			seen[p.s] = true
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 { // the predicate repeats a check: keep it visible
		parts = append(parts, pred...)
	}
	full := and(parts...)
	l := &labels.Label{Criterion: crit, Operator: op, Predicate: full.s, Status: labels.Active,
		Pos: e.position(at, point), Source: source(e.t.Original(at))}
	cond := full
	if len(chk) > 0 {
		g := and(chk...)
		l.Guard = g.s
		cond = and(append(chk, parts...)...)
	}
	if why, ok := e.contradiction(append(chk, parts...)); ok {
		l.Status, l.Reason = labels.Infeasible, why
	}
	k := dedupKey{point, crit, l.Predicate, l.Guard}
	if e.seen[k] {
		return nil
	}
	e.seen[k] = true
	gl := &goLabel{Label: l, cond: cond, point: point}
	e.labels = append(e.labels, gl)
	e.seq = append(e.seq, gl)
	return gl
}

// contradiction finds conjuncts S == C1 and S == C2 with different
// constants (go vet rejects them as "suspect and", and no run covers them).
func (e *enumerator) contradiction(conj []pe) (string, bool) {
	eq := map[string]string{}
	for _, c := range conj {
		b, ok := c.d.(*dst.BinaryExpr)
		if !ok || b.Op != token.EQL {
			continue
		}
		subj, k := b.X, b.Y
		if e.constText(subj) {
			subj, k = k, subj
		}
		if !e.constText(k) || e.constText(subj) {
			continue
		}
		s, kt := ExprString(subj), ExprString(k)
		if prev, ok := eq[s]; ok && prev != kt {
			return fmt.Sprintf("%s cannot equal both %s and %s", s, prev, kt), true
		}
		eq[s] = kt
	}
	return "", false
}

// constText reports whether x (a copy, without type information) is a
// constant: a literal, a constant of the package or of an imported one, or
// a negated one.
func (e *enumerator) constText(x dst.Expr) bool {
	switch x := gonorm.Unparen(x).(type) {
	case *dst.BasicLit:
		return true
	case *dst.UnaryExpr:
		return (x.Op == token.SUB || x.Op == token.ADD) && e.constText(x.X)
	case *dst.Ident:
		if x.Path != "" {
			for _, imp := range e.t.Pkg.Imports() {
				if imp.Path() == x.Path {
					_, ok := imp.Scope().Lookup(x.Name).(*types.Const)
					return ok
				}
			}
			return false
		}
		if e.consts[x.Name] {
			return true
		}
		_, ok := types.Universe.Lookup(x.Name).(*types.Const)
		return ok && x.Name != "iota"
	}
	return false
}

func (e *enumerator) setStatus(gl *goLabel, st labels.Status, why string) {
	if gl != nil {
		gl.Status, gl.Reason = st, why
	}
}

// checks appends the conditions that make evaluating x safe (no panic), in
// an order where each check is itself safe.
func (e *enumerator) checks(x dst.Expr, out *[]pe, seen map[string]bool) {
	addc := func(p pe) {
		if !seen[p.s] {
			seen[p.s] = true
			*out = append(*out, p)
		}
	}
	dst.Inspect(x, func(n dst.Node) bool {
		switch n := n.(type) {
		case nil, *dst.FuncLit:
			return false
		case dst.Expr:
			if e.t.IsType(n) || e.t.Const(n) != nil {
				return false
			}
		}
		switch n := n.(type) {
		case *dst.IndexExpr:
			e.checks(n.X, out, seen)
			e.checks(n.Index, out, seen)
			tx := e.t.TypeOf(n.X)
			if tx == nil {
				return false
			}
			under := tx.Underlying()
			if p, ok := under.(*types.Pointer); ok {
				addc(bin(of(n.X), token.NEQ, ident("nil")))
				under = p.Elem().Underlying()
			}
			switch u := under.(type) {
			case *types.Map, *types.Signature:
				return false
			case *types.Array:
				if e.t.Const(n.Index) != nil {
					return false // checked by the compiler
				}
				_ = u
			}
			lenX := pe{&dst.CallExpr{Fun: dst.NewIdent("len"), Args: []dst.Expr{clone(n.X)}}, "len(" + ExprString(n.X) + ")"}
			it := e.t.TypeOf(n.Index)
			if it == nil || isUntyped(it) || types.Identical(it, types.Typ[types.Int]) {
				if e.t.Const(n.Index) == nil {
					addc(bin(lit(token.INT, "0"), token.LEQ, of(n.Index)))
				}
				addc(bin(of(n.Index), token.LSS, lenX))
				return false
			}
			// Another integer type (uint8, a named int, ...): compare as
			// uint64, where a negative index becomes too large.
			u64 := func(x pe) pe {
				return pe{&dst.CallExpr{Fun: dst.NewIdent("uint64"), Args: []dst.Expr{x.d}}, "uint64(" + x.s + ")"}
			}
			addc(bin(u64(of(n.Index)), token.LSS, u64(lenX)))
			return false
		case *dst.StarExpr:
			e.checks(n.X, out, seen)
			addc(bin(of(n.X), token.NEQ, ident("nil")))
			return false
		case *dst.SelectorExpr:
			e.checks(n.X, out, seen)
			if tx := e.t.TypeOf(n.X); tx != nil && !e.t.IsType(n.X) {
				if _, ok := tx.Underlying().(*types.Pointer); ok {
					addc(bin(of(n.X), token.NEQ, ident("nil")))
				}
			}
			return false
		case *dst.BinaryExpr:
			e.checks(n.X, out, seen)
			e.checks(n.Y, out, seen)
			b := gonorm.Basic(e.t.TypeOf(n.Y))
			isInt := b != nil && b.Info()&types.IsInteger != 0
			if (n.Op == token.QUO || n.Op == token.REM) && isInt && e.t.Const(n.Y) == nil {
				if bx := gonorm.Basic(e.t.TypeOf(n)); bx != nil && bx.Info()&types.IsInteger != 0 {
					addc(bin(of(n.Y), token.NEQ, lit(token.INT, "0")))
				}
			}
			if (n.Op == token.SHL || n.Op == token.SHR) && isInt && b.Info()&types.IsUnsigned == 0 && e.t.Const(n.Y) == nil {
				addc(bin(of(n.Y), token.GEQ, lit(token.INT, "0")))
			}
			return false
		}
		return true
	})
}

// atoms collects the maximal subexpressions of d that are not &&, || or !.
func atoms(d dst.Expr, out []dst.Expr) []dst.Expr {
	switch x := gonorm.Unparen(d).(type) {
	case *dst.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return atoms(x.Y, atoms(x.X, out))
		}
	case *dst.UnaryExpr:
		if x.Op == token.NOT {
			return atoms(x.X, out)
		}
	}
	return append(out, gonorm.Unparen(d))
}

// decision adds the CC and MCC labels of decision d.
func (e *enumerator) decision(d dst.Expr, lz []lazy, point dst.Stmt) {
	if !e.crit.Has(labels.CC) && !e.crit.Has(labels.MCC) {
		return
	}
	var as []dst.Expr
	seen := map[string]bool{}
	for _, a := range atoms(d, nil) {
		if e.t.Const(a) != nil {
			continue
		}
		k := ExprString(a)
		if !seen[k] {
			seen[k] = true
			as = append(as, a)
		}
	}
	if len(as) == 0 {
		return
	}
	if e.crit.Has(labels.CC) {
		e.cc(labels.CC, "", as, lz, point)
	}
	if !e.crit.Has(labels.MCC) {
		return
	}
	if len(as) > e.maxAtoms {
		p := e.position(d, point)
		e.warnings = append(e.warnings, fmt.Sprintf("%s: warning: decision has %d atoms, more than --mcc-max-atoms %d: MCC falls back to CC here",
			p, len(as), e.maxAtoms))
		e.cc(labels.MCC, "cc fallback: ", as, lz, point)
		return
	}
	n := len(as)
	for m := 0; m < 1<<n; m++ {
		conj := make([]pe, n)
		var op strings.Builder
		for i, a := range as {
			if m&(1<<(n-1-i)) == 0 {
				conj[i] = of(a)
				op.WriteByte('T')
			} else {
				conj[i] = not(of(a))
				op.WriteByte('F')
			}
		}
		e.addConj(labels.MCC, op.String(), point, d, conj, lz, as)
	}
}

func (e *enumerator) cc(k labels.Key, prefix string, as []dst.Expr, lz []lazy, point dst.Stmt) {
	for _, a := range as {
		e.add(k, prefix+"true", point, a, of(a), lz, []dst.Expr{a})
		e.add(k, prefix+"false", point, a, not(of(a)), lz, []dst.Expr{a})
	}
}

// relation masks over the outcomes less, equal, greater.
var relMask = map[token.Token]int{token.LSS: 1, token.EQL: 2, token.GTR: 4, token.LEQ: 3, token.GEQ: 6, token.NEQ: 5}

var relOps = []token.Token{token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ}

func relOf(mask int) token.Token {
	for _, op := range relOps {
		if relMask[op] == mask {
			return op
		}
	}
	return token.ILLEGAL
}

func (e *enumerator) basicOf(x, y dst.Expr) *types.Basic {
	t := e.t.TypeOf(x)
	if t == nil || isUntyped(t) {
		if ty := e.t.TypeOf(y); ty != nil && !isUntyped(ty) {
			t = ty
		}
	}
	if t == nil {
		return nil
	}
	return gonorm.Basic(types.Default(t))
}

func isUntyped(t types.Type) bool {
	b := gonorm.Basic(t)
	return b != nil && b.Info()&types.IsUntyped != 0
}

func (e *enumerator) ror(x dst.Expr, op token.Token, y dst.Expr, at dst.Expr, lz []lazy, point dst.Stmt) {
	b := e.basicOf(x, y)
	if b == nil || b.Info()&types.IsOrdered == 0 {
		return
	}
	isFloat := b.Info()&types.IsFloat != 0
	for _, m := range relOps {
		if m == op {
			continue
		}
		name := op.String() + " -> " + m.String()
		diff := relMask[op] ^ relMask[m]
		complement := diff == 7
		if isFloat && !(complement && (op == token.EQL || op == token.NEQ)) {
			pred := bin(paren(bin(of(x), op, of(y))), token.NEQ, paren(bin(of(x), m, of(y))))
			e.add(labels.WMROR, name, point, at, pred, lz, []dst.Expr{x, y})
			continue
		}
		if complement {
			gl := e.add(labels.WMROR, name, point, at, ident("true"), lz, []dst.Expr{x, y})
			e.setStatus(gl, labels.Trivial, "predicate is constant true: the mutant always differs")
			continue
		}
		e.add(labels.WMROR, name, point, at, bin(of(x), relOf(diff), of(y)), lz, []dst.Expr{x, y})
	}
}

var aorOps = []token.Token{token.ADD, token.SUB, token.MUL, token.QUO}

func isZero(v constant.Value) bool {
	return v != nil && constant.Sign(v) == 0
}

func (e *enumerator) aor(x dst.Expr, op token.Token, y dst.Expr, at dst.Expr, lz []lazy, point dst.Stmt) {
	b := e.basicOf(x, y)
	if b == nil || b.Info()&types.IsNumeric == 0 {
		return
	}
	isInt := b.Info()&types.IsInteger != 0
	for _, m := range aorOps {
		if m == op {
			continue
		}
		name := op.String() + " -> " + m.String()
		if m == token.QUO && isZero(e.t.Const(y)) {
			gl := e.add(labels.WMAOR, name, point, at, ident("true"), lz, []dst.Expr{x, y})
			e.setStatus(gl, labels.Trivial, "predicate is constant true: the mutant divides by zero")
			continue
		}
		pred := bin(paren(bin(of(x), op, of(y))), token.NEQ, paren(bin(of(x), m, of(y))))
		if isInt && (op == token.QUO || m == token.QUO) && e.t.Const(y) == nil {
			pred = bin(bin(of(y), token.EQL, lit(token.INT, "0")), token.LOR, pred)
		}
		e.add(labels.WMAOR, name, point, at, pred, lz, []dst.Expr{x, y})
	}
}

func (e *enumerator) abs(x dst.Expr, lz []lazy, point dst.Stmt) {
	if !e.crit.Has(labels.WMABS) {
		return
	}
	id, ok := gonorm.Unparen(x).(*dst.Ident)
	if !ok || e.t.Origin(id) != nil {
		return
	}
	if _, isVar := e.t.ObjectOf(id).(*types.Var); !isVar {
		return
	}
	b := gonorm.Basic(e.t.TypeOf(id))
	if b == nil || b.Info()&types.IsUnsigned != 0 || b.Info()&(types.IsInteger|types.IsFloat) == 0 {
		return
	}
	for _, c := range []struct {
		op  string
		rel token.Token
	}{{"x -> abs(x)", token.LSS}, {"x -> -abs(x)", token.GTR}, {"x -> 0", token.EQL}} {
		e.add(labels.WMABS, c.op, point, id, bin(of(id), c.rel, lit(token.INT, "0")), lz, []dst.Expr{id})
	}
}

// mutations adds the weak-mutation labels of the operators in x, which
// the original evaluates when lz holds.
func (e *enumerator) mutations(x dst.Expr, lz []lazy, point dst.Stmt) {
	if x == nil || !e.wm() || e.t.IsType(x) || e.t.Const(x) != nil {
		return
	}
	switch n := x.(type) {
	case *dst.ParenExpr:
		e.mutations(n.X, lz, point)
	case *dst.BinaryExpr:
		if e.t.Impure(n.X) || e.t.Impure(n.Y) {
			return
		}
		switch n.Op {
		case token.LAND, token.LOR:
			e.mutations(n.X, lz, point)
			e.mutations(n.Y, append(lz[:len(lz):len(lz)], lazy{n.X, n.Op == token.LOR}), point)
			if e.crit.Has(labels.WMCOR) {
				other := token.LOR
				if n.Op == token.LOR {
					other = token.LAND
				}
				x, y := of(n.X), of(n.Y)
				if prec(x.d) < 6 {
					x = paren(x)
				}
				if prec(y.d) < 6 {
					y = paren(y)
				}
				e.add(labels.WMCOR, n.Op.String()+" -> "+other.String(), point, n, bin(x, token.NEQ, y), lz, []dst.Expr{n.X, n.Y})
			}
			return
		}
		e.mutations(n.X, lz, point)
		e.mutations(n.Y, lz, point)
		_, rel := relMask[n.Op]
		arith := n.Op == token.ADD || n.Op == token.SUB || n.Op == token.MUL || n.Op == token.QUO
		if rel && e.crit.Has(labels.WMROR) {
			e.ror(n.X, n.Op, n.Y, n, lz, point)
		}
		if arith && e.crit.Has(labels.WMAOR) {
			e.aor(n.X, n.Op, n.Y, n, lz, point)
		}
		if rel || arith || n.Op == token.REM {
			e.abs(n.X, lz, point)
			e.abs(n.Y, lz, point)
		}
	case *dst.UnaryExpr:
		if n.Op == token.ARROW || e.t.Impure(n.X) {
			return
		}
		e.mutations(n.X, lz, point)
		if n.Op == token.SUB {
			if b := gonorm.Basic(e.t.TypeOf(n.X)); b != nil && b.Info()&types.IsNumeric != 0 && e.crit.Has(labels.WMAOR) {
				neg := of(n.X)
				if prec(neg.d) < 6 {
					neg = paren(neg)
				}
				neg = pe{&dst.UnaryExpr{Op: token.SUB, X: neg.d}, "-" + neg.s}
				e.add(labels.WMAOR, "-x -> x", point, n, bin(neg, token.NEQ, of(n.X)), lz, []dst.Expr{n.X})
			}
			e.abs(n.X, lz, point)
		}
	case *dst.CallExpr:
		for _, a := range n.Args {
			e.mutations(a, lz, point)
		}
	case *dst.IndexExpr:
		e.mutations(n.X, lz, point)
		e.mutations(n.Index, lz, point)
	case *dst.StarExpr:
		e.mutations(n.X, lz, point)
	case *dst.SelectorExpr:
		e.mutations(n.X, lz, point)
	case *dst.CompositeLit:
		for _, el := range n.Elts {
			if kv, ok := el.(*dst.KeyValueExpr); ok {
				e.mutations(kv.Value, lz, point)
				continue
			}
			e.mutations(el, lz, point)
		}
	}
}
