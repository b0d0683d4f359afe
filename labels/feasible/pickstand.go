package feasible

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// Where the robot picked the load. A function G that gathers a load at
// one stand,
//
//	(defun G (...)
//	  (let ((LOAD nil) (STAND INIT) ...)
//	    (while TEST
//	      (let* (... (D X) ...)
//	        (if (and LOAD (not (eq K STAND)))
//	            (return)
//	            (progn ... (GO K) (setq STAND (robot-location)) ...))))
//	    (cons LOAD REST)))
//
// where GO returns only with the robot at its parameter (locations.go),
// K is the same form both times and reads only D through pure functions
// (so it gives the same stand each time for the same object), nothing
// but that GO navigates (no def-policy either), LOAD is assigned only by
// (push (list H D) LOAD) under (when H ...), STAND only by that setq, D
// and H never, and G has no return-from, keeps this invariant at every
// point of the loop: when LOAD is not empty, the robot stands at STAND
// and K of every object in LOAD gives STAND (an object is added only
// right after (GO K) took the robot to K of it, and while LOAD is not
// empty only when K gives STAND, so that the move keeps the robot where
// it was). G thus returns (LOAD . REST) with the robot at K of every
// object of LOAD.
//
// A function DEL whose only calls are (DEL V) under (when V ...) in a
// let* that binds T to (G ...) and then V to (car T), with nothing that
// navigates in between and neither T nor V assigned, starts with the
// robot at K of every object of its parameter P, which is not empty.
// For a label's (eq (robot-location) 'S) in a function F that starts
// with nothing navigating before the label, F's calls that lie in DEL,
// reached from DEL's start with nothing navigating before them but
// earlier calls of F, are ruled out when:
//   - the robot is at S when DEL starts only if every object of P gives
//     S by K: the objects D may hold (detected objects kept under the
//     filter elems.go follows) for which K gives S, with the types and
//     regions the simulator may give them (domain.Signals.Perceived),
//     are enumerated, and DEL is run from its start with P any non-empty
//     list of (list H OBJ) of them (H: some value that is not nil) over
//     the finitely many states its variables take (dolist over P to a
//     fixpoint; its tests evaluated, a test it cannot decide gives no
//     verdict): the call is never reached;
//   - an earlier call of F takes the robot elsewhere: F starts with (GO
//     (if (eq (robot-location) 'A) 'A 'B)), B is not S, and nothing after
//     it navigates, so from anywhere but S the robot ends at A or B,
//     neither of which is S unless it was at S.
// Every other call of F must have its locations from locationAt, none S.

// pickStandVerdicts marks infeasible the labels the rule above rules out.
func pickStandVerdicts(res *normalize.Result, a *valueAnalysis, sig *domain.Signals, show func(syntax.Node) string, entry string, ls []*pathLabel) {
	if sig == nil || sig.Moves == "" || sig.Detects == "" || len(sig.Perceived["type"]) == 0 || entry == "" || a == nil || res.Orig == nil {
		return
	}
	var p *pickStand
	for _, pl := range ls {
		if pl.l.Status != labels.Active || pl.l.Point == nil {
			continue
		}
		for _, c := range conjuncts(pl.pred) {
			if _, neg := negated(c); neg {
				continue
			}
			if p == nil {
				if setsPlaces(res.Orig.Forms) {
					// A list changed in place could change a load after G.
					return
				}
				h := &handlerAnalysis{res: res, a: a, sig: sig, show: show, sums: map[string]*sigSet{}, parked: map[*syntax.List]syntax.Node{}}
				h.collectDefs()
				h.findSites()
				if h.dynamic || h.hasPolicy() || !h.parkingFacts() {
					return
				}
				p = &pickStand{h: h, sig: sig}
			}
			names, temp, ok := p.h.locationTest(c)
			if !ok || len(names) != 1 || temp != "" && !p.h.steadyTemp(temp, pl.l.Point) {
				continue
			}
			if why, ok := p.decide(pl.l.Point, names[0]); ok {
				pl.l.Status = labels.Infeasible
				pl.l.Reason = fmt.Sprintf("%s is never true: %s (%s)", p.h.show(c), why, sig.Why)
				break
			}
		}
	}
}

