package feasible

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Detected objects carried through lists. A plan that collects what it
// detected under a filter, as in
//
//	(dolist (d (perform (an action (type detecting))))
//	  (when (and ... (not (in-place-p d)) ...) (push d found)))
//
// and hands the elements of that list on (through reverse, first, pop,
// rest, cons, list, let bindings, function arguments and results) keeps
// the filter's conjuncts that read only d true of every element: d is
// never assigned, designators are immutable, and a conjunct computed by
// the builtins below and plan functions of them (no query, no variable
// the plan assigns) gives the same answer each time. A label in a defun
// F whose predicate, with the tests that lead to it inside F (if, when,
// unless, cond, and, or), reads only F's parameters, is infeasible when
// at every call of F by name the arguments read one variable holding
// such an element (or nil) and, for every type and region the simulator
// may give a detected object (domain.Signals.Perceived), the filter, the
// arguments and the predicate evaluated together never all hold (nil
// makes desig-prop signal, and F is not called).
//
// The analysis is a flow-insensitive fixpoint over the whole plan: each
// binding (let, let*, dolist, a defun's parameter joined over its
// calls, a global) holds the join of everything assigned to it. It gives
// up on plans with closures, local functions, calls through values,
// setf of places and binders it does not model, and a defun the text
// defines twice; entry must be set (only the def-plan and its checks
// call defuns).

// eKind is the kind of an abstract value.
type eKind uint8

const (
	eBot  eKind = iota
	eNil        // the empty list
	eList       // a list (maybe empty) of elem
	eCons       // (cons car cdr)
	eTup        // (list xs...)
	eDes        // a detected object designator meeting facts (or nil: mayNil)
	eTop
)

type eFact struct {
	cond  syntax.Node // evaluated with v bound to the designator
	v     string
	truth bool
	id    string
	// rel maps the other variables cond reads to the bindings (keys)
	// that hold, where the value is, what they held when cond was
	// tested (nothing assigns them).
	rel map[string]string
}

// factID names fact c/truth with its bindings.
func factID(c syntax.Node, truth bool, rel map[string]string) string {
	var ks []string
	for n, k := range rel {
		ks = append(ks, n+"="+k)
	}
	sort.Strings(ks)
	return fmt.Sprintf("%p/%v/%s", c, truth, strings.Join(ks, ","))
}

// mapFacts rewrites the facts in v by f (nil: drop the fact).
func mapFacts(v *ev, f func(eFact) (eFact, bool)) *ev {
	switch v.k {
	case eDes:
		var alts [][]eFact
		for _, alt := range v.alts {
			var fs []eFact
			for _, x := range alt {
				if y, ok := f(x); ok {
					fs = append(fs, y)
				}
			}
			alts = append(alts, fs)
		}
		return &ev{k: eDes, alts: normAlts(alts), mayNil: v.mayNil}
	case eList:
		return &ev{k: eList, elem: mapFacts(v.elem, f)}
	case eCons:
		return &ev{k: eCons, car: mapFacts(v.car, f), cdr: mapFacts(v.cdr, f)}
	case eTup:
		xs := make([]*ev, len(v.xs))
		for i, x := range v.xs {
			xs[i] = mapFacts(x, f)
		}
		return &ev{k: eTup, xs: xs}
	}
	return v
}

// rebind rewrites the bindings facts read by m (old key -> new key),
// dropping a fact that reads a binding m does not map.
func rebind(v *ev, m func(key string) (string, bool)) *ev {
	return mapFacts(v, func(f eFact) (eFact, bool) {
		if len(f.rel) == 0 {
			return f, true
		}
		rel := map[string]string{}
		for n, k := range f.rel {
			nk, ok := m(k)
			if !ok {
				return f, false
			}
			rel[n] = nk
		}
		f.rel, f.id = rel, factID(f.cond, f.truth, rel)
		return f, true
	})
}

type ev struct {
	k        eKind
	elem     *ev
	car, cdr *ev
	xs       []*ev
	alts     [][]eFact // eDes: it meets every fact of one of these
	mayNil   bool
}

var (
	evBot = &ev{k: eBot}
	evTop = &ev{k: eTop}
	evNil = &ev{k: eNil}
)

func (v *ev) String() string {
	switch v.k {
	case eBot:
		return "_"
	case eNil:
		return "nil"
	case eList:
		return "(list " + v.elem.String() + ")"
	case eCons:
		return "(cons " + v.car.String() + " " + v.cdr.String() + ")"
	case eTup:
		var b strings.Builder
		b.WriteString("(tup")
		for _, x := range v.xs {
			b.WriteString(" " + x.String())
		}
		return b.String() + ")"
	case eDes:
		var as []string
		for _, alt := range v.alts {
			as = append(as, altKey(alt))
		}
		return fmt.Sprintf("(des %v %v)", v.mayNil, as)
	}
	return "T"
}

// depth is the nesting of v.
func (v *ev) depth() int {
	d := 0
	for _, c := range []*ev{v.elem, v.car, v.cdr} {
		if c != nil {
			d = max(d, c.depth())
		}
	}
	for _, c := range v.xs {
		d = max(d, c.depth())
	}
	return d + 1
}

// elemsOf joins the elements a list value may have.
func elemsOf(v *ev) *ev {
	switch v.k {
	case eBot, eNil:
		return evBot
	case eList:
		return v.elem
	case eCons:
		return ejoin(v.car, elemsOf(v.cdr))
	case eTup:
		out := evBot
		for _, x := range v.xs {
			out = ejoin(out, x)
		}
		return out
	}
	return evTop
}

// asList is v read as a list: nil or (list elem).
func asListVal(v *ev) *ev {
	switch v.k {
	case eBot, eNil, eList:
		return v
	case eCons, eTup:
		return &ev{k: eList, elem: elemsOf(v)}
	}
	return evTop
}

func firstOf(v *ev) *ev {
	switch v.k {
	case eBot:
		return evBot
	case eNil:
		return evNil
	case eList:
		return ejoin(v.elem, evNil)
	case eCons:
		return v.car
	case eTup:
		if len(v.xs) == 0 {
			return evNil
		}
		return v.xs[0]
	}
	return evTop
}

func restOf(v *ev) *ev {
	switch v.k {
	case eBot:
		return evBot
	case eNil, eList:
		return v
	case eCons:
		return v.cdr
	case eTup:
		if len(v.xs) <= 1 {
			return evNil
		}
		return &ev{k: eTup, xs: v.xs[1:]}
	}
	return evTop
}

func nthOf(v *ev, i int) *ev {
	for ; i > 0; i-- {
		v = restOf(v)
	}
	return firstOf(v)
}

// maxAlts bounds the alternatives of a designator value; beyond, they
// merge into their common facts.
const maxAlts = 4

// altKey names an alternative by its facts' ids.
func altKey(alt []eFact) string {
	ids := make([]string, len(alt))
	for i, f := range alt {
		ids[i] = f.id
	}
	sort.Strings(ids)
	return "[" + strings.Join(ids, " ") + "]"
}

// subset reports whether every fact of a is one of b.
func subset(a, b []eFact) bool {
	for _, f := range a {
		if !slices.ContainsFunc(b, func(g eFact) bool { return g.id == f.id }) {
			return false
		}
	}
	return true
}

