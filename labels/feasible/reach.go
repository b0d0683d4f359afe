package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
)

// Placings within reach. The simulator declares (domain.Signals.Reach)
// the cells of each region a placing reaches from each location, torso
// level and arm, for any object held; that a placing whose arm property
// names no arm fails before it reaches; that moving the torso to a level
// by name returns only with the torso there, and that nothing else moves
// the torso. A handler clause that takes the unreachable failure (and
// nothing else its body may signal) is never entered when every form of
// its body that may signal that failure is a placing — a perform, or a
// call of a function whose body is one perform, its arguments reaching
// no action — made:
//   - from a known location: a call (go-to X) of a function that returns
//     only with the robot at its parameter comes before it in the same
//     body, with nothing that may navigate in between (detects.go);
//   - at a known torso level: the form just before it is a call (T 'L) of
//     a function (defun T (P) (unless (eq P V) ... (perform (an action
//     (type moving-torso) (height P))) (setq V P))), the perform's
//     failures for level L (none, by the simulator) not taken by a handler
//     in T, and the global V, nil at first, only ever set right after such
//     a perform to its level and only compared with eq: V names the level
//     the torso was last moved to;
//   - with arm and cell pairs the analysis enumerates: an arm named in
//     the text, or a variable whose symbols the value analysis knows, each
//     symbol taken in turn; a cell from a quoted list, the elements of a
//     global bound to a literal list and only read (nth), an if on the arm
//     variable (eq) and calls of one-form functions, all within reach.
// Anything else keeps the labels.

// reachVerdicts marks infeasible the active labels in the clauses that
// take only the unreachable failure and whose body places within reach.
func (h *handlerAnalysis) reachVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Reach == nil || sig.Reach.Kind == "" || sig.Places == "" || h.a == nil || h.defs["perform"] != nil || h.local["perform"] ||
		h.res.IsUserFunc("perform") || !h.parkingFacts() {
		return
	}
	active := 0
	for _, pl := range ls {
		if pl.l.Status == labels.Active && pl.l.Point != nil {
			active++
		}
	}
	if active == 0 {
		return
	}
	if h.sites == nil {
		h.findSites()
	}
	if h.dynamic {
		return
	}
	parent := h.parentMap()
	r := &reachAnalysis{h: h, parent: parent, setters: map[string]*torsoSetter{}}
	in := map[syntax.Node]string{}
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || forms.Head(l) != "with-failure-handling" || len(l.Elems) < 3 {
				return true
			}
			cl, ok := l.Elems[1].(*syntax.List)
			if !ok {
				return true
			}
			for _, c := range cl.Elems {
				kinds, cbody, ok := clauseParts(c)
				if !ok || !h.decidable(kinds) || !h.catches(kinds, &sigSet{kinds: map[string]bool{sig.Reach.Kind: true}}) {
					continue
				}
				why, ok := r.neverUnreached(c, kinds, l.Elems[2:])
				if !ok {
					continue
				}
				markUnder(in, cbody, why)
			}
			return true
		})
	}
	applyUnder(ls, in)
}

// reachAnalysis holds what the reach rule learns of one plan.
type reachAnalysis struct {
	h       *handlerAnalysis
	parent  map[syntax.Node]*syntax.List
	setters map[string]*torsoSetter // nil: not a torso setter
	// shadow: the global that names the torso's level (""), and
	// whether it does (1 yes, 2 no).
	shadow   map[string]int8
	perfMemo map[string]int8
	armsSym  int8 // armsSymbols: 1 yes, 2 no
	// assignMemo: whether a function may assign a global (dropcycle.go),
	// by global and function.
	assignMemo map[string]int8
}

