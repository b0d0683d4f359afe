package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
	gonorm "github.com/labelcov/labelcov/normalize/golang"
)

// file enumerates the labels of one normalized file.
func (e *enumerator) file(f *dst.File) {
	e.goVersion = e.fileVersion(f)
	e.writeCounts(f)
	var lits []*dst.FuncLit
	dst.Inspect(f, func(n dst.Node) bool {
		if fl, ok := n.(*dst.FuncLit); ok {
			lits = append(lits, fl)
		}
		return true
	})
	for _, d := range f.Decls {
		if fd, ok := d.(*dst.FuncDecl); ok && fd.Body != nil {
			e.body(fd.Body)
		}
	}
	for _, fl := range lits {
		e.body(fl.Body)
	}
}

// fileVersion is the Go language version of f: its module's go line,
// changed by a //go:build line as go/types does ("" when unknown).
func (e *enumerator) fileVersion(f *dst.File) string {
	if af, ok := e.t.Ast(f).(*ast.File); ok && e.t.Info != nil {
		if v := e.t.Info.FileVersions[af]; v != "" {
			return v
		}
	}
	if e.t.Pkg != nil {
		return e.t.Pkg.GoVersion()
	}
	return ""
}

func (e *enumerator) body(b *dst.BlockStmt) {
	if _, skip := e.norm.Skipped[b]; skip {
		return
	}
	outer, steps, results, facts := e.inGoto, e.stepped, e.results, e.facts
	e.inGoto = gonorm.GotoTargets(b) != nil
	e.stepped = e.steppedVars(b)
	e.results = e.resultVars(b)
	e.facts = nil
	e.list(&b.List)
	e.inGoto, e.stepped, e.results, e.facts = outer, steps, results, facts
}

// steppedVars returns what a function body increments or decrements (i++,
// z.pos--): the indexes a scanner advances, each variable by its object and
// each field path (z.raw.end) by its text. The keys of range loops step by
// one too, and so does what the body advances by an amount (pos += w) and
// uses as an index or a slice bound (input[pos], input[pos:]), and the
// length of a slice the body appends to one element at a time (s =
// append(s, x): len(s) counts up as i++ does; key lenOf{k}).
func (e *enumerator) steppedVars(b *dst.BlockStmt) map[any]bool {
	out := map[any]bool{}
	advanced := map[any]bool{}
	dst.Inspect(b, func(n dst.Node) bool {
		if s, ok := n.(*dst.AssignStmt); ok && (s.Tok == token.ASSIGN || s.Tok == token.DEFINE) && len(s.Lhs) == len(s.Rhs) {
			for i, r := range s.Rhs {
				if c, ok := r.(*dst.CallExpr); ok && len(c.Args) == 2 && !c.Ellipsis && e.isBuiltin(c.Fun, "append") {
					if k := e.stepKey(s.Lhs[i]); k != nil && k == e.stepKey(c.Args[0]) {
						out[lenOf{k}] = true
					}
				}
			}
		}
		switch s := n.(type) {
		case *dst.IncDecStmt:
			if k := e.stepKey(s.X); k != nil {
				out[k] = true
			}
		case *dst.RangeStmt:
			if k := e.stepKey(s.Key); k != nil {
				out[k] = true
			}
		case *dst.AssignStmt:
			if s.Tok == token.ADD_ASSIGN || s.Tok == token.SUB_ASSIGN {
				if k := e.stepKey(s.Lhs[0]); k != nil {
					advanced[k] = true
				}
			}
		}
		return true
	})
	e.indexUses(b, func(x dst.Expr) {
		if k := e.stepKey(x); k != nil && advanced[k] {
			out[k] = true
		}
	})
	return out
}

// positionFields returns the struct fields (their objects) that the
// package advances (++, --, +=, -=) somewhere and uses as an index or a
// slice bound somewhere: a scanner's position (lx.pos in next, read in
// peek); isStepped counts them as stepped in every function.
func (e *enumerator) positionFields(files []*dst.File) map[types.Object]bool {
	field := func(x dst.Expr) types.Object {
		if sel, ok := x.(*dst.SelectorExpr); ok {
			if v, ok := e.t.ObjectOf(sel.Sel).(*types.Var); ok && v.IsField() {
				return v
			}
		}
		return nil
	}
	advanced := map[types.Object]bool{}
	out := map[types.Object]bool{}
	for _, f := range files {
		dst.Inspect(f, func(n dst.Node) bool {
			var x dst.Expr
			switch s := n.(type) {
			case *dst.IncDecStmt:
				x = s.X
			case *dst.AssignStmt:
				if s.Tok == token.ADD_ASSIGN || s.Tok == token.SUB_ASSIGN {
					x = s.Lhs[0]
				}
			}
			if obj := field(x); obj != nil {
				advanced[obj] = true
			}
			return true
		})
	}
	for _, f := range files {
		e.indexUses(f, func(x dst.Expr) {
			if obj := field(x); obj != nil && advanced[obj] {
				out[obj] = true
			}
		})
	}
	return out
}