// normAlts drops an alternative another one's facts are a subset of
// (it says more: the weaker one covers it), orders them, and merges
// more than maxAlts into their common facts.
func normAlts(alts [][]eFact) [][]eFact {
	var out [][]eFact
	for i, a := range alts {
		drop := false
		for j, b := range alts {
			if i != j && subset(b, a) && (!subset(a, b) || j < i) {
				drop = true
				break
			}
		}
		if !drop {
			out = append(out, a)
		}
	}
	if len(out) > maxAlts {
		common := out[0]
		for _, b := range out[1:] {
			common = slices.DeleteFunc(slices.Clone(common), func(f eFact) bool {
				return !slices.ContainsFunc(b, func(g eFact) bool { return g.id == f.id })
			})
		}
		out = [][]eFact{common}
	}
	sort.Slice(out, func(i, j int) bool { return altKey(out[i]) < altKey(out[j]) })
	return out
}

// ejoin is the least value both a and b are below.
func ejoin(a, b *ev) *ev {
	switch {
	case a.k == eBot:
		return b
	case b.k == eBot:
		return a
	case a.k == eTop || b.k == eTop:
		return evTop
	}
	if a.k == eNil && b.k == eNil {
		return evNil
	}
	if a.k == eDes || b.k == eDes {
		if a.k == eNil {
			return &ev{k: eDes, alts: b.alts, mayNil: true}
		}
		if b.k == eNil {
			return &ev{k: eDes, alts: a.alts, mayNil: true}
		}
		if a.k != eDes || b.k != eDes {
			return evTop
		}
		return &ev{k: eDes, alts: normAlts(append(slices.Clone(a.alts), b.alts...)), mayNil: a.mayNil || b.mayNil}
	}
	if a.k == eCons && b.k == eCons {
		return &ev{k: eCons, car: ejoin(a.car, b.car), cdr: ejoin(a.cdr, b.cdr)}
	}
	if a.k == eTup && b.k == eTup && len(a.xs) == len(b.xs) {
		xs := make([]*ev, len(a.xs))
		for i := range xs {
			xs[i] = ejoin(a.xs[i], b.xs[i])
		}
		return &ev{k: eTup, xs: xs}
	}
	la, lb := asListVal(a), asListVal(b)
	if la.k == eTop || lb.k == eTop {
		return evTop
	}
	return &ev{k: eList, elem: ejoin(elemsOf(la), elemsOf(lb))}
}

// elemAnalysis is the fixpoint's state.
type elemAnalysis struct {
	res    *normalize.Result
	h      *handlerAnalysis
	sig    *domain.Signals
	parent map[syntax.Node]*syntax.List
	vars   map[string]*ev
	rets   map[string]*ev
	binder map[string]syntax.Node // binding key -> the dolist/let form
	inits  map[string]elemInit    // let binding key -> its init and scope
	ch     *chooser               // the query results of one evaluation
	// memberNodes are the (member E 'S) facts memberFact made, by id.
	memberNodes map[string]*syntax.List
	sites       map[string][]elemSite // defun -> calls with their scopes
	assigned    map[string]bool       // binding keys something assigns
	retTop      map[string]bool
	globals     map[string]globalDef        // globalInit's answers, by name
	heads       map[string]*cHead           // cevalList's reading of each head
	data        map[syntax.Node]*cval       // quoted data read, nil: undecided
	untemped    map[syntax.Node]syntax.Node // untempAll's results
	filters     map[string]*filterRun       // each filter's runs (filterRunsOf); nil: none kept
	des         *cval                       // the detected object siteNever's runs read
	bad         bool
	changed     bool
	fn          string // the defun being walked
	loops       int    // loops around the walk, inside fn
}

type elemInit struct {
	init syntax.Node
	sc   *escope
}

type elemSite struct {
	call *syntax.List
	sc   *escope
}

// escope maps names to binding keys, innermost first.
type escope struct {
	name, key string
	up        *escope
}

func (s *escope) lookup(name string) (string, bool) {
	for ; s != nil; s = s.up {
		if s.name == name {
			return s.key, true
		}
	}
	return "", false
}

const topKey = "\x00top"

// elemBad are the forms the analysis does not model.
var elemBad = map[string]bool{"lambda": true, "flet": true, "labels": true, "funcall": true, "apply": true,
	"multiple-value-bind": true, "destructuring-bind": true, "with-retry-counters": true, "do-retry": true,
	"loop": true, "function": true, "psetq": true, "psetf": true, "shiftf": true, "rotatef": true,
	"multiple-value-setq": true, "pushnew": true, "do": true, "do*": true, "prog": true, "prog*": true,
	"symbol-value": true, "set": true, "makunbound": true, "eval": true, "progv": true}

func (e *elemAnalysis) lookupVar(s *syntax.Symbol, sc *escope) (string, *ev) {
	if k, ok := sc.lookup(s.Name); ok {
		if k == topKey {
			return k, evTop
		}
		if v, ok := e.vars[k]; ok {
			return k, v
		}
		return k, evBot
	}
	if e.h.a != nil && e.h.a.specials[s.Name] {
		k := "g\x00" + s.Name
		if v, ok := e.vars[k]; ok {
			return k, v
		}
		return k, evBot
	}
	return topKey, evTop
}

func (e *elemAnalysis) put(key string, v *ev) {
	if key == topKey || key == "" {
		return
	}
	e.joinInto(e.vars, key, rebind(v, func(r string) (string, bool) { return r, e.scopeOK(key, r) }))
}

// joinInto joins v into m[key] (deep values widen to the top) and notes
// a change.
func (e *elemAnalysis) joinInto(m map[string]*ev, key string, v *ev) {
	old, ok := m[key]
	if !ok {
		old = evBot
	}
	n := ejoin(old, v)
	if n.depth() > 6 {
		n = evTop
	}
	if n.String() != old.String() {
		m[key] = n
		e.changed = true
	}
}

// scopeOK reports whether a value stored in binding dest may keep a
// fact that reads binding r: dest lives inside the scope of r's one
// binding (a parameter's defun, a let or dolist body), so that r holds
// there what it held when the fact was tested.
func (e *elemAnalysis) scopeOK(dest, r string) bool {
	if strings.HasPrefix(dest, "g\x00") || dest == r {
		return false
	}
	if strings.HasPrefix(dest, "p\x00") {
		return strings.HasPrefix(r, "p\x00") && strings.Split(dest, "\x00")[1] == strings.Split(r, "\x00")[1]
	}
	bd := e.binder[dest]
	if bd == nil {
		return false
	}
	if strings.HasPrefix(r, "p\x00") {
		return e.inside(bd, e.h.defs[strings.Split(r, "\x00")[1]], 3)
	}
	br, ok := e.binder[r].(*syntax.List)
	return ok && e.inside(bd, br, 2)
}

// inside reports whether n lies in an element of outer from index from on.
func (e *elemAnalysis) inside(n syntax.Node, outer *syntax.List, from int) bool {
	if outer == nil {
		return false
	}
	for depth := 0; depth < 256; depth++ {
		par := e.parent[n]
		if par == nil {
			return false
		}
		if par == outer {
			i := slices.Index(par.Elems, n)
			return i >= from
		}
		n = par
	}
	return false
}

func (e *elemAnalysis) assign(s syntax.Node, sc *escope, v *ev) {
	sy, ok := s.(*syntax.Symbol)
	if !ok {
		e.bad = true
		return
	}
	k, _ := e.lookupVar(sy, sc)
	e.assigned[k] = true
	e.put(k, v)
}

func (e *elemAnalysis) bindKey(n syntax.Node, name string) string {
	if e.h.a != nil && e.h.a.specials[name] {
		return "g\x00" + name
	}
	return fmt.Sprintf("l\x00%s\x00%p", name, n)
}

