package feasible

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Handlers never entered. A clause of with-failure-handling or
// handler-case for a kind K runs only when a failure of K (or of a kind
// below it) escapes the clause's body. In the plan-failure tree, failures
// come from three sources only: (fail 'K ...), performing an action and
// calling a simulator query (the VM's builtins signal errors, outside
// that tree). What each action and query may signal, and under which
// conditions of its arguments, the simulator declares
// (Options.Signals, sim.LabelSignals); the value analysis says which
// symbols and numbers the plan passes them (its tables, constants and
// parameters), and a call graph summary carries what may escape each
// function (what its body may signal, less what its own handlers catch,
// plus what its handlers signal). A clause for a kind in the plan-failure
// tree that nothing its body reaches may signal is never entered, and
// every label in it is infeasible. A function called through a value the
// text does not name, a local function, a (fail KIND) with a computed
// kind or a designator the analysis cannot read may signal anything.

// sigSet is what may escape a form: any failure (top, with why), or the
// kinds listed.
type sigSet struct {
	top   string
	kinds map[string]bool
}

func (s *sigSet) add(kind string) {
	if s.kinds == nil {
		s.kinds = map[string]bool{}
	}
	s.kinds[kind] = true
}

func (s *sigSet) setTop(why string) {
	if s.top == "" {
		s.top = why
	}
}

func (s *sigSet) union(o *sigSet) {
	s.setTop(o.top)
	for k := range o.kinds {
		s.add(k)
	}
}

func (s *sigSet) same(o *sigSet) bool {
	if (s.top == "") != (o.top == "") || len(s.kinds) != len(o.kinds) {
		return false
	}
	for k := range s.kinds {
		if !o.kinds[k] {
			return false
		}
	}
	return true
}

// handlerAnalysis holds the summaries of one plan.
type handlerAnalysis struct {
	res  *normalize.Result
	a    *valueAnalysis // nil: no values (every argument may be anything)
	sig  *domain.Signals
	show func(syntax.Node) string
	defs map[string]*syntax.List // functions by name (defined once)
	dup  map[string]bool         // names defined more than once
	// local are the flet/labels names: a call may reach one.
	local map[string]bool
	sums  map[string]*sigSet
	// parked marks the perform forms that run right after a form that
	// leaves every arm parked (endsParked), with that form.
	parked map[*syntax.List]syntax.Node
	// notes collects, while explaining, why the reached actions signal
	// none of the kinds asked (nil while summarising).
	notes   *[]string
	want    []string
	visited map[string]bool
	// sites are the calls of each plan function (paramVal); dynamic
	// when some call goes through a value.
	sites   map[string][]callSite
	dynamic bool
	// navMemo: whether each function may navigate (detects.go): 1 no,
	// 2 yes, 3 pending.
	navMemo map[string]int8
	// parents and refs: the list holding each node, and the names used
	// other than as a call's head (locations.go).
	parents map[syntax.Node]*syntax.List
	refs    map[string]bool
	// oparents and odefs: the same of the original plan (dedup.go).
	oparents map[syntax.Node]*syntax.List
	odefs    map[string]*syntax.List
}