type pickStand struct {
	h     *handlerAnalysis
	sig   *domain.Signals
	e     *elemAnalysis
	eDone bool
}

// elems is the analysis of detected objects through lists, built once.
func (p *pickStand) elems() *elemAnalysis {
	if !p.eDone {
		p.eDone = true
		p.e = newElemAnalysis(p.h, p.sig)
	}
	return p.e
}

// decide reports why the robot never stands at s at point n.
func (p *pickStand) decide(n syntax.Node, s string) (string, bool) {
	h := p.h
	f, k, ok := p.pathFrom(n, "")
	if !ok || k != 0 {
		return "", false
	}
	fn := forms.Name(f.Elems[1].(*syntax.Symbol))
	if forms.Head(f) != "defun" || h.defs[fn] != f || h.dup[fn] || h.local[fn] || h.valueRef(fn) || len(h.sites[fn]) == 0 {
		return "", false
	}
	var whys, tails []string
	group := map[string][]string{}
	for _, site := range h.sites[fn] {
		for _, arg := range site.call.Elems[1:] {
			if h.mayNavigate(arg, 0) {
				return "", false
			}
		}
		if locs, why, ok := h.locationAt(site.call, 1); ok {
			if slices.Contains(locs, s) {
				return "", false
			}
			whys = append(whys, fmt.Sprintf("at %s the robot stands at %s, %s", h.where(site.call), strings.Join(locs, " or "), why))
			continue
		}
		at, tail, ok := p.pickSite(site.call, fn, s)
		if !ok {
			return "", false
		}
		if group[tail] == nil {
			tails = append(tails, tail)
		}
		group[tail] = append(group[tail], at)
	}
	for _, t := range tails {
		whys = append(whys, "at "+strings.Join(group[t], ", ")+t)
	}
	return fmt.Sprintf("%s starts where it is called, before anything moves the robot; %s", fn, strings.Join(whys, "; ")), true
}

// pathFrom walks up from n to the function it lies in, and returns it
// with the number of calls of fn (when not "") that run before n there;
// false when anything else that runs before n there may navigate, or n
// may run again after something that navigates (a loop, a retry).
func (p *pickStand) pathFrom(n syntax.Node, fn string) (*syntax.List, int, bool) {
	h := p.h
	parent := h.parentMap()
	calls := 0
	before := func(xs []syntax.Node) bool {
		for _, x := range xs {
			if l, ok := x.(*syntax.List); ok && fn != "" && forms.Head(l) == fn {
				args := true
				for _, a := range l.Elems[1:] {
					args = args && !h.mayNavigate(a, 0)
				}
				if args {
					calls++
					continue
				}
			}
			if h.mayNavigate(x, 0) {
				return false
			}
		}
		return true
	}
	for steps := 0; steps < 256; steps++ {
		par := parent[n]
		if par == nil {
			return nil, 0, false
		}
		i := slices.Index(par.Elems, n)
		head := forms.Head(par)
		ok := true
		switch {
		case head == "defun":
			if i < 3 {
				return nil, 0, false
			}
			if !before(par.Elems[3:i]) {
				return nil, 0, false
			}
			return par, calls, true
		case strings.HasPrefix(head, "def") || head == "lambda" || head == "flet" || head == "labels" || head == "macrolet" || head == "function" || head == "handler-case" || head == "unwind-protect" || head == "ignore-errors":
			return nil, 0, false
		case head == "dolist" || head == "dotimes" || head == "while" || head == "loop" || head == "do" || head == "do*":
			ok = !h.mayNavigate(par, 0)
		case head == "if" || head == "when" || head == "unless":
			ok = i == 1 || before(par.Elems[1:2])
		case head == "cond":
			for _, c := range par.Elems[1:i] {
				cl := asList(c)
				ok = ok && cl != nil && len(cl.Elems) > 0 && before(cl.Elems[:1])
			}
		case head == "with-failure-handling":
			if i < 2 {
				return nil, 0, false
			}
			retries := false
			syntax.Walk(par.Elems[1], func(x syntax.Node) bool {
				if l, ok := x.(*syntax.List); ok && (forms.Head(l) == "retry" || forms.Head(l) == "do-retry") {
					retries = true
				}
				return !retries
			})
			ok = !retries && before(par.Elems[2:i])
		case head == "":
			// A cond clause: its test and the body forms before n.
			gp := parent[par]
			if gp == nil || forms.Head(gp) != "cond" {
				return nil, 0, false
			}
			ok = before(par.Elems[:i])
		default:
			ok = before(par.Elems[1:i])
		}
		if !ok {
			return nil, 0, false
		}
		n = par
	}
	return nil, 0, false
}

