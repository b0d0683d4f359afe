package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Retries with the other arm. A handler written
//
//	(let ((?arm arm) (attempts 0))
//	  (with-failure-handling ((object-unreachable (e)
//	                            (incf attempts)
//	                            (when (and (< attempts 2) (null (arm-holding (other-arm ?arm))))
//	                              (setq ?arm (other-arm ?arm))
//	                              (retry))))
//	    ... (perform (an action (type picking-up) (arm ?arm) ...)) ...))
//
// never sees the count spent with the other arm holding something: an
// entry of its clauses after the first follows a retry (the body runs
// again only so), every retry swaps ?arm for (other-arm ?arm), which
// maps each of the robot's two arms to the other, so the other arm is
// the one the previous entry's failure came from; the simulator declares
// (domain.Signals.Grips) that picking up signals such a failure only
// with the arm it names empty and that only picking up makes an arm
// hold something; and nothing picks with that arm since (every picking
// up the body reaches names ?arm, the clauses pick nothing). A label
// whose predicate asks for (not (< attempts N)), N >= 2, together with
// (arm-holding (other-arm ?arm)) true, in a clause of that handler, is
// infeasible. The conditions, checked on the text: attempts is bound to
// 0 by the let whose body holds the handler and changed only by (incf
// attempts) forms of the clauses' bodies, one each at most; ?arm is a
// lexical variable holding only symbols, assigned only by the swaps; the
// only sources in the body of the clauses' kinds that retry are picking
// up performs naming ?arm (through plan functions' parameters too); no
// perform of a designator the text does not spell, no call through a
// value; no policy performs anything; no closure in the clauses.

// armRetryVerdicts marks such labels of ls infeasible.
func (h *handlerAnalysis) armRetryVerdicts(ls []*pathLabel) {
	sig := h.sig
	if sig.Grips == "" || sig.GripKey == "" || sig.HoldQuery == "" || len(sig.Arms) != 2 || h.a == nil ||
		h.defs[sig.HoldQuery] != nil || h.local[sig.HoldQuery] || h.res.IsUserFunc(sig.HoldQuery) {
		return
	}
	if !h.parkingFacts() {
		return // a policy may perform actions, picking up too, between any two
	}
	var parent map[syntax.Node]*syntax.List
	memo := map[*syntax.List]*armRetry{}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		var hold, spent *syntax.List
		var n float64
		for _, c := range conjuncts(pl.pred) {
			if l, ok := h.holdTest(c); ok {
				hold = l
			} else if l, k, ok := h.spentTest(c); ok {
				spent, n = l, k
			}
		}
		if hold == nil || spent == nil || n < 2 {
			continue
		}
		if parent == nil {
			parent = parentMap(h)
		}
		w, ok := h.enclosingHandler(pl.l.Point, parent)
		if !ok {
			continue
		}
		r, seen := memo[w]
		if !seen {
			r = h.armRetryOf(w, parent)
			memo[w] = r
		}
		if r == nil {
			continue
		}
		// The label's variables are the handler's.
		other := hold.Elems[1].(*syntax.List)
		a, _ := other.Elems[1].(*syntax.Symbol)
		cnt, _ := spent.Elems[1].(*syntax.Symbol)
		if forms.Head(other) != r.other || a == nil || cnt == nil || h.a.symKey[a] != r.armKey || h.a.symKey[cnt] != r.cntKey {
			continue
		}
		pl.l.Status = labels.Infeasible
		pl.l.Reason = fmt.Sprintf("%s is never true where %s >= %g: %s", h.show(hold), cnt.Name, n, r.why)
	}
}

// armRetry is what armRetryOf found of a handler: the binding keys of
// its arm and count variables, the swapping function, the reason.
type armRetry struct {
	armKey, cntKey string
	other          string
	why            string
}

// unTemp is the expression a normalize temporary holds (n otherwise).
func (h *handlerAnalysis) unTemp(n syntax.Node) syntax.Node {
	for i := 0; i < 4; i++ {
		s, ok := n.(*syntax.Symbol)
		if !ok || !h.res.IsTemp(s.Name) {
			return n
		}
		o := h.res.Origin(s)
		if o == nil || o == syntax.Node(s) {
			return n
		}
		n = o
	}
	return n
}

