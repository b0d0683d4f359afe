package feasible

import (
	"fmt"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Lexical bindings. The value analysis joins every value a name holds
// anywhere in the plan (the summary by name, vars), which the other
// analyses read; besides, each binding of a lexical variable — a let or
// let* binding, a dolist or dotimes variable, a defun's parameter (one
// binding per function, joined over its call sites) — keeps what it
// holds on its own (scoped), and each variable reference the walk meets
// reads the binding in scope. So the level a function computes from a
// table is not joined with another function's level, nor a parameter
// with a same-named one of another function. Special variables (a name
// a defparameter, defvar or defconstant defines anywhere) are dynamic:
// always by name. Binders the analysis does not model (lambda, flet,
// handlers, destructuring, ...) taint their variables, which resolve to
// the binding in scope around them (or the name): those get any value,
// as every assignment and taint reaches the binding in scope and the
// name's summary both. A label's predicate reads the binding the walk
// resolved its reference to, or the name's summary when it never met it
// (or met it in two scopes).

// conflictKey marks a reference met in two scopes.
const conflictKey = "\x00"

// findSpecials fills a.specials.
func (a *valueAnalysis) findSpecials() {
	a.specials = map[string]bool{}
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok && len(l.Elems) >= 2 {
				switch forms.Head(l) {
				case "defparameter", "defvar", "defconstant":
					if s, ok := l.Elems[1].(*syntax.Symbol); ok {
						a.specials[s.Name] = true
					}
				}
			}
			return true
		})
	}
}

// lexKey is the key of the binding of name at node n ("" for a special).
func (a *valueAnalysis) lexKey(name string, n syntax.Node) string {
	if a.specials[name] {
		return ""
	}
	return fmt.Sprintf("%s\x00%p", name, n)
}

// paramKey is the key of parameter p of function fn.
func (a *valueAnalysis) paramKey(fn, p string) string {
	if a.specials[p] {
		return ""
	}
	return fn + "\x00" + p
}

// keyOf is the binding of name in scope where the walk is ("": the name).
func (a *valueAnalysis) keyOf(name string) string {
	if st := a.lex[name]; len(st) > 0 {
		return st[len(st)-1]
	}
	return ""
}

func (a *valueAnalysis) pushLex(names, keys []string) {
	a.push(names)
	for i, n := range names {
		a.lex[n] = append(a.lex[n], keys[i])
	}
}

func (a *valueAnalysis) popLex(names []string) {
	a.pop(names)
	for _, n := range names {
		if st := a.lex[n]; len(st) > 0 {
			a.lex[n] = st[:len(st)-1]
		}
	}
}

// bindVal joins v into name's summary and into binding key.
func (a *valueAnalysis) bindVal(name, key string, v aval) {
	a.put(a.slotOf(a.vars, name), v)
	if key != "" {
		a.put(a.slotOf(a.scoped, key), v)
	}
}

// putParam joins v into parameter p of function fn.
func (a *valueAnalysis) putParam(fn, p string, v aval) { a.bindVal(p, a.paramKey(fn, p), v) }

// lexRef is the value of reference s by its binding: the one in scope
// while walking (recorded), the recorded one when judging; false when s
// reads the name's summary.
func (a *valueAnalysis) lexRef(s *syntax.Symbol) (aval, bool) {
	if a.record {
		k := a.keyOf(s.Name)
		if k == "" {
			if _, met := a.symKey[s]; met {
				a.symKey[s] = conflictKey
			}
			return aval{}, false
		}
		if old, met := a.symKey[s]; met && old != k {
			k = conflictKey
			a.symKey[s] = k
			return aval{}, false
		}
		a.symKey[s] = k
		if v, ok := a.refined[k]; ok {
			return v, true
		}
		return a.slotOf(a.scoped, k).v, true
	}
	k, ok := a.symKey[s]
	if !ok || k == conflictKey {
		return aval{}, false
	}
	if v, ok := a.refined[k]; ok {
		return v, true
	}
	if v, ok := a.ctxRef(k); ok {
		return v, true
	}
	return a.slotOf(a.scoped, k).v, true
}
