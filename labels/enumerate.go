package labels

import (
	"fmt"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// DefaultMCCMaxAtoms is the default bound on the atoms of a decision for
// MCC; decisions with more atoms fall back to CC (2^n labels would explode).
const DefaultMCCMaxAtoms = 8

// Options select what Enumerate produces.
type Options struct {
	Criteria Criteria
	// MCCMaxAtoms bounds MCC (0 means DefaultMCCMaxAtoms).
	MCCMaxAtoms int
	// Judge, when set, makes the Judge that prunes this plan's labels;
	// nil prunes only constant predicates and short-circuits. Package
	// labels/feasible's Enumerate sets it.
	Judge NewJudge
}

// Set is the outcome of enumerating the labels of one plan.
type Set struct {
	File        string
	Criteria    Criteria
	MCCMaxAtoms int
	// Labels in source order; active ones carry ids 1, 2, ...
	Labels []*Label
	// Warnings such as MCC falling back to CC, each at file:line:col.
	Warnings []*syntax.Error
	// Globals names the globals of every SharedAtoms, which the annotated
	// plan (and the normalized plan it is compared with) declares.
	Globals []string
	// Decisions lists the MC/DC decisions (criterion mcdc) in source
	// order, numbered 1, 2, ...
	Decisions []*Decision
}

// SharedAtoms are the atoms of one decision that its MCC labels read from
// globals instead of evaluating each: one probe at the decision, injected
// before the labels, evaluates them once, in order, each into its global,
// and sets Flag to t only when all evaluated without failure:
//
//	(when (ignore-errors (progn (setq FLAG nil) (setq G1 A1) ... (setq FLAG t) nil)))
//
// Globals, not let-bound temporaries: a global (declared by a defvar
// without value) costs the plan nothing, a let binding would cost steps
// at every evaluation of the decision.
type SharedAtoms struct {
	Flag string
	// Globals[i] holds atom i; Atoms[i] is the atom the probe evaluates
	// into it, nil when the atom is a variable Globals[i] names itself.
	Globals []string
	Atoms   []syntax.Node
}

// Active returns the active labels in id order.
func (s *Set) Active() []*Label {
	var out []*Label
	for _, l := range s.Labels {
		if l.Status == Active {
			out = append(out, l)
		}
	}
	return out
}

// StatusCounts counts labels (active, trivial, infeasible) per selected key.
func (s *Set) StatusCounts() map[Key]*Counts { return CountStatuses(s.Criteria, s.Labels) }

// Enumerate lists the labels of a normalized plan. Only code that exists in
// the original plan carries labels: scaffolding that normalize introduced
// (its let* and the if that guards a hoisted operand) carries none, while
// temporaries stand for the operands they hold.
func Enumerate(res *normalize.Result, opts Options) (*Set, error) {
	if opts.Criteria == 0 {
		return nil, fmt.Errorf("labels: no criterion selected")
	}
	if opts.MCCMaxAtoms <= 0 {
		opts.MCCMaxAtoms = DefaultMCCMaxAtoms
	}
	// region is presized: a plan has a few labels per node, and
	// rehashing it dominated enumeration on large plans. seen only holds
	// the keys of the regions being visited (see forget).
	e := &enumerator{res: res, opts: opts, seen: map[dedupKey]*Label{}, skipped: map[string]int{}, ops: map[string]string{},
		region: make(map[syntax.Node]syntax.Node, res.Nodes()),
		set:    &Set{File: res.Orig.Name, Criteria: opts.Criteria, MCCMaxAtoms: opts.MCCMaxAtoms}}
	if opts.Judge != nil {
		e.judge = opts.Judge(res, func(n syntax.Node) string {
			if s := e.exprString(n); s != "" {
				return s
			}
			return syntax.NodeString(n)
		})
	}
	for _, f := range res.Forms {
		if !res.Skipped(f) { // not compiled: nothing in it is labelled
			e.visit(f, nil)
		}
	}
	if e.judge != nil {
		e.judge.Done()
	}
	e.set.Warnings = append(e.set.Warnings, res.Notes...)
	e.warnShadowed()
	if e.frozen != nil {
		at, _ := e.frozen.Span()
		e.set.Warnings = append(e.set.Warnings, syntax.Errorf(res.Orig.Name, res.Orig.Src, at,
			"warning: the plan nests too deep from here on to move side effects out of its conditions (the annotated plan would nest deeper than %d): the deepest parts carry no labels", syntax.MaxDepth))
	}
	ls := e.set.Labels
	sort.SliceStable(ls, func(i, j int) bool { return ls[i].Pos.Offset < ls[j].Pos.Offset })
	id := 0
	for _, l := range ls {
		if l.Status == Active {
			id++
			l.ID = id
		}
	}
	NumberDecisions(e.set.Decisions)
	return e.set, nil
}

// dedupKey identifies a label: two labels with the same key are one. The
// region (see enumerator.region) stands for every point evaluated together
// with the same variable values, so the same predicate at two points of
// one region holds at both or at neither.
type dedupKey struct {
	region    syntax.Node
	crit      Key
	pred, grd string
	uniq      int
}

type enumerator struct {
	res     *normalize.Result
	opts    Options
	set     *Set
	seen    map[dedupKey]*Label
	skipped map[string]int // builtin redefined by the plan -> labels left out
	// region maps a node to the root of its region: the largest pure
	// expression around it that evaluates it whenever it is itself
	// evaluated, without a binding form in between. Within a region no
	// variable changes and every node runs (barring a failure) exactly
	// when the root does, so identical labels at two of its points are
	// one label — ABS on a variable written twice in (> (+ a a) (* a 2)).
	region map[syntax.Node]syntax.Node
	// judge prunes labels as they are listed (nil: none).
	judge Judge
	// globals counts the globals named for SharedAtoms.
	globals int
	// frozen is the first part of the plan normalize left as written.
	frozen syntax.Node
	// lastGuard is the guard node add rendered last, as lastGuardStr.
	lastGuard    syntax.Node
	lastGuardStr string
	// keys lists the keys of seen in the order add made them.
	keys []dedupKey
	// ops interns operator names (see intern).
	ops map[string]string
}

// regionOf returns the region root of n (n itself when it has none).
func (e *enumerator) regionOf(n syntax.Node) syntax.Node {
	if r := e.region[n]; r != nil {
		return r
	}
	return n
}

// passesRegion reports whether the slot at index i of l (a slot of
// normalize.Slots, path len 1) is evaluated whenever l is and within l's
// region: every argument of a pure call of a function (all arguments are
// evaluated, left to right), the first operand of and/or, the test of
// if/when/unless. Binding forms, loops and lambdas start new regions.
func (e *enumerator) passesRegion(l *syntax.List, h string, path []int) bool {
	if len(path) != 1 || !e.res.Pure(l) {
		return false
	}
	switch h {
	case "and", "or":
		return path[0] == 1
	case "if", "when", "unless":
		return path[0] == 1
	case "not", "null", "ignore-errors", "progn":
		return false // progn and ignore-errors could be allowed; kept simple
	}
	return h != "" && forms.Lookup(h) == nil
}

// shadowed returns the name of a builtin that predicate p calls in code
// this package wrote (not in the plan's own atoms) and that the plan
// redefines with defun: such a label would call the plan's function.
func (e *enumerator) shadowed(p syntax.Node) string {
	l, ok := p.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return ""
	}
	if e.res.Origin(l) != nil {
		return "" // the plan's own code, evaluated by the plan anyway
	}
	if h := syntax.Head(l); h != "" && e.res.IsUserFunc(h) {
		return h
	}
	for _, a := range l.Elems[1:] {
		if s := e.shadowed(a); s != "" {
			return s
		}
	}
	return ""
}

