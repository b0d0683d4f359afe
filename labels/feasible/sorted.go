package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// Relations carried through sorted lists. A plan that sorts a list by a
// key and then takes its elements off the front, as in
//
//	(defun insert-by-col (d sorted)            ; an insert that keeps the order
//	  (cond ((null sorted) (list d))
//	        ((< (col d) (col (first sorted))) (cons d sorted))
//	        (t (cons (first sorted) (insert-by-col d (rest sorted))))))
//	(defun sort-by-col (ds)
//	  (let ((sorted nil)) (dolist (d ds sorted) (setq sorted (insert-by-col d sorted)))))
//	(defun without (a todo)                     ; keeps a sublist, in order
//	  (let ((rest nil)) (dolist (d todo (reverse rest)) (unless (... (<= (col a) (col d)) ...) (push d rest)))))
//	... (let ((todo (sort-by-col xs)))
//	      (while todo (let* ((a (pop todo))) ... (setq todo (without a todo)))))
//
// never sees (col a) > (col d): todo always holds a list sorted by col
// (its binding is the result of a sort, and pop and a function that
// keeps a sublist in order keep it sorted), a is the first element pop
// took, the rest of the list stays in todo, and without only ever gets
// that a and that todo, whose elements d come after a. A label's
// conjunct (not (<= (K a) (K d))), (> (K a) (K d)), (< (K d) (K a)) or
// (not (>= (K d) (K a))) is then infeasible. The conditions, checked on
// the text: K is a plan function of one parameter computed from it by
// first, second, third, car, cdr, rest, nth and desig-prop only (values
// are immutable, so (K x) is the same every time); the insert has the
// shape above (with < or <=, car/cdr for first/rest); the sort folds a
// list with it from nil, and a function whose value is the value of a
// sort call (through let, let* and progn, with no return-from in it)
// sorts as well; the sublist function collects with (push d acc) only,
// from nil, into (reverse acc), with no return out of its loop; todo and
// a are lexical (no defparameter of their names), bound once, todo
// assigned only by pop, (setq todo (rest todo)) and (setq todo (SUB ...
// todo ...)), a never; without's parameters and the loop variable are
// never assigned or bound again, without is a defun that the harness
// does not run, called only by name, and both (K a) and (K d) are never
// NaN by the value analysis (NaN keys break the order: (< NaN x) is
// false). A key that is not a number makes every comparison fail, so the
// label never holds either way.

// sortedVerdicts marks such labels of ls infeasible.
func sortedVerdicts(res *normalize.Result, a *valueAnalysis, show func(syntax.Node) string, entry string, ls []*pathLabel) {
	if a == nil || entry == "" {
		return
	}
	type cand struct {
		pl      *pathLabel
		c       syntax.Node
		key     string
		hi, lo  string // (key hi) > (key lo) is what the conjunct asks
		hx, lxn syntax.Node
	}
	var cands []cand
	var s *sortedAnalysis
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			hx, lx, ok := strictlyAbove(res, c)
			if !ok {
				continue
			}
			k1, v1, ok1 := keyCall(res, hx)
			k2, v2, ok2 := keyCall(res, lx)
			if !ok1 || !ok2 || k1 != k2 || v1 == v2 {
				continue
			}
			if s == nil {
				h := &handlerAnalysis{res: res, a: a, show: show}
				h.collectDefs()
				h.findSites()
				if h.dynamic {
					return
				}
				s = &sortedAnalysis{h: h, parent: parentMap(h), entry: entry, memo: map[string]int8{}}
			}
			cands = append(cands, cand{pl: pl, c: c, key: k1, hi: v1, lo: v2, hx: hx, lxn: lx})
			break
		}
	}
	for _, cd := range cands {
		cmp := untemp(res, cd.c)
		if forms.Head(cmp) == "not" {
			cmp = untemp(res, cmp.(*syntax.List).Elems[1])
		}
		if userFn(s, forms.Head(cmp)) {
			continue // a comparison the plan defines
		}
		why, ok := s.firstBelow(cd.pl.l.Point, cd.key, cd.hi, cd.lo)
		if !ok {
			continue
		}
		vh, vl := a.ev(cd.hx, 0), a.ev(cd.lxn, 0)
		if vh.nan || vl.nan {
			continue
		}
		cd.pl.l.Status = labels.Infeasible
		cd.pl.l.Reason = fmt.Sprintf("%s is never true: %s, so %s <= %s (neither is NaN)", show(cd.c), why, show(cd.hx), show(cd.lxn))
	}
}