// handlerVerdicts marks infeasible every active label of ls that lies in
// a handler clause the plan never enters.
func handlerVerdicts(res *normalize.Result, a *valueAnalysis, sig *domain.Signals, show func(syntax.Node) string, ls []*pathLabel) {
	if sig == nil || sig.Parent == nil {
		return
	}
	h := &handlerAnalysis{res: res, a: a, sig: sig, show: show, sums: map[string]*sigSet{}, parked: map[*syntax.List]syntax.Node{}}
	h.collectDefs()
	if h.parkingFacts() {
		for _, f := range res.Forms {
			if !res.Skipped(f) {
				h.findParked(f)
			}
		}
	}
	h.summarise()
	// The clauses never entered, each with the labels in it.
	in := map[syntax.Node]string{}
	for _, f := range res.Forms {
		if res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok {
				return true
			}
			var clauses []syntax.Node
			var body []syntax.Node
			switch forms.Head(l) {
			case "with-failure-handling":
				if len(l.Elems) < 2 {
					return true
				}
				cl, ok := l.Elems[1].(*syntax.List)
				if !ok {
					return true
				}
				clauses, body = cl.Elems, l.Elems[2:]
			case "handler-case":
				if len(l.Elems) < 2 {
					return true
				}
				clauses, body = l.Elems[2:], l.Elems[1:2]
			default:
				return true
			}
			var s *sigSet
			for _, c := range clauses {
				kinds, cbody, ok := clauseParts(c)
				if !ok || !h.decidable(kinds) {
					continue
				}
				if s == nil {
					s = h.seq(body)
				}
				if s.top != "" || h.catches(kinds, s) {
					continue
				}
				why := h.explain(l, c, kinds, body, s)
				markUnder(in, cbody, why)
			}
			return true
		})
	}
	applyUnder(ls, in)
	h.detectVerdicts(ls)
	h.robotLocationVerdicts(ls)
	h.repeatViewVerdicts(ls)
	h.dedupVerdicts(ls)
	h.floorVerdicts(ls)
	h.reachVerdicts(ls)
	h.dropCycleVerdicts(ls)
	h.armRetryVerdicts(ls)
	h.setBeforeVerdicts(ls)
	h.untakenVerdicts(ls)
	h.countPairVerdicts(ls)
	h.placeBoundVerdicts(ls)
}

// collectDefs records the plan's functions by name (defs, dup) and its
// local function names.
func (h *handlerAnalysis) collectDefs() {
	h.defs, h.dup = map[string]*syntax.List{}, map[string]bool{}
	for _, f := range h.res.Forms {
		l, ok := f.(*syntax.List)
		if !ok || h.res.Skipped(f) {
			continue
		}
		switch forms.Head(f) {
		case "defun", "def-cram-function", "def-plan", "def-check", "def-policy":
			if len(l.Elems) > 2 {
				if s, ok := l.Elems[1].(*syntax.Symbol); ok {
					name := forms.Name(s)
					if _, seen := h.defs[name]; seen {
						h.dup[name] = true
					}
					h.defs[name] = l
				}
			}
		}
	}
	h.local = localFuncNames(h.res)
}

// clauseParts splits a handler clause (KIND (VAR) BODY...), KIND being a
// symbol or (or KIND...).
func clauseParts(c syntax.Node) (kinds []string, body []syntax.Node, ok bool) {
	l, isList := c.(*syntax.List)
	if !isList || len(l.Elems) < 2 {
		return nil, nil, false
	}
	ks := []syntax.Node{l.Elems[0]}
	if forms.Head(l.Elems[0]) == "or" {
		ks = l.Elems[0].(*syntax.List).Elems[1:]
	}
	for _, k := range ks {
		s, isSym := k.(*syntax.Symbol)
		if !isSym {
			return nil, nil, false
		}
		kinds = append(kinds, s.Name)
	}
	return kinds, l.Elems[2:], len(kinds) > 0
}

// decidable reports whether every kind lies in the plan-failure tree,
// whose failures come only from fail, actions and queries.
func (h *handlerAnalysis) decidable(kinds []string) bool {
	for _, k := range kinds {
		if k == "error" || k == "condition" || k == "serious-condition" || k == "simple-error" || !h.sig.IsKind(k, "plan-failure") {
			return false
		}
	}
	return true
}

// catches reports whether a clause for kinds catches a failure s may
// signal.
func (h *handlerAnalysis) catches(kinds []string, s *sigSet) bool {
	if s.top != "" {
		return true
	}
	for k := range s.kinds {
		for _, want := range kinds {
			if h.sig.IsKind(k, want) {
				return true
			}
		}
	}
	return false
}

// summarise computes what may escape each function, to a fixpoint.
func (h *handlerAnalysis) summarise() {
	names := make([]string, 0, len(h.defs))
	for n := range h.defs {
		names = append(names, n)
		h.sums[n] = &sigSet{}
	}
	sort.Strings(names)
	for round := 0; ; round++ {
		if round > 4*len(names)+8 {
			for _, n := range names {
				h.sums[n].setTop("the call graph summary did not settle")
			}
			return
		}
		changed := false
		for _, n := range names {
			s := h.seq(h.defs[n].Elems[3:])
			if !s.same(h.sums[n]) {
				h.sums[n], changed = s, true
			}
		}
		if !changed {
			return
		}
	}
}