func (e *enumerator) warnShadowed() {
	names := make([]string, 0, len(e.skipped))
	for n := range e.skipped {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		at := syntax.Pos{Line: 1, Col: 1}
		for _, f := range e.res.Orig.Forms {
			if l, ok := f.(*syntax.List); ok && len(l.Elems) > 1 && syntax.IsSymbol(l.Elems[1], n) {
				at, _ = l.Elems[1].Span()
				break
			}
		}
		e.set.Warnings = append(e.set.Warnings, syntax.Errorf(e.res.Orig.Name, e.res.Orig.Src, at,
			"warning: the plan redefines the builtin %s, so %d labels that need it are left out", n, e.skipped[n]))
	}
}

// where is what a label is about: its original position and source text.
type where struct {
	pos Position
	src string
}

// maxSource bounds the source text recorded with a label.
const maxSource = 80

func (e *enumerator) where(n syntax.Node, fallback syntax.Node) where {
	o := e.res.Origin(n)
	if o == nil {
		o = e.res.Origin(fallback)
	}
	if o == nil {
		return where{pos: Position{File: e.res.Orig.Name}}
	}
	start, _ := o.Span()
	return where{pos: PositionOf(e.res.Orig.Name, start), src: e.sourceText(o)}
}

// sourceText is the original text of o on one line, at most maxSource
// bytes. Its cost is bounded by maxSource, not by the size of o, so that
// labels on deeply nested code stay linear.
func (e *enumerator) sourceText(o syntax.Node) string {
	start, end := o.Span()
	if end.Offset-start.Offset <= maxSource {
		src := string(e.res.Orig.Src[start.Offset:end.Offset])
		if !strings.ContainsAny(src, "\n;") {
			return src
		}
	}
	src := syntax.NodeStringCut(o, maxSource+1) // one line, no comments
	if len(src) > maxSource {
		src = src[:maxSource-3] + "..."
	}
	return src
}

