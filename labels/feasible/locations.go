package feasible

import (
	"fmt"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Where the robot stands, through loops, calls and failure handlers.
// The simulator declares that only its moving action changes where the
// robot stands, and that a move to a location by name returns only with
// the robot there, (robot-location) then naming it (domain.Signals.Moves).
// A form's locations are found walking up from it to the body it lies in:
//   - a call (go-to X) of a function that returns only with the robot at
//     its parameter, earlier in the same body with nothing that may
//     navigate in between, leaves the robot at X's values;
//   - a loop that never navigates (its list, test and body) leaves the
//     robot where it was when the loop started;
//   - a defun reached from its body's start (or one that never navigates
//     at all) starts where its callers stand: the union over every call
//     of it, when it is only called by name (no #'f nor 'f anywhere, no
//     call through a value in the plan) and no argument navigates;
//   - a failure handler's clause reached from its body's start (or one
//     that never navigates) starts where a failure it catches was
//     signalled: the union, over every perform, query and (fail ...) that
//     its with-failure-handling's body reaches (through the functions it
//     calls) and that may signal a kind the clause catches, of where the
//     robot stands at that form (a move that may fail makes it unknown);
//   - any other enclosing form needs its defun or clause never to
//     navigate: the robot then stands where it started.
// A conjunct (eq (robot-location) 'S), (member (robot-location) '(S...))
// or its negation that no such location satisfies makes a label
// infeasible (robotLocationVerdicts); the detecting loops of detects.go
// read the same locations.

// maxLocDepth bounds the chain of calls and handlers followed.
const maxLocDepth = 6

// parentMap maps every node of the plan's forms to the list holding it.
func (h *handlerAnalysis) parentMap() map[syntax.Node]*syntax.List {
	if h.parents == nil {
		h.parents = parentsOf(h.res.Forms, h.res.Skipped)
	}
	return h.parents
}

// parentsOf maps every node of xs (but those skip says) to the list
// holding it.
func parentsOf(xs []syntax.Node, skip func(syntax.Node) bool) map[syntax.Node]*syntax.List {
	out := map[syntax.Node]*syntax.List{}
	for _, f := range xs {
		if skip != nil && skip(f) {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok {
				for _, e := range l.Elems {
					out[e] = l
				}
			}
			return true
		})
	}
	return out
}

// negated strips one not from c: the form under it, and whether it did.
func negated(c syntax.Node) (syntax.Node, bool) {
	if l, ok := c.(*syntax.List); ok && forms.Head(l) == "not" && len(l.Elems) == 2 {
		return l.Elems[1], true
	}
	return c, false
}

// hasPolicy reports whether the plan defines a def-policy, which runs
// after every action and may change what a loop reads.
func (h *handlerAnalysis) hasPolicy() bool {
	for _, f := range h.res.Forms {
		if forms.Head(f) == "def-policy" {
			return true
		}
	}
	return false
}

// locationAt returns the locations the robot may stand at when form n
// starts, with why (for reasons: "after (go-to X) t.plan:3:5").
func (h *handlerAnalysis) locationAt(n syntax.Node, depth int) ([]string, string, bool) {
	if depth > maxLocDepth || h.a == nil || h.sig.Moves == "" {
		return nil, "", false
	}
	parent := h.parentMap()
	// before looks for a go-to among body[from:i] from i-1 down, nothing
	// navigating after it.
	before := func(p *syntax.List, from, i int) (locs []string, why string, found, blocked bool) {
		for j := i - 1; j >= from; j-- {
			if locs, ok := h.goTo(p.Elems[j]); ok {
				return locs, "after " + h.where(p.Elems[j]), true, false
			}
			if h.mayNavigate(p.Elems[j], 0) {
				return nil, "", false, true
			}
		}
		return nil, "", false, false
	}
	for steps := 0; steps < 64; steps++ {
		p := parent[n]
		if p == nil {
			return nil, "", false
		}
		head := forms.Head(p)
		i := slices.Index(p.Elems, n)
		loop := head == "dolist" || head == "dotimes" || head == "while"
		switch {
		case head == "dolist" && i == 1:
			// n is the loop's spec: its list comes first.
		case i == 1 && len(p.Elems) >= 2 && forms.Head(parent[p]) == "dolist" && parent[p].Elems[1] == syntax.Node(p):
			// n is the list of a loop's spec (VAR LIST).
		case head == "with-failure-handling" && i == 2:
			// The body's first form; a retry reruns it after a clause.
			if cl, ok := p.Elems[1].(*syntax.List); !ok || h.mayNavigate(cl, 0) {
				return nil, "", false
			}
		case h.isClause(p) && i >= 2:
			// A handler clause's body.
			if locs, why, found, blocked := before(p, 2, i); found || blocked {
				return locs, why, found
			}
			return h.clauseEntry(p, depth)
		case bodyStart[head] > 0 && i >= bodyStart[head] && !loop && head != "lambda" && !strings.HasPrefix(head, "def"):
			if locs, why, found, blocked := before(p, bodyStart[head], i); found || blocked {
				return locs, why, found
			}
			// What the form evaluates before its body.
			for _, x := range p.Elems[1:bodyStart[head]] {
				if h.mayNavigate(x, 0) {
					return nil, "", false
				}
			}
		case (loop || head == "lambda" || strings.HasPrefix(head, "def")) && bodyStart[head] > 0 && i >= bodyStart[head]:
			// A loop's later iterations follow the body's end, a
			// function's body its callers: only what comes before n in
			// the body counts, unless the loop never navigates (the
			// robot stands where it did when the loop started) or n
			// starts a defun's body (where its callers stand).
			if locs, why, found, blocked := before(p, bodyStart[head], i); found || blocked {
				return locs, why, found
			}
			switch {
			case loop && !h.mayNavigate(p, 0):
			case head == "defun":
				return h.defunEntry(p, depth)
			default:
				return nil, "", false
			}
		default:
			return h.frameLocs(p, depth)
		}
		n = p
	}
	return nil, "", false
}

