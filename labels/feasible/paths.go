package feasible

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// The path analysis: a path-sensitive feasibility test for loop-free
// plans, beside the flow-insensitive value analysis (values.go). It runs
// a whole run of the plan symbolically as the VM runs it — the top-level
// forms, then every def-plan with its parameters as input symbols, then
// every def-check in order on the final globals — and keeps, per path,
// the values as linear terms over the input symbols with exact rational
// coefficients and a conjunction of linear constraints (the path
// condition), which Fourier–Motzkin (fm.go) tests for satisfiability.
// Checks run after the plan whatever its outcome: a failure of the plan
// ends its path, and the checks see the globals as they were then. A run
// cut by one of the VM's limits (the step budget, the output limit, ...)
// covers no label (vm.IsLimit), so where such a run stops is no state the
// analysis needs. At each label's point it evaluates the label's predicate on each
// path reaching the point; a label whose predicate holds on none of them
// (or whose point no path reaches) is infeasible.
//
// Parameters are anything a run can pass: int64 from the fuzzers, plan
// literals from run, replay and cover (the reader makes no NaN or
// infinite float).
//
// It gives verdicts only when it can see the whole run: any loop,
// closure, handler, world action, call of a function it does not model,
// recursion, inlining deeper than maxInline or more paths than maxPaths
// makes it give up (no verdicts). Inside a label's predicate whatever it
// does not model counts as "may hold". It models the VM where it relies
// on it: int64 arithmetic is exact only where the bounds exclude
// wrap-around, float arithmetic makes fresh symbols, NaN compares false
// (a false comparison forks "an operand is NaN" from "the negated
// relation holds"), and comparisons of an integer beyond 2^53 with a
// possible float (which the VM converts) constrain nothing.

// Limits of the path analysis: it never blows up, it gives up.
const (
	maxPaths  = 4096   // live paths (and run-end states) at any time
	maxWork   = 150000 // evaluation steps over the whole plan, label predicates included
	maxInline = 24     // nested inlined calls
	maxCons   = 200    // constraints per path (later ones are dropped: weaker, sound)
	maxMemo   = 1 << 16
)

// pathAnalysis is the state of one run of the path analysis over a plan.
type pathAnalysis struct {
	res    *normalize.Result
	funcs  map[string]*syntax.List // defuns by name
	points map[syntax.Node][]*pathLabel
	bad    string // why the analysis gave up; "" while it goes on
	// probe is set while a label's predicate is evaluated: its points are
	// not labels of the plan, its writes are not seen, and whatever the
	// analysis does not model sets probeBad (the label may hold).
	probe    bool
	probeBad bool
	writes   int // global assignments outside probes, so far
	open     int // active labels not yet seen to hold
	work     int
	calls    []string
	vals     []val                // evalArgs's values on one path, a stack
	memo     map[string]bool      // satisfiable's answers by constraint set
	keyIDs   map[string]uint32    // the constraint keys' numbers in memo's keys
	grown    map[string]*consList // constrain's grown conditions by id and key
	lists    uint32               // the ids given so far
	gkey     []byte
	quotes   map[syntax.Node]val
	key      []byte
	// constrain's scratch (it keeps none of them past a call).
	syms, in []bool
	par      []int32
	all      []*constraint
	part     []constraint
	fm       fmScratch
}

type pathLabel struct {
	l       *labels.Label
	pred    syntax.Node
	reached int
	holds   bool
}

// val is a value on one path: a number (a linear term) or a non-number
// constant. name is "nil", "t", "s:NAME" (a symbol), "k:NAME" (a
// keyword), or "" for a non-nil non-number whose identity is unknown.
//
// Its fields are ordered, and lst is a pointer, to keep it at 72 bytes
// (from 96): paths copy values into every outcome, binding and argument.
type val struct {
	e    lin
	name string
	// lst holds the elements of a quoted list of symbols, keywords and
	// integers (name ""), for member.
	lst *[]val
	num bool
	flt bool // a float constant took part: not an integer
}

var (
	vNil    = val{name: "nil"}
	vT      = val{name: "t"}
	vOpaque = val{}
)

func vBool(b bool) val {
	if b {
		return vT
	}
	return vNil
}

func vNum(e lin) val { return val{num: true, e: e} }

// Facts about a symbol on a path.
const (
	nanNo = iota
	nanMaybe
	nanYes
)

type sfact struct {
	any bool // may be any value (a non-number, nil included)
	int bool // an int64
	nan int8
	inf bool // may be an infinity
	// lo, hi bound the symbol when it is a number other than NaN (nil:
	// unbounded); they enter the path condition once the symbol is known
	// to be such a number.
	lo, hi *rat
	boxed  bool // lo and hi are in the path condition
}

// want says which outcomes of an expression its consumer uses. A label's
// predicate is judged only by the outcomes where it holds, so inside it
// (judgeOne) an outcome no consumer uses is not computed: a comparison
// whose false side only ends an and, or whose true side only ends an or,
// costs one satisfiability test instead of two. Dropping them changes no
// verdict: the outcomes kept are exactly those computed otherwise.
type want int8

const (
	wantAll   want = iota
	wantTrue       // only outcomes whose value may be non-nil matter
	wantFalse      // only outcomes whose value may be nil matter
)

func (w want) flip() want {
	switch w {
	case wantTrue:
		return wantFalse
	case wantFalse:
		return wantTrue
	}
	return wantAll
}

// pstate is one path: never modified once shared (with copies).
type pstate struct {
	facts []sfact
	cons  *consList // the path condition, shared with the states it grew from
	// glob is the globals, by pointer: they change seldom, and a state
	// that holds one slice header less takes the 80-byte size class
	// instead of the 96-byte one (a copy on each change either way).
	glob *[]pbind
	loc  []pbind
	base int // locals below base belong to callers
}

type pbind struct {
	name string
	v    val
}

// consList is a path condition as a persistent list, its last
// constraint first: a path extends its condition without copying the
// constraints it shares with the paths it forked from (a copy of every
// condition at each fork was most of the analysis's allocation).
type consList struct {
	c    constraint
	prev *consList
	n    int32 // constraints in the list, this one included
	// id names the list in constrain's memo of grown lists (0: not yet
	// named); constrain sets it, once, and nothing else reads it.
	id uint32
}

func (l *consList) len() int {
	if l == nil {
		return 0
	}
	return int(l.n)
}

// push is l with c appended.
func (l *consList) push(c constraint) *consList {
	return &consList{c: c, prev: l, n: int32(l.len() + 1)}
}

// appendTo appends l's constraints to buf in the order they were added.
func (l *consList) appendTo(buf []constraint) []constraint {
	n := len(buf)
	buf = slices.Grow(buf, l.len())[:n+l.len()]
	for i := len(buf) - 1; l != nil; i, l = i-1, l.prev {
		buf[i] = l.c
	}
	return buf
}

// consOf is the list of cs, in their order.
func consOf(cs []constraint) *consList {
	var l *consList
	for _, c := range cs {
		l = l.push(c)
	}
	return l
}

// clone copies s, sharing its slices with their capacity clipped: an
// append copies them, and every other change goes through setFact,
// setLocal and setGlobal, which copy first.
func (s *pstate) clone() *pstate {
	return &pstate{facts: slices.Clip(s.facts), cons: s.cons, glob: s.glob,
		loc: slices.Clip(s.loc), base: s.base}
}

// setFact sets the facts of symbol id, copying s.facts first.
func (s *pstate) setFact(id int, f sfact) {
	s.facts = slices.Clone(s.facts)
	s.facts[id] = f
}

func (s *pstate) setLocal(i int, v val) {
	s.loc = slices.Clone(s.loc)
	s.loc[i].v = v
}

// globals is s's globals (never written: setGlobal copies them).
func (s *pstate) globals() []pbind {
	if s.glob == nil {
		return nil
	}
	return *s.glob
}

func (s *pstate) global(name string) (val, bool) {
	for _, b := range s.globals() {
		if b.name == name {
			return b.v, true
		}
	}
	return val{}, false
}

// setGlobal sets global name, copying s.glob first (once: a new
// global is appended to a copy of exactly the new size).
func (s *pstate) setGlobal(name string, v val) {
	g := s.globals()
	for i, b := range g {
		if b.name == name {
			g = slices.Clone(g)
			g[i].v = v
			s.glob = &g
			return
		}
	}
	g = appendOwned(g, pbind{name, v})
	s.glob = &g
}

// popLocals drops the locals from n on and restores base.
func (s *pstate) popLocals(n, base int) {
	s.loc, s.base = s.loc[:n:n], base
}

// pout is an outcome of evaluating an expression on a path.
type pout struct {
	st   *pstate
	v    val
	fail bool
}

var (
	ratMinInt = &rat{math.MinInt64, 1}
	ratMaxInt = &rat{math.MaxInt64, 1}
	rat2p53   = &rat{1 << 53, 1}
	ratM2p53  = &rat{-1 << 53, 1}
)

