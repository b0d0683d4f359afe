package feasible

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// Counts a retry handler stores in a list's entries. A plan that counts
// its own tries next to a global count of failures, as in
//
//	(defun serve (type)
//	  (let ((tries 0))
//	    (with-failure-handling ((plan-failure (e)
//	                              (incf *attempts*) (incf tries)
//	                              (if (< *attempts* *max-attempts*) (retry) (list type 'gave-up tries))))
//	      ...
//	      (setq *attempts* 0)
//	      (list type 'served tries))))
//	... (push (serve type) *report*) ...
//	(def-check c () (dolist (entry *report*) ... (< (third entry) *max-attempts*) ...))
//
// never stores a count above the bound: tries <= *attempts* whenever the
// clause tests, so a retry happens only with tries < *max-attempts*. The
// conditions, checked on the text: T is a local counter (counters.go)
// bound to 0 by a let L, and changed only by one (incf T), a top-level
// form of a clause C of a with-failure-handling W that runs once per
// binding (a body form of L, through progn, let and let* only); C has
// also one top-level (incf G), G a global counter (>= 0, changed only by
// (incf G) and (setq G 0)), and every (retry) of C is the then-branch of
// a top-level (if (< G K) (retry) ...) or (when (< G K) (retry)) after
// both increments, K a number the value analysis bounds by U; W's
// clauses hold no other handler (so each retry in them restarts W).
// Every other change of G is a (setq G 0) in W's body after which the
// body only builds its value (nothing there can fail, so no clause runs
// after it), or lies in a function that no code in W or a policy (run
// after every action) names, transitively, nor the one W is in (which
// would run again inside W). Then, by induction over the
// runs of W's body, T <= G when each run starts (T = 0 <= G first; C
// adds one to both; G does not change while the body runs up to a
// failure) and T <= max(0, U-1): a retry from C needs G < K <= U, and a
// retry from another clause changes neither. So T <= max(0, U-1) in W's
// body and its other clauses, and T <= max(0, U-1)+1 in C.
//
// A label whose predicate reads elements of the entry E of a
// (dolist (E R) ...) around it, R a global defined as nil that only push
// and pop change (no binding, no other assignment), is judged on what
// each push may put on R: the value of its argument through if, progn,
// let, let*, with-failure-handling (the body's last form and each
// clause's; a retry returns nothing) and calls of plan functions (their
// last form; no return or return-from in them) must end in (list ...)
// forms, whose elements are quoted symbols, integers or such counters.
// When no such list meets all the conjuncts the predicate reads of E's
// elements (eq with a quoted symbol, a comparison of an integer element
// with a number the value analysis bounds), the label is infeasible.

// retryCountVerdicts marks such labels of ls infeasible.
func retryCountVerdicts(res *normalize.Result, a *valueAnalysis, show func(syntax.Node) string, entry string, ls []*pathLabel) {
	if a == nil || entry == "" {
		return
	}
	var rc *retryCounts
	untemped := map[*syntax.List]syntax.Node{}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		var cs []entryTest
		var e *syntax.Symbol
		for _, c := range conjuncts(pl.pred) {
			t, ok := readEntryTest(res, untempMemo(res, c, untemped))
			if !ok || e != nil && t.e.Name != e.Name {
				continue
			}
			e = t.e
			cs = append(cs, t)
		}
		if e == nil || !slices.ContainsFunc(cs, func(t entryTest) bool { return t.num }) {
			continue
		}
		if rc == nil {
			h := &handlerAnalysis{res: res, a: a, show: show}
			h.collectDefs()
			h.findSites()
			if h.dynamic {
				return
			}
			rc = &retryCounts{h: h, parent: parentMap(h), lists: map[string]*listEntries{}, bounds: map[syntax.Node]*countBound{}}
		}
		list, loop, ok := rc.entryList(e, pl.l.Point)
		if !ok {
			continue
		}
		ents := rc.entries(list)
		if ents == nil {
			continue
		}
		if why, ok := rc.never(cs, ents); ok {
			pl.l.Status = labels.Infeasible
			pl.l.Reason = fmt.Sprintf("%s cannot hold: %s is an element of %s (%s), %s; %s",
				show(pl.pred), e.Name, list, rc.h.where(loop), ents.why, why)
		}
	}
}

