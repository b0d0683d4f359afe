package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Objects collected once per stand. The simulator declares the actions
// that move no object (domain.Signals.Fixed): while only they run, every
// detection lists each object at most once, under a name no other object
// has, with the same properties each time. A survey
//
//	(let ((F nil) ...)
//	  (dolist (S LIST) ...
//	    (dolist (d DETECTION) ...
//	      (when (and ... (eq K S) ... (not (member (N d) (NAMES F))) ...)
//	        (push d F)))))
//
// where LIST is a quoted list of distinct symbols (or a global defined as
// one that nothing assigns), S and d are never assigned, F is mentioned in
// the outer loop only by that push and that member test, K reads d only
// through desig-prop and pure plan functions of their parameters (no
// other variable, no eq but against a constant), N reads a designator's
// name, NAMES is a plan function that collects (N x) of every x of its
// list, and the outer loop (with every plan function it calls) performs
// only Fixed actions, keeps an object once: an object in F was pushed
// while K gave the stand of its iteration; it is the same designator now,
// so K gives that stand again, which is this iteration's stand only when
// it was pushed from this very detection, which lists it once. So (eq K
// S) true together with the member test true (an MC/DC or MCC label of
// the and) is infeasible.

// dedupVerdicts marks infeasible the active MCC and MC/DC labels of ls
// at such an and that ask (eq K S) true and the member test true.
func (h *handlerAnalysis) dedupVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Detects == "" || !slices.Contains(sig.Fixed, sig.Detects) || h.a == nil || h.res.Orig == nil || h.hasPolicy() {
		return
	}
	memo := map[*syntax.List]map[int]string{}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil || pl.l.Criterion != labels.MCC && pl.l.Criterion != labels.MCDC {
			continue
		}
		and, ok := h.res.Origin(pl.l.Point).(*syntax.List)
		if !ok || forms.Head(and) != "and" || len(pl.l.Operator) != len(and.Elems)-1 {
			continue
		}
		whys, done := memo[and]
		if !done {
			whys = h.dedupAnd(and)
			memo[and] = whys
		}
		op := pl.l.Operator
		for i, why := range whys {
			// i encodes the K atom (i / 64) and the member atom (i % 64),
			// with the value the member atom has when the test is true.
			// Both atoms are evaluated only when every atom before them
			// is true (an atom the and never evaluates reads false).
			ki, mi := i/64, i%64
			if op[ki] != 'T' || strings.Trim(op[:max(ki, mi)], "T") != "" {
				continue
			}
			neg := forms.Head(and.Elems[mi+1]) == "not"
			if neg && op[mi] == 'F' || !neg && op[mi] == 'T' {
				pl.l.Status = labels.Infeasible
				pl.l.Reason = why
				break
			}
		}
	}
}