// pathVerdicts runs the path analysis over res for the labels (with
// their predicates) and marks those that cannot hold infeasible. It
// changes nothing when it gives up.
func pathVerdicts(res *normalize.Result, ls []*pathLabel) {
	if len(ls) == 0 {
		return
	}
	a := newPathAnalysis(res)
	for _, pl := range ls {
		a.points[pl.l.Point] = append(a.points[pl.l.Point], pl)
		if pl.l.Status == labels.Active {
			a.open++
		}
	}
	a.run()
	if a.bad != "" {
		// It gave up, or stopped once every label could hold (none
		// is infeasible, whatever the rest of the run would show).
		return
	}
	for _, pl := range ls {
		if pl.holds || pl.l.Status != labels.Active {
			continue
		}
		pl.l.Status = labels.Infeasible
		if pl.reached == 0 {
			pl.l.Reason = "no path of a run reaches it (path analysis)"
		} else {
			pl.l.Reason = fmt.Sprintf("cannot hold on any path (%d paths reach it)", pl.reached)
		}
	}
}

func newPathAnalysis(res *normalize.Result) *pathAnalysis {
	return &pathAnalysis{res: res, funcs: map[string]*syntax.List{}, points: map[syntax.Node][]*pathLabel{},
		memo: map[string]bool{}, grown: map[string]*consList{}, quotes: map[syntax.Node]val{}}
}

func (a *pathAnalysis) giveUp(why string) {
	if a.probe {
		a.probeBad = true
		return
	}
	if a.bad == "" {
		a.bad = why
	}
}

func (a *pathAnalysis) stopped() bool { return a.bad != "" || a.probe && a.probeBad }

// run executes the plan: top-level forms, each def-plan, the checks.
func (a *pathAnalysis) run() {
	var plans, checks []*syntax.List
	for _, f := range a.res.Forms {
		if a.res.Skipped(f) {
			continue
		}
		l, _ := f.(*syntax.List)
		switch h := forms.Head(f); h {
		case "defun", "def-plan", "def-check":
			if len(l.Elems) < 3 || !isPlainSymbol(l.Elems[1]) {
				a.giveUp("malformed definition")
				return
			}
			ps, ok := l.Elems[2].(*syntax.List)
			if !ok {
				a.giveUp("malformed definition")
				return
			}
			for _, p := range ps.Elems {
				if !isPlainSymbol(p) || p.(*syntax.Symbol).Name[0] == '&' {
					a.giveUp("lambda list")
					return
				}
			}
			name := l.Elems[1].(*syntax.Symbol).Name
			switch h {
			case "defun":
				if a.funcs[name] != nil {
					a.giveUp("function defined twice")
					return
				}
				a.funcs[name] = l
			case "def-plan":
				plans = append(plans, l)
			default:
				if len(ps.Elems) > 0 {
					a.giveUp("check with parameters")
					return
				}
				checks = append(checks, l)
			}
		case "def-policy", "def-cram-function":
			a.giveUp(h)
			return
		}
	}
	if len(plans) == 0 {
		a.giveUp("no def-plan")
		return
	}
	// The top-level forms; a failure among them ends the run's plan part.
	var ends []*pstate
	frontier := []*pstate{{}}
	for _, f := range a.res.Forms {
		if a.res.Skipped(f) {
			continue
		}
		var next []*pstate
		for _, st := range frontier {
			for _, o := range a.top(f, st) {
				if o.fail {
					ends = append(ends, o.st)
				} else {
					next = append(next, o.st)
				}
			}
		}
		if a.stopped() {
			return
		}
		frontier = next
		if len(frontier)+len(ends) > maxPaths {
			a.giveUp("too many paths")
			return
		}
	}
	// A run whose initialisation failed ends there (ends so far); each
	// plan runs from each state the initialisation completed in.
	for _, p := range plans {
		for _, st := range frontier {
			s := st.clone()
			s.base = len(s.loc)
			for _, x := range p.Elems[2].(*syntax.List).Elems {
				var id int
				// Arguments are int64 (fuzzers) or plan literals
				// (run, replay, cover): the reader makes no NaN or
				// infinite float.
				s, id = a.fresh(s, sfact{any: true, nan: nanNo})
				s.loc = append(s.loc, pbind{x.(*syntax.Symbol).Name, vNum(linSym(id))})
			}
			for _, o := range a.body(p.Elems[3:], s) {
				ends = append(ends, o.st)
			}
			if a.stopped() {
				return
			}
			if len(ends) > maxPaths {
				a.giveUp("too many paths")
				return
			}
		}
	}
	// The checks, in order, each on every state a run may end in. A
	// check that sets no global leaves the states as they were.
	ends = merge(ends)
	for _, c := range checks {
		writes := a.writes
		own, pure := a.checkLabels(c)
		var outs []*pstate
		for _, st := range ends {
			if pure && allHold(own) {
				// The rest of the states can change no verdict: every
				// label this check reaches may hold, and it sets no
				// global, so the next check runs on ends as they are.
				break
			}
			s := st.clone()
			s.loc, s.base = nil, 0
			for _, o := range a.body(c.Elems[3:], s) {
				outs = append(outs, o.st)
			}
			if a.stopped() {
				return
			}
		}
		if a.writes > writes {
			ends = merge(outs)
			if len(ends) > maxPaths {
				a.giveUp("too many paths")
				return
			}
		}
	}
}

// checkLabels returns the labels at the points of check c and of every
// function it may call, and whether c cannot set a global (it has no
// assignment, nor has any function it may call).
func (a *pathAnalysis) checkLabels(c *syntax.List) (own []*pathLabel, pure bool) {
	pure = true
	seen := map[*syntax.List]bool{}
	var visit func(n syntax.Node) bool
	visit = func(n syntax.Node) bool {
		own = append(own, a.points[n]...)
		switch n := n.(type) {
		case *syntax.Symbol:
			// A defun's name anywhere (a call, or a function object)
			// takes its body in.
			if fn := a.funcs[n.Name]; fn != nil && !seen[fn] {
				seen[fn] = true
				syntax.Walk(fn, visit)
			}
		case *syntax.List:
			switch forms.Head(n) {
			case "setq", "setf", "incf", "decf", "defparameter", "defvar", "defconstant":
				pure = false
			}
		}
		return true
	}
	seen[c] = true
	syntax.Walk(c, visit)
	return own, pure
}

// allHold tells whether every label of ls still active may hold (the
// path analysis decides no other label).
func allHold(ls []*pathLabel) bool {
	for _, pl := range ls {
		if !pl.holds && pl.l.Status == labels.Active {
			return false
		}
	}
	return true
}

// merge joins states that hold the same globals and whose path
// conditions bound the same directions Σ k·x and differ in at most one
// bound: their union is then the condition with the weaker of the two
// (exact, no run is added), and the checks run on far fewer states (many
// paths of a plan end with the same globals, having passed through
// different thresholds). Symbols are numbered alike on every path of a
// run, and equal facts make them mean the same kind of value.
func merge(states []*pstate) []*pstate {
	var out []*pstate
	var dirs []*condDirs // out's, computed when first needed
	group := map[string][]int{}
	var sig []byte
	for _, st := range states {
		sig = sig[:0]
		for _, g := range st.globals() {
			sig = append(sig, g.name...)
			sig = appendVal(append(sig, '='), g.v)
			sig = append(sig, ';')
		}
		for _, f := range st.facts {
			sig = append(sig, flag(f.any), flag(f.int), byte('0'+f.nan), flag(f.boxed), flag(f.inf))
			for _, b := range []*rat{f.lo, f.hi} {
				if b != nil {
					sig = b.appendTo(append(sig, ','))
				}
			}
			sig = append(sig, '|')
		}
		merged := false
		var sd *condDirs
		for _, i := range group[string(sig)] {
			if sd == nil {
				sd = dirsOf(st.cons.appendTo(nil))
			}
			if dirs[i] == nil {
				dirs[i] = dirsOf(out[i].cons.appendTo(nil))
			}
			if cons, ok := join2(out[i], dirs[i], sd); ok {
				m := out[i].clone()
				m.cons = consOf(cons)
				m.loc, m.base = nil, 0
				out[i], merged = m, true
				dirs[i] = nil // its condition changed
				break
			}
		}
		if !merged {
			group[string(sig)] = append(group[string(sig)], len(out))
			out = append(out, st)
			dirs = append(dirs, sd)
		}
	}
	return out
}

// flag is b as a byte of merge's signatures.
func flag(b bool) byte {
	if b {
		return 't'
	}
	return 'f'
}

// condDirs is what join2 compares of a condition: its bounds by
// direction (Σ k·x, the tighter of two in one direction), sorted by
// their directions' keys, its disequalities' keys, sorted and without
// repeats, and the condition itself. ok is false when a bound
// overflowed.
type condDirs struct {
	cs []constraint
	bs []condBound
	ne []string
	ok bool
}

type condBound struct {
	key string // the direction's key
	c   rat
	rel int32
	e   lin
	at  int // its place among the condition's bounds
}