// holdTest reads a conjunct that says (HOLD (OTHER A)) is true: that
// form itself, (not (null X)) or (not (not X)) of it; it returns the
// (HOLD (OTHER A)) with the temporaries read through.
func (h *handlerAnalysis) holdTest(c syntax.Node) (*syntax.List, bool) {
	c = h.unTemp(c)
	neg := 0
	for i := 0; i < 2; i++ {
		l, ok := c.(*syntax.List)
		if !ok || len(l.Elems) != 2 || (forms.Head(l) != "not" && forms.Head(l) != "null") || h.res.IsUserFunc(forms.Head(l)) {
			break
		}
		c, neg = h.unTemp(l.Elems[1]), neg+1
	}
	l, ok := c.(*syntax.List)
	if neg%2 != 0 || !ok || len(l.Elems) != 2 || forms.Head(l) != h.sig.HoldQuery {
		return nil, false
	}
	o, ok := h.unTemp(l.Elems[1]).(*syntax.List)
	if !ok || len(o.Elems) != 2 {
		return nil, false
	}
	if _, ok := o.Elems[1].(*syntax.Symbol); !ok || !h.res.IsUserFunc(forms.Head(o)) {
		return nil, false
	}
	return &syntax.List{Elems: []syntax.Node{l.Elems[0], o}}, true
}

// spentTest reads a conjunct (not (< CNT N)) or (>= CNT N) with N a
// literal integer or a global holding one; it returns (< CNT N) or (>=
// CNT N) and N.
func (h *handlerAnalysis) spentTest(c syntax.Node) (*syntax.List, float64, bool) {
	c = h.unTemp(c)
	neg := false
	if l, ok := c.(*syntax.List); ok && len(l.Elems) == 2 && forms.Head(l) == "not" && !h.res.IsUserFunc("not") {
		c, neg = h.unTemp(l.Elems[1]), true
	}
	l, ok := c.(*syntax.List)
	if !ok || len(l.Elems) != 3 || h.res.IsUserFunc(forms.Head(l)) {
		return nil, 0, false
	}
	if !(neg && forms.Head(l) == "<" || !neg && forms.Head(l) == ">=") {
		return nil, 0, false
	}
	if _, ok := l.Elems[1].(*syntax.Symbol); !ok {
		return nil, 0, false
	}
	var n float64
	switch k := l.Elems[2].(type) {
	case *syntax.Int:
		n = float64(k.Value)
	case *syntax.Symbol:
		v := h.a.varVal(k.Name)
		if !h.a.specials[k.Name] || v.other || !v.num || v.lo != v.hi || v.frac || v.nan {
			return nil, 0, false
		}
		n = v.lo
	default:
		return nil, 0, false
	}
	return l, n, true
}

// parentMap maps each node of the plan's forms to its list.
func parentMap(h *handlerAnalysis) map[syntax.Node]*syntax.List {
	parent := map[syntax.Node]*syntax.List{}
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok {
				for _, e := range l.Elems {
					parent[e] = l
				}
			}
			return true
		})
	}
	return parent
}

// enclosingHandler is the with-failure-handling in one of whose clause
// bodies n sits, with no function form in between.
func (h *handlerAnalysis) enclosingHandler(n syntax.Node, parent map[syntax.Node]*syntax.List) (*syntax.List, bool) {
	for depth := 0; depth < 64; depth++ {
		p := parent[n]
		if p == nil {
			return nil, false
		}
		switch head := forms.Head(p); {
		case head == "lambda" || head == "flet" || head == "labels" || head == "function" || strings.HasPrefix(head, "def"):
			return nil, false
		}
		if cl := parent[p]; cl != nil {
			if w := parent[cl]; w != nil && forms.Head(w) == "with-failure-handling" && len(w.Elems) > 1 && w.Elems[1] == syntax.Node(cl) {
				if slices.Index(p.Elems, n) >= 2 {
					return w, true // n is in clause p's body
				}
				return nil, false
			}
		}
		n = p
	}
	return nil, false
}