// dedupAnd returns, for each pair (K atom k, member atom m) of and that
// the rule decides, the reason under key k*64+m.
func (h *handlerAnalysis) dedupAnd(and *syntax.List) map[int]string {
	out := map[int]string{}
	if len(and.Elems) > 64 {
		return out
	}
	oparent := h.origParents()
	when := oparent[and]
	if when == nil || forms.Head(when) != "when" || len(when.Elems) != 3 || when.Elems[1] != syntax.Node(and) {
		return out
	}
	push, ok := when.Elems[2].(*syntax.List)
	if !ok || forms.Head(push) != "push" || len(push.Elems) != 3 {
		return out
	}
	dSym, ok1 := push.Elems[1].(*syntax.Symbol)
	fSym, ok2 := push.Elems[2].(*syntax.Symbol)
	if !ok1 || !ok2 || h.a.specials[fSym.Name] || h.a.specials[dSym.Name] {
		return out
	}
	d, f := dSym.Name, fSym.Name
	inner := oparent[when]
	if inner == nil || forms.Head(inner) != "dolist" || slices.Index(inner.Elems, syntax.Node(when)) < 2 {
		return out
	}
	ispec, ok := argAt(inner, 1).(*syntax.List)
	if !ok || len(ispec.Elems) != 2 || !syntax.IsSymbol(ispec.Elems[0], d) {
		return out
	}
	det, ok := h.detection(ispec.Elems[1])
	if !ok || mayAssignIn(inner.Elems[2:], d) {
		return out
	}
	outer := oparent[inner]
	if outer == nil || forms.Head(outer) != "dolist" || slices.Index(outer.Elems, syntax.Node(inner)) < 2 {
		return out
	}
	ospec, ok := argAt(outer, 1).(*syntax.List)
	if !ok || len(ospec.Elems) != 2 {
		return out
	}
	sSym, ok := ospec.Elems[0].(*syntax.Symbol)
	if !ok || h.a.specials[sSym.Name] || sSym.Name == d || sSym.Name == f || mayAssignIn(outer.Elems[2:], sSym.Name) {
		return out
	}
	s := sSym.Name
	syms, listWhy := h.literalSymbols(ospec.Elems[1])
	if len(syms) == 0 {
		return out
	}
	for i, x := range syms {
		if slices.Contains(syms[:i], x) {
			return out
		}
	}
	// F: bound to nil by the let around the outer loop.
	let := oparent[outer]
	if let == nil || forms.Head(let) != "let" && forms.Head(let) != "let*" || slices.Index(let.Elems, syntax.Node(outer)) < 2 {
		return out
	}
	bound := false
	if bs, ok := argAt(let, 1).(*syntax.List); ok {
		for _, b := range bs.Elems {
			if syntax.IsSymbol(b, f) {
				bound = true
			}
			if bl, ok := b.(*syntax.List); ok && len(bl.Elems) == 2 && syntax.IsSymbol(bl.Elems[0], f) && syntax.IsSymbol(bl.Elems[1], "nil") {
				bound = true
			}
		}
	}
	if !bound {
		return out
	}
	// The outer loop performs only Fixed actions.
	if !h.fixedOnly(outer, map[string]bool{}, 0) {
		return out
	}
	for ki, k := range and.Elems[1:] {
		kl, ok := k.(*syntax.List)
		if !ok || forms.Head(kl) != "eq" || len(kl.Elems) != 3 || h.defs["eq"] != nil {
			continue
		}
		kx := kl.Elems[1]
		if !syntax.IsSymbol(kl.Elems[2], s) {
			if !syntax.IsSymbol(kx, s) {
				continue
			}
			kx = kl.Elems[2]
		}
		if !h.pureOf(kx, []string{d}, 0) {
			continue
		}
		for mi, m := range and.Elems[1:] {
			m, _ = negated(m)
			ml, ok := m.(*syntax.List)
			if !ok || forms.Head(ml) != "member" || len(ml.Elems) != 3 || h.defs["member"] != nil {
				continue
			}
			if !h.nameOf(ml.Elems[1], d) {
				continue
			}
			nl, ok := ml.Elems[2].(*syntax.List)
			if !ok || len(nl.Elems) != 2 || !syntax.IsSymbol(nl.Elems[1], f) || !h.collectsNames(forms.Head(nl)) {
				continue
			}
			// F: only the push and this member test mention it in the
			// outer loop.
			uses := 0
			syntax.Walk(outer, func(x syntax.Node) bool {
				if syntax.IsSymbol(x, f) {
					uses++
				}
				return true
			})
			if uses != 2 {
				continue
			}
			out[ki*64+mi] = fmt.Sprintf("%s and %s are never both true: an object in %s was pushed from %s while %s gave the %s of its iteration, the outer loop %s performs only %s (%s: objects do not move, each is detected once per detection under its own name, with the same properties), so %s gives that %s again, and %s takes each of %s once",
				h.show(k), h.show(m), f, h.where(det), h.show(kx), s, h.where(outer), joinOr(h.sig.Fixed), h.sig.Why, h.show(kx), s, s, listWhy)
		}
	}
	return out
}

func joinOr(xs []string) string {
	out := ""
	for i, x := range xs {
		switch {
		case i == 0:
		case i == len(xs)-1:
			out += " and "
		default:
			out += ", "
		}
		out += x
	}
	return out
}

