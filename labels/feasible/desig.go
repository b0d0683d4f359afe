package feasible

import (
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Designator properties. (desig-prop D 'KEY) reads a property of a
// designator, which the plan built with (a CLASS (KEY VALUE)...) or the
// simulator made: a perceived object (type, name, region and cell, the
// cell being what object-cell says of it), an object (type, name) or a
// caught failure (kind, message). So an element of (desig-prop D 'cell)
// lies in the world's cell domain or among the elements of the cell
// values the plan's own designator forms give, and is otherwise nil. The
// analysis tracks, per key, the elements of the values of the plan's
// designator forms when they are (list E...) or literal lists of
// integers; a key given any other value, a property computed at run time
// (a bare ?variable) or make-designator anywhere in the plan makes it
// unknown (desigState).

// desigState is what the plan's designator forms put in each property.
type desigState struct {
	// open: the plan may build designators the analysis does not see
	// (make-designator, properties computed at run time).
	open bool
	// elems[key][i] joins the i-th elements of the key's values.
	elems map[string][]*slot
	// unknown are keys given values whose elements are not tracked.
	unknown map[string]bool
	// rest[key] joins the elements of the key's values that lists'
	// shapes (shapes.go) do not track one by one.
	rest map[string]*slot
}

// worldDesigProps maps a property of the simulator's perceived designators
// to the query whose domain its elements share.
var worldDesigProps = map[string]string{"cell": "object-cell"}

// propKey is a designator property key as the VM stores it.
func propKey(name string) string { return strings.TrimPrefix(name, ":") }

// prepareDesigs marks the designator state open when the plan names
// make-designator anywhere (a call, #'make-designator, 'make-designator).
func (a *valueAnalysis) prepareDesigs() {
	a.desig = desigState{elems: map[string][]*slot{}, unknown: map[string]bool{}, rest: map[string]*slot{}}
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			if s, ok := x.(*syntax.Symbol); ok && forms.Name(s) == "make-designator" {
				a.desig.open = true
			}
			return !a.desig.open
		})
	}
}

// designator records what designator form l (a/an) puts in its
// properties; its slots were walked already.
func (a *valueAnalysis) designator(l *syntax.List, depth int) {
	if len(l.Elems) < 2 {
		return
	}
	a.desigProps(l.Elems[2:], depth)
}

func (a *valueAnalysis) desigProps(props []syntax.Node, depth int) {
	for _, e := range props {
		p, ok := e.(*syntax.List)
		if !ok || len(p.Elems) == 0 {
			a.openDesigs() // a bare ?variable: a property computed at run time
			continue
		}
		key, ok := p.Elems[0].(*syntax.Symbol)
		if !ok {
			a.openDesigs()
			continue
		}
		if forms.Name(key) == "when" {
			if len(p.Elems) >= 2 {
				a.desigProps(p.Elems[2:], depth)
			}
			continue
		}
		if len(p.Elems) != 2 {
			a.openDesigs()
			continue
		}
		a.desigValue(propKey(key.Name), p.Elems[1], depth)
	}
}

// desigValue records the elements of val, the value of property key.
func (a *valueAnalysis) desigValue(key string, val syntax.Node, depth int) {
	if s, ok := val.(*syntax.Symbol); ok && a.res.IsTemp(s.Name) {
		if o := a.res.Origin(s); o != nil {
			val = o
		}
	}
	switch v := val.(type) {
	case *syntax.Symbol:
		if !strings.HasPrefix(v.Name, "?") {
			return // a literal symbol: no elements
		}
		if a.putShape(key, a.ev(v, depth+1)) {
			return
		}
	case *syntax.List:
		if len(v.Elems) == 0 {
			return
		}
		if h, ok := v.Elems[0].(*syntax.Symbol); ok && forms.Name(h) == "list" && !a.res.IsUserFunc("list") && !a.localFns["list"] {
			for i, x := range v.Elems[1:] {
				a.putElem(key, i, a.ev(x, depth+1))
			}
			return
		}
		ints := true
		for _, x := range v.Elems {
			if _, ok := x.(*syntax.Int); !ok {
				ints = false
			}
		}
		if ints {
			for i, x := range v.Elems {
				a.putElem(key, i, intConst(x.(*syntax.Int).Value, x))
			}
			return
		}
		if a.putShape(key, a.ev(v, depth+1)) {
			return
		}
	}
	if a.record && !a.desig.unknown[key] {
		a.desig.unknown[key] = true
		a.changed = true
	}
}

// putShape records the elements of a property value v by its shape
// (shapes.go); false when they are unknown.
func (a *valueAnalysis) putShape(key string, v aval) bool {
	if v.unknownCons() {
		return false
	}
	if v.mayCons() {
		for i, e := range v.lists.elems {
			a.putElem(key, i, e)
		}
		r := a.desig.rest[key]
		if r == nil {
			r = &slot{}
			a.desig.rest[key] = r
		}
		a.put(r, v.lists.rest)
	}
	return true
}