func (h *handlerAnalysis) seq(xs []syntax.Node) *sigSet {
	s := &sigSet{}
	for _, x := range xs {
		h.walk(x, s, 0)
	}
	return s
}

// walk adds to s what evaluating n may signal.
func (h *handlerAnalysis) walk(n syntax.Node, s *sigSet, depth int) {
	if depth > maxWalkDepth {
		s.setTop("a form nested too deep")
		return
	}
	l, ok := n.(*syntax.List)
	if !ok {
		if p, isPre := n.(*syntax.Prefixed); isPre && p.Mark == syntax.MarkFunction {
			if forms.Head(p.X) == "lambda" {
				h.walk(p.X, s, depth+1)
			}
		}
		return // an atom, a quote, #'f (a value: calling it is a call site)
	}
	if len(l.Elems) == 0 {
		return
	}
	hs, isSym := l.Elems[0].(*syntax.Symbol)
	if !isSym || forms.Opaque(l) {
		s.setTop("a form the analysis cannot read: " + h.where(l))
		return
	}
	head := forms.Name(hs)
	if forms.Lookup(head) != nil && !h.local[head] {
		h.special(head, l, s, depth)
		return
	}
	for _, sl := range forms.Slots(l) {
		h.walk(forms.At(l, sl.Path), s, depth+1)
	}
	switch {
	case h.local[head]:
		s.setTop("a call of local function " + head)
	case h.defs[head] != nil:
		if h.dup[head] {
			s.setTop(head + " is defined twice")
		} else {
			s.union(h.sums[head])
			if h.notes != nil && !h.visited[head] {
				h.visited[head] = true
				h.seq(h.defs[head].Elems[3:]) // notes of what it reaches
			}
		}
	case head == "fail":
		switch k := argAt(l, 1).(type) {
		case *syntax.Quote:
			if ks, ok := k.X.(*syntax.Symbol); ok {
				s.add(ks.Name)
				return
			}
		case *syntax.Keyword:
			s.add(k.Name)
			return
		}
		s.setTop("a failure of a computed kind: " + h.where(l))
	case head == "perform":
		h.perform(l, s)
	case h.sig.Queries[head] != nil && !h.res.IsUserFunc(head):
		for _, sg := range h.sig.Queries[head] {
			h.signal(sg, l, nil, s)
		}
	case funcallHeads[head]:
		h.calledValue(l, argAt(l, 1), s, depth)
	}
	for i, e := range l.Elems {
		if k, ok := e.(*syntax.Keyword); ok && funcallKeys[k.Name] {
			h.calledValue(l, argAt(l, i+1), s, depth)
		}
	}
}

// calledValue adds what calling function value f (at a funcall site of
// l) may signal: a literal #'name, 'name or lambda, else anything.
func (h *handlerAnalysis) calledValue(l *syntax.List, f syntax.Node, s *sigSet, depth int) {
	if f == nil {
		return
	}
	if !literalFunction(f) {
		s.setTop("a call through a function value: " + h.where(l))
		return
	}
	var name string
	switch f := f.(type) {
	case *syntax.Quote:
		name = forms.Name(f.X.(*syntax.Symbol))
	case *syntax.Prefixed:
		if sy, ok := f.X.(*syntax.Symbol); ok {
			name = forms.Name(sy)
		} else {
			h.walk(f.X, s, depth+1) // #'(lambda ...)
			return
		}
	case *syntax.List:
		if forms.Head(f) == "lambda" {
			h.walk(f, s, depth+1)
			return
		}
		x := f.Elems[1]
		if forms.Head(x) == "lambda" {
			h.walk(x, s, depth+1)
			return
		}
		name = forms.Name(x.(*syntax.Symbol))
	}
	switch {
	case h.local[name] || h.dup[name]:
		s.setTop("a call of " + name + " through a value")
	case h.defs[name] != nil:
		s.union(h.sums[name])
	case name == "fail" || name == "perform":
		s.setTop("a call of " + name + " through a value")
	case h.sig.Queries[name] != nil:
		for _, sg := range h.sig.Queries[name] {
			s.add(sg.Kind)
		}
	}
}