type sortedAnalysis struct {
	h      *handlerAnalysis
	parent map[syntax.Node]*syntax.List
	entry  string
	// memo: 1 no, 2 yes, 3 pending, by kind and names.
	memo map[string]int8
	// srcs are the (let ((V (SORT ...)) ...)) forms callOK accepted, with
	// their (SORT ...) calls, for
	// sortedcell.go.
	srcs [][2]*syntax.List
}

// untemp is the expression a normalize temporary holds, or n.
func untemp(res *normalize.Result, n syntax.Node) syntax.Node {
	if s, ok := n.(*syntax.Symbol); ok && res.IsTemp(s.Name) {
		if o := res.Origin(s); o != nil && o != syntax.Node(s) {
			return o
		}
	}
	return n
}

// unwrapTemps is the body of a let or let* that binds only normalize
// temporaries around one form (the temporaries read as their origins,
// untemp), or n.
func unwrapTemps(res *normalize.Result, n syntax.Node) syntax.Node {
	for {
		l := asList(n)
		if l == nil || len(l.Elems) != 3 || (forms.Head(l) != "let*" && forms.Head(l) != "let") {
			return n
		}
		bl := asList(l.Elems[1])
		if bl == nil {
			return n
		}
		for _, b := range bl.Elems {
			bb := asList(b)
			if bb == nil || len(bb.Elems) != 2 {
				return n
			}
			v, ok := bb.Elems[0].(*syntax.Symbol)
			if !ok || !res.IsTemp(v.Name) || untemp(res, v) == syntax.Node(v) {
				return n
			}
		}
		n = l.Elems[2]
	}
}

// strictlyAbove reads conjunct c as X > Y and returns X and Y.
func strictlyAbove(res *normalize.Result, c syntax.Node) (syntax.Node, syntax.Node, bool) {
	c = untemp(res, c)
	neg := false
	if forms.Head(c) == "not" && len(c.(*syntax.List).Elems) == 2 {
		neg, c = true, untemp(res, c.(*syntax.List).Elems[1])
	}
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) != 3 {
		return nil, nil, false
	}
	x, y := untemp(res, l.Elems[1]), untemp(res, l.Elems[2])
	switch h := forms.Head(l); {
	case neg && h == "<=", !neg && h == ">":
		return x, y, true
	case neg && h == ">=", !neg && h == "<":
		return y, x, true
	}
	return nil, nil, false
}

// keyCall reads n as (K v), v a variable.
func keyCall(res *normalize.Result, n syntax.Node) (string, string, bool) {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) != 2 {
		return "", "", false
	}
	k, ok1 := l.Elems[0].(*syntax.Symbol)
	v, ok2 := untemp(res, l.Elems[1]).(*syntax.Symbol)
	if !ok1 || !ok2 || res.IsTemp(v.Name) {
		return "", "", false
	}
	return forms.Name(k), v.Name, true
}

func (s *sortedAnalysis) fn(name string) *syntax.List {
	d := s.h.defs[name]
	if d == nil || s.h.dup[name] || s.h.local[name] || forms.Head(d) != "defun" || len(d.Elems) < 4 {
		return nil
	}
	return d
}

// params are d's parameters, all plain symbols, or false.
func params(d *syntax.List) ([]string, bool) {
	pl, ok := d.Elems[2].(*syntax.List)
	if !ok {
		return nil, false
	}
	var out []string
	for _, p := range pl.Elems {
		ps, ok := p.(*syntax.Symbol)
		if !ok || strings.HasPrefix(ps.Name, "&") || slices.Contains(out, ps.Name) {
			return nil, false
		}
		out = append(out, ps.Name)
	}
	return out, true
}

