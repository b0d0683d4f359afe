package golang

import (
	"context"
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/dave/dst"
)

// Options control File and Package.
type Options struct {
	// Prefix of temporaries (default "lc"); lengthened with '_' while the
	// package already has an identifier made of it and digits.
	Prefix string
	// Statements also normalizes simple statements (assignments, returns,
	// expression, send and inc/dec statements, var declarations) that hold
	// an operator a weak-mutation label is about; without it only
	// decisions are normalized.
	Statements bool
	// Decisions also normalizes simple statements that hold && or ||
	// (decisions in returns, assignments and call arguments).
	Decisions bool
	// Slot reports whether a decision statement (*dst.IfStmt, *dst.ForStmt
	// or *dst.SwitchStmt) needs a statement slot in front of its condition
	// even when nothing is hoisted (because labels will go there). Nil
	// means only when something is hoisted.
	Slot func(dst.Stmt) bool
}

// Result tells label enumeration what normalization made.
type Result struct {
	// Prefix is the prefix used for temporaries.
	Prefix string
	// Temps counts the temporaries introduced.
	Temps int
	// Scaffold holds the if statements made by conditional extraction:
	// they are not decisions of the original program.
	Scaffold map[*dst.IfStmt]bool
	// ForBreaks maps each `if !(c) { break }` made from a for condition to
	// its loop.
	ForBreaks map[*dst.IfStmt]*dst.ForStmt
	// Skipped maps nodes left alone (switches with impure case
	// expressions, statements whose rewrite would not keep their types,
	// declarations in functions with goto) to the reason; they get no
	// labels.
	Skipped map[dst.Node]string
	// Lazy maps each temporary holding an operand of && or || that the
	// original evaluates only under a condition (short-circuit) to the
	// value it holds when that operand is not evaluated.
	Lazy map[string]bool
	// Derived holds statements made by normalization that compute a
	// && / || residue of a decision labelled elsewhere (not decisions of
	// their own).
	Derived map[dst.Stmt]bool
}

// Package normalizes every function body of files (one package, typed by
// t). Temporaries are named so that they shadow nothing in the package.
func Package(ctx context.Context, files []*dst.File, t *Types, opts Options) (*Result, error) {
	if t == nil {
		return nil, fmt.Errorf("normalize/golang: no type information")
	}
	if opts.Prefix == "" {
		opts.Prefix = "lc"
	}
	names := map[string]bool{}
	for _, f := range files {
		dst.Inspect(f, func(n dst.Node) bool {
			if id, ok := n.(*dst.Ident); ok {
				names[id.Name] = true
			}
			return true
		})
	}
	prefix := opts.Prefix
	for clashes(names, prefix) {
		prefix += "_"
	}
	n := &normalizer{t: t, opts: opts, res: &Result{Prefix: prefix,
		Scaffold: map[*dst.IfStmt]bool{}, ForBreaks: map[*dst.IfStmt]*dst.ForStmt{}, Skipped: map[dst.Node]string{},
		Lazy: map[string]bool{}, Derived: map[dst.Stmt]bool{}}}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("normalize/golang: %w", err)
		}
		n.file(f)
	}
	return n.res, nil
}

func clashes(names map[string]bool, prefix string) bool {
	for name := range names {
		if rest, ok := strings.CutPrefix(name, prefix); ok {
			if _, err := strconv.Atoi(rest); err == nil || rest == "" {
				return true
			}
		}
	}
	return false
}

type normalizer struct {
	t    *Types
	opts Options
	res  *Result
	// gotoTargets, inside a function with goto, holds the labels goto
	// jumps to; nil elsewhere.
	gotoTargets map[string]bool
}

func (n *normalizer) file(f *dst.File) {
	var lits []*dst.FuncLit
	dst.Inspect(f, func(x dst.Node) bool {
		if fl, ok := x.(*dst.FuncLit); ok {
			lits = append(lits, fl)
		}
		return true
	})
	for _, d := range f.Decls {
		if fd, ok := d.(*dst.FuncDecl); ok && fd.Body != nil {
			n.body(fd.Body)
		}
	}
	for _, fl := range lits {
		n.body(fl.Body)
	}
}