// armRetryOf checks the conditions of the rule on handler w; nil when
// one fails.
func (h *handlerAnalysis) armRetryOf(w *syntax.List, parent map[syntax.Node]*syntax.List) *armRetry {
	sig := h.sig
	cl, ok := w.Elems[1].(*syntax.List)
	if !ok || len(w.Elems) < 3 {
		return nil
	}
	// The swaps: every (retry) of a clause, preceded by (setq A (OTHER A)).
	var armName, other string
	var swaps []*syntax.List
	var retryKinds []string
	var armRefs []*syntax.Symbol
	for _, c := range cl.Elems {
		kinds, body, ok := clauseParts(c)
		if !ok {
			return nil
		}
		retries := false
		bad := false
		for _, b := range body {
			syntax.Walk(b, func(x syntax.Node) bool {
				if _, fn := x.(*syntax.Prefixed); fn {
					bad = true // #'f: a closure may retry later
				}
				l, ok := x.(*syntax.List)
				if !ok || bad {
					return !bad
				}
				switch forms.Head(l) {
				case "lambda", "function":
					bad = true // a closure may retry later
					return false
				case "with-failure-handling", "handler-case", "quote":
					return false
				case "retry":
					p := parent[l]
					i := slices.Index(p.Elems, syntax.Node(l))
					if i < 1 {
						bad = true
						return false
					}
					s, ok := p.Elems[i-1].(*syntax.List)
					if !ok || forms.Head(s) != "setq" || len(s.Elems) != 3 {
						bad = true
						return false
					}
					target, ok1 := s.Elems[1].(*syntax.Symbol)
					call, ok2 := s.Elems[2].(*syntax.List)
					if !ok1 || !ok2 || len(call.Elems) != 2 || !syntax.IsSymbol(call.Elems[1], target.Name) || !h.res.IsUserFunc(forms.Head(call)) {
						bad = true
						return false
					}
					if armName == "" {
						armName, other = target.Name, forms.Head(call)
					}
					if target.Name != armName || forms.Head(call) != other {
						bad = true
						return false
					}
					swaps = append(swaps, s)
					armRefs = append(armRefs, call.Elems[1].(*syntax.Symbol))
					retries = true
				}
				return true
			})
		}
		if bad {
			return nil
		}
		if retries {
			retryKinds = append(retryKinds, kinds...)
		}
	}
	if armName == "" || h.a.specials[armName] || h.a.closureAssigned()[armName] {
		return nil
	}
	// OTHER swaps the robot's two arms.
	ev := &regionEval{h: h}
	for i, arm := range sig.Arms {
		call := &syntax.List{Elems: []syntax.Node{&syntax.Symbol{Name: other}, &syntax.Quote{X: &syntax.Symbol{Name: arm}}}}
		vs, ok := ev.call(other, call, nil, 0)
		if !ok || len(vs) != 1 || vs[0].isNum || vs[0].desig != "" || vs[0].nonNil || vs[0].sym != sig.Arms[1-i] {
			return nil
		}
	}
	// The count: bound to 0 by the let whose body holds w.
	let := parent[w]
	if let == nil || (forms.Head(let) != "let" && forms.Head(let) != "let*") || slices.Index(let.Elems, syntax.Node(w)) < 2 {
		return nil
	}
	// The arm's binding: of that let, or a parameter of the defun
	// around it.
	armKey := ""
	for _, r := range armRefs {
		k, met := h.a.symKey[r]
		if !met || k == "" || k == conflictKey || armKey != "" && k != armKey {
			return nil
		}
		armKey = k
	}
	scope := syntax.Node(nil)
	for n := syntax.Node(w); n != nil; n = parent[n] {
		l, ok := n.(*syntax.List)
		if !ok {
			continue
		}
		if (forms.Head(l) == "let" || forms.Head(l) == "let*") && len(l.Elems) > 1 {
			if bl, ok := l.Elems[1].(*syntax.List); ok {
				for _, b := range bl.Elems {
					if bb, ok := b.(*syntax.List); ok && len(bb.Elems) == 2 && syntax.IsSymbol(bb.Elems[0], armName) && h.a.lexKey(armName, b) == armKey {
						scope = l
					}
				}
			}
		}
		if forms.Head(l) == "defun" && len(l.Elems) > 3 {
			if name, ok := l.Elems[1].(*syntax.Symbol); ok && h.a.paramKey(name.Name, armName) == armKey {
				scope = l
			}
		}
		if scope != nil {
			break
		}
	}
	if scope == nil {
		return nil
	}
	// The arm holds only symbols (a string naming an arm would not swap).
	if v := h.a.slotOf(h.a.scoped, armKey).v; v.other && !v.symsKnown() {
		return nil
	}
	// The arm is assigned only by the swaps, in its scope.
	okAssign := true
	syntax.Walk(scope, func(x syntax.Node) bool {
		l, ok := x.(*syntax.List)
		if !ok || !okAssign {
			return false
		}
		if h := forms.Head(l); assignHeads[h] || h == "set" || h == "symbol-value" {
			for _, y := range l.Elems[1:] {
				if syntax.IsSymbol(y, armName) && !slices.Contains(swaps, l) {
					okAssign = false
				}
			}
		}
		return true
	})
	if !okAssign {
		return nil
	}
	// The count: (var 0) of the let, changed only by one (incf var) at
	// most at the top of each clause body.
	cntKey, cntName := "", ""
	bl, ok := let.Elems[1].(*syntax.List)
	if !ok {
		return nil
	}
	incfs := map[*syntax.List]bool{}
	for _, c := range cl.Elems {
		c := c.(*syntax.List)
		for _, b := range c.Elems[2:] {
			if l, ok := b.(*syntax.List); ok && forms.Head(l) == "incf" && len(l.Elems) == 2 {
				incfs[l] = true
			}
		}
	}
	for _, b := range bl.Elems {
		bb, ok := b.(*syntax.List)
		if !ok || len(bb.Elems) != 2 {
			continue
		}
		s, ok := bb.Elems[0].(*syntax.Symbol)
		z, isInt := bb.Elems[1].(*syntax.Int)
		if !ok || !isInt || z.Value != 0 || h.a.specials[s.Name] || h.a.closureAssigned()[s.Name] {
			continue
		}
		key := h.a.lexKey(s.Name, b)
		perClause := map[*syntax.List]int{}
		good := true
		syntax.Walk(let, func(x syntax.Node) bool {
			l, ok := x.(*syntax.List)
			if !ok || !good {
				return false
			}
			if hd := forms.Head(l); assignHeads[hd] || hd == "set" || hd == "symbol-value" {
				for _, y := range l.Elems[1:] {
					if !syntax.IsSymbol(y, s.Name) {
						continue
					}
					if !incfs[l] {
						good = false
					} else if perClause[parent[l]]++; perClause[parent[l]] > 1 {
						good = false
					}
				}
			}
			return true
		})
		if good && len(perClause) > 0 {
			if cntKey != "" {
				return nil // two counts: the label names which; keep it simple
			}
			cntKey, cntName = key, s.Name
		}
	}
	if cntKey == "" {
		return nil
	}
	// The sources, in the body, of the kinds whose clauses retry: picking
	// up with the arm only; the clauses pick nothing.
	g := &gripCheck{h: h, kinds: retryKinds, memo: map[string]bool{}}
	for _, b := range w.Elems[2:] {
		if !g.ok(b, func(s *syntax.Symbol) bool { return h.a.symKey[s] == armKey }, 0) {
			return nil
		}
	}
	g.kinds = nil
	for _, c := range cl.Elems {
		for _, b := range c.(*syntax.List).Elems[2:] {
			if !g.ok(b, func(*syntax.Symbol) bool { return false }, 0) {
				return nil
			}
		}
	}
	why := fmt.Sprintf("an entry of the handler %s after the first follows a retry, every retry swaps %s for (%s %s), "+
		"which maps %s to %s and back, so the other arm is the one whose %s failed on the previous entry with %s, "+
		"which %s signals only with that arm empty; nothing picks with it since (the body picks only with %s, the clauses never) "+
		"and only %s makes an arm hold something (%s counts the entries from 0)",
		h.where(w), armName, other, armName, sig.Arms[0], sig.Arms[1], sig.Grips, strings.Join(retryKinds, " or "),
		sig.Grips, armName, sig.Grips, cntName)
	return &armRetry{armKey: armKey, cntKey: cntKey, other: other, why: why + " (" + sig.Why + ")"}
}