// walkAll evaluates the forms of the plan once.
func (e *elemAnalysis) walkAll() {
	for _, f := range e.res.Forms {
		if e.res.Skipped(f) {
			continue
		}
		l, ok := f.(*syntax.List)
		if !ok {
			continue
		}
		switch h := forms.Head(l); h {
		case "defun", "def-plan", "def-check", "def-policy", "def-cram-function":
			name := ""
			if s, ok := argAt(l, 1).(*syntax.Symbol); ok {
				name = forms.Name(s)
			}
			ps, ok := params(l)
			if !ok {
				e.bad = true
				return
			}
			var sc *escope
			for _, p := range ps {
				k := "p\x00" + name + "\x00" + p
				if h != "defun" {
					k = topKey
				}
				sc = &escope{name: p, key: k, up: sc}
			}
			e.fn, e.loops = name, 0
			v := e.body(l.Elems[3:], sc)
			if h == "defun" {
				e.putRet(name, v)
			}
			e.fn = ""
		case "defparameter", "defvar", "defconstant":
			v := evTop
			if len(l.Elems) > 2 {
				v = e.eval(l.Elems[2], nil)
			}
			if s, ok := argAt(l, 1).(*syntax.Symbol); ok {
				e.put("g\x00"+s.Name, v)
			}
		default:
			e.eval(l, nil)
		}
	}
}

func (e *elemAnalysis) putRet(fn string, v *ev) {
	if e.retTop[fn] {
		v = evTop
	}
	e.joinInto(e.rets, fn, rebind(v, func(r string) (string, bool) { return r, strings.HasPrefix(r, "p\x00"+fn+"\x00") }))
}

func (e *elemAnalysis) body(xs []syntax.Node, sc *escope) *ev {
	v := evNil
	for _, x := range xs {
		v = e.eval(x, sc)
	}
	return v
}

func (e *elemAnalysis) evalAll(xs []syntax.Node, sc *escope) {
	for _, x := range xs {
		e.eval(x, sc)
	}
}

// hasReturn reports whether n holds a return (of any block).
func hasReturn(n syntax.Node) bool { return hasHead(n, "return", "return-from") }

func (e *elemAnalysis) eval(n syntax.Node, sc *escope) *ev {
	if e.bad {
		return evTop
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		if x.Name == "nil" {
			return evNil
		}
		if x.Name == "t" {
			return evTop
		}
		_, v := e.lookupVar(x, sc)
		return v
	case *syntax.List:
		return e.evalList(x, sc)
	case *syntax.Prefixed:
		if x.Mark == syntax.MarkFunction {
			e.bad = true
		}
		return evTop
	}
	return evTop
}