// GotoTargets returns the labels goto jumps to in body (outside nested
// function literals), nil when it has no goto.
func GotoTargets(body *dst.BlockStmt) map[string]bool {
	var out map[string]bool
	dst.Inspect(body, func(x dst.Node) bool {
		switch x := x.(type) {
		case *dst.FuncLit:
			return false
		case *dst.BranchStmt:
			if x.Tok == token.GOTO && x.Label != nil {
				if out == nil {
					out = map[string]bool{}
				}
				out[x.Label.Name] = true
			}
		}
		return true
	})
	return out
}

// body normalizes a function body. In a function with goto, what is
// hoisted in front of a statement goes into a block with it, so no goto
// jumps over a new declaration (Go forbids it).
func (n *normalizer) body(b *dst.BlockStmt) {
	outer := n.gotoTargets
	n.gotoTargets = GotoTargets(b)
	b.List = n.stmts(b.List)
	n.gotoTargets = outer
}

func (n *normalizer) slot(s dst.Stmt) bool { return n.opts.Slot != nil && n.opts.Slot(s) }

// stmts normalizes a statement list, returning the new list.
func (n *normalizer) stmts(list []dst.Stmt) []dst.Stmt {
	if n.opts.Statements || n.opts.Decisions {
		list = n.splitVarGroups(list)
	}
	out := make([]dst.Stmt, 0, len(list))
	for i, s := range list {
		out = append(out, n.stmtAt(s, n.targetIn(list[i+1:]))...)
	}
	return out
}

// splitVarGroups returns list with each grouped var declaration of more
// than one spec, `var ( a T; b = f(a) )`, split into one declaration a
// spec, `var a T; var b = f(a)`: what normalization hoists out of a later
// spec, and the labels in front of it, may read names an earlier spec
// declares (a name's scope begins after its spec, so this changes
// nothing). The group's comments stay with its first and last spec.
func (n *normalizer) splitVarGroups(list []dst.Stmt) []dst.Stmt {
	var out []dst.Stmt
	for i, s := range list {
		ds, ok := s.(*dst.DeclStmt)
		gd, isGen := (*dst.GenDecl)(nil), false
		if ok {
			gd, isGen = ds.Decl.(*dst.GenDecl)
		}
		if !isGen || gd.Tok != token.VAR || len(gd.Specs) < 2 {
			if out != nil {
				out = append(out, s)
			}
			continue
		}
		if out == nil {
			out = append(make([]dst.Stmt, 0, len(list)+len(gd.Specs)), list[:i]...)
		}
		for j, sp := range gd.Specs {
			one := &dst.DeclStmt{Decl: &dst.GenDecl{Tok: token.VAR, Specs: []dst.Spec{sp}}}
			n.t.StandsFor(one, sp)
			sd := sp.Decorations()
			sd.Before, sd.After = dst.None, dst.None
			one.Decs.Before = dst.NewLine
			if j == 0 {
				one.Decs.Before = ds.Decs.Before
				one.Decs.Start = append(append(ds.Decs.Start, gd.Decs.Start...), gd.Decs.Lparen...)
			}
			if j == len(gd.Specs)-1 {
				one.Decs.After = ds.Decs.After
				one.Decs.End = append(append(sd.End, gd.Decs.End...), ds.Decs.End...)
				sd.End = nil
			}
			out = append(out, one)
		}
	}
	if out == nil {
		return list
	}
	return out
}

// targetIn reports whether a statement of list is labelled with a label
// goto jumps to: a goto before it could jump over a declaration in front
// of it (a goto cannot jump into a block, so only labels of the same list
// matter).
func (n *normalizer) targetIn(list []dst.Stmt) bool {
	if n.gotoTargets == nil {
		return false
	}
	for _, s := range list {
		for l, ok := s.(*dst.LabeledStmt); ok; l, ok = l.Stmt.(*dst.LabeledStmt) {
			if n.gotoTargets[l.Label.Name] {
				return true
			}
		}
	}
	return false
}

