package golang

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"go/version"
	"strings"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
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
	// distRank and thinRung order dist labels for the counter budget
	// (budgetDist).
	distRank distRank
	thinRung bool
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
	posts    []postSite
	warnings []string
	// decs lists the MC/DC decisions (criterion mcdc).
	decs []*labels.Decision
	// inGoto is set while enumerating a function that uses goto.
	inGoto bool
	// goVersion is the language version of the file being enumerated
	// ("go1.12"; "" when unknown: the newest): predicates use only syntax
	// it accepts (see goAtLeast).
	goVersion string
	// switchCases is the number of case expressions of the switch whose
	// cases are being enumerated (0 elsewhere): it decides which dist
	// ladders are left out (ladderSkipped).
	switchCases int
	// stepped holds the variables the function being enumerated
	// increments or decrements (steppedVars).
	stepped map[any]bool
	// results holds the local variables of the function being enumerated
	// that only ever hold a call's result, and which kind (resultVars).
	results map[types.Object]resultKind
	// positions holds the struct fields the package advances and uses as
	// indexes (positionFields): stepped in every function.
	positions map[types.Object]bool
	// facts hold where statements are being enumerated (fact); defs
	// and writes count the definitions and writes of the file's local
	// variables (writeCounts).
	facts        []fact
	defs, writes map[types.Object]int
}

// goAtLeast reports whether the file being enumerated may use syntax that
// Go version v (as "go1.13") introduced.
func (e *enumerator) goAtLeast(v string) bool {
	return e.goVersion == "" || version.Compare(e.goVersion, v) >= 0
}

// dec reports whether decision criteria (CC, MCC) are selected.
func (e *enumerator) dec() bool {
	return e.crit.Has(labels.CC) || e.crit.Has(labels.MCC) || e.crit.Has(labels.MCDC)
}