// stayOrGo reads f's first form as (GO (if (eq (robot-location) 'A) 'A
// 'B)) with nothing after it that navigates: A and B.
func (p *pickStand) stayOrGo(f *syntax.List) (string, string, bool) {
	h := p.h
	if len(f.Elems) < 4 {
		return "", "", false
	}
	for _, x := range f.Elems[4:] {
		if h.mayNavigate(x, 0) {
			return "", "", false
		}
	}
	g := asList(f.Elems[3])
	if g == nil || len(g.Elems) != 2 || !p.isGo(forms.Head(g)) {
		return "", "", false
	}
	ifl := asList(g.Elems[1])
	if ifl == nil || forms.Head(ifl) != "if" || len(ifl.Elems) != 4 {
		return "", "", false
	}
	names, temp, ok := h.locationTest(h.res.Unwrap(ifl.Elems[1]))
	if !ok || len(names) != 1 || temp != "" && !h.steadyTemp(temp, h.res.Unwrap(ifl.Elems[1])) {
		// normalize's (let* ((%t (robot-location))) (eq %t 'A))
		l := asList(ifl.Elems[1])
		if l == nil || forms.Head(l) != "let*" || len(l.Elems) != 3 {
			return "", "", false
		}
		names, temp, ok = h.locationTest(l.Elems[2])
		if !ok || len(names) != 1 || temp == "" || !h.steadyTemp(temp, l.Elems[2]) {
			return "", "", false
		}
	}
	sa, okA := quotedSym(ifl.Elems[2])
	sb, okB := quotedSym(ifl.Elems[3])
	if !okA || !okB || sa != names[0] {
		return "", "", false
	}
	return sa, sb, true
}

func quotedSym(n syntax.Node) (string, bool) {
	q, ok := n.(*syntax.Quote)
	if !ok {
		return "", false
	}
	s, ok := q.X.(*syntax.Symbol)
	if !ok {
		return "", false
	}
	return s.Name, true
}

// isGo reports whether plan function name returns only with the robot at
// the location its one parameter names.
func (p *pickStand) isGo(name string) bool {
	h := p.h
	f := h.defs[name]
	if f == nil || h.dup[name] || h.local[name] || forms.Head(f) != "defun" || len(f.Elems) < 4 {
		return false
	}
	ps, ok := params(f)
	return ok && len(ps) == 1 && h.endsAt(f.Elems[len(f.Elems)-1], name, ps[0], 0)
}