// dirsOf computes the directions of condition cs for join2. The keys
// share one string (merge calls it for every state it may join).
func dirsOf(cs []constraint) *condDirs {
	d := &condDirs{cs: cs}
	n := 0
	for _, c := range cs {
		switch c.rel {
		case relNE:
		case relEQ:
			n += 2
		default:
			n++
		}
	}
	d.bs = make([]condBound, 0, n)
	var buf []byte
	ends := make([]int, 0, n) // each bound's key is buf[ends[i-1]:ends[i]]
	for _, c := range cs {
		if c.rel == relNE {
			d.ne = append(d.ne, c.key)
			continue
		}
		halves := [2]lin{c.e}
		n := 1
		if c.rel == relEQ {
			halves[1], n = c.e.scale(ratNeg1), 2
		}
		for _, e := range halves[:n] {
			if e.isConst() {
				continue
			}
			if !noOverflow(func() { e, buf = direction(e, buf) }) {
				return d
			}
			rel := c.rel
			if rel == relEQ {
				rel = relLE
			}
			d.bs = append(d.bs, condBound{c: e.c, rel: rel, e: e, at: len(d.bs)})
			ends = append(ends, len(buf))
		}
	}
	keys := string(buf)
	from := 0
	for i, to := range ends {
		d.bs[i].key, from = keys[from:to], to
	}
	// Of two bounds in one direction keep the tighter (larger c; at the
	// same c the strict one), the later of two alike: sorted by key, then
	// place, a direction's bounds stay in the condition's order (as a
	// stable sort keeps them, with fewer moves).
	slices.SortFunc(d.bs, func(x, y condBound) int {
		if c := strings.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(x.at, y.at)
	})
	out := d.bs[:0]
	for _, b := range d.bs {
		if n := len(out); n > 0 && out[n-1].key == b.key {
			if old := out[n-1]; !(old.c.cmp(b.c) > 0 || old.c == b.c && old.rel == relLT) {
				out[n-1] = b
			}
			continue
		}
		out = append(out, b)
	}
	d.bs = out
	slices.Sort(d.ne)
	d.ne = slices.Compact(d.ne)
	d.ok = true
	return d
}

// join2 is the union of conditions a and b (their directions) when it
// is one: when both have the same disequalities and bound the same
// directions (an equality counts as two bounds), all alike but at most
// one, which it keeps the weaker of. ok is false otherwise.
func join2(s *pstate, a, b *condDirs) ([]constraint, bool) {
	ba, bb := a.bs, b.bs
	if !a.ok || !b.ok || len(ba) != len(bb) || !slices.Equal(a.ne, b.ne) {
		return nil, false
	}
	differ := -1
	for i := range ba {
		x, y := &ba[i], &bb[i]
		if x.key != y.key {
			return nil, false
		}
		if x.c != y.c || x.rel != y.rel {
			if differ >= 0 {
				return nil, false
			}
			differ = i
		}
	}
	if differ < 0 {
		return a.cs, true // the same condition
	}
	var out []constraint
	for _, c := range a.cs {
		if c.rel == relNE {
			out = append(out, c)
		}
	}
	// In the directions' order, whatever the condition's (the keys make
	// memoization hit).
	for i, w := range ba {
		// e + c ≤ 0 is weaker the smaller c is; at equal c, ≤ is weaker.
		if y := bb[i]; y.c.cmp(w.c) < 0 || y.c == w.c && y.rel == relLE {
			w = y
		}
		e := w.e
		e.c = w.c
		out = append(out, keyed(s, constraint{e: e, rel: w.rel}))
	}
	return out, true
}

// appendVal renders v for merge's signatures.
func appendVal(b []byte, v val) []byte {
	if !v.num {
		b = append(b, v.name...)
		if v.lst != nil {
			for _, e := range *v.lst {
				b = appendVal(append(b, ','), e)
			}
		}
		return b
	}
	if v.flt {
		b = append(b, 'f')
	}
	b = v.e.c.appendTo(b)
	for _, t := range v.e.t {
		b = appendInt36(t.k.appendTo(append(b, '+')), int64(t.s))
	}
	return b
}

func isPlainSymbol(n syntax.Node) bool {
	s, ok := n.(*syntax.Symbol)
	return ok && s.Pkg == "" && !s.Uninterned && s.Name != ""
}

// top runs a top-level form as the compiled plan's initialiser does:
// definitions are no code; defparameter, defvar and defconstant with a
// value set their global in source order. Anything else the compiler
// would not run as written, so the analysis gives up.
func (a *pathAnalysis) top(f syntax.Node, st *pstate) []pout {
	switch forms.Head(f) {
	case "defun", "def-plan", "def-check":
		return []pout{{st: st, v: vNil}}
	case "defparameter", "defvar", "defconstant":
		l := f.(*syntax.List)
		if len(l.Elems) < 2 || !isPlainSymbol(l.Elems[1]) {
			break
		}
		if len(l.Elems) == 2 {
			return []pout{{st: st, v: vNil}}
		}
		name := l.Elems[1].(*syntax.Symbol).Name
		var outs []pout
		for _, o := range a.eval(l.Elems[2], st) {
			if !o.fail {
				o.st = a.assign(o.st, name, o.v)
			}
			outs = append(outs, o)
		}
		return outs
	}
	a.giveUp("top-level form")
	return nil
}

// fresh adds a symbol with facts f to a copy of st; its bounds enter the
// path condition when it is a number other than NaN.
func (a *pathAnalysis) fresh(st *pstate, f sfact) (*pstate, int) {
	s := st.clone()
	s.facts = appendOwned(s.facts, f)
	id := len(s.facts) - 1
	if !f.any && f.nan == nanNo && !f.boxed {
		// boxed without setFact's copy: s.facts is s's own.
		s.facts[id].boxed = true
		s = a.bound(s, id, s.facts[id])
	}
	return s, id
}

// appendOwned is s with more appended, in new storage of exactly that
// size: a state's slices are shared with the states it was cloned from,
// and an append to them copies anyway (growing the copy's capacity
// for appends that never come).
func appendOwned[T any](s []T, more ...T) []T {
	out := make([]T, len(s), len(s)+len(more))
	copy(out, s)
	return append(out, more...)
}

// setFactBox sets the facts of symbol id in s (owned) to f and, when
// box and they are not there yet, puts its bounds into the path
// condition: one copy of s.facts where a setFact to change f and
// another to mark it boxed made two.
func (a *pathAnalysis) setFactBox(s *pstate, id int, f sfact, box bool) *pstate {
	if !box || f.boxed {
		s.setFact(id, f)
		return s
	}
	f.boxed = true
	s.setFact(id, f)
	return a.bound(s, id, f)
}

// bound puts the bounds of symbol id, whose facts are f, into the path
// condition (s is owned).
func (a *pathAnalysis) bound(s *pstate, id int, f sfact) *pstate {
	if f.lo != nil {
		noOverflow(func() { // (a bound too large to write is left out: weaker)
			s.cons = s.cons.push(keyed(s, constraint{e: linConst(*f.lo).plus(linSym(id), ratNeg1), rel: relLE})) // lo - x ≤ 0
		})
	}
	if f.hi != nil {
		noOverflow(func() {
			s.cons = s.cons.push(keyed(s, constraint{e: linSym(id).plus(linConst(*f.hi), ratNeg1), rel: relLE})) // x - hi ≤ 0
		})
	}
	return s
}

func (a *pathAnalysis) freshVal(st *pstate, f sfact) (*pstate, val) {
	s, id := a.fresh(st, f)
	return s, vNum(linSym(id))
}

// anyVal is a value the analysis knows nothing of.
func (a *pathAnalysis) anyVal(st *pstate) (*pstate, val) {
	return a.freshVal(st, sfact{any: true, nan: nanMaybe, inf: true})
}

// constrain adds c to a copy of st; nil when the path becomes
// impossible.
//
// The same condition grows by the same constraint again and again (the
// labels at a point judged on one path, each testing the same atoms),
// so the grown condition, or nil, is kept by both: the answer depends on
// nothing else (a symbol's being an integer, for good, is in the keys),
// and the persistent list is shared.
func (a *pathAnalysis) constrain(st *pstate, c constraint) *pstate {
	return a.constrainOwned(st, c, false)
}

// constrainOwned is constrain, changing st itself instead of a copy
// when owned: st was made by the caller, which uses it no more, and no
// other state or outcome holds it.
func (a *pathAnalysis) constrainOwned(st *pstate, c constraint, owned bool) *pstate {
	if st.cons.len() >= maxCons {
		if owned {
			return st
		}
		return st.clone() // (c is dropped: weaker, sound)
	}
	// The memo's key: the condition's id, then c's key (built in place:
	// the string is made only when the memo misses).
	var id uint32 // the empty condition's
	if st.cons != nil {
		if st.cons.id == 0 {
			a.lists++
			st.cons.id = a.lists
		}
		id = st.cons.id
	}
	k := appendKey(binary.LittleEndian.AppendUint32(a.gkey[:0], id), st, c)
	a.gkey = k
	cons, seen := a.grown[string(k)]
	if !seen {
		ks := string(k)
		c.key, c.kid = ks[4:], 0 // (one string for both)
		cons = st.cons.push(c)
		if !a.pushSatisfiable(st, cons) {
			cons = nil
		}
		if len(a.grown) < maxMemo {
			a.grown[ks] = cons
		}
	}
	if cons == nil {
		return nil
	}
	s := st
	if !owned {
		s = st.clone()
	}
	s.cons = cons
	return s
}