// isClause reports whether l is a clause of a with-failure-handling.
func (h *handlerAnalysis) isClause(l *syntax.List) bool {
	cl := h.parentMap()[l]
	if cl == nil {
		return false
	}
	w := h.parentMap()[cl]
	return w != nil && forms.Head(w) == "with-failure-handling" && len(w.Elems) > 1 && w.Elems[1] == syntax.Node(cl)
}

// frameLocs returns the locations anywhere in form p when the defun or
// handler clause holding it never navigates: where it started.
func (h *handlerAnalysis) frameLocs(p *syntax.List, depth int) ([]string, string, bool) {
	parent := h.parentMap()
	for x := p; x != nil; x = parent[x] {
		head := forms.Head(x)
		switch {
		case head == "lambda" || head == "flet" || head == "labels" || head == "macrolet" || head == "function":
			return nil, "", false
		case head == "defun":
			for _, b := range x.Elems[min(3, len(x.Elems)):] {
				if h.mayNavigate(b, 0) {
					return nil, "", false
				}
			}
			return h.defunEntry(x, depth)
		case strings.HasPrefix(head, "def"):
			return nil, "", false
		case h.isClause(x):
			for _, b := range x.Elems[min(2, len(x.Elems)):] {
				if h.mayNavigate(b, 0) {
					return nil, "", false
				}
			}
			return h.clauseEntry(x, depth)
		}
	}
	return nil, "", false
}

// valueRefs reports whether name appears in the plan other than as the
// head of a call or the name a definition gives: as #'name, 'name or a
// symbol that may reach funcall.
func (h *handlerAnalysis) valueRef(name string) bool {
	if h.refs == nil {
		h.refs = map[string]bool{}
		heads := map[syntax.Node]bool{}
		for _, f := range h.res.Forms {
			if h.res.Skipped(f) {
				continue
			}
			syntax.Walk(f, func(n syntax.Node) bool {
				switch x := n.(type) {
				case *syntax.List:
					if len(x.Elems) > 0 {
						heads[x.Elems[0]] = true
						if definers[forms.Head(x)] || forms.Head(x) == "defun" || strings.HasPrefix(forms.Head(x), "def") {
							if len(x.Elems) > 1 {
								heads[x.Elems[1]] = true
							}
						}
					}
				case *syntax.Symbol:
					if !heads[x] {
						h.refs[forms.Name(x)] = true
					}
				}
				return true
			})
		}
	}
	return h.refs[name]
}

// defunEntry returns the locations where defun f starts: the union over
// its calls.
func (h *handlerAnalysis) defunEntry(f *syntax.List, depth int) ([]string, string, bool) {
	s, ok := argAt(f, 1).(*syntax.Symbol)
	if !ok {
		return nil, "", false
	}
	name := forms.Name(s)
	if h.defs[name] != f || h.dup[name] || h.local[name] || h.valueRef(name) || !h.parkingFacts() {
		return nil, "", false
	}
	if h.sites == nil {
		h.findSites()
	}
	if h.dynamic || len(h.sites[name]) == 0 {
		return nil, "", false
	}
	var locs, whys []string
	for _, site := range h.sites[name] {
		for _, arg := range site.call.Elems[1:] {
			if h.mayNavigate(arg, 0) {
				return nil, "", false
			}
		}
		ls, why, ok := h.locationAt(site.call, depth+1)
		if !ok {
			return nil, "", false
		}
		locs = unionNames(locs, ls)
		whys = append(whys, fmt.Sprintf("%s, %s", h.where(site.call), why))
	}
	return locs, fmt.Sprintf("when %s starts, which is called only at %s", name, strings.Join(whys, "; ")), true
}