// pickSite reports why the robot is not at s at call site of fn, a call
// in a function DEL that the rule's G feeds: the site (with the calls of
// fn before it), and the reason, shared by the sites of one DEL.
func (p *pickStand) pickSite(site *syntax.List, fn, s string) (string, string, bool) {
	h := p.h
	del, k, ok := p.pathFrom(site, fn)
	if !ok {
		return "", "", false
	}
	if k > 0 {
		a, b, ok := p.stayOrGo(h.defs[fn])
		if !ok || b == s {
			return "", "", false
		}
		_ = a
	}
	dn := forms.Name(del.Elems[1].(*syntax.Symbol))
	ps, ok := params(del)
	if !ok || len(ps) != 1 || h.dup[dn] || h.local[dn] || h.valueRef(dn) || h.a.specials[ps[0]] || mayAssignIn(del.Elems[3:], ps[0]) || binders(del, ps[0]) != 1 {
		return "", "", false
	}
	feeds, ok := p.feeders(dn)
	if !ok {
		return "", "", false
	}
	var whys []string
	for _, fd := range feeds {
		objs, objWhy, ok := p.objectsAt(fd, s, dn)
		if !ok {
			return "", "", false
		}
		if len(objs) > 0 {
			reached, ok := p.reaches(del, ps[0], objs, site)
			if !ok || reached {
				return "", "", false
			}
		}
		whys = append(whys, fmt.Sprintf("%s is called only at %s with a load %s returned, not empty, before anything moves the robot, and %s returns with the robot at %s of every object of its load, %s; %s",
			dn, h.where(fd.call), fd.g, fd.g, h.show(fd.k), fd.why, objWhy))
	}
	at := h.where(site)
	if k > 0 {
		a, b, _ := p.stayOrGo(h.defs[fn])
		at += fmt.Sprintf(" (or, after the call of %s before it, which goes to %s from %s and to %s from anywhere else, at %s only if it stood there)", fn, a, a, b, a)
	}
	return at, fmt.Sprintf(" the robot stands where %s started; %s", dn, strings.Join(whys, "; ")), true
}

// feed is one call (DEL V) of the rule, with G's loop facts.
type feed struct {
	call *syntax.List // (DEL V)
	g    string
	k    syntax.Node // K, reading dVar
	dVar string
	dKey string // the elems binding key of D in G
	why  string
}

// feeders checks every call of del (in the original plan) against the
// rule's shape and returns them.
func (p *pickStand) feeders(del string) ([]feed, bool) {
	h := p.h
	oparent := h.origParents()
	var calls []*syntax.List
	for _, f := range h.res.Orig.Forms {
		syntax.Walk(f, func(x syntax.Node) bool {
			if l, ok := x.(*syntax.List); ok && forms.Head(l) == del && oparent[l] != nil && !(forms.Head(oparent[l]) == "defun" && slices.Index(oparent[l].Elems, syntax.Node(l)) == 1) {
				calls = append(calls, l)
			}
			return true
		})
	}
	if len(calls) == 0 || len(calls) != len(h.sites[del]) {
		return nil, false
	}
	var out []feed
	for _, c := range calls {
		fd, ok := p.feedOf(c)
		if !ok {
			return nil, false
		}
		out = append(out, fd)
	}
	return out, true
}