// special reports whether name may be a dynamic variable.
func (s *sortedAnalysis) special(name string) bool {
	for _, f := range s.h.res.Forms {
		switch forms.Head(f) {
		case "defparameter", "defvar", "defconstant":
			if isSym(argAt(f.(*syntax.List), 1), name) {
				return true
			}
		}
		if mentions(f, "special") {
			return true
		}
	}
	return false
}

// binds reports whether l binds name (anywhere in it, conservatively).
func binds(l *syntax.List, name string) bool {
	switch forms.Head(l) {
	case "let", "let*", "with-retry-counters":
		return len(l.Elems) < 2 || bindsName(asList(l.Elems[1]), name)
	case "dolist", "dotimes":
		spec := asList(argAt(l, 1))
		return spec == nil || len(spec.Elems) == 0 || isSym(spec.Elems[0], name)
	case "lambda", "multiple-value-bind", "destructuring-bind":
		return len(l.Elems) < 2 || mentions(l.Elems[1], name)
	case "flet", "labels":
		return mentions(l, name)
	case "with-failure-handling":
		cl := asList(argAt(l, 1))
		if cl == nil {
			return true
		}
		for _, c := range cl.Elems {
			if cc := asList(c); cc == nil || len(cc.Elems) > 1 && mentions(cc.Elems[1], name) {
				return true
			}
		}
	case "handler-case":
		for _, c := range l.Elems[min(2, len(l.Elems)):] {
			if cc := asList(c); cc == nil || len(cc.Elems) > 1 && mentions(cc.Elems[1], name) {
				return true
			}
		}
	default:
		if h := forms.Head(l); strings.HasPrefix(h, "def") {
			return len(l.Elems) < 3 || mentions(l.Elems[2], name)
		}
	}
	return false
}

// binders counts the forms in n that bind name.
func binders(n syntax.Node, name string) int {
	k := 0
	syntax.Walk(n, func(x syntax.Node) bool {
		if l, ok := x.(*syntax.List); ok && binds(l, name) {
			k++
		}
		return true
	})
	return k
}

// placeAssigns lists the forms in n that assign variable name.
func placeAssigns(n syntax.Node, name string) []*syntax.List {
	var out []*syntax.List
	syntax.Walk(n, func(x syntax.Node) bool {
		l, ok := x.(*syntax.List)
		if !ok {
			return true
		}
		hit := false
		switch forms.Head(l) {
		case "setq", "setf", "psetq", "psetf":
			for i := 1; i < len(l.Elems); i += 2 {
				hit = hit || isSym(l.Elems[i], name)
			}
		case "incf", "decf", "pop":
			hit = isSym(argAt(l, 1), name)
		case "push", "pushnew":
			hit = isSym(argAt(l, 2), name)
		case "multiple-value-setq", "shiftf", "rotatef":
			hit = mentions(l, name)
		}
		if hit {
			out = append(out, l)
		}
		return true
	})
	return out
}

// hasHead reports whether n holds a form with one of heads.
func hasHead(n syntax.Node, heads ...string) bool {
	found := false
	syntax.Walk(n, func(x syntax.Node) bool {
		if l, ok := x.(*syntax.List); ok && slices.Contains(heads, forms.Head(l)) {
			found = true
		}
		if p, ok := x.(*syntax.Prefixed); ok && p.Mark == syntax.MarkFunction {
			found = true
		}
		return !found
	})
	return found
}

// isCall reports whether n is (head ARG) with ARG the variable v, head
// one of heads.
func isCall(n syntax.Node, v string, heads ...string) bool {
	l, ok := n.(*syntax.List)
	return ok && len(l.Elems) == 2 && slices.Contains(heads, forms.Head(l)) && isSym(l.Elems[1], v) && !userFn(nil, forms.Head(l))
}

// userFn: with s nil, false (builtins are checked by caller).
func userFn(s *sortedAnalysis, name string) bool {
	return s != nil && (s.h.defs[name] != nil || s.h.local[name] || s.h.res.IsUserFunc(name))
}

func (s *sortedAnalysis) builtinCall(n syntax.Node, v string, heads ...string) bool {
	return isCall(n, v, heads...) && !userFn(s, forms.Head(n))
}