// origDefs maps the plan's functions by name to their original forms.
func (h *handlerAnalysis) origDefs() map[string]*syntax.List {
	if h.odefs != nil {
		return h.odefs
	}
	h.odefs = map[string]*syntax.List{}
	for _, f := range h.res.Orig.Forms {
		l, ok := f.(*syntax.List)
		if !ok || len(l.Elems) < 3 || !definers[forms.Head(l)] && forms.Head(l) != "def-check" {
			continue
		}
		if s, ok := l.Elems[1].(*syntax.Symbol); ok {
			h.odefs[forms.Name(s)] = l
		}
	}
	return h.odefs
}

// origParents maps every node of the original plan to the list holding
// it.
func (h *handlerAnalysis) origParents() map[syntax.Node]*syntax.List {
	if h.oparents == nil {
		h.oparents = parentsOf(h.res.Orig.Forms, nil)
	}
	return h.oparents
}

// mayAssignIn reports whether xs may assign name: an assignment form
// whose target (or any place of setf and the like) is name, or name
// inside a lambda or local function.
func mayAssignIn(xs []syntax.Node, name string) bool {
	found := false
	for _, x := range xs {
		syntax.Walk(x, func(y syntax.Node) bool {
			l, ok := y.(*syntax.List)
			if !ok || found {
				return !found
			}
			var targets []syntax.Node
			switch h := forms.Head(l); {
			case h == "setq" || h == "psetq":
				for i := 1; i < len(l.Elems); i += 2 {
					targets = append(targets, l.Elems[i])
				}
			case h == "push" || h == "pushnew":
				targets = l.Elems[min(2, len(l.Elems)):]
			case h == "incf" || h == "decf" || h == "pop":
				targets = l.Elems[min(1, len(l.Elems)):min(2, len(l.Elems))]
			case assignHeads[h] || h == "lambda" || h == "flet" || h == "labels" || h == "function":
				targets = l.Elems[1:]
			}
			for _, t := range targets {
				syntax.Walk(t, func(z syntax.Node) bool {
					if syntax.IsSymbol(z, name) {
						found = true
					}
					return !found
				})
			}
			return !found
		})
	}
	return found
}

// literalSymbols returns the symbols of n, a quoted list of symbols or a
// global defined as one that nothing assigns, with how it reads.
func (h *handlerAnalysis) literalSymbols(n syntax.Node) ([]string, string) {
	list := n
	why := h.where(n)
	if s, ok := n.(*syntax.Symbol); ok {
		if !h.a.specials[s.Name] {
			return nil, ""
		}
		var def syntax.Node
		for _, f := range h.res.Forms {
			l, ok := f.(*syntax.List)
			if !ok || h.res.Skipped(f) {
				continue
			}
			switch forms.Head(l) {
			case "defparameter", "defvar", "defconstant":
				if len(l.Elems) >= 3 && syntax.IsSymbol(l.Elems[1], s.Name) {
					if def != nil {
						return nil, ""
					}
					def = l.Elems[2]
				}
			}
			if mayAssign(f, s.Name) {
				return nil, ""
			}
		}
		if def == nil {
			return nil, ""
		}
		list, why = def, fmt.Sprintf("%s, %s, which nothing assigns", s.Name, h.where(def))
	}
	q, ok := list.(*syntax.Quote)
	if !ok {
		return nil, ""
	}
	l, ok := q.X.(*syntax.List)
	if !ok {
		return nil, ""
	}
	var out []string
	for _, e := range l.Elems {
		s, ok := e.(*syntax.Symbol)
		if !ok {
			return nil, ""
		}
		out = append(out, s.Name)
	}
	return out, why
}