func (a *valueAnalysis) putElem(key string, i int, v aval) {
	es := a.desig.elems[key]
	for len(es) <= i {
		es = append(es, &slot{})
	}
	a.desig.elems[key] = es
	a.put(es[i], v)
}

func (a *valueAnalysis) openDesigs() {
	if a.record && !a.desig.open {
		a.desig.open = true
		a.changed = true
	}
}

// desigElem is the value of element idx of (desig-prop D 'KEY) (c), or
// false when the analysis cannot tell.
func (a *valueAnalysis) desigElem(c *syntax.List, idx int) (aval, bool) {
	if forms.Head(c) != "desig-prop" || len(c.Elems) != 3 || a.res.IsUserFunc("desig-prop") || a.funcs["desig-prop"] != nil || a.localFns["desig-prop"] {
		return aval{}, false
	}
	ks, ok := quotedData(c.Elems[2]).(*syntax.Symbol)
	if !ok || a.desig.open {
		return aval{}, false
	}
	key := propKey(ks.Name)
	if a.desig.unknown[key] {
		return aval{}, false
	}
	v := nilVal() // nil: the designator has no such property, or the list is shorter
	if q, ok := worldDesigProps[key]; ok {
		dom, ok := a.fns[q]
		if !ok || idx >= len(dom.Elems) {
			return aval{}, false
		}
		r := dom.Elems[idx]
		w := numRange(r.Lo, r.Hi, false, nil)
		w.world = dom.Why
		v = join(v, w)
	}
	if es := a.desig.elems[key]; idx < len(es) {
		v = join(v, es[idx].v)
	}
	if r := a.desig.rest[key]; r != nil {
		v = join(v, r.v) // from a list whose elements the analysis joined
	}
	return v, true
}

// quotedData is the datum of 'X or (quote X); nil for anything else.
func quotedData(n syntax.Node) syntax.Node {
	switch q := n.(type) {
	case *syntax.Quote:
		return q.X
	case *syntax.List:
		if forms.Head(q) == "quote" && len(q.Elems) == 2 {
			return q.Elems[1]
		}
	}
	return nil
}

// literalElems is the join of the elements of a quoted literal list
// (integers as themselves, anything else as a non-number), or false when
// n is not one.
func literalElems(n syntax.Node) (aval, bool) {
	l, ok := quotedData(n).(*syntax.List)
	if !ok {
		return aval{}, false
	}
	v := aval{}
	for _, x := range l.Elems {
		if i, ok := x.(*syntax.Int); ok {
			v = join(v, intConst(i.Value, x))
		} else {
			v = join(v, datumVal(x, 0))
		}
	}
	return v, true
}

// readOnlyListArgs are the builtins that read a list argument without
// changing it or letting it escape.
var readOnlyListArgs = map[string]bool{"length": true, "nth": true, "first": true, "second": true, "third": true,
	"car": true, "member": true, "assoc": true}

// prepareLiteralLists finds the globals that hold a quoted literal list
// for every run: defined once at top level (defparameter, defvar or
// defconstant) with one, and otherwise only read, as the list of a
// dolist or an argument of readOnlyListArgs (no assignment, binding,
// quotation or other use anywhere). (dolist (x *slots*) ...) then binds x
// to one of its elements.
func (a *valueAnalysis) prepareLiteralLists() {
	a.litLists = map[string]aval{}
	defs := map[string]int{}
	for _, f := range a.res.Forms {
		l, ok := f.(*syntax.List)
		if !ok || len(l.Elems) != 3 || a.res.Skipped(f) {
			continue
		}
		switch forms.Head(l) {
		case "defparameter", "defvar", "defconstant":
			if s, ok := l.Elems[1].(*syntax.Symbol); ok {
				if v, ok := literalElems(l.Elems[2]); ok {
					defs[s.Name]++
					a.litLists[s.Name] = v
				}
			}
		}
	}
	for name, n := range defs {
		if n != 1 {
			delete(a.litLists, name)
		}
	}
	// Every occurrence of a candidate must be its definition or a read.
	allowed := map[*syntax.Symbol]bool{}
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			l, ok := x.(*syntax.List)
			if !ok || len(l.Elems) == 0 {
				return true
			}
			switch h := forms.Head(l); {
			case h == "defparameter" || h == "defvar" || h == "defconstant":
				if len(l.Elems) == 3 {
					if s, ok := l.Elems[1].(*syntax.Symbol); ok {
						if _, lit := literalElems(l.Elems[2]); lit {
							allowed[s] = true
						}
					}
				}
			case h == "dolist":
				if spec, ok := l.Elems[1%len(l.Elems)].(*syntax.List); ok && len(spec.Elems) >= 2 {
					if s, ok := spec.Elems[1].(*syntax.Symbol); ok {
						allowed[s] = true
					}
				}
			case readOnlyListArgs[h] && !a.res.IsUserFunc(h):
				for _, e := range l.Elems[1:] {
					if s, ok := e.(*syntax.Symbol); ok {
						allowed[s] = true
					}
				}
			}
			return true
		})
	}
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			if s, ok := x.(*syntax.Symbol); ok && !allowed[s] {
				delete(a.litLists, s.Name)
			}
			return true
		})
	}
}