// gripCheck walks forms for the rule: every perform is an action written
// out; one of type Grips names an allowed arm (and with kinds nil there
// is none); no other source may signal a kind of kinds.
type gripCheck struct {
	h     *handlerAnalysis
	kinds []string
	memo  map[string]bool
}

func (g *gripCheck) caught(kind string) bool {
	for _, k := range g.kinds {
		if g.h.sig.IsKind(kind, k) {
			return true
		}
	}
	return false
}

// asValue reports whether a function named as a value may perform: perform
// itself, a plan function or a local one.
func (g *gripCheck) asValue(name string) bool {
	return name == "perform" || g.h.defs[name] != nil || g.h.local[name]
}

// ok walks n; allowed says which symbols read the arm.
func (g *gripCheck) ok(n syntax.Node, allowed func(*syntax.Symbol) bool, depth int) bool {
	h := g.h
	sig := h.sig
	if depth > 8 {
		return false
	}
	good := true
	syntax.Walk(n, func(x syntax.Node) bool {
		if !good {
			return false
		}
		switch x := x.(type) {
		case *syntax.Quote:
			// 'perform or 'f may be called through (mapcar 'f ...).
			if q, ok := x.X.(*syntax.Symbol); ok && g.asValue(q.Name) {
				good = false
			}
			return false
		case *syntax.Symbol:
			// Heads are skipped below: a function named here is a value
			// (#'f), which a call may run with anything.
			if g.asValue(x.Name) {
				good = false
			}
			return true
		case *syntax.List:
			if len(x.Elems) == 0 {
				return false
			}
			head := forms.Head(x)
			switch {
			case head == "quote":
				return false
			case head == "perform":
				if h.defs["perform"] != nil || h.local["perform"] || h.res.IsUserFunc("perform") {
					good = false
					return false
				}
				typ, props, known := actionDesig(x)
				if !known {
					good = false
					return false
				}
				sigs, listed := sig.Actions[typ]
				if !listed {
					sigs = sig.Unknown
				}
				if typ == sig.Grips {
					arm, isSym := props[sig.GripKey].(*syntax.Symbol)
					if !isSym || !allowed(arm) {
						good = false
						return false
					}
				}
				for _, sg := range sigs {
					if g.caught(sg.Kind) && (typ != sig.Grips || !slices.Contains(sig.GripFreeKinds, sg.Kind)) {
						good = false
						return false
					}
				}
				// Walk the properties' values, not the head.
				for _, e := range x.Elems[1:] {
					if !g.ok(e, allowed, depth) {
						good = false
					}
				}
				return false
			case head == "fail" && h.defs["fail"] == nil && !h.local["fail"]:
				q, isQ := argAt(x, 1).(*syntax.Quote)
				if !isQ {
					good = false
					return false
				}
				if k, isSym := q.X.(*syntax.Symbol); !isSym || g.caught(k.Name) {
					good = false
					return false
				}
			case h.local[head] || dynamicCall(x) || head == "funcall" || head == "apply":
				good = false
				return false
			case h.defs[head] != nil:
				if !g.call(head, x, allowed, depth) {
					good = false
					return false
				}
			case sig.Queries[head] != nil:
				for _, sg := range sig.Queries[head] {
					if g.caught(sg.Kind) {
						good = false
						return false
					}
				}
			}
			// Skip the head symbol (a call's name is no value).
			for _, e := range x.Elems[1:] {
				if !g.ok(e, allowed, depth) {
					good = false
				}
			}
			return false
		}
		return true
	})
	return good
}