// ops reports whether criteria on operators are selected (the weak
// mutation operators and dist): their labels sit on the operators of
// expressions, so they share normalization and walks.
func (e *enumerator) ops() bool {
	return e.crit.Has(labels.WMABS) || e.crit.Has(labels.WMAOR) || e.crit.Has(labels.WMCOR) || e.crit.Has(labels.WMROR) ||
		e.crit.Has(labels.DIST)
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

// source renders x as the original code reads, temporaries replaced by
// the expressions they hold, cut to 80 bytes.
func (e *enumerator) source(x dst.Expr) string {
	s := e.srcText(x)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// srcText renders x with every temporary replaced by the original
// expression it holds.
func (e *enumerator) srcText(x dst.Expr) string {
	var b strings.Builder
	writeExprWith(&b, x, e.t.TempOrigin)
	return b.String()
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
		Pos: e.position(at, point), Source: e.source(e.t.Original(at))}
	if strings.Contains(full.s, e.norm.Prefix) { // may name a temporary
		if x := e.srcText(full.d); x != full.s {
			l.Expr = x
		}
	}
	cond := full
	if len(chk) > 0 {
		g := and(chk...)
		l.Guard = g.s
		cond = and(append(chk, parts...)...)
	}
	if why, ok := e.contradiction(append(chk, parts...)); ok {
		l.Status, l.Reason = labels.Infeasible, why
	} else if why, ok := e.rangeContradiction(append(chk, parts...), typedOf(lz, operands)); ok {
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

// typedOf are the original expressions of a label's lazy conditions and
// operands.
func typedOf(lz []lazy, operands []dst.Expr) []dst.Expr {
	out := append([]dst.Expr(nil), operands...)
	for _, l := range lz {
		out = append(out, l.e)
	}
	return out
}

// contradiction finds conjuncts S == C1 and S == C2 with different
// constants (go vet rejects them as "suspect and", and no run covers them).
func (e *enumerator) contradiction(conj []pe) (string, bool) {
	eq := map[string]string{}
	has := map[string]bool{}
	for _, c := range conj {
		has[c.s] = true
	}
	for _, c := range conj {
		if has[not(c).s] {
			return fmt.Sprintf("%s cannot hold together with its negation", c.s), true
		}
	}
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
			addc(bin(conv("uint64", of(n.Index)), token.LSS, conv("uint64", lenX)))
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

// atom is an atom of a decision with the conditions under which Go
// evaluates it (the operands before it that && and || short-circuit on).
type atom struct {
	e     dst.Expr
	reach []lazy
}

// decisionAtoms lists the atoms of decision d in evaluation order.
func decisionAtoms(d dst.Expr, reach []lazy, out []atom) []atom {
	switch x := gonorm.Unparen(d).(type) {
	case *dst.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			out = decisionAtoms(x.X, reach, out)
			return decisionAtoms(x.Y, append(reach[:len(reach):len(reach)], lazy{x.X, x.Op == token.LOR}), out)
		}
	case *dst.UnaryExpr:
		if x.Op == token.NOT {
			return decisionAtoms(x.X, reach, out)
		}
	}
	return append(out, atom{gonorm.Unparen(d), reach})
}

// lazyDefault says whether a is a temporary that holds an operand Go
// evaluates only when reach holds, and what it holds otherwise.
func (e *enumerator) lazyDefault(a dst.Expr) (def, ok bool) {
	if id, isID := a.(*dst.Ident); isID {
		def, ok = e.norm.Lazy[id.Name]
	}
	return def, ok
}

// decision adds the CC and MCC labels of decision d. A pure atom is read
// whether or not Go evaluates it (its value exists either way); an atom
// behind a call lives in a temporary that only holds its value when Go
// evaluated it, so its CC label for the value the temporary holds
// otherwise also asks for the operands before it that let Go evaluate it,
// and MCC combinations that give it the other value without those are
// infeasible (short-circuit).
func (e *enumerator) decision(d dst.Expr, lz []lazy, point dst.Stmt) {
	if !e.dec() {
		return
	}
	if e.crit.Has(labels.MCDC) {
		defer e.mcdc(d, lz, point) // after the CC and MCC labels
	}
	if !e.crit.Has(labels.CC) && !e.crit.Has(labels.MCC) {
		return
	}
	var as []atom
	// index maps each atom node of d to its condition (an atom written
	// twice is one condition); constants map to -1.
	index := map[dst.Expr]int{}
	seen := map[string]int{}
	for _, a := range decisionAtoms(d, nil, nil) {
		if e.t.Const(a.e) != nil {
			index[a.e] = -1
			continue
		}
		k := ExprString(a.e)
		i, ok := seen[k]
		if !ok {
			i = len(as)
			seen[k] = i
			as = append(as, a)
		}
		index[a.e] = i
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
	if w := labels.MCCFallback(len(as), e.maxAtoms); w != "" {
		e.warnings = append(e.warnings, fmt.Sprintf("%s: %s", e.position(d, point), w))
		e.cc(labels.MCC, labels.FallbackPrefix, as, lz, point)
		return
	}
	n := len(as)
	operands := make([]dst.Expr, n)
	for i, a := range as {
		operands[i] = a.e
	}
	for op, val := range labels.Combinations(n) {
		conj := make([]pe, n)
		for i, a := range as {
			if val[i] {
				conj[i] = of(a.e)
			} else {
				conj[i] = not(of(a.e))
			}
		}
		gl := e.addConj(labels.MCC, op, point, d, conj, lz, operands)
		if why := e.shortCircuit(d, as, index, val); why != "" {
			e.setStatus(gl, labels.Infeasible, why)
		} else if gl != nil && gl.Status == labels.Active {
			if why := e.bounds(as, val); why != "" {
				e.setStatus(gl, labels.Infeasible, why)
			}
		}
	}
}

// mcdc adds the MC/DC labels of decision d (see labels/mcdc.go), one per
// test vector, when it has two conditions or more: each occurrence of an
// atom is a condition (as clang counts them), constants are folded. A
// vector's label reads only the conditions Go evaluates on its path, in
// order, so it needs no other safety checks than those of its own atoms.
func (e *enumerator) mcdc(d dst.Expr, lz []lazy, point dst.Stmt) {
	var conds []dst.Expr
	var build func(x dst.Expr) *labels.BoolExpr
	build = func(x dst.Expr) *labels.BoolExpr {
		switch y := gonorm.Unparen(x).(type) {
		case *dst.BinaryExpr:
			if y.Op == token.LAND || y.Op == token.LOR {
				b := &labels.BoolExpr{Op: labels.BoolAnd, Args: []*labels.BoolExpr{build(y.X), build(y.Y)}}
				if y.Op == token.LOR {
					b.Op = labels.BoolOr
				}
				return b
			}
		case *dst.UnaryExpr:
			// A ! over a condition is part of the condition, as clang
			// takes !c: its value is the negation's.
			if y.Op == token.NOT && isDecision(y.X) {
				return &labels.BoolExpr{Op: labels.BoolNot, Args: []*labels.BoolExpr{build(y.X)}}
			}
		}
		if c := e.t.Const(x); c != nil && c.Kind() == constant.Bool {
			return &labels.BoolExpr{Op: labels.BoolConst, Value: constant.BoolVal(c)}
		}
		conds = append(conds, gonorm.Unparen(x))
		return &labels.BoolExpr{Op: labels.BoolCond, Cond: len(conds) - 1}
	}
	x := build(d)
	if len(conds) < 2 {
		return
	}
	at := e.position(d, point)
	vs, ok := labels.Vectors(x, len(conds), labels.DefaultMCDCMaxVectors)
	if !ok {
		e.warnings = append(e.warnings, fmt.Sprintf("%s: warning: decision has more than %d test vectors: no MC/DC labels here",
			at, labels.DefaultMCDCMaxVectors))
		return
	}
	dec := &labels.Decision{Pos: at, Source: e.source(e.t.Original(d))}
	for _, c := range conds {
		dec.Conditions = append(dec.Conditions, labels.Condition{Pos: e.position(c, point), Source: e.source(e.t.Original(c))})
	}
	for _, v := range vs {
		var conj []pe
		var operands []dst.Expr
		for i, t := range v.Values {
			switch t {
			case labels.True:
				conj = append(conj, of(conds[i]))
			case labels.False:
				conj = append(conj, not(of(conds[i])))
			default:
				continue
			}
			operands = append(operands, conds[i])
		}
		vec := labels.Vector{Values: v.String(), Outcome: v.Outcome}
		if gl := e.addConj(labels.MCDC, vec.Values, point, d, conj, lz, operands); gl != nil {
			vec.Label = gl.Label
		}
		dec.Vectors = append(dec.Vectors, vec)
	}
	e.decs = append(e.decs, dec)
}

// isDecision reports whether x is an && or || (possibly under ! and
// parentheses).
func isDecision(x dst.Expr) bool {
	switch y := gonorm.Unparen(x).(type) {
	case *dst.BinaryExpr:
		return y.Op == token.LAND || y.Op == token.LOR
	case *dst.UnaryExpr:
		return y.Op == token.NOT && isDecision(y.X)
	}
	return false
}

// bounds says why the MCC combination val of the atoms as cannot hold,
// as the plan front end says it (feasible.Contradiction): the atoms that
// compare one integer operand with constants leave no value for it
// ("no number satisfies r.Temp <= 500 and r.Temp >= 530"); or "". A float
// operand is left alone: it may be NaN, for which every comparison is
// false, so !(x > 500) && !(x < 530) holds. So are operands read through
// a temporary (which may hold a value Go never computed) and constants a
// float64 does not hold exactly (bounds that round together could leave
// out an integer between them).
func (e *enumerator) bounds(as []atom, val []bool) string {
	var bs []feasible.Bound
	for i, a := range as {
		b, ok := a.e.(*dst.BinaryExpr)
		if !ok {
			continue
		}
		r, ok := relation(b.Op)
		if !ok {
			continue
		}
		x, c := b.X, b.Y
		if e.t.Const(x) != nil {
			x, c, r = c, x, r.Swap()
		}
		v := e.t.Const(c)
		if v == nil || e.t.Const(x) != nil || e.t.Impure(x) {
			continue
		}
		if bt := gonorm.Basic(e.t.TypeOf(x)); bt == nil || bt.Info()&types.IsInteger == 0 {
			continue
		}
		name := ExprString(x)
		if strings.Contains(name, e.norm.Prefix) {
			continue
		}
		f, exact := constant.Float64Val(constant.ToFloat(v))
		if !exact || v.Kind() != constant.Int && v.Kind() != constant.Float {
			continue
		}
		if !val[i] {
			r = r.Not()
		}
		bs = append(bs, feasible.Bound{Operand: name, Rel: r, Value: f, Const: ExprString(c)})
	}
	why, _ := feasible.Contradiction(bs, func(r labels.Relation) string { return relToken(r).String() })
	return why
}

// shortCircuit says why the combination val of the atoms as of d (index
// maps atom nodes to positions in as) cannot occur — a temporary of an
// operand Go does not evaluate under val holds another value — or "".
func (e *enumerator) shortCircuit(d dst.Expr, as []atom, index map[dst.Expr]int, val []bool) string {
	reached := make([]bool, len(as))
	var eval func(x dst.Expr) bool
	eval = func(x dst.Expr) bool {
		switch y := gonorm.Unparen(x).(type) {
		case *dst.BinaryExpr:
			if y.Op == token.LAND || y.Op == token.LOR {
				v := eval(y.X)
				if v == (y.Op == token.LOR) {
					return v
				}
				return eval(y.Y)
			}
		case *dst.UnaryExpr:
			if y.Op == token.NOT {
				return !eval(y.X)
			}
		}
		i := index[gonorm.Unparen(x)]
		if i < 0 {
			return constant.BoolVal(e.t.Const(x))
		}
		reached[i] = true
		return val[i]
	}
	eval(d)
	for i, a := range as {
		if def, ok := e.lazyDefault(a.e); ok && !reached[i] && val[i] != def {
			return fmt.Sprintf("%s is only evaluated when %s (short-circuit)", e.source(a.e), e.reachText(a.reach))
		}
	}
	return ""
}

// reachText says in words when the operands before an atom let Go
// evaluate it.
func (e *enumerator) reachText(reach []lazy) string {
	var parts []string
	for _, l := range reach {
		v := "true"
		if l.neg {
			v = "false"
		}
		parts = append(parts, e.source(l.e)+" is "+v)
	}
	return strings.Join(parts, " and ")
}

func (e *enumerator) cc(k labels.Key, prefix string, as []atom, lz []lazy, point dst.Stmt) {
	for _, a := range as {
		for _, v := range []bool{true, false} {
			p := of(a.e)
			if !v {
				p = not(p)
			}
			name := labels.CCOperator(prefix, v)
			alz := lz
			if def, ok := e.lazyDefault(a.e); ok && def == v {
				// The temporary holds v also when Go did not evaluate it.
				alz = append(lz[:len(lz):len(lz)], a.reach...)
			}
			e.add(k, name, point, a.e, p, alz, []dst.Expr{a.e})
		}
	}
}

// relation is the labels.Relation of a Go comparison operator.
func relation(op token.Token) (labels.Relation, bool) {
	for _, r := range labels.Relations() {
		if relToken(r) == op {
			return r, true
		}
	}
	return labels.Never, false
}

// relToken spells r in Go (token.ILLEGAL for Never and Always).
func relToken(r labels.Relation) token.Token {
	switch r {
	case labels.Less:
		return token.LSS
	case labels.LessEqual:
		return token.LEQ
	case labels.Greater:
		return token.GTR
	case labels.GreaterEqual:
		return token.GEQ
	case labels.Equal:
		return token.EQL
	case labels.NotEqual:
		return token.NEQ
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
	r, _ := relation(op)
	for _, rm := range labels.Relations() {
		if rm == r {
			continue
		}
		m := relToken(rm)
		name := op.String() + " -> " + m.String()
		diff := r.Mutant(rm)
		complement := diff == labels.Always
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
		e.add(labels.WMROR, name, point, at, bin(of(x), relToken(diff), of(y)), lz, []dst.Expr{x, y})
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
		if why := sameMutant(op, m, e.t.Const(y)); why != "" {
			gl := e.add(labels.WMAOR, name, point, at, pred, lz, []dst.Expr{x, y})
			e.setStatus(gl, labels.Infeasible, fmt.Sprintf(why, ExprString(e.t.Original(x))))
			continue
		}
		if isInt && (op == token.QUO || m == token.QUO) && e.t.Const(y) == nil {
			pred = bin(bin(of(y), token.EQL, lit(token.INT, "0")), token.LOR, pred)
		}
		e.add(labels.WMAOR, name, point, at, pred, lz, []dst.Expr{x, y})
	}
}

// sameMutant says why the mutant x m y always equals x op y when the
// right operand is the constant y (x + 0 and x - 0, x * 1 and x / 1 are
// both x, also for NaN and -0), or "" when it can differ.
func sameMutant(op, m token.Token, y constant.Value) string {
	pair := func(a, b token.Token) bool { return (op == a && m == b) || (op == b && m == a) }
	switch {
	case y == nil || y.Kind() == constant.Unknown:
		return ""
	case pair(token.ADD, token.SUB) && constant.Sign(y) == 0:
		return "never true: %s + 0 and %[1]s - 0 are the same value (equivalent mutant)"
	case pair(token.MUL, token.QUO) && isOne(y):
		return "never true: %s * 1 and %[1]s / 1 are the same value (equivalent mutant)"
	}
	return ""
}

func isOne(v constant.Value) bool {
	if v.Kind() == constant.Complex {
		return false
	}
	return constant.Compare(v, token.EQL, constant.MakeInt64(1))
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

// mutations adds the weak-mutation and dist labels of the operators in x, which
// the original evaluates when lz holds.
func (e *enumerator) mutations(x dst.Expr, lz []lazy, point dst.Stmt) {
	if x == nil || !e.ops() || e.t.IsType(x) || e.t.Const(x) != nil {
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
		_, rel := relation(n.Op)
		arith := n.Op == token.ADD || n.Op == token.SUB || n.Op == token.MUL || n.Op == token.QUO
		if rel && e.crit.Has(labels.WMROR) {
			e.ror(n.X, n.Op, n.Y, n, lz, point)
		}
		if rel && e.crit.Has(labels.DIST) {
			e.dist(n.X, n.Y, n, lz, point)
		}
		if (n.Op == token.EQL || n.Op == token.NEQ) && e.crit.Has(labels.DIST) {
			e.byteStones(n.X, n.Y, n, lz, point)
			e.stringStones(n.X, n.Y, n, lz, point)
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
	case *dst.CallExpr, *dst.IndexExpr, *dst.StarExpr, *dst.SelectorExpr, *dst.CompositeLit:
		for _, o := range operands(n) {
			e.mutations(o, lz, point)
		}
		if c, ok := n.(*dst.CallExpr); ok && e.crit.Has(labels.DIST) {
			e.callStones(c, lz, point)
		}
	}
}