// neverUnreached says why clause c (for kinds) of a with-failure-handling
// with body never meets the unreachable failure, or false.
func (r *reachAnalysis) neverUnreached(c syntax.Node, kinds []string, body []syntax.Node) (string, bool) {
	h, kind := r.h, r.h.sig.Reach.Kind
	var notes []string
	for _, b := range body {
		s := &sigSet{}
		h.walk(b, s, 0)
		if s.top != "" {
			return "", false
		}
		caught := false
		for k := range s.kinds {
			if h.catches(kinds, &sigSet{kinds: map[string]bool{k: true}}) {
				if k != kind {
					return "", false
				}
				caught = true
			}
		}
		if !caught {
			continue
		}
		note, ok := r.placingReached(b, kinds)
		if !ok {
			return "", false
		}
		notes = append(notes, note)
	}
	if len(notes) == 0 {
		return "", false // the handler analysis decides it
	}
	return fmt.Sprintf("the %s handler %s is never entered: its body may signal %s only by placing, and %s (%s)",
		strings.Join(kinds, "/"), h.where(c), kind, strings.Join(notes, "; "), h.sig.Why), true
}

// placingReached says why b, a perform of a placing or a call of a
// one-perform function whose arguments signal nothing kinds take, never
// signals the unreachable failure.
func (r *reachAnalysis) placingReached(b syntax.Node, kinds []string) (string, bool) {
	h, sig := r.h, r.h.sig
	l, ok := b.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return "", false
	}
	perf, subst := l, map[string]syntax.Node(nil)
	if head := forms.Head(l); head != "perform" {
		f := h.defs[head]
		if f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 || forms.Head(f.Elems[3]) != "perform" {
			return "", false
		}
		ps, ok := f.Elems[2].(*syntax.List)
		if !ok || len(ps.Elems) != len(l.Elems)-1 {
			return "", false
		}
		subst = map[string]syntax.Node{}
		for i, p := range ps.Elems {
			s, ok := p.(*syntax.Symbol)
			if !ok || strings.HasPrefix(s.Name, "&") || h.a.specials[s.Name] {
				return "", false
			}
			subst[s.Name] = l.Elems[i+1]
			as := &sigSet{}
			h.walk(l.Elems[i+1], as, 0)
			if r.mayPerform(l.Elems[i+1], 0) || as.top != "" || h.catches(kinds, as) {
				return "", false
			}
		}
		perf = f.Elems[3].(*syntax.List)
	}
	typ, props, ok := actionDesig(perf)
	if !ok || typ != sig.Places || !plainProps(props) {
		return "", false
	}
	// The designator's values, in the caller's terms: (node, designator
	// mode: a plain symbol is itself).
	val := func(n syntax.Node) (syntax.Node, bool, bool) {
		if s, ok := n.(*syntax.Symbol); ok && forms.IsDesignatorVar(s.Name) {
			if subst == nil {
				return n, false, true
			}
			x, ok := subst[s.Name]
			return x, false, ok
		}
		return n, true, true
	}
	armN, has := props[sig.Reach.ArmKey]
	if !has {
		return "", false
	}
	regionN, cellN, ok := h.placeTarget(props)
	if !ok {
		return "", false
	}
	// Where and how high the robot stands.
	locs, at, ok := h.locationAt(b, 0)
	if !ok {
		return "", false
	}
	level, setter, ok := r.levelAt(b)
	if !ok {
		return "", false
	}
	// The regions.
	rn, lit, ok := val(regionN)
	if !ok {
		return "", false
	}
	regions, ok := r.names(rn, lit)
	if !ok {
		return "", false
	}
	// The arms, each with what the arm variable then holds.
	an, lit, ok := val(armN)
	if !ok {
		return "", false
	}
	type armCase struct{ arm, key, sym string }
	armNote := ""
	var cases []armCase
	if name, isLit := literalName(an, lit); isLit {
		cases = append(cases, armCase{arm: name})
	} else {
		s, ok := an.(*syntax.Symbol)
		if !ok {
			return "", false
		}
		key, ok := r.constKey(s)
		if !ok {
			return "", false
		}
		v, _, ok := r.varVal(s)
		switch {
		case ok && v.symsKnown():
			for _, sym := range v.syms {
				cases = append(cases, armCase{arm: strings.TrimPrefix(sym, ":"), key: key, sym: sym})
			}
		case r.armsSymbols():
			// Only the symbol of an arm's name names it.
			for _, arm := range sig.Arms {
				cases = append(cases, armCase{arm: arm, key: key, sym: arm})
			}
			armNote = fmt.Sprintf(" (%s names an arm only as a symbol: %s)", s.Name, armsSymbolsWhy)
		default:
			return "", false
		}
	}
	cn, lit, ok := val(cellN)
	if !ok || lit {
		return "", false
	}
	var parts []string
	for _, ac := range cases {
		if !slices.Contains(sig.Arms, ac.arm) {
			continue // the placing fails before it reaches
		}
		env := map[string]string{}
		if ac.key != "" {
			env[ac.key] = ac.sym
		}
		cells, ok := r.cells(cn, env, 0)
		if !ok {
			return "", false
		}
		for _, loc := range locs {
			for _, rg := range regions {
				reached := sig.Reach.Cells[domain.ReachKey{Loc: loc, Level: level, Arm: ac.arm, Region: rg}]
				for _, c := range cells {
					if !slices.Contains(reached, c) {
						return "", false
					}
				}
			}
		}
		var cs []string
		for _, c := range cells {
			cs = append(cs, fmt.Sprintf("(%d %d)", c[0], c[1]))
		}
		slices.Sort(cs)
		cs = slices.Compact(cs)
		if len(cs) == 0 {
			cs = []string{"no cell"}
		}
		parts = append(parts, fmt.Sprintf("arm %s on %s", ac.arm, strings.Join(cs, " ")))
	}
	if len(parts) == 0 {
		parts = []string{"no arm of the robot"}
	}
	what := h.where(perf)
	if perf != b {
		what = fmt.Sprintf("%s, which %s calls,", what, h.where(b))
	}
	return fmt.Sprintf("%s places on %s from %s (where the robot stands %s) with the torso %s (%s) and %s%s, all within reach",
		what, strings.Join(regions, ", "), strings.Join(locs, " or "), at, level, setter, strings.Join(parts, ", "), armNote), true
}