// indexUses calls use for each identifier or field path that is an index
// or a slice bound in n, alone or in a sum or difference (s[i+1]).
func (e *enumerator) indexUses(n dst.Node, use func(dst.Expr)) {
	var walk func(x dst.Expr)
	walk = func(x dst.Expr) {
		switch y := x.(type) {
		case *dst.ParenExpr:
			walk(y.X)
		case *dst.BinaryExpr:
			if y.Op == token.ADD || y.Op == token.SUB {
				walk(y.X)
				walk(y.Y)
			}
		case *dst.Ident, *dst.SelectorExpr:
			use(y)
		}
	}
	dst.Inspect(n, func(n dst.Node) bool {
		switch x := n.(type) {
		case *dst.IndexExpr:
			walk(x.Index)
		case *dst.SliceExpr:
			for _, b := range []dst.Expr{x.Low, x.High, x.Max} {
				if b != nil {
					walk(b)
				}
			}
		}
		return true
	})
}

// lenOf is the key in steppedVars of the length of the slice whose key
// is k.
type lenOf struct{ k any }

// isBuiltin reports whether f names the predeclared function name.
func (e *enumerator) isBuiltin(f dst.Expr, name string) bool {
	id, ok := f.(*dst.Ident)
	if !ok || id.Name != name || id.Path != "" {
		return false
	}
	_, ok = e.t.ObjectOf(id).(*types.Builtin)
	return ok
}

// stepKey is the key of x in steppedVars: the object of a local or
// package variable, the text of a field path on one, else nil.
func (e *enumerator) stepKey(x dst.Expr) any {
	switch n := x.(type) {
	case *dst.Ident:
		if obj := e.t.ObjectOf(n); obj != nil && n.Path == "" {
			return obj
		}
	case *dst.SelectorExpr:
		for y := dst.Expr(n); ; {
			switch m := y.(type) {
			case *dst.SelectorExpr:
				y = m.X
				continue
			case *dst.Ident:
				if m.Path == "" {
					return ExprString(x)
				}
			}
			return nil
		}
	}
	return nil
}

func (e *enumerator) list(l *[]dst.Stmt) {
	e.lists = append(e.lists, l)
	n := len(e.facts)
	for _, s := range *l {
		e.stmt(s, s)
		// After `if C { ... return }`, C does not hold.
		if x, ok := s.(*dst.IfStmt); ok && x.Else == nil && x.Init == nil && e.terminates(x.Body) {
			e.pushFact(x.Cond, true)
		}
	}
	e.facts = e.facts[:n]
}

// listWith enumerates l where c (negated with neg) holds.
func (e *enumerator) listWith(l *[]dst.Stmt, facts ...fact) {
	n := len(e.facts)
	for _, f := range facts {
		e.pushFact(f.e, f.neg)
	}
	e.list(l)
	e.facts = e.facts[:n]
}

func (e *enumerator) stmt(s, point dst.Stmt) {
	if l, ok := s.(*dst.LabeledStmt); ok {
		e.stmt(l.Stmt, point)
		return
	}
	_, skipped := e.norm.Skipped[s]
	switch x := s.(type) {
	case *dst.IfStmt:
		if !skipped && !e.norm.Scaffold[x] && x.Init == nil && !e.t.Impure(x.Cond) {
			e.decision(x.Cond, nil, point)
			e.mutations(x.Cond, nil, point)
		}
		e.listWith(&x.Body.List, fact{x.Cond, false})
		if x.Init != nil { // the condition reads what Init defines: no facts
			e.listElse(x.Else, nil)
		} else {
			e.listElse(x.Else, []fact{{x.Cond, true}})
		}
	case *dst.ForStmt:
		if x.Init != nil {
			if _, skip := e.norm.Skipped[x.Init]; !skip {
				e.simple(x.Init, point)
			}
		}
		e.listWith(&x.Body.List, fact{x.Cond, false})
		if x.Post != nil && e.ops() {
			e.post(x)
		}
	case *dst.RangeStmt:
		e.list(&x.Body.List)
	case *dst.BlockStmt:
		e.list(&x.List)
	case *dst.SwitchStmt:
		if !skipped && x.Init == nil {
			e.switchLabels(x, point)
		}
		for _, c := range x.Body.List {
			cc := c.(*dst.CaseClause)
			e.list(&cc.Body)
		}
	case *dst.TypeSwitchStmt:
		for _, c := range x.Body.List {
			cc := c.(*dst.CaseClause)
			e.list(&cc.Body)
		}
	case *dst.SelectStmt:
		for _, c := range x.Body.List {
			cc := c.(*dst.CommClause)
			e.list(&cc.Body)
		}
	case *dst.GoStmt:
		if !skipped {
			e.callArgs(x.Call, point)
		}
	case *dst.DeferStmt:
		if !skipped {
			e.callArgs(x.Call, point)
		}
	case *dst.AssignStmt, *dst.ExprStmt, *dst.ReturnStmt, *dst.IncDecStmt, *dst.SendStmt, *dst.DeclStmt:
		if !skipped {
			e.simple(s, point)
		}
	}
}