// pushSatisfiable tells whether cons, the condition of st (satisfiable)
// with one more constraint, is satisfiable. Only the constraints that
// share symbols with the new one, directly or through others, need
// testing again: the rest is independent of it.
func (a *pathAnalysis) pushSatisfiable(st *pstate, cons *consList) bool {
	n := cons.len() - 1
	// The constraints by pointer into the list, oldest first: a copy of
	// each (its slice, its key) cost more than the tests below.
	all := slices.Grow(a.all[:0], cons.len())[:cons.len()]
	for i, l := len(all)-1, cons; l != nil; i, l = i-1, l.prev {
		all[i] = &l.c
	}
	a.all = all
	// The constraints connected to the new one through shared symbols:
	// the symbols joined by any constraint are one set (union-find), and
	// the sets of the new one's symbols are in.
	par := a.par[:0]
	for i := range st.facts {
		par = append(par, int32(i))
	}
	a.par = par
	for _, c := range all {
		if ts := c.e.t; len(ts) > 1 {
			r := root(par, int32(ts[0].s))
			for _, t := range ts[1:] {
				if q := root(par, int32(t.s)); q != r {
					par[q] = r
				}
			}
		}
	}
	syms := scratch(&a.syms, len(st.facts)) // the sets in, by root
	in := scratch(&a.in, len(all))
	for i := n; i < len(all); i++ {
		in[i] = true
		for _, t := range all[i].e.t {
			syms[root(par, int32(t.s))] = true
		}
	}
	for i, c := range all[:n] {
		if ts := c.e.t; len(ts) > 0 && syms[root(par, int32(ts[0].s))] {
			in[i] = true
		}
	}
	return a.satisfiable(st, all, in)
}

// root is the root of x's set in the union-find forest par, halving
// the path on its way.
func root(par []int32, x int32) int32 {
	for par[x] != x {
		par[x] = par[par[x]]
		x = par[x]
	}
	return x
}

// scratch returns *buf resized to n, all false.
func scratch(buf *[]bool, n int) []bool {
	if cap(*buf) < n {
		*buf = make([]bool, n, 2*n)
	}
	b := (*buf)[:n]
	clear(b)
	return b
}

// satisfiable memoizes satisfiable of the constraints of all marked in:
// paths share most of their conditions, so the same sets come back
// again and again (and a set is copied out only when it is new).
func (a *pathAnalysis) satisfiable(s *pstate, all []*constraint, in []bool) bool {
	// The key: each constraint's key by its number, four bytes where the
	// key itself is a dozen and more (the key is built on every test and
	// hashed on every look-up). The numbers stand for the keys one to one,
	// so the memo's answers are the same.
	key := a.key[:0]
	for i, c := range all {
		if in[i] {
			if c.kid == 0 {
				c.kid = a.keyID(c.key)
			}
			key = binary.LittleEndian.AppendUint32(key, c.kid)
		}
	}
	a.key = key
	if r, ok := a.memo[string(key)]; ok {
		return r
	}
	part := a.part[:0]
	for i, c := range all {
		if in[i] {
			part = append(part, *c)
		}
	}
	a.part = part
	r := a.fm.satisfiable(part, func(id int) bool { return s.facts[id].int })
	if len(a.memo) < maxMemo {
		a.memo[string(key)] = r
	}
	return r
}

// keyID is the number of constraint key k in satisfiable's memo keys:
// the first key is 1, each new one the next.
func (a *pathAnalysis) keyID(k string) uint32 {
	if a.keyIDs == nil {
		a.keyIDs = map[string]uint32{}
	}
	id, ok := a.keyIDs[k]
	if !ok {
		id = uint32(len(a.keyIDs) + 1)
		a.keyIDs[k] = id
	}
	return id
}

// keyed sets c's key: its relation, constant and terms, each symbol
// marked when it is an integer (which a symbol is or not for good).
func keyed(s *pstate, c constraint) constraint {
	// On the stack while it fits: only the string is kept.
	c.key, c.kid = string(appendKey(make([]byte, 0, 64), s, c)), 0
	return c
}

// appendKey appends c's key to b.
func appendKey(b []byte, s *pstate, c constraint) []byte {
	key := append(b, byte('0'+c.rel))
	key = c.e.c.appendTo(key)
	for _, t := range c.e.t {
		key = append(key, ' ')
		if s.facts[t.s].int {
			key = append(key, 'i')
		}
		key = appendInt36(key, int64(t.s))
		key = t.k.appendTo(append(key, ':'))
	}
	return key
}

// intKnown reports whether v is surely an integer.
func intKnown(st *pstate, v val) bool {
	if !v.num || v.flt {
		return false
	}
	for _, t := range v.e.t {
		if !st.facts[t.s].int || !t.k.isInt() {
			return false
		}
	}
	return v.e.c.isInt()
}

// nanOf is what is known of v being NaN.
func nanOf(st *pstate, v val) int8 {
	if s, ok := v.e.single(); ok && !st.facts[s].int {
		return st.facts[s].nan
	}
	return nanNo
}

// mayInf reports whether v may be an infinity.
func mayInf(st *pstate, v val) bool {
	if s, ok := v.e.single(); ok && !st.facts[s].int {
		return st.facts[s].inf
	}
	return false
}

// bounds bounds a number v by its symbols' boxes; ok is false when one
// is unbounded or a bound is too large to compute. It recovers from the
// overflow itself instead of through noOverflow: a closure would move
// the bounds to the heap, and every comparison asks (mayBeBigInt).
func bounds(st *pstate, v val) (lo, hi rat, ok bool) {
	defer recoverOverflow(&ok)
	lo, hi = v.e.c, v.e.c
	for _, t := range v.e.t {
		f := st.facts[t.s]
		if f.lo == nil || f.hi == nil {
			return lo, hi, false
		}
		a, b := t.k.mul(*f.lo), t.k.mul(*f.hi)
		if a.cmp(b) > 0 {
			a, b = b, a
		}
		lo, hi = lo.add(a), hi.add(b)
	}
	return lo, hi, true
}

// inBounds tells whether bounds lo, hi (ok: known) lie within [min, max].
func inBounds(lo, hi rat, ok bool, min, max *rat) bool {
	return ok && lo.cmp(*min) >= 0 && hi.cmp(*max) <= 0
}

// mayBeBigInt reports whether v may be an integer beyond 2^53, which the
// VM rounds when it compares it with a float.
func mayBeBigInt(st *pstate, v val) bool {
	if v.flt && v.e.isConst() {
		return false
	}
	lo, hi, ok := bounds(st, v)
	return !inBounds(lo, hi, ok, ratM2p53, rat2p53)
}

// numbers makes xs numbers: a value that may be anything forks a path on
// which the builtin fails. ok are the states where all are numbers.
func (a *pathAnalysis) numbers(st *pstate, xs ...val) (ok *pstate, fails []pout) {
	for _, x := range xs {
		if !x.num {
			return nil, append(fails, pout{st: st, fail: true})
		}
	}
	for _, x := range xs {
		if s, single := x.e.single(); single && st.facts[s].any {
			fails = append(fails, pout{st: st, fail: true})
			st = st.clone()
			f := st.facts[s]
			f.any = false
			st = a.setFactBox(st, s, f, f.nan == nanNo)
		}
	}
	return st, fails
}

// settle makes v's symbol a number other than NaN: st itself when it
// is one already, else a copy.
func (a *pathAnalysis) settle(st *pstate, v val) *pstate {
	if s, ok := v.e.single(); ok && st.facts[s].nan != nanNo && !st.facts[s].int {
		st = st.clone()
		f := st.facts[s]
		f.nan = nanNo
		st = a.setFactBox(st, s, f, true)
	}
	return st
}

// compare evaluates (op x y), op one of < <= > >= =, as the VM does.
func (a *pathAnalysis) compare(st *pstate, op string, x, y val) []pout {
	return a.compareWant(st, op, x, y, wantAll)
}

// compareWant is compare leaving out the outcomes w does not want.
func (a *pathAnalysis) compareWant(st0 *pstate, op string, x, y val, w want) []pout {
	st, outs := a.numbers(st0, x, y)
	if st == nil {
		return outs
	}
	if nanOf(st, x) == nanYes || nanOf(st, y) == nanYes {
		return append(outs, pout{st: st, v: vNil})
	}
	exact := !(mayBeBigInt(st, x) && !intKnown(st, y)) && !(mayBeBigInt(st, y) && !intKnown(st, x))
	if !exact {
		return append(outs, pout{st: st, v: vT}, pout{st: st, v: vNil})
	}
	d, nd, ok := diffs(x.e, y.e) // x - y, y - x
	if !ok {
		return append(outs, pout{st: st, v: vT}, pout{st: st, v: vNil})
	}
	var yes, no constraint
	switch op {
	case "<":
		yes, no = constraint{e: d, rel: relLT}, constraint{e: nd, rel: relLE}
	case "<=":
		yes, no = constraint{e: d, rel: relLE}, constraint{e: nd, rel: relLT}
	case ">":
		yes, no = constraint{e: nd, rel: relLT}, constraint{e: d, rel: relLE}
	case ">=":
		yes, no = constraint{e: nd, rel: relLE}, constraint{e: d, rel: relLT}
	default:
		yes, no = constraint{e: d, rel: relEQ}, constraint{e: d, rel: relNE}
	}
	settled := a.settle(a.settle(st, x), y)
	// A settled state other than st0 was made here (by numbers or
	// settle) and no outcome holds it: the last constraint can take it
	// instead of a copy.
	own := settled != st0
	if w != wantFalse {
		if s := a.constrainOwned(settled, yes, own && w == wantTrue); s != nil {
			outs = append(outs, pout{st: s, v: vT})
		}
	}
	if w == wantTrue {
		return outs
	}
	// False: an operand is NaN, or the negated relation holds.
	prev := st
	for _, v := range []val{x, y} {
		if nanOf(prev, v) == nanMaybe {
			s := prev.clone()
			id, _ := v.e.single()
			f := s.facts[id]
			f.nan = nanYes
			s.setFact(id, f)
			outs = append(outs, pout{st: s, v: vNil})
			prev = a.settle(prev, v)
		}
	}
	if s := a.constrainOwned(settled, no, own); s != nil {
		outs = append(outs, pout{st: s, v: vNil})
	}
	return outs
}