// stmt returns the statements replacing s in a list where no goto target
// follows it.
func (n *normalizer) stmt(s dst.Stmt) []dst.Stmt { return n.stmtAt(s, false) }

// stmtAt returns the statements replacing s in its list; jumped says that
// a goto target follows s there, so a goto could jump over declarations
// put in front of s.
func (n *normalizer) stmtAt(s dst.Stmt, jumped bool) []dst.Stmt {
	inner := s
	var lbl *dst.LabeledStmt
	if l, ok := s.(*dst.LabeledStmt); ok {
		lbl, inner = l, l.Stmt
	}
	// A goto to s's own label must run what is hoisted in front of s.
	target := lbl != nil && n.gotoTargets[lbl.Label.Name]
	wrap := func(pre []dst.Stmt, st dst.Stmt) []dst.Stmt {
		if (jumped || target) && len(pre) > 0 {
			// { pre; L: st }, or L: { pre; st } when goto jumps to L (a
			// goto may not jump into a block).
			if lbl != nil && !n.gotoTargets[lbl.Label.Name] {
				lbl.Stmt = st
				st = lbl
				lbl = nil
			}
			st.Decorations().Before = dst.NewLine
			blk := &dst.BlockStmt{List: append(pre, st)}
			moveDecs(s, blk, blk)
			pre, st = nil, blk
		}
		if lbl != nil {
			lbl.Stmt = st
			st = lbl
		}
		if len(pre) > 0 {
			moveDecs(s, pre[0], st)
		}
		return append(pre, st)
	}
	switch x := inner.(type) {
	case *dst.IfStmt:
		pre, st := n.ifStmt(x)
		return wrap(pre, st)
	case *dst.ForStmt:
		n.forStmt(x)
		return wrap(nil, x)
	case *dst.SwitchStmt:
		pre, st := n.switchStmt(x)
		return wrap(pre, st)
	case *dst.TypeSwitchStmt:
		for _, c := range x.Body.List {
			cc := c.(*dst.CaseClause)
			cc.Body = n.stmts(cc.Body)
		}
	case *dst.SelectStmt:
		for _, c := range x.Body.List {
			cc := c.(*dst.CommClause)
			cc.Body = n.stmts(cc.Body)
		}
	case *dst.RangeStmt:
		x.Body.List = n.stmts(x.Body.List)
	case *dst.BlockStmt:
		x.List = n.stmts(x.List)
	case *dst.AssignStmt, *dst.ExprStmt, *dst.ReturnStmt, *dst.IncDecStmt, *dst.SendStmt, *dst.DeclStmt:
		if n.opts.Statements || n.opts.Decisions {
			if (jumped || target) && declares(inner) {
				// Its hoisted code cannot go into a block with it.
				if n.wouldHoist(inner) {
					n.res.Skipped[inner] = "declaration in a function with goto"
				}
				return []dst.Stmt{s}
			}
			pre := n.simple(inner)
			return wrap(pre, inner)
		}
	}
	return []dst.Stmt{s}
}

// moveDecs moves the comments and spacing in front of the original
// statement to the first statement now in its place.
func moveDecs(orig dst.Stmt, first, st dst.Stmt) {
	d := orig.Decorations()
	fd := first.Decorations()
	fd.Before = d.Before
	fd.Start = append(fd.Start, d.Start...)
	d.Start = nil
	d.Before = dst.NewLine
	_ = st
}

// ifStmt normalizes an if (and its else-if chain). It returns statements
// to put before it and the statement to put in its place.
func (n *normalizer) ifStmt(x *dst.IfStmt) ([]dst.Stmt, dst.Stmt) {
	var pre []dst.Stmt
	x.Cond = n.expr(x.Cond, &pre)
	x.Body.List = n.stmts(x.Body.List)
	switch e := x.Else.(type) {
	case *dst.IfStmt:
		epre, est := n.ifStmt(e)
		if len(epre) > 0 || est != dst.Stmt(e) || n.slot(e) {
			// else if → else { pre; if }
			e.Decs.Before = dst.NewLine
			x.Else = &dst.BlockStmt{List: append(epre, est)}
		}
	case *dst.BlockStmt:
		e.List = n.stmts(e.List)
	}
	if x.Init == nil && len(pre) == 0 {
		return nil, x
	}
	if x.Init == nil {
		return pre, x
	}
	if len(pre) == 0 && !n.slot(x) {
		return nil, x
	}
	init := x.Init
	x.Init = nil
	return nil, n.scoped(init, pre, x)
}