// exprString renders predicate p with each temporary replaced by the
// source text of the expression it holds ("" when p reads none).
func (e *enumerator) exprString(p syntax.Node) string {
	if !e.readsTemp(p) {
		return "" // most predicates: no builder, no allocation
	}
	var b strings.Builder
	if !e.writeExpr(&b, p) {
		return ""
	}
	return b.String()
}

func (e *enumerator) readsTemp(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.List:
		for _, x := range n.Elems {
			if e.readsTemp(x) {
				return true
			}
		}
	case *syntax.Symbol:
		return e.res.IsTemp(n.Name)
	}
	return false
}

func (e *enumerator) writeExpr(b *strings.Builder, n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.List:
		subst := false
		b.WriteByte('(')
		for i, x := range n.Elems {
			if i > 0 {
				b.WriteByte(' ')
			}
			if e.writeExpr(b, x) {
				subst = true
			}
		}
		b.WriteByte(')')
		return subst
	case *syntax.Symbol:
		if e.res.IsTemp(n.Name) {
			if o := e.res.Origin(n); o != nil {
				b.WriteString(e.sourceText(o))
				return true
			}
		}
	}
	b.WriteString(syntax.NodeString(n))
	return false
}

// add records a label unless an identical one (same point, criterion,
// predicate and guard) exists, and returns it (nil when it was not added).
func (e *enumerator) add(crit Key, op string, point syntax.Node, pred syntax.Node, guard syntax.Node, at where) *Label {
	return e.addKnown(crit, op, point, Simplify(pred), guard, at, known{})
}

// verdict is a Judge's verdict on a predicate.
type verdict struct {
	status Status
	reason string
}

// known is what the caller of addKnown knows of a label's simplified
// predicate before it is added (see distLadder); the zero value knows
// nothing.
type known struct {
	// judged is the judge's verdict (nil: addKnown asks the judge).
	judged *verdict
	// text is the predicate rendered (syntax.NodeString), "" unknown.
	text string
	// unshadowed: the predicate calls no builtin the plan redefines.
	unshadowed bool
	// shape, when not nil, is what the predicate's shape says (the same
	// for predicates that differ only in an integer literal).
	shape *shape
}

// shape is what a predicate's shape (its tree, literals aside) says.
type shape struct {
	depth  int  // normalize.Depth
	big    bool // tooBig
	noTemp bool // it reads no temporary: its Expr is ""
}

func (e *enumerator) shapeOf(pred syntax.Node) *shape {
	return &shape{depth: normalize.Depth(pred, syntax.MaxDepth), big: tooBig(pred, MaxPredicate), noTemp: !e.readsTemp(pred)}
}

// prejudge is the verdict add would ask the judge for on the simplified
// predicate pred: nil when add would not ask (no judge, a builtin the
// plan redefines, a constant predicate).
func (e *enumerator) prejudge(pred syntax.Node) *verdict {
	if e.judge == nil || e.shadowed(pred) != "" {
		return nil
	}
	if _, ok := truth(pred); ok {
		return nil
	}
	v := &verdict{}
	v.status, v.reason = e.judge.Predicate(pred)
	return v
}