// fixedOnly reports whether n, and every plan function it calls, performs
// only actions of Fixed written as literal designators, calls nothing
// through a value and nothing local.
func (h *handlerAnalysis) fixedOnly(n syntax.Node, visited map[string]bool, depth int) bool {
	if depth > 16 {
		return false
	}
	ok := true
	syntax.Walk(n, func(x syntax.Node) bool {
		if !ok {
			return false
		}
		if _, isPre := x.(*syntax.Prefixed); isPre {
			ok = false
			return false
		}
		l, isList := x.(*syntax.List)
		if !isList || len(l.Elems) == 0 {
			return true
		}
		if forms.Opaque(l) || dynamicCall(l) {
			ok = false
			return false
		}
		head := forms.Head(l)
		switch {
		case h.local[head] || funcallHeads[head] || head == "lambda" || head == "flet" || head == "labels" || head == "function" || head == "eval":
			ok = false
		case head == "perform":
			typ, _, isAction := actionDesig(l)
			if !isAction || !slices.Contains(h.sig.Fixed, typ) || h.defs["perform"] != nil {
				ok = false
			}
		case h.defs[head] != nil:
			if h.dup[head] || h.origDefs()[head] == nil {
				ok = false
			} else if !visited[head] {
				visited[head] = true
				ok = h.fixedOnly(h.origDefs()[head], visited, depth+1)
			}
		}
		return ok
	})
	return ok
}

// pureBuiltins are the builtins K may call: they read their arguments
// only and compare by value.
var pureBuiltins = map[string]bool{"first": true, "second": true, "third": true, "nth": true, "car": true, "cdr": true,
	"rest": true, "<": true, ">": true, "<=": true, ">=": true, "=": true, "/=": true, "+": true, "-": true,
	"not": true, "null": true, "if": true, "cond": true, "and": true, "or": true, "progn": true, "when": true, "unless": true}

// pureOf reports whether n reads no variable but vars, designators only
// through (desig-prop X 'KEY), calls only pure builtins, eq or eql
// against a constant, case on constant keys and plan functions pure of
// their parameters.
func (h *handlerAnalysis) pureOf(n syntax.Node, vars []string, depth int) bool {
	if depth > 12 {
		return false
	}
	switch x := n.(type) {
	case *syntax.Symbol:
		return x.Name == "nil" || x.Name == "t" || slices.Contains(vars, x.Name)
	case *syntax.Int, *syntax.Quote, *syntax.Keyword, *syntax.String:
		return true
	case *syntax.List:
		if len(x.Elems) == 0 {
			return true
		}
		head := forms.Head(x)
		if head == "" || h.local[head] {
			return false
		}
		args := x.Elems[1:]
		all := func(xs []syntax.Node) bool {
			for _, a := range xs {
				if !h.pureOf(a, vars, depth+1) {
					return false
				}
			}
			return true
		}
		if f := h.origDefs()[head]; f != nil {
			if h.dup[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
				return false
			}
			ps, ok := argAt(f, 2).(*syntax.List)
			if !ok || len(ps.Elems) != len(args) {
				return false
			}
			var params []string
			for _, p := range ps.Elems {
				s, ok := p.(*syntax.Symbol)
				if !ok {
					return false
				}
				params = append(params, s.Name)
			}
			return all(args) && h.pureOf(f.Elems[3], params, depth+1)
		}
		switch {
		case head == "desig-prop":
			q, ok := argAt(x, 2).(*syntax.Quote)
			return len(args) == 2 && ok && h.pureOf(args[0], vars, depth+1) && q != nil
		case head == "eq" || head == "eql":
			if len(args) != 2 {
				return false
			}
			_, c0 := args[0].(*syntax.Quote)
			_, c1 := args[1].(*syntax.Quote)
			_, i0 := args[0].(*syntax.Int)
			_, i1 := args[1].(*syntax.Int)
			return (c0 || c1 || i0 || i1) && all(args)
		case head == "case":
			if len(args) < 1 || !h.pureOf(args[0], vars, depth+1) {
				return false
			}
			for _, c := range args[1:] {
				cl, ok := c.(*syntax.List)
				if !ok || len(cl.Elems) < 2 || !all(cl.Elems[1:]) {
					return false
				}
				switch k := cl.Elems[0].(type) {
				case *syntax.Symbol, *syntax.Int:
				case *syntax.List:
					for _, e := range k.Elems {
						switch e.(type) {
						case *syntax.Symbol, *syntax.Int:
						default:
							return false
						}
					}
				default:
					return false
				}
			}
			return true
		case head == "cond":
			for _, c := range args {
				cl, ok := c.(*syntax.List)
				if !ok || len(cl.Elems) == 0 || !all(cl.Elems) {
					return false
				}
			}
			return true
		case pureBuiltins[head]:
			return all(args)
		}
	}
	return false
}