// feedOf reads (DEL V) in (when V ... (DEL V)) in a let* binding T to
// (G ...) and V to (car T).
func (p *pickStand) feedOf(c *syntax.List) (feed, bool) {
	h := p.h
	oparent := h.origParents()
	v, ok := argAt(c, 1).(*syntax.Symbol)
	if !ok || len(c.Elems) != 2 || h.a.specials[v.Name] {
		return feed{}, false
	}
	when := oparent[c]
	if when == nil || forms.Head(when) != "when" || !isSym(argAt(when, 1), v.Name) {
		return feed{}, false
	}
	i := slices.Index(when.Elems, syntax.Node(c))
	for _, x := range when.Elems[2:i] {
		if h.mayNavigate(x, 0) {
			return feed{}, false
		}
	}
	let := oparent[when]
	if let == nil || forms.Head(let) != "let*" {
		return feed{}, false
	}
	j := slices.Index(let.Elems, syntax.Node(when))
	if j < 2 {
		return feed{}, false
	}
	for _, x := range let.Elems[2:j] {
		if h.mayNavigate(x, 0) {
			return feed{}, false
		}
	}
	bs := asList(let.Elems[1])
	if bs == nil {
		return feed{}, false
	}
	// V bound to (car T), T earlier to (G ...), nothing between that
	// navigates.
	vi, ti := -1, -1
	var tName string
	var gCall *syntax.List
	for bi, b := range bs.Elems {
		bl := asList(b)
		if bl == nil || len(bl.Elems) != 2 {
			continue
		}
		if isSym(bl.Elems[0], v.Name) {
			vi = bi
			cl := asList(bl.Elems[1])
			if cl == nil || len(cl.Elems) != 2 || forms.Head(cl) != "car" && forms.Head(cl) != "first" || h.defs[forms.Head(cl)] != nil {
				return feed{}, false
			}
			ts, ok := cl.Elems[1].(*syntax.Symbol)
			if !ok {
				return feed{}, false
			}
			tName = ts.Name
		}
	}
	if vi < 0 || tName == "" || tName == v.Name || h.a.specials[tName] {
		return feed{}, false
	}
	for bi, b := range bs.Elems[:vi] {
		if bl := asList(b); bl != nil && len(bl.Elems) == 2 && isSym(bl.Elems[0], tName) {
			ti = bi
			gCall = asList(bl.Elems[1])
		}
	}
	if ti < 0 || gCall == nil || len(gCall.Elems) == 0 {
		return feed{}, false
	}
	for bi, b := range bs.Elems[ti+1:] {
		if bi+ti+1 == vi {
			continue
		}
		if h.mayNavigate(b, 0) {
			return feed{}, false
		}
		if bl := asList(b); bl != nil && len(bl.Elems) >= 1 && (isSym(bl.Elems[0], tName) || isSym(bl.Elems[0], v.Name)) {
			return feed{}, false
		}
	}
	if mayAssignIn(let.Elems[2:], tName) || mayAssignIn(let.Elems[2:], v.Name) {
		return feed{}, false
	}
	g := forms.Head(gCall)
	fd, ok := p.pickLoop(g)
	if !ok {
		return feed{}, false
	}
	fd.call = c
	return fd, true
}