// once memoizes check under key.
func (s *sortedAnalysis) once(key string, check func() bool) bool {
	switch s.memo[key] {
	case 1, 3:
		return false
	case 2:
		return true
	}
	s.memo[key] = 3
	ok := check()
	s.memo[key] = 1
	if ok {
		s.memo[key] = 2
	}
	return ok
}

var keyOps = []string{"first", "second", "third", "car", "cdr", "rest", "nth", "desig-prop"}

// pureKey reports whether k is a plan function of one parameter whose
// value is computed from it by keyOps only.
func (s *sortedAnalysis) pureKey(k string) bool {
	return s.once("key\x00"+k, func() bool {
		d := s.fn(k)
		ps, ok := params(d0(d))
		if d == nil || !ok || len(ps) != 1 || len(d.Elems) != 4 || s.special(ps[0]) {
			return false
		}
		var pure func(n syntax.Node) bool
		pure = func(n syntax.Node) bool {
			switch x := n.(type) {
			case *syntax.Symbol:
				return x.Name == ps[0]
			case *syntax.Quote, *syntax.Int:
				return true
			case *syntax.List:
				h := forms.Head(x)
				if !slices.Contains(keyOps, h) || userFn(s, h) {
					return false
				}
				for _, e := range x.Elems[1:] {
					if !pure(e) {
						return false
					}
				}
				return true
			}
			return false
		}
		return pure(d.Elems[3])
	})
}

func d0(d *syntax.List) *syntax.List {
	if d == nil {
		return &syntax.List{Elems: []syntax.Node{nil, nil, nil}}
	}
	return d
}

// inserts reports whether f is an insert that keeps a list sorted by key
// (the shape in the comment above).
func (s *sortedAnalysis) inserts(f, key string) bool {
	return s.once("insert\x00"+f+"\x00"+key, func() bool {
		d := s.fn(f)
		ps, ok := params(d0(d))
		if d == nil || !ok || len(ps) != 2 || len(d.Elems) != 4 || forms.Head(d.Elems[3]) != "cond" || !s.pureKey(key) {
			return false
		}
		x, l := ps[0], ps[1]
		if s.special(x) || s.special(l) {
			return false
		}
		c := d.Elems[3].(*syntax.List)
		if len(c.Elems) != 4 {
			return false
		}
		var cl [3]*syntax.List
		for i := range cl {
			cl[i] = asList(c.Elems[i+1])
			if cl[i] == nil || len(cl[i].Elems) != 2 {
				return false
			}
		}
		// ((null l) (list x))
		if !s.builtinCall(untemp(s.h.res, unwrapTemps(s.h.res, cl[0].Elems[0])), l, "null", "endp", "not") {
			return false
		}
		if b := asList(cl[0].Elems[1]); b == nil || len(b.Elems) != 2 || forms.Head(b) != "list" || userFn(s, "list") || !isSym(b.Elems[1], x) {
			return false
		}
		// ((< (key x) (key (first l))) (cons x l))
		t := asList(untemp(s.h.res, unwrapTemps(s.h.res, cl[1].Elems[0])))
		if t == nil || len(t.Elems) != 3 || (forms.Head(t) != "<" && forms.Head(t) != "<=") || userFn(s, forms.Head(t)) {
			return false
		}
		if !s.keyOf(untemp(s.h.res, t.Elems[1]), key, func(n syntax.Node) bool { return isSym(n, x) }) ||
			!s.keyOf(untemp(s.h.res, t.Elems[2]), key, func(n syntax.Node) bool { return s.builtinCall(n, l, "first", "car") }) {
			return false
		}
		if b := asList(cl[1].Elems[1]); b == nil || len(b.Elems) != 3 || forms.Head(b) != "cons" || userFn(s, "cons") || !isSym(b.Elems[1], x) || !isSym(b.Elems[2], l) {
			return false
		}
		// (t (cons (first l) (f x (rest l))))
		if !isSym(cl[2].Elems[0], "t") {
			return false
		}
		b := asList(cl[2].Elems[1])
		if b == nil || len(b.Elems) != 3 || forms.Head(b) != "cons" || !s.builtinCall(b.Elems[1], l, "first", "car") {
			return false
		}
		r := asList(b.Elems[2])
		return r != nil && len(r.Elems) == 3 && forms.Head(r) == f && isSym(r.Elems[1], x) && s.builtinCall(r.Elems[2], l, "rest", "cdr")
	})
}