// scoped returns the block { init; pre; s }: what is hoisted out of s
// runs after s's init statement, whose variables keep their scope.
func (n *normalizer) scoped(init dst.Stmt, pre []dst.Stmt, s dst.Stmt) *dst.BlockStmt {
	list := append(n.stmt(init), pre...)
	s.Decorations().Before = dst.NewLine
	return &dst.BlockStmt{List: append(list, s)}
}

// forStmt moves a for condition into the body when something is hoisted
// out of it or labels need a slot before it.
func (n *normalizer) forStmt(x *dst.ForStmt) {
	x.Body.List = n.stmts(x.Body.List)
	if x.Cond == nil {
		return
	}
	if !n.impure(x.Cond) && !n.slot(x) {
		return
	}
	var pre []dst.Stmt
	c := n.expr(x.Cond, &pre)
	not := &dst.UnaryExpr{Op: token.NOT, X: &dst.ParenExpr{X: c}}
	n.t.Record(not, types.Typ[types.Bool])
	n.t.StandsFor(not, x.Cond)
	brk := &dst.IfStmt{Cond: not, Body: &dst.BlockStmt{List: []dst.Stmt{&dst.BranchStmt{Tok: token.BREAK}}}}
	brk.Decs.Before = dst.NewLine
	n.res.ForBreaks[brk] = x
	x.Cond = nil
	body := append(pre, brk)
	x.Body.List = append(body, x.Body.List...)
}

func (n *normalizer) switchStmt(x *dst.SwitchStmt) ([]dst.Stmt, dst.Stmt) {
	impureCase, falls := false, false
	for _, c := range x.Body.List {
		cc := c.(*dst.CaseClause)
		for _, e := range cc.List {
			impureCase = impureCase || n.impure(e)
		}
		if k := len(cc.Body); k > 0 {
			if b, ok := cc.Body[k-1].(*dst.BranchStmt); ok && b.Tok == token.FALLTHROUGH {
				falls = true
			}
		}
	}
	if impureCase && !falls && (x.Tag == nil || n.t.Const(x.Tag) == nil) {
		return n.switchToIfs(x)
	}
	for _, c := range x.Body.List {
		cc := c.(*dst.CaseClause)
		cc.Body = n.stmts(cc.Body)
	}
	if impureCase {
		n.res.Skipped[x] = "switch with fallthrough and a case expression with a call or other effect"
	}
	var pre []dst.Stmt
	if x.Tag != nil {
		if _, skip := n.res.Skipped[x]; skip {
			// Case expressions stay where they are; the tag must then be
			// left alone too, to keep the order of calls.
		} else {
			x.Tag = n.expr(x.Tag, &pre)
		}
	}
	if x.Init == nil || (len(pre) == 0 && !n.slot(x)) {
		return pre, x
	}
	init := x.Init
	x.Init = nil
	return nil, n.scoped(init, pre, x)
}