// nameOf reports whether n reads the name of designator d: (desig-prop d
// 'name) or a call (f d) of a defun whose one body form reads its
// parameter's name.
func (h *handlerAnalysis) nameOf(n syntax.Node, d string) bool {
	l, ok := n.(*syntax.List)
	if !ok || len(l.Elems) == 0 {
		return false
	}
	head := forms.Head(l)
	if head == "desig-prop" && h.defs[head] == nil && len(l.Elems) == 3 {
		q, ok := l.Elems[2].(*syntax.Quote)
		return syntax.IsSymbol(l.Elems[1], d) && ok && syntax.IsSymbol(q.X, "name")
	}
	f := h.origDefs()[head]
	if f == nil || h.dup[head] || forms.Head(f) != "defun" || len(f.Elems) != 4 || len(l.Elems) != 2 || !syntax.IsSymbol(l.Elems[1], d) {
		return false
	}
	ps, ok := argAt(f, 2).(*syntax.List)
	if !ok || len(ps.Elems) != 1 {
		return false
	}
	p, ok := ps.Elems[0].(*syntax.Symbol)
	return ok && h.nameOf(f.Elems[3], p.Name)
}

// collectsNames reports whether plan function name is (defun NAME (P)
// (let ((O nil)) (dolist (X P R) (push (N X) O)))) with R O or (reverse
// O) and N a name reader: it returns the names of P's elements.
func (h *handlerAnalysis) collectsNames(name string) bool {
	f := h.origDefs()[name]
	if f == nil || h.dup[name] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
		return false
	}
	ps, ok := argAt(f, 2).(*syntax.List)
	if !ok || len(ps.Elems) != 1 {
		return false
	}
	p, ok := ps.Elems[0].(*syntax.Symbol)
	if !ok {
		return false
	}
	let, ok := f.Elems[3].(*syntax.List)
	if !ok || forms.Head(let) != "let" || len(let.Elems) != 3 {
		return false
	}
	bs, ok := let.Elems[1].(*syntax.List)
	if !ok || len(bs.Elems) != 1 {
		return false
	}
	b, ok := bs.Elems[0].(*syntax.List)
	if !ok || len(b.Elems) != 2 || !syntax.IsSymbol(b.Elems[1], "nil") {
		return false
	}
	o, ok := b.Elems[0].(*syntax.Symbol)
	if !ok {
		return false
	}
	loop, ok := let.Elems[2].(*syntax.List)
	if !ok || forms.Head(loop) != "dolist" || len(loop.Elems) != 3 {
		return false
	}
	spec, ok := loop.Elems[1].(*syntax.List)
	if !ok || len(spec.Elems) != 3 || !syntax.IsSymbol(spec.Elems[1], p.Name) {
		return false
	}
	x, ok := spec.Elems[0].(*syntax.Symbol)
	if !ok || x.Name == o.Name || x.Name == p.Name || o.Name == p.Name {
		return false
	}
	r := spec.Elems[2]
	if !syntax.IsSymbol(r, o.Name) {
		rl, ok := r.(*syntax.List)
		if !ok || forms.Head(rl) != "reverse" || len(rl.Elems) != 2 || !syntax.IsSymbol(rl.Elems[1], o.Name) || h.defs["reverse"] != nil {
			return false
		}
	}
	push, ok := loop.Elems[2].(*syntax.List)
	if !ok || forms.Head(push) != "push" || len(push.Elems) != 3 || !syntax.IsSymbol(push.Elems[2], o.Name) {
		return false
	}
	return h.nameOf(push.Elems[1], x.Name)
}