func (e *elemAnalysis) evalList(l *syntax.List, sc *escope) *ev {
	if len(l.Elems) == 0 {
		return evNil
	}
	if _, ok := l.Elems[0].(*syntax.Symbol); !ok {
		e.bad = true
		return evTop
	}
	h := forms.Head(l)
	if elemBad[h] {
		e.bad = true
		return evTop
	}
	user := e.h.defs[h] != nil || e.h.local[h] || e.res.IsUserFunc(h)
	if user && forms.Lookup(h) == nil {
		if e.h.dup[h] || e.h.local[h] || e.h.defs[h] == nil {
			e.evalAll(l.Elems[1:], sc)
			return evTop
		}
		if forms.Head(e.h.defs[h]) != "defun" {
			e.evalAll(l.Elems[1:], sc)
			return evTop
		}
		ps, _ := params(e.h.defs[h])
		args := make([]*ev, len(l.Elems)-1)
		for i, a := range l.Elems[1:] {
			args[i] = e.eval(a, sc)
		}
		e.sites[h] = append(e.sites[h], elemSite{call: l, sc: sc})
		// The bindings the arguments' facts read, as the callee's
		// parameters (the argument that is that variable), and the
		// callee's parameters its result's facts read, as the
		// variables the call passes.
		argKey := make([]string, len(l.Elems)-1)
		for i, a := range l.Elems[1:] {
			if as, ok := a.(*syntax.Symbol); ok {
				if k, _ := e.lookupVar(as, sc); k != topKey && !strings.HasPrefix(k, "g\x00") {
					argKey[i] = k
				}
			}
		}
		for i, p := range ps {
			v := evTop
			if len(args) == len(ps) {
				v = rebind(args[i], func(r string) (string, bool) {
					j := slices.Index(argKey, r)
					if j < 0 {
						return "", false
					}
					return "p\x00" + h + "\x00" + ps[j], true
				})
			}
			e.put("p\x00"+h+"\x00"+p, v)
		}
		if r, ok := e.rets[h]; ok {
			return rebind(r, func(k string) (string, bool) {
				j := slices.Index(ps, strings.TrimPrefix(k, "p\x00"+h+"\x00"))
				if !strings.HasPrefix(k, "p\x00"+h+"\x00") || j < 0 || len(argKey) != len(ps) || argKey[j] == "" {
					return "", false
				}
				return argKey[j], true
			})
		}
		return evBot
	}
	switch h {
	case "quote":
		return evTop
	case "progn":
		return e.body(l.Elems[1:], sc)
	case "and", "or":
		v := evNil
		for _, a := range l.Elems[1:] {
			v = ejoin(v, e.eval(a, sc))
		}
		if len(l.Elems) == 1 {
			return evTop
		}
		return v
	case "if":
		e.eval(argAt(l, 1), sc)
		v := e.eval(argAt(l, 2), sc)
		if len(l.Elems) > 3 {
			return ejoin(v, e.body(l.Elems[3:], sc))
		}
		return ejoin(v, evNil)
	case "when", "unless":
		e.eval(argAt(l, 1), sc)
		return ejoin(e.body(l.Elems[2:], sc), evNil)
	case "cond":
		v := evNil
		for _, c := range l.Elems[1:] {
			cl := asList(c)
			if cl == nil || len(cl.Elems) == 0 {
				e.bad = true
				return evTop
			}
			t := e.eval(cl.Elems[0], sc)
			if len(cl.Elems) == 1 {
				v = ejoin(v, t)
			} else {
				v = ejoin(v, e.body(cl.Elems[1:], sc))
			}
		}
		return v
	case "case", "ecase":
		e.eval(argAt(l, 1), sc)
		v := evNil
		for _, c := range l.Elems[2:] {
			cl := asList(c)
			if cl == nil || len(cl.Elems) == 0 {
				e.bad = true
				return evTop
			}
			v = ejoin(v, e.body(cl.Elems[1:], sc))
		}
		return v
	case "let", "let*":
		bl := asList(argAt(l, 1))
		if bl == nil {
			if !isSym(argAt(l, 1), "nil") {
				e.bad = true
				return evTop
			}
			return e.body(l.Elems[2:], sc)
		}
		inner := sc
		for _, b := range bl.Elems {
			var name string
			var init syntax.Node
			switch b := b.(type) {
			case *syntax.Symbol:
				name = b.Name
			case *syntax.List:
				s, ok := argAt(b, 0).(*syntax.Symbol)
				if !ok || len(b.Elems) > 2 {
					e.bad = true
					return evTop
				}
				name = s.Name
				if len(b.Elems) == 2 {
					init = b.Elems[1]
				}
			default:
				e.bad = true
				return evTop
			}
			from := sc
			if h == "let*" {
				from = inner
			}
			v := evNil
			if init != nil {
				v = e.eval(init, from)
			}
			k := e.bindKey(b, name)
			e.binder[k] = l
			if init != nil {
				e.inits[k] = elemInit{init, from}
			}
			e.put(k, v)
			inner = &escope{name: name, key: k, up: inner}
		}
		return e.body(l.Elems[2:], inner)
	case "dolist", "dotimes":
		spec := asList(argAt(l, 1))
		if spec == nil || len(spec.Elems) < 2 {
			e.bad = true
			return evTop
		}
		s, ok := spec.Elems[0].(*syntax.Symbol)
		if !ok {
			e.bad = true
			return evTop
		}
		lv := e.eval(spec.Elems[1], sc)
		k := topKey
		if h == "dolist" {
			k = e.bindKey(spec, s.Name)
			e.binder[k] = l
			e.put(k, elemsOf(lv))
		}
		inner := &escope{name: s.Name, key: k, up: sc}
		e.loops++
		e.body(l.Elems[2:], inner)
		e.loops--
		v := evNil
		if len(spec.Elems) > 2 {
			v = e.eval(spec.Elems[2], &escope{name: s.Name, key: topKey, up: sc})
		}
		if hasReturn(l) {
			v = evTop
		}
		return v
	case "while":
		e.eval(argAt(l, 1), sc)
		e.loops++
		e.body(l.Elems[2:], sc)
		e.loops--
		if hasReturn(l) {
			return evTop
		}
		return evNil
	case "setq", "setf":
		v := evNil
		for i := 1; i+1 < len(l.Elems); i += 2 {
			v = e.eval(l.Elems[i+1], sc)
			e.assign(l.Elems[i], sc, v)
		}
		return v
	case "push":
		x := e.eval(argAt(l, 1), sc)
		s, ok := argAt(l, 2).(*syntax.Symbol)
		if !ok {
			e.bad = true
			return evTop
		}
		_, old := e.lookupVar(s, sc)
		if ds, ok := untemp(e.res, argAt(l, 1)).(*syntax.Symbol); ok && x.k == eDes {
			x = e.withGuards(l, ds, sc, x)
		}
		nv := &ev{k: eList, elem: ejoin(x, elemsOf(asListVal(old)))}
		if old.k == eTop || asListVal(old).k == eTop {
			nv = evTop
		}
		e.assign(s, sc, nv)
		return nv
	case "pop":
		s, ok := argAt(l, 1).(*syntax.Symbol)
		if !ok {
			e.bad = true
			return evTop
		}
		_, old := e.lookupVar(s, sc)
		e.assign(s, sc, restOf(old))
		return firstOf(old)
	case "incf", "decf":
		e.evalAll(l.Elems[2:], sc)
		e.assign(argAt(l, 1), sc, evTop)
		return evTop
	case "with-failure-handling":
		cl := asList(argAt(l, 1))
		if cl == nil {
			e.bad = true
			return evTop
		}
		for _, c := range cl.Elems {
			cc := asList(c)
			if cc == nil || len(cc.Elems) < 2 {
				e.bad = true
				return evTop
			}
			inner := sc
			if vl := asList(cc.Elems[1]); vl != nil {
				for _, v := range vl.Elems {
					if s, ok := v.(*syntax.Symbol); ok {
						inner = &escope{name: s.Name, key: topKey, up: inner}
					}
				}
			} else if !isSym(cc.Elems[1], "nil") {
				e.bad = true
				return evTop
			}
			e.evalAll(cc.Elems[2:], inner)
		}
		e.evalAll(l.Elems[2:], sc)
		return evTop
	case "handler-case":
		e.eval(argAt(l, 1), sc)
		for _, c := range l.Elems[2:] {
			cc := asList(c)
			if cc == nil || len(cc.Elems) < 2 {
				e.bad = true
				return evTop
			}
			inner := sc
			if vl := asList(cc.Elems[1]); vl != nil {
				for _, v := range vl.Elems {
					if s, ok := v.(*syntax.Symbol); ok {
						inner = &escope{name: s.Name, key: topKey, up: inner}
					}
				}
			}
			e.evalAll(cc.Elems[2:], inner)
		}
		return evTop
	case "return", "return-from":
		start := 1
		if h == "return-from" {
			start = 2
		}
		e.evalAll(l.Elems[min(start, len(l.Elems)):], sc)
		if e.loops == 0 || h == "return-from" {
			if e.fn != "" {
				e.retTop[e.fn] = true
			}
		}
		return evTop
	case "block":
		e.evalAll(l.Elems[min(2, len(l.Elems)):], sc)
		if e.fn != "" {
			e.retTop[e.fn] = true
		}
		return evTop
	case "perform":
		if typ, _, ok := actionDesig(l); ok && e.sig != nil && typ == e.sig.Detects {
			e.evalSlots(l, sc)
			return &ev{k: eList, elem: &ev{k: eDes, alts: [][]eFact{nil}}}
		}
		e.evalSlots(l, sc)
		return evTop
	case "reverse", "remove":
		e.evalAll(l.Elems[1:len(l.Elems)-1], sc)
		return asListVal(e.eval(l.Elems[len(l.Elems)-1], sc))
	case "rest", "cdr":
		return restOf(e.eval(argAt(l, 1), sc))
	case "first", "car":
		return firstOf(e.eval(argAt(l, 1), sc))
	case "second", "cadr":
		return nthOf(e.eval(argAt(l, 1), sc), 1)
	case "third":
		return nthOf(e.eval(argAt(l, 1), sc), 2)
	case "cons":
		a, b := e.eval(argAt(l, 1), sc), e.eval(argAt(l, 2), sc)
		return &ev{k: eCons, car: a, cdr: b}
	case "list":
		if len(l.Elems) == 1 {
			return evNil
		}
		xs := make([]*ev, len(l.Elems)-1)
		for i, a := range l.Elems[1:] {
			xs[i] = e.eval(a, sc)
		}
		return &ev{k: eTup, xs: xs}
	}
	if f := forms.Lookup(h); f != nil && f.Shape != forms.Body && f.Shape != forms.Designator && f.Shape != forms.Test {
		// A special form not modelled above.
		switch f.Shape {
		case forms.Unevaluated:
			if h == "retry" || h == "declare" {
				return evTop
			}
		}
		e.bad = true
		return evTop
	}
	e.evalSlots(l, sc)
	return evTop
}

// evalSlots evaluates the expressions of l (a call or a designator).
func (e *elemAnalysis) evalSlots(l *syntax.List, sc *escope) {
	for _, s := range forms.Slots(l) {
		if x := forms.At(l, s.Path); x != nil {
			e.eval(x, sc)
		}
	}
}

// withGuards adds to x, the value of designator variable ds pushed by
// push form p, the conjuncts of the tests that chose p that read only
// ds, between p and ds's binding (which nothing assigns).
func (e *elemAnalysis) withGuards(p *syntax.List, ds *syntax.Symbol, sc *escope, x *ev) *ev {
	k, _ := e.lookupVar(ds, sc)
	if k == topKey || strings.HasPrefix(k, "g\x00") || e.assigned[k] {
		return x
	}
	bind := e.binder[k]
	var fs []eFact
	add := func(c syntax.Node, truth bool) {
	conj:
		for _, cj := range conjunctsOf(e.res, c, truth) {
			if f, ok := e.memberFact(cj, ds.Name); ok {
				if !slices.ContainsFunc(fs, func(g eFact) bool { return g.id == f.id }) {
					fs = append(fs, f)
				}
			}
			fv := e.freeVars(untempAll(e.res, cj.n))
			if !slices.Contains(fv, ds.Name) || len(fv) > 4 {
				continue
			}
			rel := map[string]string{}
			for _, v := range fv {
				if v == ds.Name {
					continue
				}
				rk, _ := e.lookupVar(&syntax.Symbol{Name: v}, sc)
				if rk == topKey || strings.HasPrefix(rk, "g\x00") || e.assigned[rk] || e.res.IsTemp(v) {
					continue conj
				}
				rel[v] = rk
			}
			id := factID(cj.n, cj.truth, rel)
			if !slices.ContainsFunc(fs, func(f eFact) bool { return f.id == id }) {
				fs = append(fs, eFact{cond: cj.n, v: ds.Name, truth: cj.truth, id: id, rel: rel})
			}
		}
	}
	var n syntax.Node = p
	var path []*syntax.List
	for depth := 0; depth < 64; depth++ {
		par := e.parent[n]
		if par == nil || syntax.Node(par) == bind {
			break
		}
		if binds(par, ds.Name) {
			return x
		}
		path = append(path, par)
		for _, g := range guardsAt(par, n) {
			add(g.n, g.truth)
		}
		n = par
	}
	// A variable bound again on the way reads another binding.
	fs = slices.DeleteFunc(fs, func(f eFact) bool {
		for v := range f.rel {
			for _, par := range path {
				if binds(par, v) {
					return true
				}
			}
		}
		return false
	})
	alts := make([][]eFact, len(x.alts))
	for i, alt := range x.alts {
		alts[i] = slices.Clone(alt)
		for _, f := range fs {
			if !slices.ContainsFunc(alt, func(g eFact) bool { return g.id == f.id }) {
				alts[i] = append(alts[i], f)
			}
		}
	}
	return &ev{k: eDes, alts: normAlts(alts), mayNil: x.mayNil}
}