// addKnown is add on a simplified predicate, with what the caller knows
// of it.
func (e *enumerator) addKnown(crit Key, op string, point syntax.Node, pred syntax.Node, guard syntax.Node, at where, kn known) *Label {
	op = e.intern(op)
	if !kn.unshadowed {
		if name := e.shadowed(pred); name != "" {
			e.skipped[name]++
			return nil
		}
	}
	sh := kn.shape
	if sh == nil {
		sh = &shape{depth: normalize.Depth(pred, syntax.MaxDepth), big: tooBig(pred, MaxPredicate)}
	}
	l := &Label{Criterion: crit, Operator: op, Point: point, Depth: sh.depth, Pos: at.pos, Source: at.src, Status: Active}
	big := sh.big
	switch {
	case big:
		l.Predicate = syntax.NodeStringCut(pred, 4*maxSource) + " ..." // never injected, so never parsed
	case kn.text != "":
		l.Predicate = kn.text
	default:
		l.Predicate = syntax.NodeString(pred)
	}
	if !big && !sh.noTemp {
		l.Expr = e.exprString(pred)
	}
	if guard != nil {
		if guard != e.lastGuard {
			// The labels of one site share their guard node: render it once.
			e.lastGuard, e.lastGuardStr = guard, ""
			if g := Simplify(guard); !isTrue(g) {
				e.lastGuardStr = syntax.NodeString(g)
			}
		}
		l.Guard = e.lastGuardStr
	}
	if v, ok := truth(pred); ok {
		if v {
			l.Status, l.Reason = Trivial, "predicate is constant true"
		} else {
			l.Status, l.Reason = Infeasible, "predicate is constant false"
		}
	}
	if l.Status == Active && kn.judged != nil {
		l.Status, l.Reason = kn.judged.status, kn.judged.reason
	} else if l.Status == Active && e.judge != nil {
		l.Status, l.Reason = e.judge.Predicate(pred)
	}
	if l.Status == Active && big {
		l.Status, l.Reason = Skipped, fmt.Sprintf("predicate has more than %d nodes: it would copy a large operand of a lazy and/or or a test", MaxPredicate)
	}
	k := dedupKey{region: e.regionOf(point), crit: crit, pred: l.Predicate, grd: l.Guard}
	if big {
		k.uniq = len(e.set.Labels) + 1 // a cut predicate does not identify the label
	}
	if crit == MCDC {
		// A test vector belongs to its decision: never merged with the
		// same vector of another decision.
		k.uniq = len(e.set.Labels) + 1
	}
	if first := e.seen[k]; first != nil {
		first.addAlso(l.Pos)
		return nil
	}
	e.seen[k] = l
	e.keys = append(e.keys, k)
	e.set.Labels = append(e.set.Labels, l)
	if l.Status == Active && e.judge != nil {
		e.judge.Listed(l, pred)
	}
	return l
}

// forgetSince drops from seen the keys made since keys[mark]. visit
// calls it once it is done with a slot that is not in its parent's
// region: every key made meanwhile has a region inside the slot (the
// slot's decision or a node the slot's visit reached), and no later label
// has such a region. So seen only holds the keys of the open regions, not
// one per label (a million labels' keys cost more than the labels), and
// each key is dropped once.
func (e *enumerator) forgetSince(mark int) {
	for _, k := range e.keys[mark:] {
		delete(e.seen, k)
	}
	clear(e.keys[mark:])
	e.keys = e.keys[:mark]
}

// intern returns the one copy of operator name op, which callers build
// by concatenation: a plan has few distinct operators and a label each.
func (e *enumerator) intern(op string) string {
	if s, ok := e.ops[op]; ok {
		return s
	}
	e.ops[op] = op
	return op
}

// addAlso records that l also stands for the label at p.
func (l *Label) addAlso(p Position) {
	if p == l.Pos {
		return
	}
	for _, q := range l.Also {
		if q == p {
			return
		}
	}
	l.Also = append(l.Also, p)
}

