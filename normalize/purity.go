package normalize

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// effects summarises what evaluating a node can do that is visible outside
// the node itself. Assignments to variables bound inside the node (a let
// local, a loop variable) and (return) inside a loop of the node are not
// visible outside, so a helper that counts with incf on a local is pure.
type effects struct {
	hard    bool            // output, actions, failures, unknown calls, funcall
	assigns map[string]bool // free variables assigned
	returns bool            // a (return) that leaves the node
	touches bool            // any effect at all, even a local one
	// costly marks code whose cost is not bounded by its size: a loop, or a
	// call of a user function that loops or recurses. Labels must not
	// re-evaluate it: a label inside fib re-evaluating (fib (- n 1)) would
	// make the annotated plan exponentially slower.
	costly bool
	// calls marks a call of a user function or of a pure external (a
	// simulator query), counted only when the purity was made to hoist
	// calls (Options.HoistCalls): labels read such values from
	// temporaries instead of calling again.
	calls bool
}

func (e *effects) pure() bool { return !e.hard && len(e.assigns) == 0 && !e.returns }

func (e *effects) merge(o *effects) {
	e.hard = e.hard || o.hard
	e.returns = e.returns || o.returns
	e.touches = e.touches || o.touches
	e.costly = e.costly || o.costly
	e.calls = e.calls || o.calls
	for v := range o.assigns {
		e.assign(v)
	}
}

func (e *effects) assign(v string) {
	if e.assigns == nil {
		e.assigns = map[string]bool{}
	}
	e.assigns[v] = true
	e.touches = true
}

func (e *effects) unbind(names []string) {
	for _, n := range names {
		delete(e.assigns, n)
	}
}

// purity answers "is this expression free of effects?" for one file. User
// functions are pure unless their bodies have effects or call an impure
// function; recursion does not make a function impure.
type purity struct {
	user    map[string]bool // user-defined function names
	impure  map[string]bool // user functions that are not provably pure
	costly  map[string]bool // user functions that loop or recurse
	extPure map[string]bool // externals the caller vouches for
	hoist   bool            // calls are not cheap (Options.HoistCalls)
	memo    map[syntax.Node]*effects
}

var (
	noEffects   = &effects{}
	hardEffects = &effects{hard: true, touches: true}
)

func newPurity(f *syntax.File, skipped map[syntax.Node]bool, extPure map[string]bool, hoist bool) *purity {
	p := &purity{user: map[string]bool{}, impure: map[string]bool{}, costly: map[string]bool{},
		extPure: extPure, hoist: hoist, memo: map[syntax.Node]*effects{}}
	type def struct {
		name   string
		params []string
		body   []syntax.Node
	}
	var defs []def
	for _, form := range f.Forms {
		l, ok := form.(*syntax.List)
		if !ok || len(l.Elems) < 3 || skipped[form] {
			continue // a skipped definition is not compiled: calls to it are unknown
		}
		if f := forms.Lookup(forms.Head(l)); f == nil || f.Level != forms.TopLevel || f.Params == 0 {
			continue // not a function definition
		}
		name, ok := l.Elems[1].(*syntax.Symbol)
		if !ok {
			continue
		}
		p.user[name.Name] = true
		defs = append(defs, def{name: name.Name, params: paramNames(l.Elems[2]), body: l.Elems[3:]})
	}
	// Direct effects with every user call assumed pure, plus the call graph;
	// then impurity flows backwards along call edges (a fixpoint).
	callers := map[string][]string{}
	callees := map[string][]string{}
	var work, costly []string
	for _, d := range defs {
		var e effects
		for _, b := range d.body {
			e.merge(p.scanWith(b, func(callee string) {
				callers[callee] = append(callers[callee], d.name)
				callees[d.name] = append(callees[d.name], callee)
			}))
		}
		e.unbind(d.params)
		if !e.pure() && !p.impure[d.name] {
			p.impure[d.name] = true
			work = append(work, d.name)
		}
		if e.costly && !p.costly[d.name] {
			p.costly[d.name] = true
			costly = append(costly, d.name)
		}
	}
	flowBack(callers, p.impure, work)
	// A function that can reach itself recurses: costly.
	for _, d := range defs {
		if !p.costly[d.name] && reaches(callees, d.name) {
			p.costly[d.name] = true
			costly = append(costly, d.name)
		}
	}
	flowBack(callers, p.costly, costly)
	p.memo = map[syntax.Node]*effects{} // the direct pass assumed callees pure
	return p
}

// flowBack marks every caller of a marked function, transitively.
func flowBack(callers map[string][]string, marked map[string]bool, work []string) {
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range callers[f] {
			if !marked[c] {
				marked[c] = true
				work = append(work, c)
			}
		}
	}
}

// reaches reports whether f can call itself through the call graph.
func reaches(callees map[string][]string, f string) bool {
	seen := map[string]bool{}
	stack := append([]string(nil), callees[f]...)
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g == f {
			return true
		}
		if !seen[g] {
			seen[g] = true
			stack = append(stack, callees[g]...)
		}
	}
	return false
}

func paramNames(n syntax.Node) []string {
	l, ok := n.(*syntax.List)
	if !ok {
		return nil
	}
	var out []string
	for _, e := range l.Elems {
		if p, ok := e.(*syntax.List); ok && len(p.Elems) > 0 {
			e = p.Elems[0] // (NAME DEFAULT) of &optional or &key
		}
		if s, ok := e.(*syntax.Symbol); ok {
			out = append(out, s.Name)
		}
	}
	return out
}

