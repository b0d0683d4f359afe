package feasible

import (
	"fmt"
	"sort"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// Functions the harness never calls. When a verb runs the plan through
// its entry (Options.Entry: the def-plan the runner starts, then the
// def-checks and the policies), a function runs only if some code that
// runs names it. The code that may run is the closure, over names, of
// the roots: the entry def-plan and every top-level form that is no
// defun, def-cram-function or def-plan (checks, policies, globals'
// initial values, top-level code, skipped forms), and then the
// definition of every function any symbol in that code names — quoted
// data, #'f and (funcall 'f) included, so that a name stored in a list
// and called later counts. The VM calls a function only through its name
// as written in a call, or through a value of it: a function object (#'f,
// which names it), a closure (whose code is in the function that makes
// it), or a symbol at a funcall site (funcall, mapcar and the sequence
// functions' :key and :test). A symbol there may also come from outside
// the plan's text (the world's names, the arguments a test passes), so a
// plan with any such site whose function is not written literally gets
// no verdict at all. A defun no running code names is then never
// called, and each label in it is infeasible.
//
// This holds for the plan's harness only: SBCL tests (cover --from-sbcl)
// may call any defun, so Entry stays empty for annotate, labels and every
// flow that does not run the plan through its entry.

// funcallHeads are the forms whose operand at position 1 is called as a
// function: a symbol value there calls the function of that name.
var funcallHeads = map[string]bool{"funcall": true, "apply": true, "mapcar": true, "mapc": true, "mapcan": true,
	"maplist": true, "mapl": true, "some": true, "every": true, "notany": true, "notevery": true, "reduce": true,
	"sort": true, "stable-sort": true, "remove-if": true, "remove-if-not": true, "member-if": true,
	"member-if-not": true, "find-if": true, "find-if-not": true, "position-if": true, "position-if-not": true,
	"count-if": true, "count-if-not": true, "delete-if": true, "delete-if-not": true, "map": true}

// funcallKeys are the keyword arguments whose value is called.
var funcallKeys = map[string]bool{"key": true, "test": true, "test-not": true}

// definers are the top-level forms that define a function by name.
var definers = map[string]bool{"defun": true, "def-cram-function": true, "def-plan": true}

// uncalled are the functions of res that the harness running def-plan
// entry never calls, each with its top-level form; nil when it cannot
// tell (no such def-plan, or a call through a value the text does not
// name).
func uncalled(res *normalize.Result, entry string) map[string]*syntax.List {
	if entry == "" {
		return nil
	}
	defs := map[string][]*syntax.List{}
	var roots []syntax.Node
	found := false
	for _, f := range res.Forms {
		l, ok := f.(*syntax.List)
		h := forms.Head(f)
		if ok && definers[h] && len(l.Elems) > 1 && !res.Skipped(f) {
			if s, ok := l.Elems[1].(*syntax.Symbol); ok {
				name := forms.Name(s)
				if h == "def-plan" && name == entry {
					found = true
					roots = append(roots, f)
					continue
				}
				defs[name] = append(defs[name], l)
				continue
			}
		}
		roots = append(roots, f)
	}
	if !found {
		return nil
	}
	dynamic := false
	for _, f := range res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok && dynamicCall(l) {
				dynamic = true
			}
			return !dynamic
		})
	}
	if dynamic {
		return nil
	}
	named := map[string]bool{}
	for len(roots) > 0 {
		r := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		syntax.Walk(r, func(n syntax.Node) bool {
			s, ok := n.(*syntax.Symbol)
			if !ok {
				return true
			}
			for _, name := range []string{s.Name, forms.Name(s)} {
				if !named[name] {
					named[name] = true
					for _, d := range defs[name] {
						roots = append(roots, d)
					}
				}
			}
			return true
		})
	}
	out := map[string]*syntax.List{}
	for name, ds := range defs {
		if !named[name] && len(ds) == 1 {
			out[name] = ds[0]
		}
	}
	return out
}

// dynamicCall reports whether l calls a function given by a value that is
// not written literally (#'f, 'f, (function f), a lambda).
func dynamicCall(l *syntax.List) bool {
	if h := forms.Head(l); funcallHeads[h] && len(l.Elems) > 1 && !literalFunction(l.Elems[1]) {
		return true
	}
	for i, e := range l.Elems {
		if k, ok := e.(*syntax.Keyword); ok && funcallKeys[k.Name] && (i+1 >= len(l.Elems) || !literalFunction(l.Elems[i+1])) {
			return true
		}
	}
	return false
}

// literalFunction reports whether n names its function in the text.
func literalFunction(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Quote:
		_, ok := n.X.(*syntax.Symbol)
		return ok
	case *syntax.Prefixed:
		if n.Mark != syntax.MarkFunction {
			return false
		}
		if _, ok := n.X.(*syntax.Symbol); ok {
			return true
		}
		return forms.Head(n.X) == "lambda"
	case *syntax.List:
		switch forms.Head(n) {
		case "function", "quote":
			if len(n.Elems) != 2 {
				return false
			}
			if _, ok := n.Elems[1].(*syntax.Symbol); ok {
				return true
			}
			return forms.Head(n.Elems[1]) == "lambda"
		case "lambda":
			return true
		}
	}
	return false
}

// entryVerdicts marks infeasible every active label of ls whose point
// lies in a function the harness never calls.
func entryVerdicts(res *normalize.Result, entry string, ls []*pathLabel) {
	fns := uncalled(res, entry)
	if len(fns) == 0 {
		return
	}
	in := map[syntax.Node]string{}
	names := make([]string, 0, len(fns))
	for name := range fns {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		syntax.Walk(fns[name], func(n syntax.Node) bool {
			in[n] = name
			return true
		})
	}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		if name, ok := in[pl.l.Point]; ok {
			pl.l.Status = labels.Infeasible
			pl.l.Reason = fmt.Sprintf("no call path from the plan's entry %s: %s is never called (no code the run, its checks or its policies may execute names it)", entry, name)
		}
	}
}