// entryTest is a conjunct over element idx of entry e: (eq (NTH e) 'sym)
// (want says its truth) or (OP (NTH e) K) (num).
type entryTest struct {
	c    syntax.Node
	e    *syntax.Symbol
	idx  int
	num  bool
	sym  string
	want bool
	op   string // <, <=, >, >=, =, /= with the element on the left
	k    syntax.Node
}

var elemIndex = map[string]int{"first": 0, "car": 0, "second": 1, "cadr": 1, "third": 2, "caddr": 2, "fourth": 3}

// readEntryTest reads c as a test of one element of a variable.
func readEntryTest(res *normalize.Result, c syntax.Node) (entryTest, bool) {
	want := true
	for forms.Head(c) == "not" || forms.Head(c) == "null" {
		l := c.(*syntax.List)
		if len(l.Elems) != 2 {
			return entryTest{}, false
		}
		want = !want
		c = untempAll(res, l.Elems[1])
	}
	l := asList(c)
	if l == nil || len(l.Elems) != 3 || res.IsUserFunc(forms.Head(l)) {
		return entryTest{}, false
	}
	elem := func(n syntax.Node) (*syntax.Symbol, int, bool) {
		x := asList(n)
		if x == nil || len(x.Elems) != 2 || res.IsUserFunc(forms.Head(x)) {
			return nil, 0, false
		}
		i, ok := elemIndex[forms.Head(x)]
		s, isSym := x.Elems[1].(*syntax.Symbol)
		return s, i, ok && isSym && !res.IsTemp(s.Name)
	}
	switch op := forms.Head(l); op {
	case "eq", "eql":
		for i := 1; i <= 2; i++ {
			e, idx, ok := elem(l.Elems[i])
			q, isQ := l.Elems[3-i].(*syntax.Quote)
			if !ok || !isQ {
				continue
			}
			if s, ok := q.X.(*syntax.Symbol); ok && s.Pkg == "" {
				return entryTest{c: c, e: e, idx: idx, sym: s.Name, want: want}, true
			}
		}
	case "<", "<=", ">", ">=", "=", "/=":
		if e, idx, ok := elem(l.Elems[1]); ok {
			return entryTest{c: c, e: e, idx: idx, num: true, op: negOp(op, want), k: l.Elems[2]}, true
		}
		if e, idx, ok := elem(l.Elems[2]); ok {
			return entryTest{c: c, e: e, idx: idx, num: true, op: negOp(mirrorOp(op), want), k: l.Elems[1]}, true
		}
	}
	return entryTest{}, false
}

func mirrorOp(op string) string {
	return map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "/=": "/="}[op]
}

// negOp is op when want, its negation otherwise (both operands are
// numbers where the comparison returns at all).
func negOp(op string, want bool) string {
	if want {
		return op
	}
	return map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "=": "/=", "/=": "="}[op]
}

type retryCounts struct {
	h      *handlerAnalysis
	parent map[syntax.Node]*syntax.List
	lists  map[string]*listEntries
	bounds map[syntax.Node]*countBound // by let binding
	reach  map[*syntax.List]map[string]bool
}

// listEntries are the (list ...) forms whose values a list may hold.
type listEntries struct {
	forms []*syntax.List
	why   string
}

// countBound is what the retry handler keeps of a counter.
type countBound struct {
	ok           bool
	w            *syntax.List // the with-failure-handling
	clause       *syntax.List // C
	hi           float64      // T <= hi outside C, hi+1 in C
	why, counter string
}