// diffs is x - y and y - x; ok is false when a number overflows. (Its
// own recover: through noOverflow's closure both would go to the heap.)
func diffs(x, y lin) (d, nd lin, ok bool) {
	defer recoverOverflow(&ok)
	// Both terms in one allocation (nd has as many as d).
	n := len(x.t) + len(y.t)
	buf := make([]lterm, 0, 2*n)
	d = x.plusTo(buf[:0:n], y, ratNeg1)
	return d, lin{c: ratZero}.plusTo(buf[n:n], d, ratNeg1), true
}

// chain is (op x1 x2 ...): each pair compared in turn; after a false
// one the rest are still checked to be numbers.
func (a *pathAnalysis) chain(st *pstate, op string, vs []val) []pout {
	if len(vs) == 1 {
		st, outs := a.numbers(st, vs[0])
		if st == nil {
			return outs
		}
		return append(outs, pout{st: st, v: vT})
	}
	if len(vs) == 2 {
		// One comparison: its outcomes, the true one (compare makes at
		// most one) moved last, as the loop below orders them.
		outs := a.compare(st, op, vs[0], vs[1])
		for i, o := range outs {
			if !o.fail && o.v.name == "t" {
				copy(outs[i:], outs[i+1:])
				outs[len(outs)-1] = o
				break
			}
		}
		return outs
	}
	var outs []pout
	cur := []*pstate{st}
	for i := 0; i+1 < len(vs); i++ {
		var next []*pstate
		for _, s := range cur {
			for _, o := range a.compare(s, op, vs[i], vs[i+1]) {
				switch {
				case o.fail:
					outs = append(outs, o)
				case o.v.name == "t":
					next = append(next, o.st)
				default:
					r, fails := a.numbers(o.st, vs[i+2:]...)
					outs = append(outs, fails...)
					if r != nil {
						outs = append(outs, pout{st: r, v: vNil})
					}
				}
			}
		}
		cur = next
	}
	for _, s := range cur {
		outs = append(outs, pout{st: s, v: vT})
	}
	return outs
}

// truth splits st by whether v is true (non-nil); nil for an impossible side.
func pathTruth(st *pstate, v val) (t, f *pstate) {
	if !v.num {
		if v.name == "nil" {
			return nil, st
		}
		return st, nil
	}
	if s, ok := v.e.single(); ok && st.facts[s].any {
		return st, st // no learning: it may be nil or anything else
	}
	return st, nil
}

// eval evaluates n on path st.
func (a *pathAnalysis) eval(n syntax.Node, st *pstate) []pout {
	return a.evalWant(n, st, wantAll)
}

// evalWant is eval leaving out outcomes w does not want (where it can).
func (a *pathAnalysis) evalWant(n syntax.Node, st *pstate, w want) []pout {
	if !a.enter(n, st) {
		return nil
	}
	switch n := n.(type) {
	case *syntax.Int:
		return []pout{{st: st, v: vNum(linInt(n.Value))}}
	case *syntax.Float:
		return []pout{a.floatConst(st, n.Value)}
	case *syntax.String, *syntax.Char:
		return []pout{{st: st, v: vOpaque}}
	case *syntax.Keyword:
		return []pout{{st: st, v: val{name: "k:" + n.Name}}}
	case *syntax.Quote:
		return []pout{{st: st, v: a.quoted(n.X)}}
	case *syntax.Symbol:
		if o, ok := a.ref(n, st); ok {
			return []pout{o}
		}
		return nil
	case *syntax.List:
		return a.evalList(n, st, w)
	}
	a.giveUp("unsupported syntax")
	return nil
}

// enter is where evaluating n on st starts: it counts the work, judges
// the labels at n, and tells whether to go on.
func (a *pathAnalysis) enter(n syntax.Node, st *pstate) bool {
	if a.stopped() {
		return false
	}
	if a.work++; a.work > maxWork {
		a.giveUp("too much work")
		return false
	}
	if !a.probe {
		if ls := a.points[n]; ls != nil {
			a.judge(ls, st)
			if a.open == 0 {
				a.bad = "every label may hold"
				return false
			}
		}
	}
	return true
}

// evalAtom is eval of a symbol or an integer, whose one outcome needs no
// slice; ok is false for other nodes, and when it has no outcome.
func (a *pathAnalysis) evalAtom(n syntax.Node, st *pstate) (o pout, ok bool) {
	switch n := n.(type) {
	case *syntax.Int:
		if !a.enter(n, st) {
			return pout{}, false
		}
		return pout{st: st, v: vNum(linInt(n.Value))}, true
	case *syntax.Symbol:
		if !a.enter(n, st) {
			return pout{}, false
		}
		return a.ref(n, st)
	}
	return pout{}, false
}

func (a *pathAnalysis) floatConst(st *pstate, f float64) pout {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		s, v := a.freshVal(st, sfact{nan: nanMaybe, inf: true})
		return pout{st: s, v: v}
	}
	r, ok := ratOfFloat(f)
	if !ok {
		// A float beyond int64 rationals: some real number.
		s, v := a.freshVal(st, sfact{nan: nanNo})
		return pout{st: s, v: v}
	}
	return pout{st: st, v: val{num: true, e: linConst(r), flt: true}}
}

// quoted is the value of quoted form x, made once per form: a value is
// never modified, and a quoted list's elements and names are most of
// what a member test allocates otherwise.
func (a *pathAnalysis) quoted(x syntax.Node) val {
	v, ok := a.quotes[x]
	if !ok {
		v = quoted(x)
		a.quotes[x] = v
	}
	return v
}

func quoted(x syntax.Node) val {
	switch x := x.(type) {
	case *syntax.Symbol:
		if x.Pkg == "" && !x.Uninterned {
			switch x.Name {
			case "nil":
				return vNil
			case "t":
				return vT
			}
			return val{name: "s:" + x.Name}
		}
	case *syntax.Keyword:
		return val{name: "k:" + x.Name}
	case *syntax.Int:
		return vNum(linInt(x.Value))
	case *syntax.List:
		if len(x.Elems) == 0 {
			return vNil
		}
		var lst []val
		for _, e := range x.Elems {
			v := quoted(e)
			if v.num && !v.e.isConst() || !v.num && (v.name == "" || v.name == "nil") {
				return vOpaque
			}
			lst = append(lst, v)
		}
		return val{lst: &lst}
	}
	return vOpaque
}

// ref is the value of variable s on st; ok is false when the analysis
// gives up.
func (a *pathAnalysis) ref(s *syntax.Symbol, st *pstate) (o pout, ok bool) {
	if !isPlainSymbol(s) {
		a.giveUp("package symbol")
		return pout{}, false
	}
	switch s.Name {
	case "nil":
		return pout{st: st, v: vNil}, true
	case "t":
		return pout{st: st, v: vT}, true
	case "pi":
		a.giveUp("pi")
		return pout{}, false
	}
	for i := len(st.loc) - 1; i >= st.base; i-- {
		if st.loc[i].name == s.Name {
			return pout{st: st, v: st.loc[i].v}, true
		}
	}
	if v, ok := st.global(s.Name); ok {
		return pout{st: st, v: v}, true
	}
	return pout{st: st, fail: true}, true // unbound
}

// assign sets variable name on a copy of st.
func (a *pathAnalysis) assign(st *pstate, name string, v val) *pstate {
	for i := len(st.loc) - 1; i >= st.base; i-- {
		if st.loc[i].name == name {
			s := st.clone()
			s.setLocal(i, v)
			return s
		}
	}
	if !a.probe {
		a.writes++
	}
	s := st.clone()
	s.setGlobal(name, v)
	return s
}

type argsOut struct {
	st *pstate
	vs []val
}

// argsRes are the paths evalArgs ends on: one alone (most calls: no
// slice), or many.
type argsRes struct {
	one  argsOut // when st is set
	many []argsOut
}

func (r *argsRes) len() int {
	if r.one.st != nil {
		return 1
	}
	return len(r.many)
}

func (r *argsRes) at(i int) argsOut {
	if r.one.st != nil {
		return r.one
	}
	return r.many[i]
}