// clauseEntry returns the locations where handler clause c starts: where
// a failure it catches may have been signalled.
func (h *handlerAnalysis) clauseEntry(c *syntax.List, depth int) ([]string, string, bool) {
	kinds, _, ok := clauseParts(c)
	if !ok || !h.decidable(kinds) || !h.parkingFacts() {
		return nil, "", false
	}
	w := h.parentMap()[h.parentMap()[c]]
	var sites []syntax.Node
	if !h.signalSites(w.Elems[2:], kinds, map[string]bool{}, &sites, 0) || len(sites) == 0 {
		return nil, "", false
	}
	var locs, whys []string
	for _, st := range sites {
		ls, why, ok := h.locationAt(st, depth+1)
		if !ok {
			return nil, "", false
		}
		locs = unionNames(locs, ls)
		whys = append(whys, fmt.Sprintf("%s, %s", h.where(st), why))
	}
	return locs, fmt.Sprintf("when the %s handler at %s starts, which catches only failures of %s",
		strings.Join(kinds, "/"), h.where(c), strings.Join(whys, "; ")), true
}

// signalSites appends to out the performs, query calls and fails that
// xs reaches (through the plan functions they call) and that may signal
// a kind of kinds; false when some form may signal one from a place it
// cannot name (a move, a call through a value, a form it cannot read)
// or a form may navigate while signalling.
func (h *handlerAnalysis) signalSites(xs []syntax.Node, kinds []string, visited map[string]bool, out *[]syntax.Node, depth int) bool {
	if depth > maxWalkDepth {
		return false
	}
	ok := true
	site := func(l *syntax.List, s *sigSet) {
		if s.top == "" && !h.catches(kinds, s) {
			return
		}
		if typ, _, isAction := actionDesig(l); forms.Head(l) == "perform" && (!isAction || typ == h.sig.Moves) {
			ok = false
			return
		}
		for _, a := range l.Elems[1:] {
			if h.mayNavigate(a, 0) {
				ok = false
				return
			}
		}
		if !slices.Contains(*out, syntax.Node(l)) {
			*out = append(*out, l)
		}
	}
	callee := func(name string) {
		switch {
		case h.local[name] || h.dup[name]:
			ok = false
		case name == "fail" || name == "perform":
			ok = false
		case h.defs[name] != nil:
			if sum := h.sums[name]; (sum.top != "" || h.catches(kinds, sum)) && !visited[name] {
				visited[name] = true
				if !h.signalSites(h.defs[name].Elems[min(3, len(h.defs[name].Elems)):], kinds, visited, out, depth+1) {
					ok = false
				}
			}
		}
	}
	for _, x := range xs {
		syntax.Walk(x, func(n syntax.Node) bool {
			if !ok {
				return false
			}
			if p, isPre := n.(*syntax.Prefixed); isPre && p.Mark == syntax.MarkFunction {
				if s, isSym := p.X.(*syntax.Symbol); isSym {
					callee(forms.Name(s))
				}
				return true
			}
			l, isList := n.(*syntax.List)
			if !isList || len(l.Elems) == 0 {
				return true
			}
			if forms.Opaque(l) || dynamicCall(l) {
				ok = false
				return false
			}
			hs, isSym := l.Elems[0].(*syntax.Symbol)
			if !isSym {
				return true
			}
			head := forms.Name(hs)
			switch {
			case h.local[head]:
				ok = false
			case h.defs[head] != nil:
				callee(head)
			case head == "fail":
				s := &sigSet{}
				switch k := argAt(l, 1).(type) {
				case *syntax.Quote:
					if ks, isSym := k.X.(*syntax.Symbol); isSym {
						s.add(ks.Name)
					} else {
						s.setTop("computed")
					}
				case *syntax.Keyword:
					s.add(k.Name)
				default:
					s.setTop("computed")
				}
				site(l, s)
			case head == "perform":
				s := &sigSet{}
				h.perform(l, s)
				site(l, s)
			case h.sig.Queries[head] != nil && !h.res.IsUserFunc(head):
				s := &sigSet{}
				for _, sg := range h.sig.Queries[head] {
					h.signal(sg, l, nil, s)
				}
				site(l, s)
			case funcallHeads[head]:
				if f := argAt(l, 1); f != nil {
					switch f := f.(type) {
					case *syntax.Quote:
						if s, isSym := f.X.(*syntax.Symbol); isSym {
							callee(forms.Name(s))
						}
					}
				}
			}
			return ok
		})
		if !ok {
			return false
		}
	}
	return ok
}