// switchToIfs rewrites an expression switch whose case expressions have
// effects, so that each case's hoisted code runs only when the case is
// reached, in order:
//
//	switch init; tag { case a, f(): S1; case g(): S2; default: S3 }
//
// becomes
//
//	{ init; switch { default: lcT := tag; if lcT == a || … { S1 } else { …; if … { S2 } else { S3 } } } }
//
// The one-clause switch keeps what break (and a label on the switch)
// mean in the clause bodies. Switches with fallthrough are left alone.
func (n *normalizer) switchToIfs(x *dst.SwitchStmt) ([]dst.Stmt, dst.Stmt) {
	var head []dst.Stmt
	var tag dst.Expr
	if x.Tag != nil {
		t := n.expr(x.Tag, &head)
		typ := n.t.TypeOf(x.Tag)
		if typ != nil {
			typ = types.Default(typ)
		}
		name := n.newTemp()
		head = append(head, n.define(name, t, x.Tag, typ))
		tag = n.use(name, x.Tag, typ)
	}
	var deflt []dst.Stmt
	type clause struct {
		cc   *dst.CaseClause
		cond dst.Expr
	}
	var clauses []clause
	for _, c := range x.Body.List {
		cc := c.(*dst.CaseClause)
		cc.Body = n.stmts(cc.Body)
		if cc.List == nil {
			deflt = cc.Body
			continue
		}
		var cond dst.Expr
		for _, e := range cc.List {
			d := e.Decorations()
			d.Before, d.After = dst.None, dst.None
			var one dst.Expr = e
			if tag != nil {
				id := tag.(*dst.Ident)
				one = &dst.BinaryExpr{X: n.use(id.Name, x.Tag, n.t.TypeOf(id)), Op: token.EQL, Y: e}
				n.t.Record(one, types.Typ[types.Bool])
				n.t.StandsFor(one, e)
			}
			if cond == nil {
				cond = one
				continue
			}
			or := &dst.BinaryExpr{X: cond, Op: token.LOR, Y: one}
			n.t.Record(or, types.Typ[types.Bool])
			n.t.StandsFor(or, cc.List[0])
			cond = or
		}
		clauses = append(clauses, clause{cc, cond})
	}
	// Build the chain from the last clause up.
	var rest []dst.Stmt = deflt
	for i := len(clauses) - 1; i >= 0; i-- {
		c := clauses[i]
		var pre []dst.Stmt
		cond := n.expr(c.cond, &pre)
		ifs := &dst.IfStmt{Cond: cond, Body: &dst.BlockStmt{List: c.cc.Body}}
		ifs.Decs.Before = dst.NewLine
		if len(rest) > 0 {
			ifs.Else = &dst.BlockStmt{List: rest}
		}
		rest = append(pre, ifs)
	}
	body := append(head, rest...)
	sw := &dst.SwitchStmt{Body: &dst.BlockStmt{List: []dst.Stmt{&dst.CaseClause{Body: body}}}}
	sw.Decs.Before = dst.NewLine
	n.t.StandsFor(sw, x)
	if x.Init == nil {
		return nil, sw
	}
	list := n.stmt(x.Init)
	list = append(list, sw)
	return nil, &dst.BlockStmt{List: list}
}

// labelled reports whether the expressions of a simple statement hold
// something a label is about and something to hoist.
func (n *normalizer) labelled(all []*dst.Expr) bool {
	labelled, impure := false, false
	for _, p := range all {
		labelled = labelled || (n.opts.Statements && HasOperator(*p)) || (n.opts.Decisions && HasDecision(*p))
		impure = impure || n.impure(*p)
	}
	return labelled && impure
}

// declares reports whether s declares names in its block.
func declares(s dst.Stmt) bool {
	switch x := s.(type) {
	case *dst.AssignStmt:
		return x.Tok == token.DEFINE
	case *dst.DeclStmt:
		return true
	}
	return false
}

// wouldHoist reports whether simple would hoist code out of s.
func (n *normalizer) wouldHoist(s dst.Stmt) bool {
	lhs, roots := SimpleExprs(s)
	return n.labelled(append(lhs, roots...))
}

// SimpleExprs returns pointers to the expressions a simple statement
// evaluates: left-hand sides other than plain names, and the values.
func SimpleExprs(s dst.Stmt) (lhs, roots []*dst.Expr) {
	switch x := s.(type) {
	case *dst.AssignStmt:
		for i := range x.Lhs {
			if _, ok := x.Lhs[i].(*dst.Ident); !ok {
				lhs = append(lhs, &x.Lhs[i])
			}
		}
		for i := range x.Rhs {
			roots = append(roots, &x.Rhs[i])
		}
	case *dst.ExprStmt:
		roots = append(roots, &x.X)
	case *dst.ReturnStmt:
		for i := range x.Results {
			roots = append(roots, &x.Results[i])
		}
	case *dst.IncDecStmt:
		lhs = append(lhs, &x.X)
	case *dst.SendStmt:
		roots = append(roots, &x.Chan, &x.Value)
	case *dst.DeclStmt:
		gd, ok := x.Decl.(*dst.GenDecl)
		if !ok || gd.Tok != token.VAR {
			return nil, nil
		}
		for _, sp := range gd.Specs {
			vs := sp.(*dst.ValueSpec)
			for i := range vs.Values {
				roots = append(roots, &vs.Values[i])
			}
		}
	}
	return lhs, roots
}