// evalArgs evaluates xs in order on every path; w is what the outcomes
// of a single argument must be (wantAll for several).
func (a *pathAnalysis) evalArgs(xs []syntax.Node, st *pstate, w want) (argsRes, []pout) {
	if len(xs) != 1 {
		w = wantAll
	}
	// One path through the arguments (most calls) needs no fronts, and
	// its values go on a.vals: the callers take them out (inline, let)
	// or compare them before they evaluate anything else, and then cut
	// a.vals back to its length before the call.
	var outs []pout
	var one [1]pout // an atom's outcome
	base := len(a.vals)
	i := 0
	for ; i < len(xs); i++ {
		outs = nil
		if !isAtom(xs[i]) {
			outs = a.evalWant(xs[i], st, w)
		} else if o, ok := a.evalAtom(xs[i], st); ok {
			one[0], outs = o, one[:]
		}
		if len(outs) != 1 || outs[0].fail {
			break
		}
		// (Cut first: a caller that stopped early left its values.)
		st, a.vals = outs[0].st, append(a.vals[:base+i], outs[0].v)
	}
	if i == len(xs) {
		return argsRes{one: argsOut{st: st, vs: a.vals[base : base+i : base+i]}}, nil
	}
	var vs []val
	if i > 0 {
		vs = make([]val, i, len(xs))
		copy(vs, a.vals[base:base+i])
	}
	a.vals = a.vals[:base]
	// Several (or no) paths from argument i on: outs are its outcomes
	// on the one path so far, evaluated already.
	front := []argsOut{{st: st, vs: vs}}
	var fails []pout
	var spare []argsOut // storage of the front before front
	for j, x := range xs[i:] {
		next := spare[:0]
		for _, f := range front {
			if j > 0 {
				outs = nil
				if !isAtom(x) {
					outs = a.evalWant(x, f.st, w)
				} else if o, ok := a.evalAtom(x, f.st); ok {
					one[0], outs = o, one[:]
				}
			}
			last := -1
			for i, o := range outs {
				if !o.fail {
					last = i
				}
			}
			for i, o := range outs {
				if o.fail {
					fails = append(fails, o)
					continue
				}
				// The last outcome takes f's values (nothing else uses
				// them after it), the others a copy.
				vs := f.vs
				if i != last || vs == nil {
					vs = make([]val, len(f.vs), len(xs))
					copy(vs, f.vs)
				}
				next = append(next, argsOut{o.st, append(vs, o.v)})
			}
		}
		if len(next) > maxPaths {
			a.giveUp("too many paths")
			return argsRes{}, nil
		}
		front, spare = next, front
	}
	return argsRes{many: front}, fails
}

// isAtom tells the nodes evalAtom evaluates.
func isAtom(x syntax.Node) bool {
	switch x.(type) {
	case *syntax.Int, *syntax.Symbol:
		return true
	}
	return false
}

// body evaluates forms in order; its value is the last one's (nil if none).
func (a *pathAnalysis) body(xs []syntax.Node, st *pstate) []pout {
	return a.bodyWant(xs, st, wantAll)
}

// bodyWant is body where w is what its consumer wants of its value.
func (a *pathAnalysis) bodyWant(xs []syntax.Node, st *pstate, w want) []pout {
	if len(xs) == 0 {
		return []pout{{st: st, v: vNil}}
	}
	// One path through the forms before the last (most bodies) needs
	// no slices of its own: the last form's outcomes are the body's,
	// failures first.
	var rs []pout
	i := 0
	for ; i < len(xs)-1; i++ {
		rs = a.evalWant(xs[i], st, wantAll)
		if len(rs) != 1 || rs[0].fail {
			break
		}
		st = rs[0].st
	}
	if i == len(xs)-1 {
		rs = a.evalWant(xs[i], st, w)
		if len(rs) > maxPaths {
			a.giveUp("too many paths")
			return nil
		}
		return failsFirst(rs)
	}
	// Several (or no) paths from form i on: rs are its outcomes on the
	// one path so far, evaluated already.
	var outs, done, spare []pout // spare: storage of the outcomes before outs
	for j, x := range xs[i:] {
		xw := wantAll
		if i+j == len(xs)-1 {
			xw = w
		}
		next := spare[:0]
		if j == 0 {
			next, done = splitFails(next, done, rs)
		}
		for _, o := range outs {
			next, done = splitFails(next, done, a.evalWant(x, o.st, xw))
		}
		if len(next)+len(done) > maxPaths {
			a.giveUp("too many paths")
			return nil
		}
		outs, spare = next, outs
	}
	return appendOuts(done, outs)
}

// splitFails appends rs's failures to done and the rest to next.
func splitFails(next, done, rs []pout) ([]pout, []pout) {
	for _, r := range rs {
		if r.fail {
			done = append(done, r)
		} else {
			next = append(next, r)
		}
	}
	return next, done
}

// failsFirst puts the failures among rs first, each side in its order,
// as bodyWant returns outcomes (rs is the caller's own).
func failsFirst(rs []pout) []pout {
	ok := -1 // the first outcome that is not a failure
	for i, r := range rs {
		switch {
		case !r.fail && ok < 0:
			ok = i
		case r.fail && ok >= 0:
			// A failure after a success: reorder into a copy.
			var next, done []pout
			next, done = splitFails(next, done, rs)
			return appendOuts(done, next)
		}
	}
	return rs
}

// judge evaluates the predicates of the labels at a point on path st.
//
// The dist labels at a point are the ladder of its relation, farthest
// rung first: a rung that can hold makes every rung before it hold
// (|a-b| < 2^k implies |a-b| < 2^j for j > k). So the ladder is judged
// from its closest rung that may not hold yet upwards, and the first
// that can hold settles the rest: on most paths one predicate, not one
// a rung.
func (a *pathAnalysis) judge(ls []*pathLabel, st *pstate) {
	a.probe = true
	defer func() { a.probe, a.probeBad = false, false }()
	var ladder []*pathLabel
	for _, pl := range ls {
		if pl.holds {
			continue
		}
		pl.reached++
		if pl.l.Criterion == labels.DIST {
			ladder = append(ladder, pl)
			continue
		}
		a.judgeOne(pl, st)
	}
	for i := len(ladder) - 1; i >= 0; i-- {
		if a.judgeOne(ladder[i], st) {
			for _, pl := range ladder[:i] {
				a.hold(pl)
			}
			break
		}
	}
}

// judgeOne evaluates the predicate of label pl on path st; it tells
// whether pl can hold there (then pl.holds is set).
func (a *pathAnalysis) judgeOne(pl *pathLabel, st *pstate) bool {
	a.probeBad = false
	holds := false
	for _, o := range a.evalWant(pl.pred, st, wantTrue) {
		if o.fail {
			continue
		}
		if t, _ := pathTruth(o.st, o.v); t != nil {
			holds = true
		}
	}
	if holds || a.probeBad {
		a.hold(pl)
	}
	return pl.holds
}

// hold records that pl may hold.
func (a *pathAnalysis) hold(pl *pathLabel) {
	if !pl.holds && pl.l.Status == labels.Active {
		a.open--
	}
	pl.holds = true
}

func (a *pathAnalysis) evalList(l *syntax.List, st *pstate, w want) []pout {
	if len(l.Elems) == 0 {
		return []pout{{st: st, v: vNil}}
	}
	head, ok := l.Elems[0].(*syntax.Symbol)
	if !ok || !isPlainSymbol(head) {
		a.giveUp("call of a non-symbol")
		return nil
	}
	h := head.Name
	if forms.Lookup(h) != nil {
		return a.special(h, l, st, w)
	}
	fn := a.funcs[h]
	argWant := wantAll
	if fn == nil && (h == "not" || h == "null") && len(l.Elems) == 2 {
		argWant = w.flip()
	}
	base := len(a.vals)
	args, fails := a.evalArgs(l.Elems[1:], st, argWant)
	defer func() { a.vals = a.vals[:base] }()
	if a.stopped() {
		return nil
	}
	outs := fails
	for i := range args.len() {
		ao := args.at(i)
		switch {
		case fn != nil:
			outs = appendOuts(outs, a.inline(h, fn, ao, w))
		case w != wantAll && len(ao.vs) == 2 && (h == "<" || h == "<=" || h == ">" || h == ">=" || h == "="):
			outs = appendOuts(outs, a.compareWant(ao.st, h, ao.vs[0], ao.vs[1], w))
		default:
			outs = appendOuts(outs, a.builtin(h, ao.st, ao.vs))
		}
		if a.stopped() {
			return nil
		}
	}
	if len(outs) > maxPaths {
		a.giveUp("too many paths")
		return nil
	}
	return outs
}

// inline calls defun fn with the values of ao; w is what its caller
// wants of its value.
func (a *pathAnalysis) inline(h string, fn *syntax.List, ao argsOut, w want) []pout {
	ps := fn.Elems[2].(*syntax.List).Elems
	if len(ps) != len(ao.vs) {
		return []pout{{st: ao.st, fail: true}}
	}
	for _, c := range a.calls {
		if c == h {
			a.giveUp("recursion")
			return nil
		}
	}
	if len(a.calls) >= maxInline {
		a.giveUp("calls nest too deep")
		return nil
	}
	a.calls = append(a.calls, h)
	defer func() { a.calls = a.calls[:len(a.calls)-1] }()
	s := ao.st.clone()
	oldLen, oldBase := len(s.loc), s.base
	s.base = oldLen
	loc := make([]pbind, len(s.loc), len(s.loc)+len(ps))
	copy(loc, s.loc)
	for i, p := range ps {
		loc = append(loc, pbind{p.(*syntax.Symbol).Name, ao.vs[i]})
	}
	s.loc = loc
	outs := a.bodyWant(fn.Elems[3:], s, w)
	for i, o := range outs {
		if o.st.sharesAll(ao.st) {
			// The body changed only its own locals (the caller's,
			// below s.base, it cannot reach): with them dropped
			// the outcome is ao.st, no copy needed.
			outs[i].st = ao.st
			continue
		}
		r := o.st.clone()
		r.popLocals(oldLen, oldBase)
		outs[i].st = r
	}
	return outs
}

// sharesAll tells whether s holds t's facts, condition and globals: the
// same arrays, which are never written once shared (a change copies
// them first).
func (s *pstate) sharesAll(t *pstate) bool {
	return s.cons == t.cons && sameArray(s.facts, t.facts) && s.glob == t.glob
}