func unionNames(a, b []string) []string {
	for _, x := range b {
		if !slices.Contains(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// robotLocationVerdicts marks infeasible the active labels of ls with a
// conjunct on (robot-location) that no location the robot may stand at
// there satisfies.
func (h *handlerAnalysis) robotLocationVerdicts(ls []*pathLabel) {
	if h.sig.Moves == "" || h.a == nil || !h.parkingFacts() {
		return
	}
	type at struct {
		locs []string
		why  string
		ok   bool
	}
	memo := map[syntax.Node]*at{}
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			c, neg := negated(c)
			names, temp, ok := h.locationTest(c)
			if !ok || temp != "" && !h.steadyTemp(temp, pl.l.Point) {
				continue
			}
			a := memo[pl.l.Point]
			if a == nil {
				a = &at{}
				a.locs, a.why, a.ok = h.locationAt(pl.l.Point, 0)
				memo[pl.l.Point] = a
			}
			if !a.ok {
				break
			}
			mayTrue, mayFalse := false, false
			for _, loc := range a.locs {
				if slices.Contains(names, loc) {
					mayTrue = true
				} else {
					mayFalse = true
				}
			}
			if neg && !mayFalse || !neg && !mayTrue {
				what := "true"
				if neg {
					what = "false"
				}
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s is never %s: the robot stands at %s there, %s (%s)",
					h.show(c), what, strings.Join(a.locs, " or "), a.why, h.sig.Why)
				break
			}
		}
	}
}

// locationTest reads (eq (robot-location) 'S), (eq 'S (robot-location))
// or (member (robot-location) '(S...)) and returns the names S, with the
// temporary that holds (robot-location) when normalize hoisted it.
func (h *handlerAnalysis) locationTest(c syntax.Node) (names []string, temp string, ok bool) {
	l, isList := c.(*syntax.List)
	if !isList || len(l.Elems) != 3 {
		return nil, "", false
	}
	head := forms.Head(l)
	if h.defs[head] != nil || h.local[head] {
		return nil, "", false
	}
	isLoc := func(n syntax.Node) bool {
		if s, ok := n.(*syntax.Symbol); ok && h.res.IsTemp(s.Name) {
			if o := h.res.Origin(s); o != nil && h.isRobotLocation(o) {
				temp = s.Name
				return true
			}
			return false
		}
		return h.isRobotLocation(n)
	}
	switch head {
	case "eq", "eql":
		a, b := l.Elems[1], l.Elems[2]
		if !isLoc(a) {
			a, b = b, a
		}
		q, isQ := b.(*syntax.Quote)
		if !isLoc(a) || !isQ {
			return nil, "", false
		}
		s, isSym := q.X.(*syntax.Symbol)
		if !isSym {
			return nil, "", false
		}
		return []string{s.Name}, temp, true
	case "member":
		q, isQ := l.Elems[2].(*syntax.Quote)
		if !isLoc(l.Elems[1]) || !isQ {
			return nil, "", false
		}
		ql, isList := q.X.(*syntax.List)
		if !isList {
			return nil, "", false
		}
		for _, e := range ql.Elems {
			s, isSym := e.(*syntax.Symbol)
			if !isSym {
				return nil, "", false
			}
			names = append(names, s.Name)
		}
		return names, temp, true
	}
	return nil, "", false
}

// steadyTemp reports whether temporary temp, bound to (robot-location) by
// a let* around point, holds where the robot stands at point: nothing in
// that let* may navigate.
func (h *handlerAnalysis) steadyTemp(temp string, point syntax.Node) bool {
	parent := h.parentMap()
	for x := parent[point]; x != nil; x = parent[x] {
		if head := forms.Head(x); head != "let*" && head != "let" || len(x.Elems) < 2 {
			continue
		}
		bs, ok := x.Elems[1].(*syntax.List)
		if !ok {
			continue
		}
		for _, b := range bs.Elems {
			if bl, ok := b.(*syntax.List); ok && len(bl.Elems) == 2 && syntax.IsSymbol(bl.Elems[0], temp) {
				return h.isRobotLocation(bl.Elems[1]) && !h.mayNavigate(x, 0)
			}
		}
	}
	return false
}