// entryList is the global list whose dolist binds e around point.
func (rc *retryCounts) entryList(e *syntax.Symbol, point syntax.Node) (string, *syntax.List, bool) {
	a := rc.h.a
	cp := &countPairs{h: rc.h}
	key := cp.keyAt(e, point)
	if key == "" || a.assignedKeys[key] {
		return "", nil, false
	}
	for n, depth := point, 0; depth < 400; depth++ {
		p := rc.parent[n]
		if p == nil {
			return "", nil, false
		}
		if forms.Head(p) == "dolist" && slices.Index(p.Elems, n) >= 2 {
			spec := asList(argAt(p, 1))
			if spec != nil && len(spec.Elems) == 2 {
				v, ok := spec.Elems[0].(*syntax.Symbol)
				if ok && v.Name == e.Name {
					r, ok := spec.Elems[1].(*syntax.Symbol)
					if a.lexKey(v.Name, v) != key || !ok || !a.specials[r.Name] {
						return "", nil, false
					}
					return r.Name, p, true
				}
			}
		}
		n = p
	}
	return "", nil, false
}

// entries are what global r may hold, nil when unknown.
func (rc *retryCounts) entries(r string) *listEntries {
	if le, ok := rc.lists[r]; ok {
		return le
	}
	rc.lists[r] = nil
	h := rc.h
	var out []*syntax.List
	var pushes []string
	defs := 0
	bad := false
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			l := asList(n)
			if bad || l == nil {
				return !bad
			}
			head := forms.Head(l)
			switch {
			case head == "quote":
				return false
			case head == "defparameter" || head == "defvar" || head == "defconstant":
				if isSym(argAt(l, 1), r) {
					defs++
					if len(l.Elems) != 3 || !isNilNode(l.Elems[2]) {
						bad = true
					}
				}
			case head == "push" && len(l.Elems) == 3 && isSym(l.Elems[2], r):
				ps, ok := rc.producers(l.Elems[1], 0, map[string]bool{})
				if !ok {
					bad = true
					return false
				}
				out = append(out, ps...)
				pushes = append(pushes, h.where(l))
			case head == "pop" && len(l.Elems) == 2 && isSym(l.Elems[1], r):
			case bindsGlobal(l, r):
				bad = true
			default:
				if f := forms.Lookup(head); f != nil && f.Effect == forms.Assign {
					for _, x := range l.Elems[1:] {
						if mentions(x, r) && (f.Shape == forms.Places || x == argAt(l, f.Place)) {
							bad = true
						}
					}
				}
			}
			return !bad
		})
	}
	if bad || defs != 1 || len(out) == 0 {
		return nil
	}
	var shown []string
	for _, p := range out {
		s := h.where(p)
		if b := rc.elemBoundNote(p); b != "" {
			s += " " + b
		}
		shown = append(shown, s)
	}
	le := &listEntries{forms: out, why: fmt.Sprintf("defined as nil and changed only by %s (and pop), whose values are %s", strings.Join(pushes, ", "), strings.Join(shown, ", "))}
	rc.lists[r] = le
	return le
}

func isNilNode(n syntax.Node) bool {
	if isSym(n, "nil") {
		return true
	}
	q, ok := n.(*syntax.Quote)
	if !ok {
		return false
	}
	l, ok := q.X.(*syntax.List)
	return ok && len(l.Elems) == 0
}

// bindsGlobal reports whether binder l binds name.
func bindsGlobal(l *syntax.List, name string) bool {
	switch h := forms.Head(l); {
	case h == "let" || h == "let*" || h == "with-retry-counters":
		return bindsName(asList(argAt(l, 1)), name)
	case h == "dolist" || h == "dotimes":
		spec := asList(argAt(l, 1))
		return spec == nil || len(spec.Elems) == 0 || isSym(spec.Elems[0], name)
	case h == "defun" || h == "def-cram-function" || h == "def-plan" || h == "def-check" || h == "def-policy":
		return mentions(argAt(l, 2), name)
	case h == "with-failure-handling":
		if cl := asList(argAt(l, 1)); cl != nil {
			for _, c := range cl.Elems {
				if cc := asList(c); cc != nil && mentions(argAt(cc, 1), name) {
					return true
				}
			}
		}
	case binderForms[h]:
		return mentions(l, name)
	}
	return false
}