// sameArray tells whether a and b are the same elements of the same
// array.
func sameArray[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// special evaluates the special forms the analysis models.
func (a *pathAnalysis) special(h string, l *syntax.List, st *pstate, w want) []pout {
	el := l.Elems
	n := len(el)
	switch h {
	case "quote":
		if n == 2 {
			return []pout{{st: st, v: a.quoted(el[1])}}
		}
	case "declare":
		return []pout{{st: st, v: vNil}}
	case "progn":
		return a.body(el[1:], st)
	case "ignore-errors":
		// A failure inside returns nil with the state as it was then (a
		// limit, caught or not, makes a run cover no label).
		outs := a.body(el[1:], st)
		for i, o := range outs {
			if o.fail {
				outs[i] = pout{st: o.st, v: vNil}
			}
		}
		return outs
	case "if":
		if n < 3 || n > 4 {
			break
		}
		var els []syntax.Node
		if n == 4 {
			els = el[3:]
		}
		return a.branch(el[1], el[2:3], els, st)
	case "when", "unless":
		if n < 2 {
			break
		}
		if h == "when" {
			return a.branch(el[1], el[2:], nil, st)
		}
		return a.branch(el[1], nil, el[2:], st)
	case "cond":
		return a.cond(el[1:], st)
	case "and", "or":
		return a.andOr(h == "and", el[1:], st, w)
	case "let", "let*":
		if n < 2 {
			break
		}
		return a.let(h == "let*", el[1], el[2:], st)
	case "setq", "setf":
		if n%2 == 0 {
			break
		}
		outs := []pout{{st: st, v: vNil}}
		var done []pout
		for i := 1; i+1 < n; i += 2 {
			if !isPlainSymbol(el[i]) {
				a.giveUp("setf of a place")
				return nil
			}
			name := el[i].(*syntax.Symbol).Name
			var next []pout
			for _, o := range outs {
				for _, r := range a.eval(el[i+1], o.st) {
					if r.fail {
						done = append(done, r)
						continue
					}
					next = append(next, pout{st: a.assign(r.st, name, r.v), v: r.v})
				}
			}
			outs = next
		}
		return append(done, outs...)
	case "incf", "decf":
		if n < 2 || n > 3 || !isPlainSymbol(el[1]) {
			break
		}
		delta := syntax.Node(&syntax.Int{Value: 1})
		if n == 3 {
			delta = el[2]
		}
		var outs []pout
		step := &syntax.List{Elems: []syntax.Node{sym(string(stepOp(h))), el[1], delta}}
		for _, o := range a.evalList(step, st, wantAll) {
			if !o.fail {
				o.st = a.assign(o.st, el[1].(*syntax.Symbol).Name, o.v)
			}
			outs = append(outs, o)
		}
		return outs
	}
	a.giveUp("special form " + h)
	return nil
}

// branch evaluates (if test then else) with bodies.
func (a *pathAnalysis) branch(test syntax.Node, then, els []syntax.Node, st *pstate) []pout {
	var outs []pout
	for _, o := range a.eval(test, st) {
		if o.fail {
			outs = append(outs, o)
			continue
		}
		t, f := pathTruth(o.st, o.v)
		if t != nil {
			outs = appendOuts(outs, a.body(then, t))
		}
		if f != nil {
			outs = appendOuts(outs, a.body(els, f))
		}
	}
	return outs
}

func (a *pathAnalysis) cond(clauses []syntax.Node, st *pstate) []pout {
	if len(clauses) == 0 {
		return []pout{{st: st, v: vNil}}
	}
	cl, ok := clauses[0].(*syntax.List)
	if !ok || len(cl.Elems) == 0 {
		a.giveUp("malformed cond")
		return nil
	}
	var outs []pout
	for _, o := range a.eval(cl.Elems[0], st) {
		if o.fail {
			outs = append(outs, o)
			continue
		}
		t, f := pathTruth(o.st, o.v)
		if t != nil {
			if len(cl.Elems) == 1 {
				outs = append(outs, pout{st: t, v: o.v})
			} else {
				outs = appendOuts(outs, a.body(cl.Elems[1:], t))
			}
		}
		if f != nil {
			outs = appendOuts(outs, a.cond(clauses[1:], f))
		}
		if a.stopped() {
			return nil
		}
	}
	return outs
}

// appendOuts is append(outs, more...), but more itself when outs is
// empty: more must be a fresh slice nothing else holds, as every eval
// returns.
func appendOuts(outs, more []pout) []pout {
	if len(outs) == 0 {
		return more
	}
	return append(outs, more...)
}

func (a *pathAnalysis) andOr(and bool, xs []syntax.Node, st *pstate, w want) []pout {
	if len(xs) == 0 {
		return []pout{{st: st, v: vBool(and)}}
	}
	// The last form's outcomes are the form's; before it, only the side
	// that ends the form can be left out (and's false, or's true), when
	// its consumer does not want it either.
	xw := wantAll
	if len(xs) == 1 || and && w == wantTrue || !and && w == wantFalse {
		xw = w
	}
	if len(xs) == 1 {
		return a.evalWant(xs[0], st, xw) // a fresh slice, as every eval's
	}
	var outs []pout
	for _, o := range a.evalWant(xs[0], st, xw) {
		if o.fail {
			outs = append(outs, o)
			continue
		}
		t, f := pathTruth(o.st, o.v)
		if and {
			if f != nil {
				outs = append(outs, pout{st: f, v: vNil})
			}
			if t != nil {
				outs = appendOuts(outs, a.andOr(and, xs[1:], t, w))
			}
		} else {
			if t != nil {
				outs = append(outs, pout{st: t, v: o.v})
			}
			if f != nil {
				outs = appendOuts(outs, a.andOr(and, xs[1:], f, w))
			}
		}
		if a.stopped() {
			return nil
		}
	}
	return outs
}

func (a *pathAnalysis) let(seq bool, bindings syntax.Node, body []syntax.Node, st *pstate) []pout {
	bl, ok := bindings.(*syntax.List)
	if !ok {
		a.giveUp("malformed let")
		return nil
	}
	var names []string
	var inits []syntax.Node
	for _, b := range bl.Elems {
		switch b := b.(type) {
		case *syntax.Symbol:
			if !isPlainSymbol(b) {
				a.giveUp("malformed let")
				return nil
			}
			names, inits = append(names, b.Name), append(inits, sym("nil"))
		case *syntax.List:
			if len(b.Elems) < 1 || len(b.Elems) > 2 || !isPlainSymbol(b.Elems[0]) {
				a.giveUp("malformed let")
				return nil
			}
			var init syntax.Node = sym("nil")
			if len(b.Elems) == 2 {
				init = b.Elems[1]
			}
			names, inits = append(names, b.Elems[0].(*syntax.Symbol).Name), append(inits, init)
		default:
			a.giveUp("malformed let")
			return nil
		}
	}
	oldLen := len(st.loc)
	var front []*pstate
	var outs []pout
	if seq {
		front = []*pstate{st}
		for i, x := range inits {
			var next []*pstate
			for _, f := range front {
				for _, o := range a.eval(x, f) {
					if o.fail {
						outs = append(outs, o)
						continue
					}
					s := o.st.clone()
					s.loc = appendOwned(s.loc, pbind{names[i], o.v})
					next = append(next, s)
				}
			}
			front = next
		}
	} else {
		base := len(a.vals)
		args, fails := a.evalArgs(inits, st, wantAll)
		outs = fails
		for i := range args.len() {
			ao := args.at(i)
			s := ao.st.clone()
			loc := make([]pbind, len(s.loc), len(s.loc)+len(ao.vs))
			copy(loc, s.loc)
			for i, v := range ao.vs {
				loc = append(loc, pbind{names[i], v})
			}
			s.loc = loc
			front = append(front, s)
		}
		a.vals = a.vals[:base]
	}
	for _, f := range front {
		res := a.body(body, f)
		for i := range res {
			if o := &res[i]; !o.fail {
				s := o.st.clone()
				s.popLocals(oldLen, s.base)
				o.st = s
			}
		}
		if a.stopped() {
			return nil
		}
		outs = appendOuts(outs, res)
	}
	return outs
}

// pureUnknown are builtins without effects on globals whose results the
// analysis does not follow: they may fail, or return anything.
var pureUnknown = map[string]bool{"car": true, "cdr": true, "first": true, "second": true, "third": true,
	"rest": true, "nth": true, "length": true, "append": true, "reverse": true, "remove": true, "assoc": true,
	"numberp": true, "integerp": true, "floatp": true, "symbolp": true, "keywordp": true, "listp": true,
	"consp": true, "stringp": true, "functionp": true, "designatorp": true, "zerop": true, "plusp": true,
	"minusp": true, "evenp": true, "oddp": true, "floor": true, "round": true, "sqrt": true, "rem": true,
	"equal": true, "string=": true, "print": true, "format": true,
	"subseq": true, "mismatch": true, "code-char": true, "char-code": true}

// builtin applies builtin h to vs on st.
func (a *pathAnalysis) builtin(h string, st *pstate, vs []val) []pout {
	n := len(vs)
	switch h {
	case "<", "<=", ">", ">=", "=":
		if n >= 1 {
			return a.chain(st, h, vs)
		}
	case "/=":
		if n == 2 {
			var outs []pout
			for _, o := range a.compare(st, "=", vs[0], vs[1]) {
				if !o.fail {
					o.v = vBool(o.v.name == "nil")
				}
				outs = append(outs, o)
			}
			return outs
		}
	case "not", "null":
		if n == 1 {
			t, f := pathTruth(st, vs[0])
			var outs []pout
			if t != nil {
				outs = append(outs, pout{st: t, v: vNil})
			}
			if f != nil {
				outs = append(outs, pout{st: f, v: vT})
			}
			return outs
		}
	case "+", "-", "*":
		switch {
		case n == 0 && h == "-":
			// The VM fails (-) for its arity; the analysis must not rely
			// on its callers rejecting it first.
			return []pout{{st: st, fail: true}}
		case n == 0:
			return []pout{{st: st, v: vNum(linInt(identityOf(h[0])))}}
		case n == 1 && h == "-":
			return a.arith(st, '-', vNum(linInt(0)), vs[0])
		}
		outs := []pout{{st: st, v: vs[0]}}
		if n == 1 {
			st, fails := a.numbers(st, vs[0])
			if st == nil {
				return fails
			}
			return append(fails, pout{st: st, v: vs[0]})
		}
		for _, w := range vs[1:] {
			var next []pout
			for _, o := range outs {
				if o.fail {
					next = append(next, o)
					continue
				}
				next = append(next, a.arith(o.st, h[0], o.v, w)...)
			}
			outs = next
		}
		return outs
	case "1+", "1-":
		if n == 1 {
			return a.arith(st, stepOp(h), vs[0], vNum(linInt(1)))
		}
	case "/":
		if n == 2 {
			return a.divide(st, vs[0], vs[1])
		}
	case "mod":
		if n == 2 {
			return a.mod(st, vs[0], vs[1])
		}
	case "abs":
		if n == 1 {
			st, outs := a.numbers(st, vs[0])
			if st == nil {
				return outs
			}
			s, v := a.freshVal(st, sfact{int: intKnown(st, vs[0]), nan: nanOf(st, vs[0]), inf: mayInf(st, vs[0])})
			return append(outs, pout{st: s, v: v})
		}
	case "min", "max":
		if n >= 1 {
			return a.extremum(h, st, vs)
		}
	case "eq", "eql":
		if n == 2 {
			return a.eq(st, vs[0], vs[1])
		}
	case "member":
		if n == 2 {
			return a.member(st, vs[0], vs[1])
		}
	case "list", "cons":
		if n == 0 {
			return []pout{{st: st, v: vNil}}
		}
		return []pout{{st: st, v: vOpaque}}
	case "fail":
		return []pout{{st: st, fail: true}}
	}
	if pureUnknown[h] {
		s, v := a.anyVal(st)
		return []pout{{st: st, fail: true}, {st: s, v: v}}
	}
	a.giveUp("call of " + h)
	return nil
}

// arith applies + - * to two values as the VM does: integers exactly while
// their bounds exclude wrap-around, anything else as a fresh number.
func (a *pathAnalysis) arith(st *pstate, op byte, x, y val) []pout {
	st, outs := a.numbers(st, x, y)
	if st == nil {
		return outs
	}
	if nanOf(st, x) == nanYes || nanOf(st, y) == nanYes {
		s, v := a.freshVal(st, sfact{nan: nanYes})
		return append(outs, pout{st: s, v: v})
	}
	ints := intKnown(st, x) && intKnown(st, y)
	if x.e.isConst() && y.e.isConst() {
		if ints {
			p, q := x.e.c.n, y.e.c.n
			return append(outs, pout{st: st, v: vNum(linInt(applyOp(op, p, q)))})
		}
		p, q := x.e.c.float(), y.e.c.float()
		return append(outs, a.floatConst(st, applyOp(op, p, q)))
	}
	if ints {
		var e lin
		ok := true
		exact := noOverflow(func() {
			switch op {
			case '+':
				e = x.e.plus(y.e, ratOne)
			case '-':
				e = x.e.plus(y.e, ratNeg1)
			default:
				switch {
				case x.e.isConst():
					e = y.e.scale(x.e.c)
				case y.e.isConst():
					e = x.e.scale(y.e.c)
				default:
					ok = false
				}
			}
		})
		if ok && exact {
			if lo, hi, ok := bounds(st, vNum(e)); inBounds(lo, hi, ok, ratMinInt, ratMaxInt) {
				return append(outs, pout{st: st, v: vNum(e)})
			}
		}
		s, v := a.freshVal(st, sfact{int: true, lo: ratMinInt, hi: ratMaxInt})
		return append(outs, pout{st: s, v: v})
	}
	s, v := a.freshVal(st, sfact{nan: nanMaybe, inf: true})
	return append(outs, pout{st: s, v: v})
}

// divide is (/ x y): a failure when y may be zero, else a fresh number.
func (a *pathAnalysis) divide(st *pstate, x, y val) []pout {
	st, outs := a.numbers(st, x, y)
	if st == nil {
		return outs
	}
	if !y.e.isConst() || y.e.c.n == 0 {
		outs = append(outs, pout{st: st, fail: true})
		if y.e.isConst() {
			return outs
		}
	}
	f := sfact{nan: nanMaybe, inf: true}
	if intKnown(st, x) && intKnown(st, y) {
		f = sfact{int: true, lo: ratMinInt, hi: ratMaxInt}
		if y.e.isConst() && y.e.c.sign() > 0 {
			// Truncation keeps x/c between the bounds of x divided by c.
			if lo, hi, ok := bounds(st, x); ok {
				noOverflow(func() { f.lo, f.hi = &rat{lo.quo(y.e.c).floor(), 1}, &rat{hi.quo(y.e.c).ceil(), 1} })
			}
		}
	}
	s, v := a.freshVal(st, f)
	return append(outs, pout{st: s, v: v})
}

// mod is (mod x y), floored: by a positive integer constant K an integer
// lies in [0, K-1] and a float in [0, K] or is NaN (infinite x).
func (a *pathAnalysis) mod(st *pstate, x, y val) []pout {
	st, outs := a.numbers(st, x, y)
	if st == nil {
		return outs
	}
	if y.e.isConst() && !y.flt && y.e.c.isInt() && y.e.c.sign() > 0 && nanOf(st, x) != nanYes {
		k, zero := y.e.c, &rat{0, 1}
		if intKnown(st, x) {
			km1 := &rat{k.n - 1, 1}
			if lo, hi, ok := bounds(st, x); inBounds(lo, hi, ok, zero, km1) {
				return append(outs, pout{st: st, v: x})
			}
			s, v := a.freshVal(st, sfact{int: true, lo: zero, hi: km1})
			return append(outs, pout{st: s, v: v})
		}
		// A float remainder: NaN only of NaN or an infinity.
		f := sfact{nan: nanNo, lo: zero, hi: &k}
		if nanOf(st, x) != nanNo || mayInf(st, x) {
			f.nan = nanMaybe
		}
		s, v := a.freshVal(st, f)
		return append(outs, pout{st: s, v: v})
	}
	outs = append(outs, pout{st: st, fail: true})
	f := sfact{nan: nanMaybe, inf: true}
	if intKnown(st, x) && intKnown(st, y) {
		f = sfact{int: true, lo: ratMinInt, hi: ratMaxInt}
	}
	s, v := a.freshVal(st, f)
	return append(outs, pout{st: s, v: v})
}

// extremum is min or max as the VM computes it: the first argument, then
// each later one that compares better (< for min, > for max).
func (a *pathAnalysis) extremum(h string, st *pstate, vs []val) []pout {
	st, outs := a.numbers(st, vs[0])
	if st == nil {
		return outs
	}
	op := "<"
	if h == "max" {
		op = ">"
	}
	cur := []pout{{st: st, v: vs[0]}}
	for _, x := range vs[1:] {
		var next []pout
		for _, c := range cur {
			for _, o := range a.compare(c.st, op, x, c.v) {
				switch {
				case o.fail:
					outs = append(outs, o)
				case o.v.name == "t":
					next = append(next, pout{st: o.st, v: x})
				default:
					next = append(next, pout{st: o.st, v: c.v})
				}
			}
		}
		cur = next
	}
	return append(outs, cur...)
}

// eq is eq/eql: decided for named constants and known integers, split
// without learning otherwise.
func (a *pathAnalysis) eq(st *pstate, x, y val) []pout {
	if !x.num && !y.num && x.name != "" && y.name != "" {
		return []pout{{st: st, v: vBool(x.name == y.name)}}
	}
	if x.num && y.num && intKnown(st, x) && intKnown(st, y) {
		return a.compare(st, "=", x, y)
	}
	if x.num != y.num && !anySym(st, x) && !anySym(st, y) {
		return []pout{{st: st, v: vNil}} // a number is never eq to a non-number
	}
	return []pout{{st: st, v: vT}, {st: st, v: vNil}}
}

func anySym(st *pstate, v val) bool {
	s, ok := v.e.single()
	return v.num && ok && st.facts[s].any
}

// member is decided for a named constant in a list of named constants.
func (a *pathAnalysis) member(st *pstate, x, l val) []pout {
	if l.name == "nil" {
		return []pout{{st: st, v: vNil}}
	}
	if l.lst != nil && !x.num && x.name != "" {
		for _, e := range *l.lst {
			if !e.num && e.name == x.name {
				return []pout{{st: st, v: vOpaque}}
			}
		}
		return []pout{{st: st, v: vNil}}
	}
	return []pout{{st: st, fail: true}, {st: st, v: vOpaque}, {st: st, v: vNil}}
}