// MaxPredicate bounds the size (in nodes) of an injected predicate, so
// that the annotated plan stays linear in the size of the plan. normalize
// binds big operands that are always evaluated to temporaries; what is
// left above the bound are operands evaluated conditionally (a later
// operand of and/or), which labels cannot read from a temporary.
const MaxPredicate = 256

// tooBig reports whether n has more than max nodes, looking at most at
// max+1 of them.
func tooBig(n syntax.Node, max int) bool {
	budget := max
	return !within(n, &budget)
}

// within counts the nodes of n against *budget; false once it runs out.
func within(n syntax.Node, budget *int) bool {
	*budget--
	if *budget < 0 {
		return false
	}
	switch n := n.(type) {
	case *syntax.List:
		for _, e := range n.Elems {
			if !within(e, budget) {
				return false
			}
		}
	case *syntax.Quote:
		return within(n.X, budget)
	case *syntax.Prefixed:
		return within(n.X, budget)
	case *syntax.Conditional:
		return within(n.Feature, budget) && within(n.X, budget)
	}
	return true
}

func isTrue(n syntax.Node) bool { v, ok := truth(n); return ok && v }

// visit enumerates the labels of n, whose region root is region (nil: n
// starts a region of its own).
func (e *enumerator) visit(n syntax.Node, region syntax.Node) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return
	}
	if e.res.Frozen(l) {
		// Normalize left it as written (too deep to move effects out):
		// no labels in it.
		if e.frozen == nil {
			e.frozen = l
		}
		return
	}
	if region != nil {
		e.region[l] = region
	} else {
		region = l
	}
	original := e.res.Origin(l) != nil
	h := syntax.Head(l)
	if h == "loop" && original {
		e.unlabelledLoop(l)
	}
	for _, s := range normalize.Slots(l) {
		c := normalize.At(l, s.Path)
		if s.Data {
			e.unlabelled(c, whyDesignator)
			continue
		}
		if p, ok := c.(*syntax.Prefixed); ok {
			e.unlabelledPrefixed(p)
		}
		var sub syntax.Node
		if e.passesRegion(l, h, s.Path) {
			sub = region
			if _, isList := c.(*syntax.List); !isList {
				e.region[c] = region // a variable: ABS labels sit on it
			}
		}
		mark := len(e.keys)
		if s.Test && original && !e.res.Frozen(e.res.Origin(c)) && !e.res.Frozen(c) {
			d := e.res.Unwrap(c)
			if d == c && sub != nil {
				e.region[d] = sub
			}
			e.decision(d)
		} else if !s.Test && original && h != "and" && h != "or" && h != "not" && !e.res.Frozen(e.res.Origin(c)) && !e.res.Frozen(c) {
			// An and/or of two operands or more anywhere else (a value
			// returned, assigned, bound or passed) is a decision too, as
			// clang counts them.
			if d := e.res.Unwrap(c); isDecisionExpr(d) {
				if d == c && sub != nil {
					e.region[d] = sub
				}
				e.decision(d)
			}
		}
		e.visit(c, sub)
		if sub == nil {
			e.forgetSince(mark)
		}
	}
	if original && !e.res.IsUserFunc(h) && !normalize.Opaque(l) {
		e.mutations(l, h)
	}
}

// isDecisionExpr reports whether n is an and/or of two operands or more,
// possibly under not: a decision wherever it stands.
func isDecisionExpr(n syntax.Node) bool {
	l, ok := n.(*syntax.List)
	if !ok || normalize.Opaque(l) {
		return false
	}
	switch syntax.Head(l) {
	case "and", "or":
		return len(l.Elems) >= 3
	case "not":
		return len(l.Elems) == 2 && isDecisionExpr(l.Elems[1])
	}
	return false
}

// atoms collects the maximal subexpressions of a decision that are not
// and/or/not forms, in order.
func atoms(n syntax.Node, out []syntax.Node) []syntax.Node {
	l, ok := n.(*syntax.List)
	if ok && !normalize.Opaque(l) {
		switch syntax.Head(l) {
		case "and", "or":
			for _, a := range l.Elems[1:] {
				out = atoms(a, out)
			}
			return out
		case "not":
			if len(l.Elems) == 2 {
				return atoms(l.Elems[1], out)
			}
		}
	}
	return append(out, n)
}