func argAt(l *syntax.List, i int) syntax.Node {
	if i < len(l.Elems) {
		return l.Elems[i]
	}
	return nil
}

// special adds what special form l may signal.
func (h *handlerAnalysis) special(head string, l *syntax.List, s *sigSet, depth int) {
	switch head {
	case "quote", "function":
		if head == "function" && forms.Head(argAt(l, 1)) == "lambda" {
			h.walk(argAt(l, 1), s, depth+1)
		}
		return
	case "ignore-errors":
		// Catches every failure a handler may catch.
		inner := &sigSet{}
		for _, x := range l.Elems[1:] {
			h.walk(x, inner, depth+1)
		}
		return
	case "with-failure-handling", "handler-case":
		var clauses, body []syntax.Node
		if head == "with-failure-handling" {
			if cl, ok := argAt(l, 1).(*syntax.List); ok {
				clauses = cl.Elems
			} else if argAt(l, 1) != nil {
				s.setTop("a handler form the analysis cannot read: " + h.where(l))
			}
			if len(l.Elems) > 2 {
				body = l.Elems[2:]
			}
		} else {
			body = l.Elems[1:min(2, len(l.Elems))]
			if len(l.Elems) > 2 {
				clauses = l.Elems[2:]
			}
		}
		inner := &sigSet{}
		for _, x := range body {
			h.walk(x, inner, depth+1)
		}
		var caught [][]string
		for _, c := range clauses {
			kinds, cbody, ok := clauseParts(c)
			if !ok {
				s.setTop("a handler clause the analysis cannot read: " + h.where(l))
				continue
			}
			if head == "handler-case" {
				for i, k := range kinds {
					if t := map[string]string{"error": "failure", "condition": "failure", "serious-condition": "failure", "simple-error": "failure"}[k]; t != "" {
						kinds[i] = t
					}
				}
			}
			caught = append(caught, kinds)
			for _, x := range cbody {
				h.walk(x, s, depth+1)
			}
		}
		// What no clause catches escapes.
		if inner.top != "" {
			all := false
			for _, ks := range caught {
				if slices.Contains(ks, "failure") {
					all = true
				}
			}
			if !all {
				s.setTop(inner.top)
			}
		}
		for k := range inner.kinds {
			escapes := true
			for _, ks := range caught {
				for _, want := range ks {
					if h.sig.IsKind(k, want) {
						escapes = false
					}
				}
			}
			if escapes {
				s.add(k)
			}
		}
		return
	case "assert":
		s.add("assertion-failed")
	case "funcall":
		h.calledValue(l, argAt(l, 1), s, depth)
	case "flet", "labels", "macrolet":
		s.setTop("local functions: " + h.where(l))
	}
	for _, sl := range forms.Slots(l) {
		h.walk(forms.At(l, sl.Path), s, depth+1)
	}
}

// actionDesig returns the action type of perform form l's literal
// designator with its properties, or ok false when the designator is not
// written as (an action (type T) (KEY VALUE)...) with a literal T.
func actionDesig(l *syntax.List) (typ string, props map[string]syntax.Node, ok bool) {
	d, isList := argAt(l, 1).(*syntax.List)
	if !isList || !forms.IsDesignator(d) || len(d.Elems) < 2 {
		return "", nil, false
	}
	if c, isSym := d.Elems[1].(*syntax.Symbol); !isSym || c.Name != "action" {
		return "", nil, false
	}
	props, ok = desigProps(d)
	if !ok {
		return "", nil, false
	}
	t, isSym := props["type"].(*syntax.Symbol)
	if !isSym || forms.IsDesignatorVar(t.Name) {
		return "", nil, false
	}
	return t.Name, props, true
}