// keyOf reports whether n is (key ARG) with arg(ARG).
func (s *sortedAnalysis) keyOf(n syntax.Node, key string, arg func(syntax.Node) bool) bool {
	l, ok := n.(*syntax.List)
	return ok && len(l.Elems) == 2 && forms.Head(l) == key && arg(untemp(s.h.res, l.Elems[1]))
}

// sorts reports whether every value function f returns is a list sorted
// by key.
func (s *sortedAnalysis) sorts(f, key string) bool {
	return s.once("sort\x00"+f+"\x00"+key, func() bool {
		d := s.fn(f)
		if d == nil || hasHead(d, "return", "return-from") {
			return false
		}
		if _, ok := params(d); !ok {
			return false
		}
		e := d.Elems[len(d.Elems)-1]
		for depth := 0; depth < 32; depth++ {
			if s.fold(e, key) {
				return true
			}
			l := asList(e)
			if l == nil || len(l.Elems) == 0 {
				return false
			}
			switch h := forms.Head(l); h {
			case "let", "let*":
				if len(l.Elems) < 3 {
					return false
				}
				e = l.Elems[len(l.Elems)-1]
			case "progn":
				if len(l.Elems) < 2 {
					return false
				}
				e = l.Elems[len(l.Elems)-1]
			default:
				return s.fn(h) != nil && s.sorts(h, key)
			}
		}
		return false
	})
}

// fold reports whether e is (let ((acc nil)) (dolist (x XS acc) (setq
// acc (INSERT x acc)))), INSERT an insert by key.
func (s *sortedAnalysis) fold(e syntax.Node, key string) bool {
	acc, loop, ok := collector(e)
	if !ok || len(loop.Elems) != 3 {
		return false
	}
	spec := loop.Elems[1].(*syntax.List)
	x, _ := spec.Elems[0].(*syntax.Symbol)
	if x == nil || x.Name == acc || len(spec.Elems) != 3 || !isSym(spec.Elems[2], acc) || mentions(spec.Elems[1], acc) || s.special(acc) || s.special(x.Name) {
		return false
	}
	set := asList(loop.Elems[2])
	if set == nil || len(set.Elems) != 3 || forms.Head(set) != "setq" || !isSym(set.Elems[1], acc) {
		return false
	}
	c := asList(set.Elems[2])
	return c != nil && len(c.Elems) == 3 && isSym(c.Elems[1], x.Name) && isSym(c.Elems[2], acc) && s.inserts(forms.Head(c), key)
}

// collector matches (let ((acc nil)) (dolist (x LIST RESULT) BODY...)).
func collector(e syntax.Node) (string, *syntax.List, bool) {
	l := asList(e)
	if l == nil || len(l.Elems) != 3 || (forms.Head(l) != "let" && forms.Head(l) != "let*") {
		return "", nil, false
	}
	bl := asList(l.Elems[1])
	if bl == nil || len(bl.Elems) != 1 {
		return "", nil, false
	}
	var acc string
	switch b := bl.Elems[0].(type) {
	case *syntax.Symbol:
		acc = b.Name
	case *syntax.List:
		if len(b.Elems) != 2 || !isSym(b.Elems[1], "nil") {
			return "", nil, false
		}
		s, ok := b.Elems[0].(*syntax.Symbol)
		if !ok {
			return "", nil, false
		}
		acc = s.Name
	default:
		return "", nil, false
	}
	loop := asList(l.Elems[2])
	if loop == nil || forms.Head(loop) != "dolist" || len(loop.Elems) < 2 {
		return "", nil, false
	}
	spec := asList(loop.Elems[1])
	if spec == nil || len(spec.Elems) < 2 {
		return "", nil, false
	}
	return acc, loop, true
}