// placeTarget returns the region and cell forms of a placing's
// target (a location designator written out), or false.
func (h *handlerAnalysis) placeTarget(props map[string]syntax.Node) (region, cell syntax.Node, ok bool) {
	sig := h.sig
	var target syntax.Node
	for _, k := range sig.PlaceKeys {
		if v, ok := props[k]; ok {
			target = v
			break
		}
	}
	if target == nil || !forms.IsDesignator(target) {
		return nil, nil, false
	}
	sub, ok := desigProps(target.(*syntax.List))
	if !ok {
		return nil, nil, false
	}
	for _, k := range sig.PlaceRegionKeys {
		if v, ok := sub[k]; ok {
			region = v
			break
		}
	}
	cell = sub[sig.PlaceCell]
	return region, cell, region != nil && cell != nil
}

// literalName is the name a literal n denotes: a plain symbol in
// designator mode, a quoted symbol, a keyword.
func literalName(n syntax.Node, designator bool) (string, bool) {
	switch x := n.(type) {
	case *syntax.Symbol:
		if designator && !forms.IsDesignatorVar(x.Name) {
			return x.Name, true
		}
	case *syntax.Keyword:
		return x.Name, true
	}
	if s, ok := quotedData(n).(*syntax.Symbol); ok {
		return s.Name, true
	}
	return "", false
}

// names are the names value n may be (keywords by their name), or false.
func (r *reachAnalysis) names(n syntax.Node, designator bool) ([]string, bool) {
	if name, ok := literalName(n, designator); ok {
		return []string{name}, true
	}
	s, ok := n.(*syntax.Symbol)
	if !ok {
		return nil, false
	}
	v, _, ok := r.varVal(s)
	if !ok || !v.symsKnown() {
		return nil, false
	}
	var out []string
	for _, sym := range v.syms {
		out = append(out, strings.TrimPrefix(sym, ":"))
	}
	return out, true
}