// memberFact reads conjunct (eq E V), true, E of the designator
// variable v only and V a variable the value analysis says holds one of
// a few symbols S, as the fact (member E 'S).
func (e *elemAnalysis) memberFact(cj guardLit, v string) (eFact, bool) {
	l := asList(cj.n)
	if !cj.truth || l == nil || len(l.Elems) != 3 || (forms.Head(l) != "eq" && forms.Head(l) != "eql") || e.h.defs[forms.Head(l)] != nil || e.res.IsUserFunc(forms.Head(l)) {
		return eFact{}, false
	}
	for side := 1; side <= 2; side++ {
		vs, ok := l.Elems[side].(*syntax.Symbol)
		if !ok || vs.Name == v || e.res.IsTemp(vs.Name) {
			continue
		}
		ex := untempAll(e.res, l.Elems[3-side])
		if fv := e.freeVars(ex); len(fv) != 1 || fv[0] != v {
			continue
		}
		val := e.h.a.ev(vs, 0)
		if val.num || !val.other || val.syms == nil || !val.noCons || len(val.syms) == 0 || len(val.syms) > 32 {
			continue
		}
		syms := slices.Clone(val.syms)
		sort.Strings(syms)
		id := fmt.Sprintf("%p/member/%s", cj.n, strings.Join(syms, " "))
		n, ok := e.memberNodes[id]
		if !ok {
			q := &syntax.List{}
			for _, sy := range syms {
				q.Elems = append(q.Elems, &syntax.Symbol{Name: sy})
			}
			n = &syntax.List{Elems: []syntax.Node{&syntax.Symbol{Name: "member"}, ex, &syntax.Quote{X: q}}}
			e.memberNodes[id] = n
		}
		return eFact{cond: n, v: v, truth: true, id: id}, true
	}
	return eFact{}, false
}

type guardLit struct {
	n     syntax.Node
	truth bool
}

// guardsAt are the tests that hold when child c of form par runs.
func guardsAt(par *syntax.List, c syntax.Node) []guardLit {
	i := slices.Index(par.Elems, c)
	if i < 0 {
		return nil
	}
	switch forms.Head(par) {
	case "if":
		if i == 2 {
			return []guardLit{{par.Elems[1], true}}
		}
		if i == 3 {
			return []guardLit{{par.Elems[1], false}}
		}
	case "when":
		if i >= 2 {
			return []guardLit{{par.Elems[1], true}}
		}
	case "unless":
		if i >= 2 {
			return []guardLit{{par.Elems[1], false}}
		}
	case "and":
		var out []guardLit
		for _, a := range par.Elems[1:i] {
			out = append(out, guardLit{a, true})
		}
		return out
	case "or":
		var out []guardLit
		for _, a := range par.Elems[1:i] {
			out = append(out, guardLit{a, false})
		}
		return out
	case "cond":
		var out []guardLit
		for _, cl := range par.Elems[1:i] {
			if l := asList(cl); l != nil && len(l.Elems) > 0 {
				out = append(out, guardLit{l.Elems[0], false})
			}
		}
		return out
	}
	// A cond clause: its test holds in its body.
	return nil
}

// clauseGuards are the tests that hold in the body of a cond clause
// (c is an element of clause cl, a child of a cond).
func clauseGuards(cond, cl *syntax.List, c syntax.Node) []guardLit {
	var out []guardLit
	k := slices.Index(cond.Elems, syntax.Node(cl))
	for _, o := range cond.Elems[1:max(k, 1)] {
		if l := asList(o); l != nil && len(l.Elems) > 0 {
			out = append(out, guardLit{l.Elems[0], false})
		}
	}
	if len(cl.Elems) > 0 && cl.Elems[0] != c {
		out = append(out, guardLit{cl.Elems[0], true})
	}
	return out
}

// conjunctsOf splits test c with truth value truth into literals that
// all hold: (and ...) true, (or ...) false, (not x) flips.
func conjunctsOf(res *normalize.Result, c syntax.Node, truth bool) []guardLit {
	c = untemp(res, unwrapTemps(res, c))
	switch forms.Head(c) {
	case "not", "null":
		if l := c.(*syntax.List); len(l.Elems) == 2 {
			return conjunctsOf(res, l.Elems[1], !truth)
		}
	case "and":
		if truth {
			var out []guardLit
			for _, a := range c.(*syntax.List).Elems[1:] {
				out = append(out, conjunctsOf(res, a, true)...)
			}
			return out
		}
	case "or":
		if !truth {
			var out []guardLit
			for _, a := range c.(*syntax.List).Elems[1:] {
				out = append(out, conjunctsOf(res, a, false)...)
			}
			return out
		}
	}
	return []guardLit{{c, truth}}
}

// readsOnly reports whether c reads no variable but v (temporaries read
// through their origins).
func (e *elemAnalysis) readsOnly(c syntax.Node, v string) bool {
	ok := true
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		if !ok {
			return
		}
		switch x := n.(type) {
		case *syntax.Symbol:
			if x.Name == v || x.Name == "nil" || x.Name == "t" {
				return
			}
			if e.res.IsTemp(x.Name) {
				if o := untemp(e.res, x); o != syntax.Node(x) {
					walk(o)
					return
				}
			}
			if e.constGlobal(x.Name) {
				return
			}
			ok = false
		case *syntax.List:
			if forms.Head(x) == "quote" {
				return
			}
			for _, el := range x.Elems[1:] {
				walk(el)
			}
		}
	}
	walk(c)
	return ok
}

// constGlobal reports whether name is a global defined once and never
// assigned nor bound again.
func (e *elemAnalysis) constGlobal(name string) bool {
	_, ok := e.globalInit(name)
	return ok
}

// globalInit is the init of name when it is a global defined once and
// never assigned nor bound again. Every evaluation of a symbol asks, and
// the answer walks every form of the plan, so it is kept per name: the
// plan's forms never change while an elemAnalysis lives (its parent map
// rests on that too).
func (e *elemAnalysis) globalInit(name string) (syntax.Node, bool) {
	if g, ok := e.globals[name]; ok {
		return g.init, g.ok
	}
	init, ok := globalInitIn(e.res, name)
	e.globals[name] = globalDef{init, ok}
	return init, ok
}

// globalDef is what globalInit says of one name.
type globalDef struct {
	init syntax.Node
	ok   bool
}