// listElse enumerates the else branch els of an if where facts hold.
func (e *enumerator) listElse(els dst.Stmt, facts []fact) {
	switch y := els.(type) {
	case *dst.BlockStmt:
		e.listWith(&y.List, facts...)
	case *dst.IfStmt: // an else-if without a slot: no labels
		if y.Init != nil {
			facts = nil
		}
		e.listWith(&y.Body.List, append(append([]fact(nil), facts...), fact{y.Cond, false})...)
		e.listElse(y.Else, append(append([]fact(nil), facts...), fact{y.Cond, true}))
	}
}

// post labels the post statement of a for loop: it runs after each
// iteration, where no statement can go, so its labels and the statement
// become a function literal called in its place,
// `for …; …; func() { if P {} // label …; post }()` (inject builds it).
func (e *enumerator) post(x *dst.ForStmt) {
	l := []dst.Stmt{x.Post}
	e.posts = append(e.posts, postSite{x, &l})
	e.lists = append(e.lists, &l)
	e.simple(x.Post, x.Post)
}

// postSite is a for loop's post statement as a one-statement list labels
// can be injected into.
type postSite struct {
	loop *dst.ForStmt
	list *[]dst.Stmt
}

func (e *enumerator) callArgs(c *dst.CallExpr, point dst.Stmt) {
	for _, a := range c.Args {
		if e.t.Impure(a) {
			return
		}
	}
	for _, a := range c.Args {
		if e.ops() {
			e.mutations(a, nil, point)
		}
		e.decisions(a, nil, point)
	}
}

// roots returns the expressions a simple statement evaluates.
func roots(s dst.Stmt) []dst.Expr {
	var out []dst.Expr
	switch x := s.(type) {
	case *dst.AssignStmt:
		for _, l := range x.Lhs {
			if _, ok := l.(*dst.Ident); !ok {
				out = append(out, l)
			}
		}
		out = append(out, x.Rhs...)
	case *dst.ExprStmt:
		out = append(out, x.X)
	case *dst.ReturnStmt:
		out = append(out, x.Results...)
	case *dst.IncDecStmt:
		out = append(out, x.X)
	case *dst.SendStmt:
		out = append(out, x.Chan, x.Value)
	case *dst.DeclStmt:
		if gd, ok := x.Decl.(*dst.GenDecl); ok && gd.Tok == token.VAR {
			for _, sp := range gd.Specs {
				out = append(out, sp.(*dst.ValueSpec).Values...)
			}
		}
	}
	return out
}

// simple adds the weak-mutation labels of a simple statement whose only
// impure part, if any, is one call at its root (so labels in front of it
// see the values the statement computes with).
func (e *enumerator) simple(s, point dst.Stmt) {
	if !e.ops() && !e.dec() {
		return
	}
	rs := roots(s)
	hoist := 0
	rootHoist := 0
	for _, r := range rs {
		if e.t.NeedsHoist(r) {
			rootHoist++
		}
		dst.Inspect(r, func(n dst.Node) bool {
			if _, ok := n.(*dst.FuncLit); ok || n == nil {
				return false
			}
			if x, ok := n.(dst.Expr); ok && !e.t.IsType(x) && e.t.NeedsHoist(x) {
				hoist++
			}
			return true
		})
	}
	if hoist > 1 || hoist != rootHoist {
		return
	}
	for _, r := range rs {
		if e.ops() {
			e.mutations(r, nil, point)
		}
		if !e.norm.Derived[s] {
			e.decisions(r, nil, point)
		}
	}
}