// varVal is what the value analysis says variable s holds.
func (r *reachAnalysis) varVal(s *syntax.Symbol) (aval, string, bool) {
	h := r.h
	if v, how, ok := h.paramVal(s, 0); ok {
		return v, how, true
	}
	return h.a.ev(s, 0), "", true
}

// constKey is the binding of variable s when no code assigns it after it
// is bound.
func (r *reachAnalysis) constKey(s *syntax.Symbol) (string, bool) {
	a := r.h.a
	k, met := a.symKey[s]
	if !met || k == "" || k == conflictKey || a.assignedKeys[k] || a.specials[s.Name] || a.closureAssigned()[s.Name] {
		return "", false
	}
	return k, true
}

// maxCellDepth bounds the calls cells follows.
const maxCellDepth = 4

// cells are the cells (COL ROW) value n, evaluated with the bindings env
// (binding key -> the symbol it holds), may be; values that are no cell
// are left out (the placing fails on them before it reaches).
func (r *reachAnalysis) cells(n syntax.Node, env map[string]string, depth int) ([][2]int, bool) {
	h := r.h
	if depth > maxCellDepth {
		return nil, false
	}
	if q := quotedData(n); q != nil {
		if c, ok := cellDatum(q); ok {
			return [][2]int{c}, true
		}
		return nil, true
	}
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return nil, false
	}
	head := forms.Head(l)
	builtin := h.defs[head] == nil && !h.local[head] && !h.res.IsUserFunc(head)
	switch {
	case head == "if" && (len(l.Elems) == 3 || len(l.Elems) == 4):
		branches := l.Elems[2:]
		if t, decided := r.decide(l.Elems[1], env); decided {
			if t {
				branches = l.Elems[2:3]
			} else {
				branches = l.Elems[3:]
			}
		}
		var out [][2]int
		for _, b := range branches {
			cs, ok := r.cells(b, env, depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, cs...)
		}
		return out, true
	case head == "list" && builtin && len(l.Elems) == 3:
		c, ok1 := l.Elems[1].(*syntax.Int)
		rw, ok2 := l.Elems[2].(*syntax.Int)
		if !ok1 || !ok2 {
			return nil, false
		}
		return [][2]int{{int(c.Value), int(rw.Value)}}, true
	case head == "nth" && builtin && len(l.Elems) == 3:
		g, ok := l.Elems[2].(*syntax.Symbol)
		if !ok {
			return nil, false
		}
		if _, lit := h.a.litLists[g.Name]; !lit {
			return nil, false
		}
		elems, ok := r.globalList(g.Name)
		if !ok {
			return nil, false
		}
		var out [][2]int
		for _, e := range elems {
			if c, ok := cellDatum(e); ok {
				out = append(out, c)
			}
		}
		return out, true
	}
	// A call of a plan function of one form.
	f := h.defs[head]
	if f == nil || h.dup[head] || h.local[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
		return nil, false
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != len(l.Elems)-1 {
		return nil, false
	}
	inner := map[string]string{}
	for i, p := range ps.Elems {
		s, ok := p.(*syntax.Symbol)
		if !ok || strings.HasPrefix(s.Name, "&") {
			return nil, false
		}
		key := h.a.paramKey(head, s.Name)
		if key == "" || h.a.assignedKeys[key] || h.a.closureAssigned()[s.Name] {
			continue
		}
		arg := l.Elems[i+1]
		if name, ok := symbolConst(arg); ok {
			inner[key] = name
		} else if as, ok := arg.(*syntax.Symbol); ok {
			if k, met := h.a.symKey[as]; met {
				if v, ok := env[k]; ok {
					inner[key] = v
				}
			}
		}
	}
	return r.cells(f.Elems[3], inner, depth+1)
}