// simple normalizes a simple statement holding a labelled operator and an
// impure expression; it returns the statements to put before it.
func (n *normalizer) simple(s dst.Stmt) []dst.Stmt {
	lhs, roots := SimpleExprs(s)
	all := append(append([]*dst.Expr{}, lhs...), roots...)
	if !n.labelled(all) {
		return nil
	}
	impureRoots := 0
	for _, p := range all {
		if n.impure(*p) {
			impureRoots++
		}
	}
	for _, p := range all {
		// A multi-value call cannot be saved in one temporary; as the
		// only impure root it stays where it is.
		if n.tupleCall(*p) && impureRoots > 1 {
			n.res.Skipped[s] = "multi-value call among other calls"
			return nil
		}
		if !n.boolOpsKeepTypes(*p) {
			n.res.Skipped[s] = "&& or || of a named boolean type over a call"
			return nil
		}
	}
	var pre []dst.Stmt
	// LHS operands and right-hand sides are evaluated in the usual order:
	// calls left to right. The last root call may stay in place when it is
	// the only impure root (nothing after it reads a variable it changes).
	for i, p := range all {
		isLHS := i < len(lhs)
		if isLHS || (impureRoots == 1 && n.needsHoist(*p)) {
			n.children(*p, &pre)
			continue
		}
		*p = n.expr(*p, &pre)
	}
	return pre
}

func (n *normalizer) tupleCall(e dst.Expr) bool {
	if c, ok := e.(*dst.CallExpr); ok {
		if _, ok := n.t.TypeOf(c).(*types.Tuple); ok {
			return true
		}
	}
	return false
}

// boolOpsKeepTypes reports whether conditional extraction of the && and ||
// in e can keep their types (the extracted form is of type bool or of
// the left operand's type).
func (n *normalizer) boolOpsKeepTypes(e dst.Expr) bool {
	ok := true
	inspectExpr(e, func(x dst.Expr) {
		b, isB := x.(*dst.BinaryExpr)
		if !isB || (b.Op != token.LAND && b.Op != token.LOR) || !n.impure(b.Y) {
			return
		}
		tx, ty := n.t.TypeOf(b.X), n.t.TypeOf(b.Y)
		if tx == nil || ty == nil {
			ok = false
			return
		}
		if isUntyped(tx) && !types.Identical(types.Default(ty), types.Typ[types.Bool]) {
			ok = false
		}
	})
	return ok
}

func isUntyped(t types.Type) bool {
	b := Basic(t)
	return b != nil && b.Info()&types.IsUntyped != 0
}

// HasDecision reports whether e holds a && or || (outside function
// literals).
func HasDecision(e dst.Expr) bool {
	found := false
	inspectExpr(e, func(x dst.Expr) {
		if b, ok := x.(*dst.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
			found = true
		}
	})
	return found
}

// HasOperator reports whether e holds an operator a label can be about:
// binary arithmetic or comparison, && or ||, unary minus (outside function
// literals).
func HasOperator(e dst.Expr) bool {
	found := false
	inspectExpr(e, func(x dst.Expr) {
		switch x := x.(type) {
		case *dst.BinaryExpr:
			found = true
		case *dst.UnaryExpr:
			if x.Op == token.SUB {
				found = true
			}
		}
	})
	return found
}

// inspectExpr calls f on e and its subexpressions, not entering function
// literals.
func inspectExpr(e dst.Expr, f func(dst.Expr)) {
	dst.Inspect(e, func(x dst.Node) bool {
		if x == nil {
			return false
		}
		if _, ok := x.(*dst.FuncLit); ok {
			return false
		}
		if ex, ok := x.(dst.Expr); ok {
			f(ex)
		}
		return true
	})
}