// producers are the (list ...) forms whose values n may return.
func (rc *retryCounts) producers(n syntax.Node, depth int, seen map[string]bool) ([]*syntax.List, bool) {
	h := rc.h
	if depth > 40 {
		return nil, false
	}
	n = unwrapTemps(h.res, untemp(h.res, n))
	l := asList(n)
	if l == nil || rc.parent[l] == nil {
		return nil, false
	}
	last := func(xs []syntax.Node) ([]*syntax.List, bool) {
		if len(xs) == 0 {
			return nil, false
		}
		return rc.producers(xs[len(xs)-1], depth+1, seen)
	}
	switch head := forms.Head(l); {
	case head == "list":
		return []*syntax.List{l}, true
	case head == "retry":
		return nil, true // never returns
	case head == "if":
		if len(l.Elems) != 4 {
			return nil, false
		}
		a, ok1 := rc.producers(l.Elems[2], depth+1, seen)
		b, ok2 := rc.producers(l.Elems[3], depth+1, seen)
		return append(a, b...), ok1 && ok2
	case head == "progn":
		return last(l.Elems[1:])
	case head == "let" || head == "let*":
		if len(l.Elems) < 3 {
			return nil, false
		}
		return last(l.Elems[2:])
	case head == "with-failure-handling":
		cl := asList(argAt(l, 1))
		if cl == nil || len(l.Elems) < 3 {
			return nil, false
		}
		out, ok := last(l.Elems[2:])
		if !ok {
			return nil, false
		}
		for _, c := range cl.Elems {
			cc := asList(c)
			if cc == nil || len(cc.Elems) < 3 || hasReturn(cc) {
				return nil, false
			}
			ps, ok := last(cc.Elems[2:])
			if !ok {
				return nil, false
			}
			out = append(out, ps...)
		}
		return out, true
	case h.res.IsUserFunc(head) || h.defs[head] != nil:
		d := h.defs[head]
		if d == nil || h.dup[head] || h.local[head] || forms.Head(d) != "defun" || seen[head] || len(d.Elems) < 4 || hasReturn(d) {
			return nil, false
		}
		seen[head] = true
		defer delete(seen, head)
		return last(d.Elems[3:])
	}
	return nil, false
}

// elemBoundNote says what bounds the counters of list form p.
func (rc *retryCounts) elemBoundNote(p *syntax.List) string {
	var notes []string
	for _, x := range p.Elems[1:] {
		if s, ok := x.(*syntax.Symbol); ok {
			if lo, hi, ok := rc.counterAt(s, p); ok {
				notes = append(notes, fmt.Sprintf("%s in [%s, %s]", s.Name, numString(lo), numString(hi)))
			}
		}
	}
	if len(notes) == 0 {
		return ""
	}
	return "with " + strings.Join(notes, ", ")
}

// elemVal is what element idx of list form p is: a symbol, or integers
// in [lo, hi]; known false when nothing is known.
func (rc *retryCounts) elemVal(p *syntax.List, idx int) (sym string, lo, hi float64, num, known bool) {
	x := argAt(p, idx+1)
	switch x := x.(type) {
	case *syntax.Quote:
		if s, ok := x.X.(*syntax.Symbol); ok && s.Pkg == "" {
			return s.Name, 0, 0, false, true
		}
	case *syntax.Int:
		return "", float64(x.Value), float64(x.Value), true, true
	case *syntax.Symbol:
		if lo, hi, ok := rc.counterAt(x, p); ok {
			return "", lo, hi, true, true
		}
	}
	return "", 0, 0, false, false
}