// keeps reports whether g's value is a sublist, in order, of its
// parameter j: (let ((acc nil)) (dolist (x P (reverse acc)) BODY...)),
// BODY assigning acc only by (push x acc).
func (s *sortedAnalysis) keeps(g string, j int) bool {
	return s.once(fmt.Sprintf("keep\x00%s\x00%d", g, j), func() bool {
		d := s.fn(g)
		ps, ok := params(d0(d))
		if d == nil || !ok || j >= len(ps) || len(d.Elems) != 4 {
			return false
		}
		acc, loop, ok := collector(d.Elems[3])
		if !ok {
			return false
		}
		spec := loop.Elems[1].(*syntax.List)
		x, _ := spec.Elems[0].(*syntax.Symbol)
		p := ps[j]
		if x == nil || len(spec.Elems) != 3 || !isSym(spec.Elems[1], p) || !s.builtinCall(spec.Elems[2], acc, "reverse") {
			return false
		}
		for _, v := range []string{acc, x.Name, p} {
			if s.special(v) || binders(d, v) != 1 {
				return false
			}
		}
		if acc == x.Name || acc == p || x.Name == p || len(placeAssigns(d, x.Name)) > 0 || len(placeAssigns(d, p)) > 0 {
			return false
		}
		body := &syntax.List{Elems: loop.Elems[2:]}
		if hasHead(body, "return", "return-from", "lambda", "flet", "labels", "function") {
			return false
		}
		for _, a := range placeAssigns(body, acc) {
			if forms.Head(a) != "push" || len(a.Elems) != 3 || !isSym(a.Elems[1], x.Name) {
				return false
			}
		}
		return true
	})
}

// firstBelow checks the rule for a label at point whose conjunct asks
// (key hi) > (key lo), and says why that never holds.
func (s *sortedAnalysis) firstBelow(point syntax.Node, key, hi, lo string) (string, bool) {
	if !s.pureKey(key) {
		return "", false
	}
	var loop, w *syntax.List
	n := point
	for depth := 0; depth < 256 && w == nil; depth++ {
		p := s.parent[n]
		if p == nil {
			return "", false
		}
		switch head := forms.Head(p); {
		case head == "lambda" || head == "flet" || head == "labels" || head == "function":
			return "", false
		case head == "defun":
			w = p
		case strings.HasPrefix(head, "def"):
			return "", false
		case head == "dolist" && loop == nil && binds(p, lo):
			if slices.Index(p.Elems, n) < 2 {
				return "", false
			}
			loop = p
		}
		n = p
	}
	if w == nil || loop == nil {
		return "", false
	}
	spec := asList(loop.Elems[1])
	if spec == nil || len(spec.Elems) < 2 || len(spec.Elems) > 3 {
		return "", false
	}
	lst, ok := spec.Elems[1].(*syntax.Symbol)
	ws, ok2 := w.Elems[1].(*syntax.Symbol)
	ps, ok3 := params(w)
	if !ok || !ok2 || !ok3 {
		return "", false
	}
	wname := forms.Name(ws)
	ih, il := slices.Index(ps, hi), slices.Index(ps, lst.Name)
	if s.fn(wname) == nil || wname == s.entry || ih < 0 || il < 0 || ih == il || lo == hi || lo == lst.Name {
		return "", false
	}
	for _, v := range []string{hi, lo, lst.Name} {
		if s.special(v) || binders(w, v) != 1 || len(placeAssigns(w, v)) > 0 {
			return "", false
		}
	}
	sites := s.h.sites[wname]
	if len(sites) == 0 {
		return "", false
	}
	var whys []string
	for _, site := range sites {
		why, ok := s.callOK(site.call, len(ps), ih, il, key)
		if !ok {
			return "", false
		}
		if !slices.Contains(whys, why) {
			whys = append(whys, why)
		}
	}
	return fmt.Sprintf("%s is called only with %s as its %s and %s, and %s is an element of %s",
		wname, strings.Join(whys, "; "), hi, lst.Name, lo, lst.Name), true
}