func (e *enumerator) decision(d syntax.Node) {
	c := e.opts.Criteria
	if c.Has(MCDC) {
		defer e.mcdc(d) // after the CC and MCC labels
	}
	if !c.Has(MCC) && !c.Has(CC) {
		return
	}
	// Distinct, non-constant atoms: a repeated atom is one condition.
	var as []syntax.Node
	seen := map[string]bool{}
	for _, a := range atoms(d, nil) {
		if isConstant(a) {
			continue
		}
		k := syntax.NodeString(a)
		if !seen[k] {
			seen[k] = true
			as = append(as, a)
		}
	}
	if len(as) == 0 {
		return
	}
	at := e.where(d, nil)
	if c.Has(CC) {
		e.cc(CC, "", d, as)
	}
	if !c.Has(MCC) {
		return
	}
	if w := MCCFallback(len(as), e.opts.MCCMaxAtoms); w != "" {
		o := e.res.Origin(d)
		if o == nil {
			o = d
		}
		start, _ := o.Span()
		e.set.Warnings = append(e.set.Warnings, syntax.Errorf(e.res.Orig.Name, e.res.Orig.Src, start, "%s", w))
		e.cc(MCC, FallbackPrefix, d, as)
		return
	}
	n := len(as)
	sh := e.share(as)
	for op, vals := range Combinations(n) {
		lits := make([]Literal, n)
		conj := make([]syntax.Node, n)
		for i, a := range as {
			lits[i] = Literal{a, vals[i]}
			if vals[i] {
				conj[i] = a
			} else {
				conj[i] = call("not", a)
			}
		}
		var pred syntax.Node = conj[0]
		if n > 1 {
			pred = call("and", conj...)
		}
		if l := e.add(MCC, op, d, pred, nil, at); l != nil && l.Status == Active {
			if e.judge != nil {
				l.Status, l.Reason = e.judge.Combination(lits)
			}
			if l.Status != Active {
				continue
			}
			if why, ok := e.shortCircuit(lits); ok {
				l.Status, l.Reason = Infeasible, why
			} else if sh != nil {
				e.readShared(l, sh, lits)
			}
		}
	}
}

// mcdc adds the MC/DC labels of decision d, one per test vector (see
// mcdc.go), when it has two conditions or more: each occurrence of an atom
// is a condition (as clang counts them), constants are folded.
func (e *enumerator) mcdc(d syntax.Node) {
	var conds []syntax.Node
	var build func(n syntax.Node) *BoolExpr
	build = func(n syntax.Node) *BoolExpr {
		if l, ok := n.(*syntax.List); ok && !normalize.Opaque(l) {
			switch h := syntax.Head(l); h {
			case "and", "or":
				args := l.Elems[1:]
				switch len(args) {
				case 0:
					return &BoolExpr{Op: BoolConst, Value: h == "and"}
				case 1:
					return build(args[0])
				}
				x := &BoolExpr{Op: BoolAnd}
				if h == "or" {
					x.Op = BoolOr
				}
				for _, a := range args {
					x.Args = append(x.Args, build(a))
				}
				return x
			case "not":
				// A not over a condition is part of the condition, as
				// clang takes !c: its value is the not's.
				if len(l.Elems) == 2 && isDecisionExpr(l.Elems[1]) {
					return &BoolExpr{Op: BoolNot, Args: []*BoolExpr{build(l.Elems[1])}}
				}
			}
		}
		if isConstant(n) {
			v, ok := truth(Simplify(n))
			return &BoolExpr{Op: BoolConst, Value: v || !ok}
		}
		conds = append(conds, n)
		return &BoolExpr{Op: BoolCond, Cond: len(conds) - 1}
	}
	x := build(d)
	if len(conds) < 2 {
		return // not an MC/DC decision
	}
	at := e.where(d, nil)
	vs, ok := Vectors(x, len(conds), DefaultMCDCMaxVectors)
	if !ok {
		o := e.res.Origin(d)
		if o == nil {
			o = d
		}
		start, _ := o.Span()
		e.set.Warnings = append(e.set.Warnings, syntax.Errorf(e.res.Orig.Name, e.res.Orig.Src, start,
			"warning: decision has more than %d test vectors: no MC/DC labels here", DefaultMCDCMaxVectors))
		return
	}
	dec := &Decision{Pos: at.pos, Source: at.src}
	for _, c := range conds {
		w := e.where(c, d)
		dec.Conditions = append(dec.Conditions, Condition{Pos: w.pos, Source: w.src})
	}
	for _, v := range vs {
		var conj []syntax.Node
		for i, t := range v.Values {
			switch t {
			case True:
				conj = append(conj, conds[i])
			case False:
				conj = append(conj, call("not", conds[i]))
			}
		}
		pred := conj[0]
		if len(conj) > 1 {
			pred = call("and", conj...)
		}
		vec := Vector{Values: v.String(), Outcome: v.Outcome}
		vec.Label = e.add(MCDC, vec.Values, d, pred, nil, at)
		dec.Vectors = append(dec.Vectors, vec)
	}
	e.set.Decisions = append(e.set.Decisions, dec)
}