// never says why no entry meets all of cs, when none does.
func (rc *retryCounts) never(cs []entryTest, ents *listEntries) (string, bool) {
	a := rc.h.a
	var notes []string
	for _, p := range ents.forms {
		fails := ""
		for _, t := range cs {
			sym, lo, hi, num, known := rc.elemVal(p, t.idx)
			if !known {
				continue
			}
			if !t.num {
				if !num && (sym == t.sym) != t.want {
					fails = fmt.Sprintf("%s fails for %s", rc.h.show(t.c), syntax.NodeString(p))
				}
				if num && t.want {
					fails = fmt.Sprintf("%s fails for %s", rc.h.show(t.c), syntax.NodeString(p))
				}
				if fails != "" {
					break
				}
				continue
			}
			if !num {
				continue // a symbol makes the comparison signal: left to the others
			}
			k := a.ev(t.k, 0)
			if !k.num || k.other || k.nan || !k.finite() {
				continue
			}
			if !cmpMay(t.op, lo, hi, k.lo, k.hi) {
				fails = fmt.Sprintf("%s %s %s fails for %s (%s in [%s, %s], %s in [%s, %s])",
					syntax.NodeString(argAt(p, t.idx+1)), t.op, rc.h.show(t.k), syntax.NodeString(p),
					syntax.NodeString(argAt(p, t.idx+1)), numString(lo), numString(hi), rc.h.show(t.k), fmtNum(k.lo), fmtNum(k.hi))
				break
			}
		}
		if fails == "" {
			return "", false
		}
		notes = append(notes, fails)
	}
	bounds := map[string]bool{}
	var whys []string
	for _, p := range ents.forms {
		for _, x := range p.Elems[1:] {
			if s, ok := x.(*syntax.Symbol); ok {
				if b := rc.boundOf(s, p); b != nil && b.ok && !bounds[b.why] {
					bounds[b.why] = true
					whys = append(whys, b.why)
				}
			}
		}
	}
	out := strings.Join(notes, "; ")
	if len(whys) > 0 {
		out += "; " + strings.Join(whys, "; ")
	}
	return out, true
}

// cmpMay reports whether x op k may hold for integer x in [lo, hi] and k
// in [klo, khi].
func cmpMay(op string, lo, hi, klo, khi float64) bool {
	switch op {
	case "<":
		return lo < khi
	case "<=":
		return lo <= khi
	case ">":
		return hi > klo
	case ">=":
		return hi >= klo
	case "=":
		return lo <= khi && klo <= hi
	case "/=":
		return !(lo == hi && klo == khi && lo == klo)
	}
	return true
}

// counterAt is the range of counter s read at node at.
func (rc *retryCounts) counterAt(s *syntax.Symbol, at syntax.Node) (float64, float64, bool) {
	b := rc.boundOf(s, at)
	if b == nil || !b.ok {
		return 0, 0, false
	}
	in := false
	for n := at; n != nil && n != syntax.Node(b.w); n = rc.parent[n] {
		if n == syntax.Node(b.clause) {
			in = true
		}
	}
	if in {
		return 0, b.hi + 1, true
	}
	return 0, b.hi, true
}

// boundOf is the retry bound of the binding s reads at node at, which
// must lie in the with-failure-handling that keeps it.
func (rc *retryCounts) boundOf(s *syntax.Symbol, at syntax.Node) *countBound {
	a := rc.h.a
	if a.specials[s.Name] || a.counters[s.Name] != counterNote {
		return nil
	}
	key, met := a.symKey[s]
	if !met || key == conflictKey || key == "" {
		return nil
	}
	// The let that binds it, and the with-failure-handling at holds.
	var w *syntax.List
	for n, depth := at, 0; depth < 400; depth++ {
		p := rc.parent[n]
		if p == nil {
			return nil
		}
		if forms.Head(p) == "with-failure-handling" {
			w = p
		}
		if forms.Head(p) == "let" || forms.Head(p) == "let*" {
			if bl := asList(argAt(p, 1)); bl != nil {
				for _, b := range bl.Elems {
					bb := asList(b)
					if bb != nil && isSym(argAt(bb, 0), s.Name) && a.lexKey(s.Name, bb) == key {
						if b, ok := rc.bounds[bb]; ok {
							if b.ok && b.w != w {
								return nil
							}
							return b
						}
						b := rc.retryBound(p, bb, s.Name, key)
						rc.bounds[bb] = b
						if b.ok && b.w != w {
							return nil
						}
						return b
					}
				}
			}
		}
		n = p
	}
	return nil
}