// callOK checks a call of the function whose parameters ih and il are
// the first element and the list: its arguments there are variables A
// and V, A bound by (A (pop V)) around the call and never assigned, V
// bound around that to a sort's result and assigned only so that it
// stays a sorted list whose elements come after A.
func (s *sortedAnalysis) callOK(call *syntax.List, np, ih, il int, key string) (string, bool) {
	if len(call.Elems)-1 != np {
		return "", false
	}
	as, ok1 := call.Elems[1+ih].(*syntax.Symbol)
	vs, ok2 := call.Elems[1+il].(*syntax.Symbol)
	if !ok1 || !ok2 || as.Name == vs.Name || s.h.res.IsTemp(as.Name) || s.h.res.IsTemp(vs.Name) {
		return "", false
	}
	A, V := as.Name, vs.Name
	if s.special(A) || s.special(V) {
		return "", false
	}
	up := func(n syntax.Node, name, other string) (*syntax.List, syntax.Node, bool) {
		for depth := 0; depth < 256; depth++ {
			p := s.parent[n]
			if p == nil {
				return nil, nil, false
			}
			switch head := forms.Head(p); {
			case head == "lambda" || head == "flet" || head == "labels" || head == "function" || strings.HasPrefix(head, "def"):
				return nil, nil, false
			}
			if other != "" && binds(p, other) {
				return nil, nil, false
			}
			if binds(p, name) {
				if (forms.Head(p) != "let" && forms.Head(p) != "let*") || slices.Index(p.Elems, n) < 2 {
					return nil, nil, false
				}
				return p, binding(p, name), true
			}
			n = p
		}
		return nil, nil, false
	}
	la, ainit, ok := up(call, A, V)
	if !ok || ainit == nil || !isCall(ainit, V, "pop") || binders(la, A) != 1 || len(placeAssigns(la, A)) > 0 {
		return "", false
	}
	lv, vinit, ok := up(la, V, "")
	if !ok || vinit == nil || binders(lv, V) != 1 {
		return "", false
	}
	vc := asList(vinit)
	if vc == nil || len(vc.Elems) == 0 || s.fn(forms.Head(vc)) == nil || !s.sorts(forms.Head(vc), key) {
		return "", false
	}
	var subs []string
	for _, a := range placeAssigns(lv, V) {
		switch forms.Head(a) {
		case "pop":
			if len(a.Elems) != 2 {
				return "", false
			}
			continue
		case "setq":
			if len(a.Elems) != 3 {
				return "", false
			}
		default:
			return "", false
		}
		e := a.Elems[2]
		if s.builtinCall(e, V, "rest", "cdr") {
			continue
		}
		c := asList(e)
		if c == nil || len(c.Elems) == 0 || s.fn(forms.Head(c)) == nil {
			return "", false
		}
		kept := false
		for j, arg := range c.Elems[1:] {
			if isSym(arg, V) && s.keeps(forms.Head(c), j) {
				kept = true
				break
			}
		}
		if !kept {
			return "", false
		}
		if g := forms.Head(c); !slices.Contains(subs, g) {
			subs = append(subs, g)
		}
	}
	s.srcs = append(s.srcs, [2]*syntax.List{lv, vc})
	changed := "pop"
	for _, g := range subs {
		changed += " and " + g + ", which keeps a sublist in order"
	}
	return fmt.Sprintf("%s and %s, where %s holds a list sorted by %s (%s returns a list an insertion that keeps the order built, and only %s change %s) and %s is its first element, taken by (pop %s)",
		A, V, V, key, forms.Head(vc), changed, V, A, V), true
}

// binding is the init form of name in let form l, or nil.
func binding(l *syntax.List, name string) syntax.Node {
	bl := asList(l.Elems[1])
	if bl == nil {
		return nil
	}
	var init syntax.Node
	k := 0
	for _, b := range bl.Elems {
		if bb := asList(b); bb != nil && len(bb.Elems) == 2 && isSym(bb.Elems[0], name) {
			init = bb.Elems[1]
			k++
		} else if isSym(b, name) || bb != nil && len(bb.Elems) > 0 && isSym(bb.Elems[0], name) {
			return nil
		}
	}
	if k != 1 {
		return nil
	}
	return init
}