// globalInitIn is globalInit, computed from res's forms.
func globalInitIn(res *normalize.Result, name string) (syntax.Node, bool) {
	var init syntax.Node
	n := 0
	for _, f := range res.Forms {
		switch forms.Head(f) {
		case "defparameter", "defvar", "defconstant":
			l := f.(*syntax.List)
			if isSym(argAt(l, 1), name) && len(l.Elems) == 3 {
				init = l.Elems[2]
				n++
			}
		}
		if binders(f, name) > 0 && !strings.HasPrefix(forms.Head(f), "def") || len(placeAssigns(f, name)) > 0 {
			return nil, false
		}
		if d := asList(f); d != nil && strings.HasPrefix(forms.Head(d), "def") && len(d.Elems) > 3 {
			for _, b := range d.Elems[3:] {
				if binders(b, name) > 0 {
					return nil, false
				}
			}
			if slices.ContainsFunc(paramsOf(d), func(p string) bool { return p == name }) {
				return nil, false
			}
		}
	}
	return init, n == 1
}

func paramsOf(d *syntax.List) []string {
	if forms.Head(d) == "defparameter" || forms.Head(d) == "defvar" || forms.Head(d) == "defconstant" {
		return nil
	}
	ps, _ := params(d)
	return ps
}

// elemVerdicts marks infeasible the labels the rule above rules out.
func elemVerdicts(res *normalize.Result, a *valueAnalysis, sig *domain.Signals, show func(syntax.Node) string, entry string, ls []*pathLabel) {
	if sig == nil || sig.Detects == "" || len(sig.Perceived["type"]) == 0 || len(sig.Perceived["region"]) == 0 || entry == "" || a == nil {
		return
	}
	var e *elemAnalysis
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		if e == nil {
			h := &handlerAnalysis{res: res, a: a, show: show}
			h.collectDefs()
			h.findSites()
			if e = newElemAnalysis(h, sig); e == nil {
				return
			}
		}
		if why, ok := e.decide(pl); ok {
			pl.l.Status, pl.l.Reason = labels.Infeasible, why
		}
	}
}

// newElemAnalysis runs the fixpoint over h's plan; nil when the plan has
// what it does not model.
func newElemAnalysis(h *handlerAnalysis, sig *domain.Signals) *elemAnalysis {
	if h.dynamic {
		return nil
	}
	e := &elemAnalysis{res: h.res, h: h, sig: sig, parent: parentMap(h), vars: map[string]*ev{}, rets: map[string]*ev{},
		binder: map[string]syntax.Node{}, inits: map[string]elemInit{}, memberNodes: map[string]*syntax.List{}, assigned: map[string]bool{}, retTop: map[string]bool{},
		globals: map[string]globalDef{}, heads: map[string]*cHead{}, data: map[syntax.Node]*cval{},
		untemped: map[syntax.Node]syntax.Node{}, filters: map[string]*filterRun{}, des: &cval{k: cDes}}
	for round := 0; round < 40; round++ {
		e.changed = false
		e.sites = map[string][]elemSite{}
		e.walkAll()
		if e.bad {
			return nil
		}
		if !e.changed {
			return e
		}
	}
	return nil
}

// enclosingDefun is the top-level form n lies in.
func (e *elemAnalysis) enclosingDefun(n syntax.Node) (*syntax.List, []guardLit, []elemLocal) {
	var gs []guardLit
	var locals []elemLocal
	for depth := 0; depth < 256; depth++ {
		par := e.parent[n]
		if par == nil {
			return nil, nil, nil
		}
		if forms.Head(par) == "defun" && slices.Contains(e.res.Forms, syntax.Node(par)) {
			slices.Reverse(locals)
			return par, gs, locals
		}
		if gp := e.parent[par]; gp != nil && forms.Head(gp) == "cond" && slices.Index(par.Elems, n) >= 0 {
			gs = append(gs, clauseGuards(gp, par, n)...)
		} else {
			gs = append(gs, guardsAt(par, n)...)
		}
		if h := forms.Head(par); (h == "let" || h == "let*") && slices.Index(par.Elems, n) >= 2 {
			if bl := asList(par.Elems[1]); bl != nil {
				for i := len(bl.Elems) - 1; i >= 0; i-- {
					if b := asList(bl.Elems[i]); b != nil && len(b.Elems) == 2 {
						if v, ok := b.Elems[0].(*syntax.Symbol); ok && !e.res.IsTemp(v.Name) {
							locals = append(locals, elemLocal{v.Name, b.Elems[1]})
						}
					}
				}
			}
		}
		n = par
	}
	return nil, nil, nil
}

// elemLocal is a let binding around a label.
type elemLocal struct {
	name string
	init syntax.Node
}

// subst replaces the variables of n that m maps; false when n binds
// variables itself.
func subst(n syntax.Node, m map[string]syntax.Node) (syntax.Node, bool) {
	switch x := n.(type) {
	case *syntax.Symbol:
		if r, ok := m[x.Name]; ok {
			return r, true
		}
		return x, true
	case *syntax.List:
		h := forms.Head(x)
		if h == "quote" {
			return x, true
		}
		if f := forms.Lookup(h); f != nil && (f.Effect == forms.Scope || f.Shape == forms.Bindings || f.Params > 0 || f.Shape == forms.Handlers || f.Shape == forms.CaseHandlers || f.Shape == forms.Functions) {
			return nil, false
		}
		out := make([]syntax.Node, len(x.Elems))
		for i, el := range x.Elems {
			if i == 0 {
				out[i] = el
				continue
			}
			r, ok := subst(el, m)
			if !ok {
				return nil, false
			}
			out[i] = r
		}
		return &syntax.List{Open: x.Open, Close: x.Close, Elems: out}, true
	}
	return n, true
}

// decide judges one label.
func (e *elemAnalysis) decide(pl *pathLabel) (string, bool) {
	d, gs, locals := e.enclosingDefun(pl.l.Point)
	if d == nil || e.h.dup[forms.Name(d.Elems[1].(*syntax.Symbol))] {
		return "", false
	}
	fn := forms.Name(d.Elems[1].(*syntax.Symbol))
	ps, ok := params(d)
	if !ok || len(ps) == 0 {
		return "", false
	}
	for _, p := range ps {
		if e.h.a.specials[p] || e.assigned["p\x00"+fn+"\x00"+p] || len(placeAssigns(d, p)) > 0 {
			return "", false
		}
		for _, b := range d.Elems[3:] {
			if binders(b, p) > 0 {
				return "", false
			}
		}
	}
	onlyParams := func(n syntax.Node) bool {
		for _, v := range e.freeVars(n) {
			if !slices.Contains(ps, v) {
				return false
			}
		}
		return true
	}
	// Let bindings around the label that nothing assigns read as their
	// initial values, in terms of the parameters.
	m := map[string]syntax.Node{}
	for _, lc := range locals {
		if e.h.a.specials[lc.name] || slices.Contains(ps, lc.name) || len(placeAssigns(d, lc.name)) > 0 || binders(d, lc.name) != 1 {
			continue
		}
		if r, ok := subst(untempAll(e.res, lc.init), m); ok && onlyParams(r) {
			m[lc.name] = r
		}
	}
	pred, ok := subst(untempAll(e.res, pl.pred), m)
	if !ok || !onlyParams(pred) || len(e.freeVars(pred)) == 0 {
		return "", false
	}
	var conds []guardLit
	for _, g := range gs {
		for _, c := range conjunctsOf(e.res, g.n, g.truth) {
			u, ok := subst(untempAll(e.res, c.n), m)
			if ok && onlyParams(u) {
				conds = append(conds, guardLit{u, c.truth})
			}
		}
	}
	conds = append(conds, guardLit{pred, true})
	sites := e.sites[fn]
	if len(sites) == 0 || len(sites) != len(e.h.sites[fn]) {
		return "", false
	}
	var whys []string
	for _, s := range sites {
		why, ok := e.siteNever(s, ps, conds)
		if !ok {
			return "", false
		}
		if !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
	}
	sort.Strings(whys)
	return fmt.Sprintf("%s is never true: %s is called only as %s; for no type and region the simulator gives a detected object (%s), and no result of a query within the world's domains, do the filter, the arguments, the tests that lead to the label in %s and %s hold together",
		e.h.show(pl.pred), fn, strings.Join(whys, "; "), e.sig.Why, fn, e.h.show(pl.pred)), true
}