// retryBound checks the conditions above for counter name (binding bb
// of let l, key key).
func (rc *retryCounts) retryBound(l, bb *syntax.List, name, key string) *countBound {
	h, a := rc.h, rc.h.a
	no := &countBound{}
	if i, ok := argAt(bb, 1).(*syntax.Int); !ok || i.Value != 0 || len(bb.Elems) != 2 {
		return no
	}
	// The one (incf T) of the plan.
	var inc *syntax.List
	n := 0
	for _, f := range h.res.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			if il := asList(x); il != nil && forms.Head(il) == "incf" && len(il.Elems) >= 2 {
				if s, ok := il.Elems[1].(*syntax.Symbol); ok && s.Name == name {
					if k, met := a.symKey[s]; !met || k == key || k == conflictKey {
						n++
						inc = il
					}
				}
			}
			return true
		})
	}
	if n != 1 || len(inc.Elems) != 2 {
		return no
	}
	clause := rc.parent[inc]
	cl := rc.parent[clause]
	w := rc.parent[cl]
	if clause == nil || cl == nil || w == nil || forms.Head(w) != "with-failure-handling" || argAt(w, 1) != syntax.Node(cl) || slices.Index(clause.Elems, syntax.Node(inc)) < 2 {
		return no
	}
	// W runs once per binding.
	if !rc.throughBodies(w, l, false, nil) {
		return no
	}
	// No other handler in the clauses: each retry there restarts W.
	for _, c := range cl.Elems {
		bad := false
		syntax.Walk(c, func(x syntax.Node) bool {
			if hh := forms.Head(x); hh == "with-failure-handling" || hh == "handler-case" || hh == "with-retry-counters" || hh == "do-retry" {
				bad = true
			}
			return !bad
		})
		if bad {
			return no
		}
	}
	// The (incf G) of C.
	var ginc *syntax.List
	var g string
	for _, x := range clause.Elems[2:] {
		il := asList(x)
		if il == nil || forms.Head(il) != "incf" || len(il.Elems) != 2 || il == inc {
			continue
		}
		s, ok := il.Elems[1].(*syntax.Symbol)
		if !ok || !a.specials[s.Name] || (a.counters[s.Name] != globalCounterNote && a.counters[s.Name] != resetCounterNote) {
			continue
		}
		if ginc != nil {
			return no
		}
		ginc, g = il, s.Name
	}
	if ginc == nil {
		return no
	}
	after := max(slices.Index(clause.Elems, syntax.Node(inc)), slices.Index(clause.Elems, syntax.Node(ginc)))
	// Every retry of C is guarded by (< G K) after both increments.
	var bound, btest syntax.Node
	hi := 0.0
	okRetries := true
	syntax.Walk(clause, func(x syntax.Node) bool {
		if forms.Head(x) != "retry" || !okRetries {
			return okRetries
		}
		test := asList(rc.parent[x])
		i := slices.Index(clause.Elems, syntax.Node(test))
		if test == nil || i <= after || !(forms.Head(test) == "if" || forms.Head(test) == "when") || argAt(test, 2) != x {
			okRetries = false
			return false
		}
		k, ok := belowTest(h.res, test.Elems[1], g)
		if !ok {
			okRetries = false
			return false
		}
		v := a.ev(k, 0)
		if !v.num || v.other || v.nan || !v.finite() {
			okRetries = false
			return false
		}
		if bound == nil || v.hi > hi {
			bound, btest, hi = k, test.Elems[1], v.hi
		}
		return true
	})
	if !okRetries || bound == nil {
		return no
	}
	// A retry needs G < K <= hi, G an integer: G <= ceil(hi)-1.
	u := max(0, ceilF(hi)-1)
	// Every other change of G.
	fn := rc.defOf(w)
	reach := rc.reachable(w)
	if fn == nil || reach == nil || reach[defName(fn)] {
		return no
	}
	var resets []string
	ok := true
	for _, f := range h.res.Forms {
		if h.res.Skipped(f) || !ok {
			continue
		}
		syntax.Walk(f, func(x syntax.Node) bool {
			xl := asList(x)
			if xl == nil || !ok {
				return ok
			}
			hd := forms.Head(xl)
			if (hd != "incf" && hd != "setq") || !isSym(argAt(xl, 1), g) || xl == ginc {
				return true
			}
			if inside(rc.parent, xl, w) {
				if hd != "setq" || !rc.resetLast(xl, w) {
					ok = false
				}
				resets = append(resets, h.where(xl))
				return true
			}
			// Top-level code (d == nil) never runs inside W.
			if d := rc.defOf(xl); d != nil && reach[defName(d)] {
				ok = false
			}
			return ok
		})
	}
	if !ok {
		return no
	}
	why := fmt.Sprintf("%s starts at 0 (%s) and changes only by %s in the clause %s, next to %s (%s: never below 0)",
		name, h.where(bb), h.show(inc), h.where(clause), h.show(ginc), g)
	if len(resets) > 0 {
		why += fmt.Sprintf(", and %s changes in the body only by %s, after which the body cannot fail", g, strings.Join(resets, ", "))
	}
	why += fmt.Sprintf(", nowhere else in the code the handler runs; the clause retries only when %s held, %s <= %s, so %s <= %s when the body starts: %s <= %s in the body and the other clauses, <= %s in the clause",
		h.show(btest), h.show(bound), numString(hi), name, g, name, numString(u), numString(u+1))
	return &countBound{ok: true, w: w, clause: clause, hi: float64(u), why: why, counter: name}
}