// decisions adds the CC and MCC labels of every && / || in x (a
// decision in a return, an assignment, a call argument, ...), which the
// original evaluates when lz holds.
func (e *enumerator) decisions(x dst.Expr, lz []lazy, point dst.Stmt) {
	if !e.dec() || x == nil || e.t.IsType(x) || e.t.Const(x) != nil {
		return
	}
	if n, ok := x.(*dst.BinaryExpr); ok && (n.Op == token.LAND || n.Op == token.LOR) {
		e.decision(n, lz, point)
		return
	}
	for _, o := range operands(x) {
		e.decisions(o, lz, point)
	}
}

// switchLabels adds the labels of an expression switch: each case
// expression is a decision (tag == expr, or expr without a tag), evaluated
// when every earlier one was false.
func (e *enumerator) switchLabels(x *dst.SwitchStmt, point dst.Stmt) {
	if x.Tag != nil {
		if e.t.Const(x.Tag) != nil || e.t.Impure(x.Tag) {
			return
		}
		e.mutations(x.Tag, nil, point)
	}
	// In a long switch, "an earlier case matched" is kept in temporaries
	// (lcK := lcJ || tag == e) so that each label's guard stays short
	// instead of repeating every earlier case.
	total := 0
	for _, c := range x.Body.List {
		total += len(c.(*dst.CaseClause).List)
	}
	// Not in functions with goto: a goto could jump over the temporaries.
	long := total > longSwitch && !e.inGoto
	var prev []lazy
	matched := ""
	k := 0
	e.switchCases = total
	defer func() { e.switchCases = 0 }()
	for _, c := range x.Body.List {
		cc := c.(*dst.CaseClause)
		for _, ce := range cc.List {
			k++
			if e.t.Impure(ce) {
				return
			}
			lz := prev
			if matched != "" {
				lz = []lazy{{e.boolTemp(matched), true}}
			}
			var cond dst.Expr = ce
			if x.Tag == nil {
				e.decision(ce, lz, point)
				e.mutations(ce, lz, point)
			} else {
				eq := &dst.BinaryExpr{X: x.Tag, Op: token.EQL, Y: ce}
				e.t.Record(eq, nil)
				cond = eq
				e.caseDecision(x.Tag, ce, lz, point)
				e.mutations(ce, lz, point)
				if e.crit.Has(labels.WMROR) {
					e.ror(x.Tag, token.EQL, ce, ce, lz, point)
				}
				if e.crit.Has(labels.DIST) {
					e.dist(x.Tag, ce, ce, lz, point)
					e.byteStones(x.Tag, ce, ce, lz, point)
					e.stringStones(x.Tag, ce, ce, lz, point)
				}
			}
			if !long {
				prev = append(prev[:len(prev):len(prev)], lazy{cond, true})
				continue
			}
			if k == total {
				continue
			}
			rhs := of(cond)
			if matched != "" {
				rhs = bin(pe{e.boolTemp(matched), matched}, token.LOR, paren(rhs))
			}
			e.norm.Temps++
			name := e.norm.Prefix + strconv.Itoa(e.norm.Temps)
			def := &dst.AssignStmt{Lhs: []dst.Expr{dst.NewIdent(name)}, Tok: token.DEFINE, Rhs: []dst.Expr{rhs.d}}
			def.Decs.Before = dst.NewLine
			e.seq = append(e.seq, &goLabel{point: point, helper: def})
			matched = name
		}
	}
}

// longSwitch is the number of case expressions above which a switch's
// labels use "an earlier case matched" temporaries.
const longSwitch = 8

func (e *enumerator) boolTemp(name string) *dst.Ident {
	id := dst.NewIdent(name)
	e.t.Record(id, types.Typ[types.Bool])
	return id
}

func (e *enumerator) caseDecision(tag, ce dst.Expr, lz []lazy, point dst.Stmt) {
	p := func() pe { return bin(of(tag), token.EQL, of(ce)) }
	ops := []dst.Expr{tag, ce}
	if e.crit.Has("cc") {
		e.add("cc", "true", point, ce, p(), lz, ops)
		e.add("cc", "false", point, ce, not(p()), lz, ops)
	}
	if e.crit.Has("mcc") {
		e.add("mcc", "T", point, ce, p(), lz, ops)
		e.add("mcc", "F", point, ce, not(p()), lz, ops)
	}
}

// comment (re)writes the label comment of an injected label.
func (l *goLabel) comment() {
	if l.stmt != nil {
		l.stmt.Decs.End.Replace(fmt.Sprintf("// label %d %s %s", l.ID, l.Criterion, l.Operator))
	}
}