// freeVars are the variables n reads (heads of calls and quoted data
// aside; globals that never change aside).
func (e *elemAnalysis) freeVars(n syntax.Node) []string {
	var out []string
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		switch x := n.(type) {
		case *syntax.Symbol:
			if x.Name != "nil" && x.Name != "t" && !e.constGlobal(x.Name) && !slices.Contains(out, x.Name) {
				out = append(out, x.Name)
			}
		case *syntax.List:
			if forms.Head(x) == "quote" {
				return
			}
			if _, ok := e.queryDomain(forms.Head(x)); ok {
				return // its result is any of the domain's, whatever its arguments
			}
			for _, el := range x.Elems[1:] {
				walk(el)
			}
		}
	}
	walk(n)
	return out
}

// queryDomain is the symbols query h returns (never a number), when
// the world says.
func (e *elemAnalysis) queryDomain(h string) ([]string, bool) {
	if e.h.a == nil || e.h.defs[h] != nil || e.h.local[h] || e.res.IsUserFunc(h) || forms.Lookup(h) != nil {
		return nil, false
	}
	d, ok := e.h.a.fns[h]
	if !ok || d.Symbols == nil || d.Value != nil || len(d.Elems) > 0 {
		return nil, false
	}
	return d.Symbols, true
}

// untempAll replaces the temporaries in n by their origins.
func untempAll(res *normalize.Result, n syntax.Node) syntax.Node {
	return untempMemo(res, n, nil)
}

// untempMemo is untempAll keeping each list's result in memo (when not
// nil): a dist ladder's rungs share their distance and other conjuncts,
// which would otherwise be read through once a rung.
func untempMemo(res *normalize.Result, n syntax.Node, memo map[*syntax.List]syntax.Node) syntax.Node {
	switch x := n.(type) {
	case *syntax.Symbol:
		if o := untemp(res, x); o != syntax.Node(x) {
			return untempMemo(res, o, memo)
		}
		return x
	case *syntax.List:
		if forms.Head(x) == "quote" {
			return x
		}
		if r, ok := memo[x]; ok {
			return r
		}
		var r syntax.Node = x
		if u := unwrapTemps(res, x); u != syntax.Node(x) {
			r = untempMemo(res, u, memo) // a let* of temporaries: its body, read through them
		} else {
			var out []syntax.Node // made at the first element that changes
			for i, el := range x.Elems {
				u := untempMemo(res, el, memo)
				if u != el && out == nil {
					out = make([]syntax.Node, len(x.Elems))
					copy(out, x.Elems[:i])
				}
				if out != nil {
					out[i] = u
				}
			}
			if out != nil {
				r = &syntax.List{Open: x.Open, Close: x.Close, Elems: out}
			}
		}
		if memo != nil {
			memo[x] = r
		}
		return r
	}
	return n
}

// untempAll is untempAll of the analysis's plan, kept per node: a
// filter's conditions are read again at every choice of every label.
func (e *elemAnalysis) untempAll(n syntax.Node) syntax.Node {
	u, ok := e.untemped[n]
	if !ok {
		u = untempAll(e.res, n)
		e.untemped[n] = u
	}
	return u
}

// chooser enumerates the results of the queries one evaluation calls:
// each call is a choice among its domain's symbols, the calls of a run
// numbered in order (prefix fixes the first ones).
type chooser struct {
	prefix []int
	counts []int
	pos    int
}

func (c *chooser) choose(n int) int {
	if c.pos >= len(c.prefix) {
		c.prefix = append(c.prefix, 0)
		c.counts = append(c.counts, n)
	}
	c.counts[c.pos] = n
	i := c.prefix[c.pos]
	c.pos++
	return i
}

// next moves to the next choice sequence; false after the last.
func (c *chooser) next() bool {
	c.prefix, c.counts = c.prefix[:c.pos], c.counts[:c.pos]
	for k := len(c.prefix) - 1; k >= 0; k-- {
		if c.prefix[k]+1 < c.counts[k] {
			c.prefix[k]++
			c.prefix, c.counts = c.prefix[:k+1], c.counts[:k+1]
			c.pos = 0
			return true
		}
	}
	return false
}

// desSym stands for the detected designator in resolved expressions;
// extPrefix+KEY for binding KEY, which a fact of the designator reads.
const (
	desSym    = "%des"
	extPrefix = "%ext:"
)

// resolve rewrites x, read in scope sc, into an expression whose only
// variables are desSym (the variable holding a detected object) and
// extPrefix+KEY (any other binding a let does not give: a fact of the
// object must say its value): let bindings nothing assigns read as
// their inits, in their own scope.
func (e *elemAnalysis) resolve(x syntax.Node, sc *escope, desKey *string, depth int) (syntax.Node, bool) {
	if depth > 6 {
		return nil, false
	}
	x = untempAll(e.res, x)
	m := map[string]syntax.Node{}
	for _, v := range e.freeVars(x) {
		k, val := e.lookupVar(&syntax.Symbol{Name: v}, sc)
		switch {
		case k == topKey || strings.HasPrefix(k, "g\x00"):
			return nil, false
		case val.k == eDes:
			if *desKey != "" && *desKey != k {
				return nil, false
			}
			*desKey = k
			m[v] = &syntax.Symbol{Name: desSym}
		default:
			in, ok := e.inits[k]
			if !ok || e.assigned[k] {
				if e.assigned[k] {
					return nil, false
				}
				m[v] = &syntax.Symbol{Name: extPrefix + k}
				continue
			}
			r, ok := e.resolve(in.init, in.sc, desKey, depth+1)
			if !ok {
				return nil, false
			}
			m[v] = r
		}
	}
	return subst(x, m)
}

// siteNever reports whether at call site s the conditions never hold.
func (e *elemAnalysis) siteNever(s elemSite, ps []string, conds []guardLit) (string, bool) {
	if len(s.call.Elems) != len(ps)+1 {
		return "", false
	}
	desKey := ""
	args := make([]syntax.Node, len(ps))
	for i, a := range s.call.Elems[1:] {
		r, ok := e.resolve(a, s.sc, &desKey, 0)
		if !ok {
			return "", false
		}
		args[i] = r
	}
	alts := [][]eFact{nil}
	var obj *cval
	var runs []*filterRun
	if desKey != "" {
		alts = nil
		for i, alt := range e.vars[desKey].alts {
			var facts []eFact
			for _, f := range alt {
				ok := true
				for _, rk := range f.rel {
					ok = ok && !e.assigned[rk]
				}
				if ok {
					facts = append(facts, f)
				}
			}
			alts = append(alts, facts)
			runs = append(runs, e.filterRunsOf(desKey, i))
		}
		obj = e.des
		if e.vars[desKey].mayNil {
			// nil, which no fact is about (desig-prop of it signals).
			if !e.holdsFor(cNil, args, ps, conds) {
				return "", false
			}
		}
	}
	var filters []string
	for i, facts := range alts {
		var fr *filterRun
		if runs != nil {
			fr = runs[i]
		}
		e.ch = &chooser{}
		for runs := 0; ; runs++ {
			if runs > 50000 {
				return "", false
			}
			if obj != nil {
				obj.props = map[string]*cval{}
			}
			holds, err := e.siteHolds(obj, facts, fr, args, ps, conds)
			if err == errUndecided {
				return "", false
			}
			if holds {
				return "", false
			}
			if !e.ch.next() {
				break
			}
		}
		var fs []string
		for _, f := range facts {
			s := e.h.show(f.cond)
			if !f.truth {
				s = "(not " + s + ")"
			}
			fs = append(fs, s)
		}
		if len(fs) > 0 {
			filters = append(filters, strings.Join(fs, " and "))
		} else {
			filters = append(filters, "no filter")
		}
	}
	if desKey == "" {
		return e.h.show(s.call), true
	}
	filter := ""
	if len(filters) > 1 || filters[0] != "no filter" {
		filter = " kept in a list only if " + strings.Join(filters, ", or else only if ")
	}
	return fmt.Sprintf("%s (%s: a detected object%s, or nil where desig-prop signals)", e.h.show(s.call), desName(desKey), filter), true
}