// belowTest reads t as (< G K), (> K G) or (not (>= G K)); it returns K.
func belowTest(res *normalize.Result, t syntax.Node, g string) (syntax.Node, bool) {
	t = untempAll(res, t)
	l := asList(t)
	if l == nil {
		return nil, false
	}
	if forms.Head(l) == "not" && len(l.Elems) == 2 {
		in := asList(untempAll(res, l.Elems[1]))
		if in == nil || forms.Head(in) != ">=" || len(in.Elems) != 3 || !isSym(in.Elems[1], g) {
			return nil, false
		}
		return in.Elems[2], true
	}
	if len(l.Elems) != 3 {
		return nil, false
	}
	switch forms.Head(l) {
	case "<":
		if isSym(l.Elems[1], g) {
			return l.Elems[2], true
		}
	case ">":
		if isSym(l.Elems[2], g) {
			return l.Elems[1], true
		}
	}
	return nil, false
}

func ceilF(x float64) float64 { return math.Ceil(x) }

// defName is the name a definition defines.
func defName(d *syntax.List) string {
	if s, ok := argAt(d, 1).(*syntax.Symbol); ok {
		return forms.Name(s)
	}
	return ""
}

// defOf is the definition (defun, def-plan, def-check, ...) n is in,
// nil for other top-level code.
func (rc *retryCounts) defOf(n syntax.Node) *syntax.List {
	for depth := 0; depth < 1000; depth++ {
		p := rc.parent[n]
		if p == nil {
			l := asList(n)
			switch forms.Head(n) {
			case "defun", "def-cram-function", "def-plan", "def-check", "def-policy":
				if defName(l) != "" {
					return l
				}
			}
			return nil
		}
		n = p
	}
	return nil
}