// desigProps maps each key of designator form d to its first value; ok is
// false when a property is not (KEY VALUE) with a symbol key.
func desigProps(d *syntax.List) (map[string]syntax.Node, bool) {
	props := map[string]syntax.Node{}
	for _, e := range d.Elems[2:] {
		p, isList := e.(*syntax.List)
		if !isList || len(p.Elems) != 2 {
			return nil, false
		}
		var key string
		switch k := p.Elems[0].(type) {
		case *syntax.Symbol:
			key = propKey(k.Name)
		case *syntax.Keyword:
			key = k.Name
		default:
			return nil, false
		}
		if _, seen := props[key]; !seen {
			props[key] = p.Elems[1]
		}
	}
	return props, true
}

// perform adds what perform form l may signal.
func (h *handlerAnalysis) perform(l *syntax.List, s *sigSet) {
	typ, props, ok := actionDesig(l)
	if !ok {
		// Any action: every declared failure.
		for _, sigs := range h.sig.Actions {
			for _, sg := range sigs {
				s.add(sg.Kind)
			}
		}
		for _, sg := range h.sig.Unknown {
			s.add(sg.Kind)
		}
		return
	}
	sigs, known := h.sig.Actions[typ]
	if !known {
		sigs = h.sig.Unknown
	}
	for _, sg := range sigs {
		h.signal(sg, l, props, s)
	}
}

// signal adds sg's kind to s unless its cause cannot hold at l (a perform
// with the properties props, or a query call when props is nil).
func (h *handlerAnalysis) signal(sg domain.Signal, l *syntax.List, props map[string]syntax.Node, s *sigSet) {
	why, holds := h.cause(sg.Cause, l, props)
	if holds {
		s.add(sg.Kind)
		return
	}
	if h.notes != nil && h.wanted(sg.Kind) {
		*h.notes = append(*h.notes, fmt.Sprintf("%s signals %s only for %s, and %s", h.where(l), sg.Kind, sg.Cause.Why, why))
	}
}

func (h *handlerAnalysis) wanted(kind string) bool {
	for _, w := range h.want {
		if h.sig.IsKind(kind, w) {
			return true
		}
	}
	return false
}

// cause reports whether c may hold at l, or why it cannot.
func (h *handlerAnalysis) cause(c domain.Cause, l *syntax.List, props map[string]syntax.Node) (string, bool) {
	switch c.Kind {
	case domain.ArmNotParked:
		if p, ok := h.parked[l]; ok {
			return fmt.Sprintf("%s parks every arm just before", h.where(p)), false
		}
		return "", true
	case domain.ArgNotIn:
	default:
		return "", true
	}
	if props == nil || h.a == nil {
		return "", true
	}
	var val syntax.Node
	for _, k := range c.Keys {
		if v, ok := props[k]; ok {
			val = v
			break
		}
	}
	if val == nil {
		if c.AbsentOK {
			return "it has no " + strings.Join(c.Keys, " or ") + " property", false
		}
		return "", true
	}
	if c.Sub != "" && forms.IsDesignator(val) {
		d := val.(*syntax.List)
		sub, ok := desigProps(d)
		if !ok || sub[c.Sub] == nil {
			return "", true
		}
		val = sub[c.Sub]
	}
	v, text, ok := h.propVal(val)
	if !ok || !inNames(v, c) {
		return "", true
	}
	return fmt.Sprintf("%s %s", text, symsText(v)), false
}

// propVal is the value of designator property value n: a literal symbol,
// or what the value analysis says of an evaluated one.
func (h *handlerAnalysis) propVal(n syntax.Node) (aval, string, bool) {
	if s, ok := n.(*syntax.Symbol); ok && !h.res.IsTemp(s.Name) && !forms.IsDesignatorVar(s.Name) {
		return symVal(s.Name), s.Name, true
	}
	if forms.IsDesignator(n) {
		return aval{}, "", false
	}
	if s, ok := n.(*syntax.Symbol); ok {
		if v, how, ok := h.paramVal(s, 0); ok {
			return v, h.show(n) + " (" + how + ")", true
		}
	}
	return h.a.ev(n, 0), h.show(n), true
}