// pureFn reports whether a call to name has no effects of its own.
func (p *purity) pureFn(name string) bool {
	if p.user[name] {
		return !p.impure[name]
	}
	return pureBuiltins[name] || p.extPure[name]
}

// isUser reports whether name is a user-defined function (which shadows a
// builtin of the same name).
func (p *purity) isUser(name string) bool { return p.user[name] }

func (p *purity) pure(n syntax.Node) bool { return p.scan(n).pure() }

// cheap reports whether labels may re-evaluate n: it is pure and its cost
// is bounded by its size (and, when calls are hoisted, it calls no user
// function or external).
func (p *purity) cheap(n syntax.Node) bool { return p.cheapE(p.scan(n)) }

func (p *purity) cheapE(e *effects) bool { return e.pure() && !e.costly && !e.calls }

// hoisted reports whether a call of name is bound to a temporary as a
// whole when it sits in a label site: a call of a user function or of a
// pure external while calls are hoisted.
func (p *purity) hoisted(name string) bool {
	return p.hoist && (p.user[name] || p.extPure[name] && !pureBuiltins[name])
}

func (p *purity) scan(n syntax.Node) *effects { return p.scanWith(n, nil) }

// scanWith computes the effects of n. onCall, when set, is told about every
// call of a user function (and disables the memo, since it is only used for
// the one-off call-graph pass).
func (p *purity) scanWith(n syntax.Node, onCall func(string)) *effects {
	switch x := n.(type) {
	case *syntax.Conditional:
		// Code under a reader conditional is not analysed: never
		// re-evaluated by a label.
		return hardEffects
	case *syntax.Prefixed:
		if x.Mark != syntax.MarkFunction {
			return hardEffects // a backquote template may evaluate anything
		}
	}
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return noEffects
	}
	if onCall == nil {
		if e, ok := p.memo[n]; ok {
			return e
		}
	}
	e := &effects{}
	sub := func(c syntax.Node) {
		if c != nil {
			e.merge(p.scanWith(c, onCall))
		}
	}
	slots := func() {
		for _, s := range Slots(l) {
			sub(At(l, s.Path))
		}
	}
	head := forms.Head(l)
	form := forms.Lookup(head)
	if form == nil {
		if p.hoisted(head) {
			e.calls, e.touches = true, true
		}
		if p.user[head] {
			if onCall != nil {
				onCall(head)
			}
			if p.impure[head] {
				e.hard, e.touches = true, true
			}
			if p.costly[head] {
				e.costly, e.touches = true, true
			}
		} else if !p.pureFn(head) {
			e.hard, e.touches = true, true
		}
		slots()
		if onCall == nil {
			p.memo[n] = e
		}
		return e
	}
	switch form.Effect {
	case forms.Constant:
	case forms.Closure:
		// Creating a closure has no effect; its body runs only when called,
		// through funcall, which is impure anyway.
		var body effects
		for _, s := range Slots(l) {
			body.merge(p.scanWith(At(l, s.Path), onCall))
		}
		e.touches = body.touches
	case forms.Scope:
		bound := boundNames(l, head)
		var body effects
		for _, s := range Slots(l) {
			c := p.scanWith(At(l, s.Path), onCall)
			if len(s.Path) == 1 { // the body, not an initialiser
				body.merge(c)
			} else {
				e.merge(c)
			}
		}
		body.unbind(bound)
		if form.Shape == forms.LoopSpec {
			body.returns = false
			e.costly = true
		}
		e.merge(&body)
	case forms.Loop:
		var body effects
		for _, s := range Slots(l) {
			body.merge(p.scanWith(At(l, s.Path), onCall))
		}
		body.returns = false
		e.merge(&body)
		e.costly = true
	case forms.Assign:
		var places []int
		if form.Shape == forms.Places {
			for i := 1; i < len(l.Elems); i += 2 {
				places = append(places, i)
			}
		} else if form.Place < len(l.Elems) {
			places = append(places, form.Place)
		}
		for _, i := range places {
			if s, ok := l.Elems[i].(*syntax.Symbol); ok {
				e.assign(s.Name)
			} else {
				e.hard = true // a place such as (car x) changes shared data
			}
		}
		slots()
		e.touches = true
	case forms.Exit:
		e.returns, e.touches = true, true
		slots()
	case forms.Plain:
		slots()
	default: // forms.Hard
		e.hard, e.touches = true, true
		slots()
	}
	if onCall == nil {
		p.memo[n] = e
	}
	return e
}

// boundNames lists the variables a Scope form binds for its body: the loop
// variable of dolist and dotimes, each binding of let and let*.
func boundNames(l *syntax.List, head string) []string {
	var bound []string
	if len(l.Elems) < 2 {
		return nil
	}
	bl, ok := l.Elems[1].(*syntax.List)
	if !ok {
		return nil
	}
	if f := forms.Lookup(head); f != nil && f.Shape == forms.LoopSpec {
		if len(bl.Elems) > 0 {
			if s, ok := bl.Elems[0].(*syntax.Symbol); ok {
				bound = append(bound, s.Name)
			}
		}
		return bound
	}
	for _, b := range bl.Elems {
		switch b := b.(type) {
		case *syntax.Symbol:
			bound = append(bound, b.Name)
		case *syntax.List:
			if len(b.Elems) > 0 {
				if s, ok := b.Elems[0].(*syntax.Symbol); ok {
					bound = append(bound, s.Name)
				}
			}
		}
	}
	return bound
}