// reachable are the names of the definitions code in w may run: the
// policies and those any symbol in w or them names, transitively; nil
// when local functions make that unclear.
func (rc *retryCounts) reachable(w *syntax.List) map[string]bool {
	if rc.reach == nil {
		rc.reach = map[*syntax.List]map[string]bool{}
	}
	if r, ok := rc.reach[w]; ok {
		return r
	}
	h := rc.h
	out := map[string]bool{}
	// The policies run after every action, inside W too.
	todo := []syntax.Node{w}
	dup := false
	for _, f := range h.res.Forms {
		if forms.Head(f) == "def-policy" && !h.res.Skipped(f) {
			out[defName(f.(*syntax.List))] = true
			todo = append(todo, f)
		}
	}
	for len(todo) > 0 {
		r := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		syntax.Walk(r, func(n syntax.Node) bool {
			if s, ok := n.(*syntax.Symbol); ok {
				name := forms.Name(s)
				if h.dup[name] {
					dup = true // which definition runs: leave it to other rules
				}
				if d := h.defs[name]; d != nil && !out[name] {
					out[name] = true
					todo = append(todo, d)
				}
			}
			return true
		})
	}
	if len(h.local) > 0 || dup {
		out = nil // local functions: leave them to other rules
	}
	rc.reach[w] = out
	return out
}

// inside reports whether n lies in w.
func inside(parent map[syntax.Node]*syntax.List, n syntax.Node, w *syntax.List) bool {
	for depth := 0; n != nil && depth < 1000; depth++ {
		if n == syntax.Node(w) {
			return true
		}
		n = parent[n]
	}
	return false
}

// resetLast reports whether x, a (setq G 0), lies in W's body where
// only forms that cannot fail follow it (through progn, let and let*).
func (rc *retryCounts) resetLast(x, w *syntax.List) bool {
	if z, ok := argAt(x, 2).(*syntax.Int); !ok || z.Value != 0 || len(x.Elems) != 3 {
		return false
	}
	return rc.throughBodies(x, w, true, func(p *syntax.List, i int) bool {
		for _, s := range p.Elems[i+1:] {
			if !rc.cannotFail(s) {
				return false
			}
		}
		return true
	})
}

// throughBodies reports whether x lies in top through body forms of
// progn, let, let* and (with wfh) with-failure-handling only, and f
// (when not nil) accepts each of those parents with x's index there.
func (rc *retryCounts) throughBodies(x, top syntax.Node, wfh bool, f func(p *syntax.List, i int) bool) bool {
	for n := x; n != top; {
		p := rc.parent[n]
		if p == nil {
			return false
		}
		i := slices.Index(p.Elems, n)
		switch forms.Head(p) {
		case "progn":
			if i < 1 {
				return false
			}
		case "let", "let*":
			if i < 2 {
				return false
			}
		case "with-failure-handling":
			if !wfh || i < 2 {
				return false
			}
		default:
			return false
		}
		if f != nil && !f(p, i) {
			return false
		}
		n = p
	}
	return true
}

// cannotFail reports whether evaluating n never signals: constants,
// variables in scope and (list ...) or (cons ...) of such.
func (rc *retryCounts) cannotFail(n syntax.Node) bool {
	a := rc.h.a
	switch x := n.(type) {
	case *syntax.Int, *syntax.String, *syntax.Keyword, *syntax.Quote, *syntax.Float:
		return true
	case *syntax.Symbol:
		if x.Name == "nil" || x.Name == "t" || a.specials[x.Name] {
			return true
		}
		k, met := a.symKey[x]
		return met && k != conflictKey && k != ""
	case *syntax.List:
		if hd := forms.Head(x); (hd != "list" && hd != "cons") || rc.h.res.IsUserFunc(hd) || rc.h.defs[hd] != nil {
			return false
		}
		if forms.Head(x) == "cons" && len(x.Elems) != 3 {
			return false
		}
		for _, e := range x.Elems[1:] {
			if !rc.cannotFail(e) {
				return false
			}
		}
		return true
	}
	return false
}