// share decides whether the MCC labels of a decision with atoms as read
// the atoms from globals that one probe computes (SharedAtoms), and names
// those globals: when there are two atoms or more and one calls a
// function. Such an atom stays in place in a lazy and/or operand (the
// plan evaluates it only when the original would), so without sharing
// each of the 2^n labels would call the function again.
func (e *enumerator) share(as []syntax.Node) *SharedAtoms {
	if len(as) < 2 {
		return nil
	}
	calls := false
	for _, a := range as {
		calls = calls || e.res.Calls(a)
	}
	if !calls {
		return nil
	}
	name := func() string {
		e.globals++
		n := fmt.Sprintf("%sg%d", e.res.Prefix, e.globals)
		e.set.Globals = append(e.set.Globals, n)
		return n
	}
	sh := &SharedAtoms{Flag: name()}
	for _, a := range as {
		if s, ok := a.(*syntax.Symbol); ok {
			// A variable or temporary: read as it is (reading it
			// cannot fail, and nothing assigns it between the probe
			// and the labels).
			sh.Globals = append(sh.Globals, s.Name)
			sh.Atoms = append(sh.Atoms, nil)
			continue
		}
		sh.Globals = append(sh.Globals, name())
		sh.Atoms = append(sh.Atoms, a)
	}
	return sh
}

// readShared rewrites the active MCC label l (signed atoms lits) to read
// the globals of sh: (and FLAG G1 (not G2) ...). FLAG is true only when
// every atom evaluated without failure, so the label holds exactly when
// the conjunction of the atoms would. Expr keeps the atoms.
func (e *enumerator) readShared(l *Label, sh *SharedAtoms, lits []Literal) {
	conj := []syntax.Node{sym(sh.Flag)}
	for i, s := range lits {
		if s.Value {
			conj = append(conj, sym(sh.Globals[i]))
		} else {
			conj = append(conj, call("not", sym(sh.Globals[i])))
		}
	}
	if l.Expr == "" {
		l.Expr = l.Predicate
	}
	cond := call("and", conj...)
	l.Depth = normalize.Depth(cond, syntax.MaxDepth)
	l.Predicate = syntax.NodeString(cond)
	l.Shared = sh
}

// shortCircuit finds a conjunction that asks a temporary holding a lazy
// and/or operand to be true while the operand it depends on has the
// wrong truth: the temporary is nil then, since the operand never ran.
func (e *enumerator) shortCircuit(lits []Literal) (string, bool) {
	val := map[string]bool{}
	for _, s := range lits {
		if sym, ok := s.Atom.(*syntax.Symbol); ok {
			val[sym.Name] = s.Value
		}
	}
	for _, s := range lits {
		sym, ok := s.Atom.(*syntax.Symbol)
		if !ok || !s.Value {
			continue
		}
		for _, r := range e.res.Requires(sym.Name) {
			if v, ok := val[r.Temp]; ok && v != r.Truthy {
				want := "true"
				if !r.Truthy {
					want = "false"
				}
				return fmt.Sprintf("%s is only evaluated when %s is %s (short-circuit)", sym.Name, r.Temp, want), true
			}
		}
	}
	return "", false
}