// pickLoop checks G (in the original plan) against the rule's shape.
func (p *pickStand) pickLoop(g string) (feed, bool) {
	h := p.h
	f := h.origDefs()[g]
	if f == nil || h.dup[g] || h.local[g] || forms.Head(f) != "defun" || len(f.Elems) != 4 {
		return feed{}, false
	}
	if hasHead(f, "return-from") || hasHead(f, "lambda") || hasHead(f, "function") {
		return feed{}, false
	}
	let := asList(f.Elems[3])
	if let == nil || forms.Head(let) != "let" && forms.Head(let) != "let*" || len(let.Elems) != 4 {
		return feed{}, false
	}
	res := asList(let.Elems[3])
	if res == nil || forms.Head(res) != "cons" || len(res.Elems) != 3 || h.defs["cons"] != nil {
		return feed{}, false
	}
	loadSym, ok := res.Elems[1].(*syntax.Symbol)
	if !ok || h.a.specials[loadSym.Name] || h.mayNavigate(res.Elems[2], 0) {
		return feed{}, false
	}
	load := loadSym.Name
	w := asList(let.Elems[2])
	if w == nil || forms.Head(w) != "while" || len(w.Elems) != 3 || h.mayNavigate(w.Elems[1], 0) {
		return feed{}, false
	}
	b := asList(w.Elems[2])
	if b == nil || forms.Head(b) != "let" && forms.Head(b) != "let*" || len(b.Elems) != 3 || h.mayNavigate(b.Elems[1], 0) {
		return feed{}, false
	}
	ifl := asList(b.Elems[2])
	if ifl == nil || forms.Head(ifl) != "if" || len(ifl.Elems) != 4 {
		return feed{}, false
	}
	if r := asList(ifl.Elems[2]); r == nil || forms.Head(r) != "return" || len(r.Elems) > 2 || len(r.Elems) == 2 && h.mayNavigate(r.Elems[1], 0) {
		return feed{}, false
	}
	// GUARD: (and LOAD (not (eq K STAND))).
	guard := asList(ifl.Elems[1])
	if guard == nil || forms.Head(guard) != "and" || len(guard.Elems) != 3 || !isSym(guard.Elems[1], load) {
		return feed{}, false
	}
	ne, neg := negated(guard.Elems[2])
	eq := asList(ne)
	if !neg || eq == nil || forms.Head(eq) != "eq" || len(eq.Elems) != 3 || h.defs["eq"] != nil {
		return feed{}, false
	}
	var stand string
	var k syntax.Node
	for side := 1; side <= 2; side++ {
		if s, ok := eq.Elems[side].(*syntax.Symbol); ok && s.Name != load && !h.a.specials[s.Name] && k == nil {
			stand, k = s.Name, eq.Elems[3-side]
		}
	}
	if k == nil {
		return feed{}, false
	}
	// LOAD and STAND bound by the outer let, LOAD to nil.
	bs := asList(let.Elems[1])
	if bs == nil {
		return feed{}, false
	}
	boundLoad, boundStand := false, false
	for _, x := range bs.Elems {
		if h.mayNavigate(x, 0) {
			return feed{}, false
		}
		if isSym(x, load) {
			boundLoad = true
		}
		if bl := asList(x); bl != nil && len(bl.Elems) == 2 {
			boundLoad = boundLoad || isSym(bl.Elems[0], load) && isSym(bl.Elems[1], "nil")
			boundStand = boundStand || isSym(bl.Elems[0], stand)
		}
	}
	if !boundLoad || !boundStand || binders(f, load) != 1 || binders(f, stand) != 1 {
		return feed{}, false
	}
	// D: bound by the inner let, K pure of it.
	var dVar string
	for _, x := range asList(b.Elems[1]).Elems {
		bl := asList(x)
		if bl == nil || len(bl.Elems) != 2 {
			continue
		}
		if s, ok := bl.Elems[0].(*syntax.Symbol); ok && h.pureOf(k, []string{s.Name}, 0) && slices.Contains(symbolsIn(k), s.Name) {
			dVar = s.Name
		}
	}
	if dVar == "" || dVar == load || dVar == stand || h.a.specials[dVar] || binders(f, dVar) != 1 || mayAssignIn(f.Elems[3:], dVar) {
		return feed{}, false
	}
	// ELSE: (progn ... (GO K) (setq STAND (robot-location)) ...).
	els := asList(ifl.Elems[3])
	if els == nil || forms.Head(els) != "progn" {
		return feed{}, false
	}
	body := els.Elems[1:]
	gi := -1
	for i, x := range body {
		if gl := asList(x); gl != nil && len(gl.Elems) == 2 && p.isGo(forms.Head(gl)) && syntax.NodeString(gl.Elems[1]) == syntax.NodeString(k) {
			gi = i
			break
		}
		if h.mayNavigate(x, 0) {
			return feed{}, false
		}
	}
	if gi < 0 || gi+1 >= len(body) {
		return feed{}, false
	}
	set := asList(body[gi+1])
	if set == nil || forms.Head(set) != "setq" || len(set.Elems) != 3 || !isSym(set.Elems[1], stand) || !h.isRobotLocation(set.Elems[2]) {
		return feed{}, false
	}
	if mayAssignIn(body[:gi], load) || mayAssignIn(body[:gi], stand) {
		return feed{}, false
	}
	rest := body[gi+2:]
	for _, x := range rest {
		if h.mayNavigate(x, 0) || mayAssignIn([]syntax.Node{x}, stand) {
			return feed{}, false
		}
	}
	// STAND assigned only by that setq, LOAD only by pushes of (list H
	// D) under (when H ...) after it.
	oparent := h.origParents()
	bad := false
	syntax.Walk(let, func(x syntax.Node) bool {
		l, ok := x.(*syntax.List)
		if !ok || bad {
			return !bad
		}
		if l == set {
			return false
		}
		if mayAssign(l, stand) && assignHeads[forms.Head(l)] {
			bad = true
		}
		if assignHeads[forms.Head(l)] && mayAssign(l, load) {
			if !p.loadPush(l, load, dVar, rest, f) {
				bad = true
			}
			_ = oparent
			return false
		}
		return true
	})
	if bad || mayAssignIn([]syntax.Node{w.Elems[1], b.Elems[1], ifl.Elems[1]}, load) {
		return feed{}, false
	}
	// D's binding in the normalized plan, for the elems facts.
	nf := h.defs[g]
	if nf == nil || binders(nf, dVar) != 1 {
		return feed{}, false
	}
	var dBind syntax.Node
	syntax.Walk(nf, func(x syntax.Node) bool {
		if l, ok := x.(*syntax.List); ok && (forms.Head(l) == "let" || forms.Head(l) == "let*") {
			if bl := asList(argAt(l, 1)); bl != nil {
				for _, y := range bl.Elems {
					if yl := asList(y); yl != nil && len(yl.Elems) == 2 && isSym(yl.Elems[0], dVar) {
						dBind = yl
					}
				}
			}
		}
		return true
	})
	if dBind == nil {
		return feed{}, false
	}
	e := p.elems()
	if e == nil {
		return feed{}, false
	}
	why := fmt.Sprintf("since it moves the robot only by %s and, while its load is not empty, goes on only when %s gives %s, where the robot stands (%s)",
		h.show(body[gi]), h.show(k), stand, h.where(ifl))
	return feed{g: g, k: k, dVar: dVar, dKey: e.bindKey(dBind, dVar), why: why}, true
}