// callSite is a call of a plan function at index i of a body evaluated
// in sequence (body nil when the call is no element of one).
type callSite struct {
	call *syntax.List
	body []syntax.Node
	i    int
}

// maxParamDepth bounds the chain of parameters paramVal follows.
const maxParamDepth = 4

// paramVal is the value of reference s when it reads a parameter of a
// defun no code assigns, called only by name: the join, over every call,
// of the argument (argVal).
func (h *handlerAnalysis) paramVal(s *syntax.Symbol, depth int) (aval, string, bool) {
	if depth > maxParamDepth {
		return aval{}, "", false
	}
	key, ok := h.a.symKey[s]
	if !ok || key == conflictKey || h.a.assignedKeys[key] {
		return aval{}, "", false
	}
	fn, p, found := strings.Cut(key, "\x00")
	fi := h.a.funcs[fn]
	if !found || fi == nil || fi.free || h.dup[fn] || h.local[fn] || h.a.paramKey(fn, p) != key || h.a.closureAssigned()[p] {
		return aval{}, "", false
	}
	idx := slices.Index(fi.params, p)
	if idx < 0 {
		return aval{}, "", false
	}
	if h.sites == nil {
		h.findSites()
	}
	if h.dynamic {
		return aval{}, "", false
	}
	v := aval{}
	n := 0
	for _, site := range h.sites[fn] {
		if len(site.call.Elems) != len(fi.params)+1 {
			return aval{}, "", false
		}
		v = join(v, h.argVal(site, idx, depth))
		n++
	}
	return v, fmt.Sprintf("over the %d call(s) of %s", n, fn), true
}

// argVal is the value of argument idx of call site: a variable reads
// what the latest (setq VAR E) before the call in the same body
// assigned it, when nothing in between may assign it (E is then read the
// same way, at its place); the parameters of the calling function the
// argument reads are read over that function's calls (paramVal).
func (h *handlerAnalysis) argVal(site callSite, idx, depth int) aval {
	x := site.call.Elems[idx+1]
	body, i := site.body, site.i
	for {
		as, ok := x.(*syntax.Symbol)
		if !ok || body == nil || !plainArgs(site.call.Elems[1:idx+1]) || h.a.specials[as.Name] || h.a.closureAssigned()[as.Name] {
			break
		}
		if k, ok := h.a.symKey[as]; !ok || k == conflictKey || k == "" {
			break
		}
		j := i - 1
		for ; j >= 0; j-- {
			if set, ok := body[j].(*syntax.List); ok && forms.Head(set) == "setq" && len(set.Elems) == 3 && syntax.IsSymbol(set.Elems[1], as.Name) {
				break
			}
			if mayAssign(body[j], as.Name) {
				j = -1
				break
			}
		}
		if j < 0 {
			break
		}
		x, i = body[j].(*syntax.List).Elems[2], j
		// E is evaluated where the setq stands: the same body, earlier.
		site = callSite{call: &syntax.List{Elems: []syntax.Node{nil, x}}, body: body, i: j}
		idx = 0
	}
	// The parameters x reads, each read over its function's calls.
	assume := map[string]aval{}
	keys := map[string]string{}
	syntax.Walk(x, func(n syntax.Node) bool {
		sy, ok := n.(*syntax.Symbol)
		if !ok {
			return true
		}
		k, met := h.a.symKey[sy]
		if old, seen := keys[sy.Name]; seen && old != k || !met {
			keys[sy.Name] = conflictKey
			return true
		}
		keys[sy.Name] = k
		if v, _, ok := h.paramVal(sy, depth+1); ok {
			assume[sy.Name] = v
		}
		return true
	})
	for name, k := range keys {
		if k == conflictKey {
			delete(assume, name)
		}
	}
	saved := h.a.assume
	h.a.assume = assume
	v := h.a.ev(x, 0)
	h.a.assume = saved
	return v
}