// decide evaluates test t, (eq X 'S) or (eq 'S X) with X bound in env.
func (r *reachAnalysis) decide(t syntax.Node, env map[string]string) (bool, bool) {
	h := r.h
	t = h.res.Unwrap(t)
	l, ok := t.(*syntax.List)
	if !ok || len(l.Elems) != 3 || forms.Head(l) != "eq" || h.defs["eq"] != nil || h.local["eq"] || h.res.IsUserFunc("eq") {
		return false, false
	}
	a, b := l.Elems[1], l.Elems[2]
	if _, isConst := symbolConst(a); isConst {
		a, b = b, a
	}
	s, ok := a.(*syntax.Symbol)
	name, isConst := symbolConst(b)
	if !ok || !isConst {
		return false, false
	}
	k, met := h.a.symKey[s]
	if !met {
		return false, false
	}
	v, bound := env[k]
	if !bound {
		return false, false
	}
	return v == name, true
}

// cellDatum reads a quoted (COL ROW) of two integers.
func cellDatum(n syntax.Node) ([2]int, bool) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 2 {
		return [2]int{}, false
	}
	c, ok1 := l.Elems[0].(*syntax.Int)
	rw, ok2 := l.Elems[1].(*syntax.Int)
	if !ok1 || !ok2 {
		return [2]int{}, false
	}
	return [2]int{int(c.Value), int(rw.Value)}, true
}

// globalList is the elements of the quoted literal list global name is
// defined with (once, and only read: valueAnalysis.litLists).
func (r *reachAnalysis) globalList(name string) ([]syntax.Node, bool) {
	for _, f := range r.h.res.Forms {
		l, ok := f.(*syntax.List)
		if !ok || len(l.Elems) != 3 {
			continue
		}
		switch forms.Head(l) {
		case "defparameter", "defvar", "defconstant":
			if syntax.IsSymbol(l.Elems[1], name) {
				if q, ok := quotedData(l.Elems[2]).(*syntax.List); ok {
					return q.Elems, true
				}
				return nil, false
			}
		}
	}
	return nil, false
}