// loadPush reports whether l, which assigns load, is (push (list H D)
// load) inside (when H ...) within rest, H a variable nothing assigns.
func (p *pickStand) loadPush(l *syntax.List, load, dVar string, rest []syntax.Node, g *syntax.List) bool {
	h := p.h
	if forms.Head(l) != "push" || len(l.Elems) != 3 || !isSym(l.Elems[2], load) {
		return false
	}
	x := asList(l.Elems[1])
	if x == nil || forms.Head(x) != "list" || len(x.Elems) != 3 || h.defs["list"] != nil || !isSym(x.Elems[2], dVar) {
		return false
	}
	hs, ok := x.Elems[1].(*syntax.Symbol)
	if !ok || hs.Name == "nil" || hs.Name == "t" || h.a.specials[hs.Name] || mayAssignIn(g.Elems[3:], hs.Name) {
		return false
	}
	when := h.origParents()[l]
	if when == nil || forms.Head(when) != "when" || !isSym(argAt(when, 1), hs.Name) {
		return false
	}
	inRest := false
	for _, r := range rest {
		syntax.Walk(r, func(y syntax.Node) bool {
			inRest = inRest || y == syntax.Node(l)
			return !inRest
		})
	}
	return inRest
}

// symbolsIn lists the symbols n mentions.
func symbolsIn(n syntax.Node) []string {
	var out []string
	syntax.Walk(n, func(x syntax.Node) bool {
		if s, ok := x.(*syntax.Symbol); ok {
			out = append(out, s.Name)
		}
		return true
	})
	return out
}