// mayAssign reports whether n may assign variable name: an assignment form
// naming it, or code the analysis does not follow (a closure).
func mayAssign(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		l, ok := x.(*syntax.List)
		if !ok || found {
			return !found
		}
		h := forms.Head(l)
		if assignHeads[h] || h == "lambda" || h == "flet" || h == "labels" || h == "function" {
			syntax.Walk(l, func(y syntax.Node) bool {
				if syntax.IsSymbol(y, name) {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

// plainArgs reports whether evaluating xs assigns nothing: atoms and
// quoted data.
func plainArgs(xs []syntax.Node) bool {
	for _, x := range xs {
		switch x.(type) {
		case *syntax.Symbol, *syntax.Int, *syntax.Float, *syntax.String, *syntax.Keyword, *syntax.Quote:
		default:
			return false
		}
	}
	return true
}

// findSites records every call of a plan function, with the form just
// before it in a body; dynamic when some call goes through a value.
func (h *handlerAnalysis) findSites() {
	h.sites = map[string][]callSite{}
	in := map[*syntax.List]callSite{}
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(x syntax.Node) bool {
			l, ok := x.(*syntax.List)
			if !ok {
				return true
			}
			if dynamicCall(l) {
				h.dynamic = true
			}
			if i, ok := bodyStart[forms.Head(l)]; ok && i < len(l.Elems) {
				for j := i; j < len(l.Elems); j++ {
					if c, ok := l.Elems[j].(*syntax.List); ok {
						in[c] = callSite{call: c, body: l.Elems[i:], i: j - i}
					}
				}
			}
			if len(l.Elems) > 0 {
				if hs, ok := l.Elems[0].(*syntax.Symbol); ok && h.defs[forms.Name(hs)] != nil {
					site, ok := in[l]
					if !ok {
						site = callSite{call: l}
					}
					h.sites[forms.Name(hs)] = append(h.sites[forms.Name(hs)], site)
				}
			}
			return true
		})
	}
}

// inNames reports whether every value v may be lies in c's names or
// range.
func inNames(v aval, c domain.Cause) bool {
	if v.other {
		if !v.symsKnown() {
			return false
		}
		for _, s := range v.syms {
			if !slices.Contains(c.Names, s) {
				return false
			}
		}
	}
	if v.num {
		if c.Range == nil || v.nan || v.lo < c.Range.Lo || v.hi > c.Range.Hi {
			return false
		}
	}
	return true
}

// parkingFacts reports whether a perform may rely on the arms a parking
// action left parked: the world declares such an action, and no policy
// (run after every action) may perform one itself.
func (h *handlerAnalysis) parkingFacts() bool {
	if h.sig.ParksArms == "" {
		return false
	}
	seen := map[string]bool{}
	var stack []syntax.Node
	for _, f := range h.res.Forms {
		if forms.Head(f) == "def-policy" {
			stack = append(stack, f)
		}
	}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		bad := false
		syntax.Walk(n, func(x syntax.Node) bool {
			if s, ok := x.(*syntax.Symbol); ok {
				name := forms.Name(s)
				switch {
				case name == "perform" || h.local[name] || h.dup[name]:
					bad = true
				case h.defs[name] != nil && !seen[name]:
					seen[name] = true
					stack = append(stack, h.defs[name])
				}
			}
			if l, ok := x.(*syntax.List); ok && dynamicCall(l) {
				bad = true
			}
			return !bad
		})
		if bad {
			return false
		}
	}
	return true
}

// bodyStart is where the body of a form evaluated in sequence starts.
var bodyStart = map[string]int{"progn": 1, "seq": 1, "let": 2, "let*": 2, "when": 2, "unless": 2, "dolist": 2,
	"dotimes": 2, "while": 2, "block": 2, "with-failure-handling": 2, "lambda": 2,
	"defun": 3, "def-plan": 3, "def-cram-function": 3, "def-check": 3, "def-policy": 3}

// findParked records the performs of n's bodies that directly follow a
// form leaving every arm parked.
func (h *handlerAnalysis) findParked(n syntax.Node) {
	syntax.Walk(n, func(x syntax.Node) bool {
		l, ok := x.(*syntax.List)
		if !ok {
			return true
		}
		var body []syntax.Node
		if i, ok := bodyStart[forms.Head(l)]; ok && len(l.Elems) > i {
			body = l.Elems[i:]
		}
		if forms.Head(l) == "with-failure-handling" {
			if cl, ok := argAt(l, 1).(*syntax.List); ok {
				for _, c := range cl.Elems {
					if _, cbody, ok := clauseParts(c); ok {
						h.markParked(cbody)
					}
				}
			}
		}
		h.markParked(body)
		return true
	})
}

func (h *handlerAnalysis) markParked(body []syntax.Node) {
	for i := 1; i < len(body); i++ {
		p, ok := body[i].(*syntax.List)
		if !ok || forms.Head(p) != "perform" || h.local["perform"] || h.defs["perform"] != nil {
			continue
		}
		if _, props, ok := actionDesig(p); ok && plainProps(props) && h.endsParked(body[i-1], 0) {
			h.parked[p] = body[i-1]
		}
	}
}

// plainProps reports whether evaluating the property values does nothing
// but read variables and build designators.
func plainProps(props map[string]syntax.Node) bool {
	for _, v := range props {
		switch v := v.(type) {
		case *syntax.Symbol, *syntax.Int, *syntax.Float, *syntax.String, *syntax.Keyword, *syntax.Quote:
		case *syntax.List:
			if !forms.IsDesignator(v) || len(v.Elems) < 2 {
				return false
			}
			sub, ok := desigProps(v)
			if !ok || !plainProps(sub) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// endsParked reports whether n, when it returns, last performed the
// parking action on every arm (no arm property).
func (h *handlerAnalysis) endsParked(n syntax.Node, depth int) bool {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 || depth > 8 {
		return false
	}
	head := forms.Head(l)
	if h.local[head] {
		return false
	}
	switch head {
	case "perform":
		if h.defs["perform"] != nil {
			return false
		}
		typ, props, ok := actionDesig(l)
		_, arm := props["arm"]
		return ok && typ == h.sig.ParksArms && !arm && plainProps(props)
	case "progn", "let", "let*":
		i := bodyStart[head]
		return len(l.Elems) > i && h.endsParked(l.Elems[len(l.Elems)-1], depth+1)
	}
	if f := h.defs[head]; f != nil && !h.dup[head] && forms.Head(f) == "defun" && len(f.Elems) > 3 {
		// Its arguments are evaluated before its body.
		return h.endsParked(f.Elems[len(f.Elems)-1], depth+1)
	}
	return false
}

// explain says why no clause kind of c is ever signalled in body.
func (h *handlerAnalysis) explain(wfh *syntax.List, c syntax.Node, kinds []string, body []syntax.Node, s *sigSet) string {
	var notes []string
	h.notes, h.want, h.visited = &notes, kinds, map[string]bool{}
	h.seq(body)
	h.notes, h.want, h.visited = nil, nil, nil
	notes = slices.Compact(notes)
	var may []string
	for k := range s.kinds {
		may = append(may, k)
	}
	sort.Strings(may)
	mayText := "no failure"
	if len(may) > 0 {
		mayText = "only " + strings.Join(may, ", ")
	}
	why := fmt.Sprintf("the %s handler %s is never entered: its body (with the functions it calls, less what their own handlers catch) may signal %s (%s)",
		strings.Join(kinds, "/"), h.where(c), mayText, h.sig.Why)
	if len(notes) > 0 {
		why += ": " + strings.Join(notes, "; ")
	}
	return why
}

func (h *handlerAnalysis) where(n syntax.Node) string {
	return (&valueAnalysis{res: h.res}).where(n)
}

// markUnder records why for every node of body not yet given a reason: a
// label at any of them sits in a clause the analysis proved never entered.
func markUnder(in map[syntax.Node]string, body []syntax.Node, why string) {
	for _, b := range body {
		syntax.Walk(b, func(x syntax.Node) bool {
			if _, done := in[x]; !done {
				in[x] = why
			}
			return true
		})
	}
}

// applyUnder marks infeasible, with the recorded reason, every active
// label of ls whose point markUnder recorded.
func applyUnder(ls []*pathLabel, in map[syntax.Node]string) {
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		if why, ok := in[pl.l.Point]; ok {
			pl.l.Status, pl.l.Reason = labels.Infeasible, why
		}
	}
}