// mayPerform reports whether evaluating n may perform an action (or call
// what the analysis cannot follow).
func (r *reachAnalysis) mayPerform(n syntax.Node, depth int) bool {
	h := r.h
	if depth > 8 {
		return true
	}
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if found {
			return false
		}
		if s, ok := x.(*syntax.Symbol); ok && forms.Name(s) == "perform" {
			found = true
		}
		l, ok := x.(*syntax.List)
		if !ok || len(l.Elems) == 0 {
			return !found
		}
		head := forms.Head(l)
		switch {
		case h.local[head] || dynamicCall(l) || head == "funcall" || head == "apply":
			found = true
		case h.defs[head] != nil:
			if h.dup[head] || r.fnMayPerform(head, depth) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (r *reachAnalysis) fnMayPerform(name string, depth int) bool {
	if r.perfMemo == nil {
		r.perfMemo = map[string]int8{}
	}
	switch r.perfMemo[name] {
	case 1:
		return false
	case 2, 3:
		return true
	}
	r.perfMemo[name] = 3
	res := r.mayPerform(r.h.defs[name], depth+1)
	r.perfMemo[name] = 1
	if res {
		r.perfMemo[name] = 2
	}
	return res
}

// torsoSetter is a function (defun T (P) (unless (eq P V) [handlers]
// (perform (an action (type moving-torso) (height P))) (setq V P))).
type torsoSetter struct {
	param, shadow string
	perf          *syntax.List
	props         map[string]syntax.Node
	clauses       [][]string // the kinds of the handlers around the perform
}

// levelAt is the torso level when form b starts: the form just before it
// in its body is a call (T 'L) of a torso setter whose perform never
// signals for L what its handlers take, with the text that says so.
func (r *reachAnalysis) levelAt(b syntax.Node) (string, string, bool) {
	h, sig := r.h, r.h.sig
	p := r.parent[b]
	if p == nil {
		return "", "", false
	}
	i := slices.Index(p.Elems, b)
	bs, ok := bodyStart[forms.Head(p)]
	if !ok || i-1 < bs {
		return "", "", false
	}
	prev, ok := p.Elems[i-1].(*syntax.List)
	if !ok || len(prev.Elems) != 2 {
		return "", "", false
	}
	ls, ok := quotedData(prev.Elems[1]).(*syntax.Symbol)
	if !ok || ls.Name == "nil" || !slices.Contains(sig.Reach.Levels, ls.Name) {
		return "", "", false
	}
	level := ls.Name
	st := r.setter(forms.Head(prev))
	if st == nil || !r.shadows(st.shadow) {
		return "", "", false
	}
	// What performing with height L may signal, against the handlers.
	sigs, known := sig.Actions[sig.Reach.TorsoMoves]
	if !known {
		sigs = sig.Unknown
	}
	for _, sg := range sigs {
		if !torsoCause(sg.Cause, st, level) {
			continue
		}
		for _, ks := range st.clauses {
			if h.catches(ks, &sigSet{kinds: map[string]bool{sg.Kind: true}}) {
				return "", "", false
			}
		}
	}
	return level, fmt.Sprintf("%s returns only with the torso there: %s names the level the torso was last moved to", h.show(prev), st.shadow), true
}

// torsoCause reports whether c may hold for the setter's perform with its
// parameter at level.
func torsoCause(c domain.Cause, st *torsoSetter, level string) bool {
	if c.Kind != domain.ArgNotIn {
		return true
	}
	for _, k := range c.Keys {
		v, ok := st.props[k]
		if !ok {
			continue
		}
		if !syntax.IsSymbol(v, st.param) {
			return true
		}
		return !slices.Contains(c.Names, level)
	}
	return !c.AbsentOK
}

// setter is the torso setter fn, or nil.
func (r *reachAnalysis) setter(fn string) *torsoSetter {
	if st, done := r.setters[fn]; done {
		return st
	}
	r.setters[fn] = nil
	h, rc := r.h, r.h.sig.Reach
	f := h.defs[fn]
	if f == nil || h.dup[fn] || h.local[fn] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
		return nil
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != 1 {
		return nil
	}
	p, ok := ps.Elems[0].(*syntax.Symbol)
	if !ok || h.a.specials[p.Name] || strings.HasPrefix(p.Name, "&") {
		return nil
	}
	u, ok := f.Elems[3].(*syntax.List)
	if !ok || forms.Head(u) != "unless" || len(u.Elems) < 3 {
		return nil
	}
	test, ok := h.res.Unwrap(u.Elems[1]).(*syntax.List)
	if !ok || forms.Head(test) != "eq" || len(test.Elems) != 3 || h.defs["eq"] != nil || h.res.IsUserFunc("eq") {
		return nil
	}
	var v *syntax.Symbol
	switch {
	case syntax.IsSymbol(test.Elems[1], p.Name):
		v, _ = test.Elems[2].(*syntax.Symbol)
	case syntax.IsSymbol(test.Elems[2], p.Name):
		v, _ = test.Elems[1].(*syntax.Symbol)
	}
	if v == nil || !h.a.specials[v.Name] {
		return nil
	}
	st := &torsoSetter{param: p.Name, shadow: v.Name}
	inner := u.Elems[2:]
	if len(inner) == 1 && forms.Head(inner[0]) == "with-failure-handling" {
		w := inner[0].(*syntax.List)
		cl, ok := argAt(w, 1).(*syntax.List)
		if !ok {
			return nil
		}
		for _, c := range cl.Elems {
			kinds, _, ok := clauseParts(c)
			if !ok {
				return nil
			}
			st.clauses = append(st.clauses, kinds)
		}
		inner = w.Elems[2:]
	}
	if len(inner) != 2 {
		return nil
	}
	perf, ok := inner[0].(*syntax.List)
	if !ok || forms.Head(perf) != "perform" {
		return nil
	}
	typ, props, ok := actionDesig(perf)
	if !ok || typ != rc.TorsoMoves || !plainProps(props) {
		return nil
	}
	if !syntax.IsSymbol(torsoProp(props, rc.TorsoKeys), p.Name) || !r.setsShadow(inner[1], v.Name, p.Name) {
		return nil
	}
	st.perf, st.props = perf, props
	r.setters[fn] = st
	return st
}

// torsoProp is the first of keys props has.
func torsoProp(props map[string]syntax.Node, keys []string) syntax.Node {
	for _, k := range keys {
		if v, ok := props[k]; ok {
			return v
		}
	}
	return nil
}

// setsShadow reports whether n is (setq v x).
func (r *reachAnalysis) setsShadow(n syntax.Node, v, x string) bool {
	l, ok := n.(*syntax.List)
	return ok && forms.Head(l) == "setq" && len(l.Elems) == 3 && syntax.IsSymbol(l.Elems[1], v) && syntax.IsSymbol(l.Elems[2], x)
}

// shadows reports whether global v names the level the torso was last
// moved to whenever it is a level: defined once as nil; every
// occurrence is its definition, an operand of eq, eql or equal, or a
// (setq v X) right after a perform of the torso action whose height is
// the lexical variable X; every perform of the plan names its action and
// each of the torso action is followed so.
func (r *reachAnalysis) shadows(v string) bool {
	if r.shadow == nil {
		r.shadow = map[string]int8{}
	}
	if s, done := r.shadow[v]; done {
		return s == 1
	}
	r.shadow[v] = 2
	h, rc := r.h, r.h.sig.Reach
	parent := map[syntax.Node]*syntax.List{}
	defs := 0
	ok := true
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, isList := n.(*syntax.List); isList {
				for _, e := range l.Elems {
					parent[e] = l
				}
			}
			return true
		})
	}
	// The setq forms allowed: right after a torso perform of X.
	okSet := map[*syntax.List]bool{}
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			if !ok {
				return false
			}
			switch x := n.(type) {
			case *syntax.Symbol:
				if forms.Name(x) == "perform" {
					if p := parent[x]; p == nil || p.Elems[0] != syntax.Node(x) {
						ok = false // perform as a value
					}
				}
			case *syntax.List:
				if forms.Head(x) != "perform" {
					return true
				}
				typ, props, known := actionDesig(x)
				if !known {
					ok = false
					return false
				}
				if typ != rc.TorsoMoves {
					return true
				}
				hv, isSym := torsoProp(props, rc.TorsoKeys).(*syntax.Symbol)
				p := parent[x]
				if !isSym || h.a.specials[hv.Name] || !forms.IsDesignatorVar(hv.Name) || p == nil {
					ok = false
					return false
				}
				i := slices.Index(p.Elems, syntax.Node(x))
				bs, isBody := bodyStart[forms.Head(p)]
				if !isBody || i < bs || i+1 >= len(p.Elems) || !r.setsShadow(p.Elems[i+1], v, hv.Name) {
					ok = false
					return false
				}
				okSet[p.Elems[i+1].(*syntax.List)] = true
			}
			return true
		})
	}
	if !ok {
		return false
	}
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			s, isSym := n.(*syntax.Symbol)
			if !ok || !isSym || s.Name != v {
				return ok
			}
			p := parent[s]
			if p == nil {
				ok = false
				return false
			}
			i := slices.Index(p.Elems, syntax.Node(s))
			switch head := forms.Head(p); {
			case (head == "defparameter" || head == "defvar") && i == 1 && len(p.Elems) == 3 && syntax.IsSymbol(p.Elems[2], "nil"):
				defs++
			case (head == "eq" || head == "eql" || head == "equal") && i > 0 && h.defs[head] == nil && !h.local[head]:
			case head == "setq" && i == 1 && okSet[p]:
			default:
				ok = false
			}
			return ok
		})
	}
	if !ok || defs != 1 {
		return false
	}
	r.shadow[v] = 1
	return true
}