// inject inserts every active label as `if COND {} // label N key op`
// before its point.
func (e *enumerator) inject() {
	at := map[dst.Stmt][]*goLabel{}
	keep := e.readHelpers()
	for _, l := range e.seq {
		if keep[l] || (l.helper == nil && l.Status == "active") {
			at[l.point] = append(at[l.point], l)
		}
	}
	for _, lp := range e.lists {
		if len(*lp) == 0 {
			continue
		}
		var out []dst.Stmt
		for _, s := range *lp {
			ls := at[s]
			// `L: if …` (only goto jumps to L): the labels must run when
			// goto L does, so L moves to the first of them.
			lab, moveLabel := s.(*dst.LabeledStmt)
			if moveLabel {
				switch lab.Stmt.(type) {
				case *dst.ForStmt, *dst.RangeStmt, *dst.SwitchStmt, *dst.TypeSwitchStmt, *dst.SelectStmt:
					moveLabel = false // break and continue name L
				}
			}
			for i, l := range ls {
				var ifs dst.Stmt = l.helper
				if l.helper == nil {
					st := &dst.IfStmt{Cond: l.cond.d, Body: &dst.BlockStmt{}}
					st.Decs.Before = dst.NewLine
					st.Decs.After = dst.NewLine
					l.stmt = st
					l.comment()
					ifs = st
				}
				if i == 0 {
					d := s.Decorations()
					ifs.Decorations().Before = d.Before
					ifs.Decorations().Start = d.Start
					d.Start = nil
					d.Before = dst.NewLine
				}
				if i == 0 && moveLabel {
					ifs = &dst.LabeledStmt{Label: lab.Label, Stmt: ifs}
				}
				out = append(out, ifs)
			}
			if len(ls) > 0 && moveLabel {
				lab.Stmt.Decorations().Before = dst.NewLine
				s = lab.Stmt
			}
			out = append(out, s)
		}
		*lp = out
	}
	for _, ps := range e.posts {
		if len(*ps.list) > 1 {
			body := &dst.BlockStmt{List: *ps.list}
			fn := &dst.FuncLit{Type: &dst.FuncType{Params: &dst.FieldList{}}, Body: body}
			ps.loop.Post = &dst.ExprStmt{X: &dst.CallExpr{Fun: fn}}
		}
	}
}

// readHelpers returns the helper statements of e.seq that an active
// label, or a helper kept, reads: a temporary no label reads (those of a
// long switch whose case labels are all inactive, or that has none under
// the criteria, as MC/DC's) would not compile ("declared and not used").
func (e *enumerator) readHelpers() map[*goLabel]bool {
	keep := map[*goLabel]bool{}
	read := map[string]bool{}
	reads := func(n dst.Node) {
		dst.Inspect(n, func(n dst.Node) bool {
			if id, ok := n.(*dst.Ident); ok {
				read[id.Name] = true
			}
			return true
		})
	}
	for i := len(e.seq) - 1; i >= 0; i-- {
		l := e.seq[i]
		switch {
		case l.helper == nil:
			if l.Status == "active" {
				reads(l.cond.d)
			}
		case helperReadBy(l.helper, read):
			keep[l] = true
			reads(l.helper)
		}
	}
	return keep
}

// helperReadBy reports whether a helper statement defines a name in read
// (a helper that is no definition is kept).
func helperReadBy(h dst.Stmt, read map[string]bool) bool {
	a, ok := h.(*dst.AssignStmt)
	if !ok || a.Tok != token.DEFINE {
		return true
	}
	for _, l := range a.Lhs {
		if id, ok := l.(*dst.Ident); ok && read[id.Name] {
			return true
		}
	}
	return false
}

// operands returns the subexpressions of x that the label walks descend
// into: operands of unary and binary operators, call arguments, the
// indexed value and index, the pointer, the selected operand, composite
// literal values (never function literals or types).
func operands(x dst.Expr) []dst.Expr {
	switch n := x.(type) {
	case *dst.ParenExpr:
		return []dst.Expr{n.X}
	case *dst.UnaryExpr:
		return []dst.Expr{n.X}
	case *dst.BinaryExpr:
		return []dst.Expr{n.X, n.Y}
	case *dst.CallExpr:
		return n.Args
	case *dst.IndexExpr:
		return []dst.Expr{n.X, n.Index}
	case *dst.StarExpr:
		return []dst.Expr{n.X}
	case *dst.SelectorExpr:
		return []dst.Expr{n.X}
	case *dst.CompositeLit:
		out := make([]dst.Expr, 0, len(n.Elts))
		for _, el := range n.Elts {
			if kv, ok := el.(*dst.KeyValueExpr); ok {
				el = kv.Value
			}
			out = append(out, el)
		}
		return out
	}
	return nil
}