// holdsFor reports whether the conditions never hold with the
// designator variable nil (false: they may, or undecided).
func (e *elemAnalysis) holdsFor(obj *cval, args []syntax.Node, ps []string, conds []guardLit) bool {
	e.ch = &chooser{}
	for runs := 0; runs < 50000; runs++ {
		holds, err := e.siteHolds(obj, nil, nil, args, ps, conds)
		if err != nil || holds {
			return false
		}
		if !e.ch.next() {
			return true
		}
	}
	return false
}

// desName is the variable name of binding key k.
func desName(k string) string {
	parts := strings.Split(k, "\x00")
	if len(parts) < 2 {
		return k
	}
	if parts[0] == "p" && len(parts) == 3 {
		return parts[2]
	}
	return parts[1]
}

// siteHolds evaluates the filter, the arguments and the conditions for
// one choice of the object's properties and the queries' results:
// whether all hold. fr, when not nil, keeps the filter's outcomes
// (filtered).
func (e *elemAnalysis) siteHolds(obj *cval, facts []eFact, fr *filterRun, args []syntax.Node, ps []string, conds []guardLit) (bool, error) {
	e.ch.pos = 0
	ext, ok, err := e.filtered(obj, facts, fr)
	if !ok {
		return false, err
	}
	env := map[string]*cval{desSym: obj}
	for rk, v := range ext {
		env[extPrefix+rk] = v
	}
	penv := map[string]*cval{}
	for i, a := range args {
		r, err := e.ceval(a, env, 0)
		if err == errUndecided {
			r = cUnknown // decides nothing: a condition that reads it is undecided
		} else if err != nil {
			return false, nil // the call never happens
		}
		penv[ps[i]] = r
	}
	// A conjunction: false when one condition is, undecided when one is
	// and none is false.
	var undecided error
	for _, c := range conds {
		r, err := e.ceval(c.n, penv, 0)
		if err == errUndecided {
			undecided = err
			continue
		}
		if err != nil || r.truthy() != c.truth {
			return false, nil
		}
	}
	if undecided != nil {
		return false, undecided
	}
	return true, nil
}

// filterRun is a node of the trie of a filter's runs (filtered): the
// choices a run of the filter makes, in order, lead from the root to
// the leaf that holds what that run gave.
type filterRun struct {
	filled bool               // n and kids are set, or the leaf is
	leaf   bool               // the run ends here: ext, ok, err and props
	n      int                // the choice made here: among n
	kids   map[int]*filterRun // by the value chosen
	ext    map[string]*cval
	ok     bool
	err    error
	props  map[string]*cval // the object's properties the run chose
	broken bool             // (root) a run chose otherwise than an earlier one: no trie
}

// filterRunsOf is the trie of the filter of binding desKey's alternative
// alt, one per analysis: every label of a function judged at the same
// call site runs the same filter under the same choices, and the
// filter reads only the object (e.des) and the choices.
func (e *elemAnalysis) filterRunsOf(desKey string, alt int) *filterRun {
	if e.filters == nil {
		return nil // (tests) each run evaluates its filter
	}
	k := desKey + "\x00" + strconv.Itoa(alt)
	fr := e.filters[k]
	if fr == nil {
		fr = &filterRun{}
		e.filters[k] = fr
	}
	return fr
}

// filtered is filter's outcome for the run e.ch is making, read from the
// trie fr when a run with the same choices has been made: the same
// choices are made again (so the chooser goes on as after filter), and
// the object gets the properties that run chose. Otherwise filter runs
// and its outcome joins the trie.
func (e *elemAnalysis) filtered(obj *cval, facts []eFact, fr *filterRun) (map[string]*cval, bool, error) {
	if fr == nil || fr.broken {
		return e.filter(obj, facts)
	}
	for n := fr; n.filled; {
		if n.leaf {
			maps.Copy(obj.props, n.props) // siteNever gave each run a map of its own
			return n.ext, n.ok, n.err
		}
		if n = n.kids[e.ch.choose(n.n)]; n == nil {
			break
		}
	}
	e.ch.pos = 0
	ext, ok, err := e.filter(obj, facts)
	fr.record(e.ch, ext, ok, err, obj.props)
	return ext, ok, err
}

// record adds the run ch has just made to the trie rooted at r.
func (r *filterRun) record(ch *chooser, ext map[string]*cval, ok bool, err error, props map[string]*cval) {
	n := r
	for i := 0; i < ch.pos; i++ {
		switch {
		case !n.filled:
			n.filled, n.n, n.kids = true, ch.counts[i], map[int]*filterRun{}
		case n.leaf || n.n != ch.counts[i]:
			r.broken = true
			return
		}
		k := n.kids[ch.prefix[i]]
		if k == nil {
			k = &filterRun{}
			n.kids[ch.prefix[i]] = k
		}
		n = k
	}
	if n.filled {
		r.broken = true
		return
	}
	*n = filterRun{filled: true, leaf: true, ext: ext, ok: ok, err: err, props: maps.Clone(props)}
}

// filter evaluates the facts of a filter for one choice of the object's
// properties and the queries' results: the bindings the facts fix, or
// false (with errUndecided when undecided) when a fact does not hold. A
// binding a fact reads takes the value an equality fact (eq X E) gives
// it, E read of the object; facts that read a binding no such fact
// fixes are left out.
func (e *elemAnalysis) filter(obj *cval, facts []eFact) (map[string]*cval, bool, error) {
	ext := map[string]*cval{}
	for _, f := range facts {
		l := asList(e.untempAll(f.cond))
		if !f.truth || l == nil || len(l.Elems) != 3 || !slices.Contains([]string{"eq", "eql", "equal"}, forms.Head(l)) || e.h.defs[forms.Head(l)] != nil {
			continue
		}
		for side := 1; side <= 2; side++ {
			v, ok := l.Elems[side].(*syntax.Symbol)
			if !ok {
				continue
			}
			rk, isRel := f.rel[v.Name]
			if !isRel || ext[rk] != nil {
				continue
			}
			other := l.Elems[3-side]
			if slices.ContainsFunc(e.freeVars(other), func(n string) bool { _, r := f.rel[n]; return r }) {
				continue
			}
			r, err := e.ceval(other, map[string]*cval{f.v: obj}, 0)
			if err == errUndecided {
				return nil, false, err
			}
			if err != nil {
				return nil, false, nil
			}
			ext[rk] = r
		}
	}
	for _, f := range facts {
		env := map[string]*cval{f.v: obj}
		known := true
		for n, rk := range f.rel {
			if ext[rk] == nil {
				known = false
			}
			env[n] = ext[rk]
		}
		if !known {
			continue
		}
		r, err := e.ceval(e.untempAll(f.cond), env, 0)
		if err == errUndecided {
			return nil, false, err
		}
		if err != nil || r.truthy() != f.truth {
			return nil, false, nil
		}
	}
	return ext, true, nil
}