// armsSymbolsWhy says why armsSymbols holds.
const armsSymbolsWhy = "the plan takes no arguments, has no keyword naming an arm nor a string or character holding one, reversed or not, calls no format but to print, no subseq or code-char, and the failure messages it may read are sentences (those of the simulator and the VM, and its own fail messages, whose control strings hold a space)"

// dropDirectives is format control string s without its ~x directives.
func dropDirectives(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '~' {
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// armsSymbols reports whether no value of a run is a keyword or a string
// naming an arm (nameOf would take it for the arm): keywords come only
// from the text; strings from the text (strings and characters), reverse
// of a string, format to a string, subseq, code-char and the message of a
// failure, read with desig-prop: the simulator's and the VM's are
// sentences (every format they write a message with holds a space, as
// TestLabelReach checks of the simulator's and TestFailureMessagesAreSentences
// of the VM's), and the plan's own must be.
func (r *reachAnalysis) armsSymbols() bool {
	if r.armsSym != 0 {
		return r.armsSym == 1
	}
	r.armsSym = 2
	h, arms := r.h, r.h.sig.Arms
	// A string's elements (find, elt, ...) are one-character strings:
	// an arm named by one character gives up.
	for _, a := range arms {
		if len([]rune(a)) <= 1 {
			return false
		}
	}
	names := func(s string) bool {
		rs := []rune(s)
		slices.Reverse(rs)
		for _, a := range arms {
			if strings.Contains(s, a) || strings.Contains(string(rs), a) {
				return true
			}
		}
		return false
	}
	heads := map[*syntax.Symbol]*syntax.List{}
	ok, readsMessages, sentences := true, false, true
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, isList := n.(*syntax.List); isList && len(l.Elems) > 0 {
				if s, isSym := l.Elems[0].(*syntax.Symbol); isSym {
					heads[s] = l
				}
				if forms.Head(l) == "def-plan" && len(l.Elems) > 2 {
					if ps, isList := l.Elems[2].(*syntax.List); !isList || len(ps.Elems) > 0 {
						if !syntax.IsSymbol(l.Elems[2], "nil") {
							ok = false
						}
					}
				}
			}
			return true
		})
	}
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Keyword:
				if slices.Contains(arms, x.Name) {
					ok = false
				}
			case *syntax.String:
				if names(x.Value) {
					ok = false
				}
			case *syntax.Char:
				if names(string(x.Value)) {
					ok = false
				}
			case *syntax.Symbol:
				switch forms.Name(x) {
				case "subseq", "code-char":
					ok = false
				case "format":
					if l := heads[x]; l == nil || !syntax.IsSymbol(argAt(l, 1), "t") {
						ok = false
					}
				case "desig-prop":
					l := heads[x]
					if l == nil {
						ok = false
						break
					}
					k, isSym := quotedData(argAt(l, 2)).(*syntax.Symbol)
					if !isSym {
						ok = false
					} else if k.Name == "message" {
						readsMessages = true
					}
				case "fail":
					// Its message, when read, must not be an arm's name.
					l := heads[x]
					if l == nil {
						ok = false
						break
					}
					if len(l.Elems) > 2 {
						msg, isStr := l.Elems[2].(*syntax.String)
						if !isStr || !strings.Contains(dropDirectives(msg.Value), " ") {
							sentences = false
						}
					}
				}
			}
			return ok
		})
	}
	if !ok || h.dynamic || readsMessages && !sentences {
		return false
	}
	r.armsSym = 1
	return true
}