// call checks a call of plan function fn: its body, where a parameter
// the call passes an allowed arm to (and nothing assigns) reads the arm.
func (g *gripCheck) call(fn string, l *syntax.List, allowed func(*syntax.Symbol) bool, depth int) bool {
	h := g.h
	f := h.defs[fn]
	if h.dup[fn] || forms.Head(f) != "defun" || len(f.Elems) < 4 {
		return false
	}
	ps, ok := f.Elems[2].(*syntax.List)
	if !ok || len(ps.Elems) != len(l.Elems)-1 {
		return false
	}
	var armParams []string
	key := fn
	for i, p := range ps.Elems {
		s, ok := p.(*syntax.Symbol)
		if !ok || strings.HasPrefix(s.Name, "&") {
			return false
		}
		if a, isSym := l.Elems[i+1].(*syntax.Symbol); isSym && allowed(a) {
			k := h.a.paramKey(fn, s.Name)
			if k == "" || h.a.assignedKeys[k] || h.a.closureAssigned()[s.Name] {
				return false
			}
			armParams = append(armParams, k)
			key += "\x00" + s.Name
		}
	}
	key += fmt.Sprintf("\x00%v", g.kinds != nil)
	if r, seen := g.memo[key]; seen {
		return r
	}
	g.memo[key] = false // pending: a recursive call is refused
	inner := func(s *syntax.Symbol) bool { return slices.Contains(armParams, h.a.symKey[s]) }
	r := true
	for _, b := range f.Elems[3:] {
		if !g.ok(b, inner, depth+1) {
			r = false
			break
		}
	}
	g.memo[key] = r
	return r
}