// objectsAt enumerates the objects D may hold, in fd's G, for which K
// gives s: each with the properties read, as chosen.
func (p *pickStand) objectsAt(fd feed, s, del string) ([]*cval, string, bool) {
	e := p.elems()
	v := e.vars[fd.dKey]
	if v == nil || v.k != eDes {
		return nil, "", false
	}
	kx := untempAll(e.res, fd.k)
	if v.mayNil {
		// nil: K signals on it (desig-prop of nil), so no object is added.
		if _, err := e.ceval(kx, map[string]*cval{fd.dVar: cNil}, 0); err != errSignal {
			return nil, "", false
		}
	}
	ps := []string{"%k"}
	conds := []guardLit{{&syntax.List{Elems: []syntax.Node{sym("eq"), sym("%k"), &syntax.Quote{X: sym(s)}}}, true}}
	kRes, ok := subst(kx, map[string]syntax.Node{fd.dVar: sym(desSym)})
	if !ok {
		return nil, "", false
	}
	var objs []*cval
	seen := map[string]bool{}
	var types []string
	for _, facts := range v.alts {
		var kept []eFact
		for _, f := range facts {
			ok := true
			for _, rk := range f.rel {
				ok = ok && !e.assigned[rk]
			}
			if ok {
				kept = append(kept, f)
			}
		}
		e.ch = &chooser{}
		for runs := 0; ; runs++ {
			if runs > 50000 {
				e.ch = nil
				return nil, "", false
			}
			obj := &cval{k: cDes, props: map[string]*cval{}}
			holds, err := e.siteHolds(obj, kept, nil, []syntax.Node{kRes}, ps, conds)
			if err == errUndecided {
				e.ch = nil
				return nil, "", false
			}
			if holds {
				key := propsKey(obj)
				if !seen[key] {
					seen[key] = true
					objs = append(objs, obj)
					if t := obj.props["type"]; t != nil && !slices.Contains(types, t.s) {
						types = append(types, t.s)
					}
				}
			}
			if !e.ch.next() {
				break
			}
		}
	}
	e.ch = nil
	sort.Strings(types)
	why := fmt.Sprintf("an object %s may hold gives %s by %s only with type %s", fd.dVar, s, h0(p.h, fd.k), strings.Join(types, " or "))
	if len(objs) == 0 {
		why = fmt.Sprintf("no object %s may hold gives %s by %s", fd.dVar, s, h0(p.h, fd.k))
	} else {
		why += ", and with a load of only such objects " + del + " never reaches these calls"
	}
	return objs, why, true
}

func h0(h *handlerAnalysis, n syntax.Node) string { return h.show(n) }

// propsKey names the properties chosen for obj.
func propsKey(obj *cval) string {
	var ks []string
	for k, v := range obj.props {
		ks = append(ks, k+"="+cString(v))
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

func cString(v *cval) string {
	switch v.k {
	case cInt:
		return fmt.Sprint(v.n)
	case cList:
		var xs []string
		for _, x := range v.xs {
			xs = append(xs, cString(x))
		}
		return "(" + strings.Join(xs, " ") + ")"
	case cDes:
		return fmt.Sprintf("#des%p", v)
	}
	return v.s
}

// setsPlaces reports whether xs assign a place other than a variable
// (setf of car, nth and the like), which may change a list in place.
func setsPlaces(xs []syntax.Node) bool {
	found := false
	for _, x := range xs {
		syntax.Walk(x, func(y syntax.Node) bool {
			l, ok := y.(*syntax.List)
			if !ok || found {
				return !found
			}
			switch forms.Head(l) {
			case "setf", "psetf", "shiftf", "rotatef", "incf", "decf", "push", "pop", "pushnew":
				from, step := 1, 2
				switch forms.Head(l) {
				case "shiftf", "rotatef":
					step = 1
				case "incf", "decf", "pop":
					step = len(l.Elems)
				case "push", "pushnew":
					from, step = 2, len(l.Elems)
				}
				for i := from; i < len(l.Elems); i += step {
					if _, isSym := l.Elems[i].(*syntax.Symbol); !isSym {
						found = true
					}
				}
			}
			return !found
		})
	}
	return found
}