func (e *enumerator) cc(crit Key, prefix string, d syntax.Node, as []syntax.Node) {
	for _, a := range as {
		at := e.where(a, d)
		e.add(crit, CCOperator(prefix, true), d, a, nil, at)
		e.add(crit, CCOperator(prefix, false), d, call("not", a), nil, at)
	}
}

// numberGuard is the domain of a numeric label: its non-literal operands
// are numbers.
func numberGuard(xs ...syntax.Node) syntax.Node {
	var gs []syntax.Node
	for _, x := range xs {
		if _, ok := numOf(x); !ok {
			gs = append(gs, call("numberp", x))
		}
	}
	switch len(gs) {
	case 0:
		return nil
	case 1:
		return gs[0]
	}
	return call("and", gs...)
}

func (e *enumerator) mutations(l *syntax.List, h string) {
	c := e.opts.Criteria
	at := e.where(l, nil)
	args := l.Elems[1:]
	switch {
	case normalize.IsRelational(h) && len(args) == 2 && c.Has(WMROR):
		a, b := args[0], args[1]
		g := numberGuard(a, b)
		r, _ := RelationOf(h)
		for _, m := range Relations() {
			if m == r {
				continue
			}
			var pred syntax.Node
			switch diff := r.Mutant(m); diff {
			case Always:
				pred = boolNode(true)
			case Never:
				pred = boolNode(false)
			default:
				pred = call(diff.String(), a, b)
			}
			e.add(WMROR, h+" -> "+m.String(), l, pred, g, at)
		}
	}
	if normalize.IsRelational(h) && len(args) == 2 && c.Has(DIST) {
		e.distLadder(l, args[0], args[1], at)
	}
	if normalize.IsStringEquality(h) && len(args) == 2 && c.Has(DIST) {
		e.prefixStones(l, h, args[0], args[1], at)
	}
	switch {
	case normalize.IsArithmetic(h) && len(args) == 2 && c.Has(WMAOR):
		a, b := args[0], args[1]
		g := numberGuard(a, b)
		for _, m := range []string{"+", "-", "*", "/"} {
			if m == h {
				continue
			}
			var pred syntax.Node
			if (h == "+" && m == "-") || (h == "-" && m == "+") {
				pred = call("/=", b, zero()) // a+b and a-b differ iff b /= 0
			} else {
				pred = call("/=", call(h, a, b), call(m, a, b))
				if h == "/" || m == "/" {
					// A zero divisor makes exactly one side fail: they differ.
					pred = call("or", call("=", b, zero()), pred)
				}
			}
			e.add(WMAOR, h+" -> "+m, l, pred, g, at)
		}
	case h == "-" && len(args) == 1 && c.Has(WMAOR):
		e.add(WMAOR, "(- x) -> x", l, call("/=", args[0], zero()), numberGuard(args[0]), at)
	case (h == "and" || h == "or") && len(args) >= 2 && c.Has(WMCOR):
		other := map[string]string{"and": "or", "or": "and"}[h]
		var pred syntax.Node
		_, ca := truth(args[0])
		_, cb := truth(args[1])
		if len(args) == 2 && !ca && !cb {
			// Truthiness differs iff exactly one operand is true; this form
			// has no branches, which keeps the label cheap to run.
			pred = call("not", call("eq", call("null", args[0]), call("null", args[1])))
		} else {
			pred = call("and", call("or", args...), call("not", call("and", args...)))
		}
		e.add(WMCOR, h+" -> "+other, l, pred, nil, at)
	}
	if normalize.IsNumeric(h) && c.Has(WMABS) {
		for _, a := range args {
			s, ok := a.(*syntax.Symbol)
			if !ok || s.Name == "t" || s.Name == "nil" {
				continue
			}
			if _, isVar := e.res.Origin(a).(*syntax.Symbol); !isVar {
				continue // a temporary holding a computed operand
			}
			vat := e.where(a, l)
			g := call("numberp", a)
			e.add(WMABS, "x -> (abs x)", a, call("<", a, zero()), g, vat)
			e.add(WMABS, "x -> (- (abs x))", a, call(">", a, zero()), g, vat)
			e.add(WMABS, "x -> 0", a, call("=", a, zero()), g, vat)
		}
	}
}

func zero() syntax.Node { return &syntax.Int{Value: 0, Raw: "0"} }
