package feasible

import (
	"math"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// The value analysis: a flow-insensitive, interprocedural interval
// analysis of the plan's own arithmetic (LTest's value-analysis-based
// pruning of infeasible test objectives, Marcozzi et al., ICSE 2018).
// Every variable — global, parameter, let binding, loop variable,
// temporary — is keyed by its name and gets the join of every value ever
// bound or assigned to a variable of that name anywhere in the plan; a
// defun's parameters the join over its direct call sites; a function's
// result the join over its result positions. Rounds over the whole plan
// repeat until nothing grows (bounds that keep growing are widened), so
// the summaries hold every value any run can produce. Whatever the
// analysis does not model it treats as unknown (any value), and whatever
// it cannot see through (loop, closures, local functions, functions used
// as values) makes the variables and parameters it touches unknown.

// Integers are int64 in the VM and wrap around on overflow; their bounds
// are kept as float64, rounded outward, with ±2^63 standing for the ends
// of int64.
const (
	minInt = -9223372036854775808.0 // -2^63
	maxInt = 9223372036854775808.0  // 2^63, the float bound of MaxInt64
	exact  = 9007199254740992.0     // 2^53: integers up to here are exact
)

// maxRounds bounds the rounds of the fixpoint: a plan that has not settled
// by then gets no value verdicts (sound, and linear in the plan's size).
const maxRounds = 24

// widenAfter is how often a bound may grow before it jumps to the end of
// its range.
const widenAfter = 3

// aval is what the analysis knows of a value: when it may be a number,
// the numbers lie in [lo, hi] (integers, unless frac), or are NaN when
// nan.
type aval struct {
	lo, hi float64
	num    bool // may be a number
	other  bool // may be a non-number (nil, symbol, list, an unbound variable)
	frac   bool // the numbers may be floats
	nan    bool // may be NaN (then lo and hi are ±Inf)
	more   bool // sources beyond src contributed
	src    [2]vsrc
	// world names the world domain the range comes from (Domain.Why).
	world string
	// note says what else the range rests on (counterNote).
	note string
	// noCons: the non-numbers it may be are no conses; otherwise lists,
	// when set, is what is known of the conses it may be (shapes.go).
	noCons bool
	lists  *listShape
	// set, when not nil, holds every integer the value may be
	// (sets.go); syms, when not nil, every non-number it may be, all
	// symbols (symbols.go).
	set  []float64
	syms []string
}

// vsrc is an expression that bounds a value, for reasons.
type vsrc struct {
	n      syntax.Node
	lo, hi float64
}

func nonNum() aval { return aval{other: true} }

// anyNum is any number (floats, infinities and NaN included).
func anyNum() aval {
	return aval{lo: math.Inf(-1), hi: math.Inf(1), num: true, frac: true, nan: true}
}

func top() aval { v := anyNum(); v.other = true; return v }

func anyInt() aval { return aval{lo: minInt, hi: maxInt, num: true} }

// numRange is a number in [lo, hi] with source n.
func numRange(lo, hi float64, frac bool, n syntax.Node) aval {
	v := aval{lo: lo, hi: hi, num: true, frac: frac}
	if n != nil {
		v.src[0] = vsrc{n: n, lo: lo, hi: hi}
	}
	return v
}

// intConst is integer i; beyond 2^53 float64(i) is rounded, so its
// bounds are widened outward (fixInt).
func intConst(i int64, n syntax.Node) aval {
	return withSet(fixInt(float64(i), float64(i), n), singleton(i))
}

// intOnly reports whether every number of v is an integer.
func (v aval) intOnly() bool { return !v.frac && !v.nan }

// bounded reports whether v's numbers lie in finite bounds, NaN excluded.
func (v aval) bounded() bool { return !v.nan && v.finite() }

// finite reports whether v's numbers other than NaN lie in finite bounds.
func (v aval) finite() bool { return !math.IsInf(v.lo, 0) && !math.IsInf(v.hi, 0) }

// orNaN adds NaN to v when any of ws may be NaN: float arithmetic
// propagates it.
func orNaN(v aval, ws ...aval) aval {
	for _, w := range ws {
		if w.nan && v.num {
			v.nan = true
		}
	}
	return v
}

// same reports whether v and w say the same (sources aside).
func (v aval) same(w aval) bool {
	if v.num != w.num || v.other != w.other || v.world != w.world {
		return false
	}
	if v.other && (v.noCons != w.noCons || !sameShape(v.lists, w.lists) || !sameSyms(v.syms, w.syms)) {
		return false
	}
	return !v.num || v.lo == w.lo && v.hi == w.hi && v.frac == w.frac && v.nan == w.nan && sameSet(v.set, w.set)
}

func join(a, b aval) aval {
	if !a.num && !a.other {
		return b
	}
	if !b.num && !b.other {
		return a
	}
	r := aval{num: a.num || b.num, other: a.other || b.other, world: a.world, note: a.note}
	if r.world == "" {
		r.world = b.world
	}
	if r.note == "" {
		r.note = b.note
	}
	if r.other {
		r.noCons = !a.mayCons() && !b.mayCons()
		r.syms = joinSyms(a, b)
		switch {
		case a.unknownCons() || b.unknownCons():
		case a.mayCons() && b.mayCons():
			r.lists = joinShape(a.lists, b.lists)
		case a.mayCons():
			r.lists = a.lists
		case b.mayCons():
			r.lists = b.lists
		}
		r = fixAtoms(r, a, b)
	}
	switch {
	case a.num && b.num:
		r.lo, r.hi = math.Min(a.lo, b.lo), math.Max(a.hi, b.hi)
		r.frac, r.nan = a.frac || b.frac, a.nan || b.nan
		r.src, r.more = mergeSrc(a, b)
		if a.setOK() && b.setOK() {
			r.set = unionSet(a.set, b.set)
		}
	case a.num:
		r.lo, r.hi, r.frac, r.nan, r.src, r.more, r.set = a.lo, a.hi, a.frac, a.nan, a.src, a.more, a.set
	case b.num:
		r.lo, r.hi, r.frac, r.nan, r.src, r.more, r.set = b.lo, b.hi, b.frac, b.nan, b.src, b.more, b.set
	}
	return r
}

// mergeSrc keeps the sources of the lowest and the highest bound.
func mergeSrc(a, b aval) ([2]vsrc, bool) {
	var buf [4]vsrc
	cs := buf[:0]
	for _, s := range [4]vsrc{a.src[0], a.src[1], b.src[0], b.src[1]} {
		if s.n != nil {
			cs = append(cs, s)
		}
	}
	more := a.more || b.more
	if len(cs) == 0 {
		return [2]vsrc{}, more
	}
	lo, hi := cs[0], cs[0]
	for _, s := range cs[1:] {
		if s.lo < lo.lo || s.lo == lo.lo && s.hi > lo.hi {
			lo = s
		}
		if s.hi > hi.hi || s.hi == hi.hi && s.lo < hi.lo {
			hi = s
		}
	}
	out := [2]vsrc{lo}
	if hi.n != lo.n {
		out[1] = hi
	}
	for _, s := range cs {
		if s.n != lo.n && s.n != hi.n {
			more = true
		}
	}
	return out, more
}

// numeric is v's numeric part: what a builtin that needs a number sees
// (a non-number makes it fail). ok is false when v is never a number.
func numeric(v aval) (aval, bool) {
	v.other = false
	return v, v.num
}

// fixInt makes an integer result of [lo, hi] (computed in float64): the
// bounds are rounded outward from 2^53 on (float64 rounds 2^53+1 to 2^53
// itself), and a result that may overflow
// int64 wraps around, so it is any integer.
func fixInt(lo, hi float64, n syntax.Node) aval {
	if math.Abs(lo) >= exact {
		lo = math.Nextafter(lo, math.Inf(-1))
	}
	if math.Abs(hi) >= exact {
		hi = math.Nextafter(hi, math.Inf(1))
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || lo < minInt || hi >= maxInt {
		v := anyInt()
		v.src[0] = vsrc{n: n, lo: v.lo, hi: v.hi}
		return v
	}
	return numRange(lo, hi, false, n)
}

// fixFloat makes a float result of [lo, hi]: rounding is monotone, so the
// bounds computed in float64 bound the VM's results; an infinite bound or
// NaN makes it any number.
func fixFloat(lo, hi float64, n syntax.Node) aval {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return anyNum()
	}
	return numRange(lo, hi, true, n)
}

func withWorld(v aval, ws ...aval) aval {
	for _, w := range ws {
		if v.world == "" {
			v.world = w.world
		}
	}
	return v
}

// identityOf is the value of (+) or (*) with no arguments: op's identity.
func identityOf(op byte) int64 {
	if op == '*' {
		return 1
	}
	return 0
}

// stepOp is the operator of 1+ and incf ('+') or of 1- and decf ('-').
func stepOp(h string) byte {
	if h == "1-" || h == "decf" {
		return '-'
	}
	return '+'
}

// applyOp applies + - * to two numbers of one kind as the VM's arith
// does: int64 wraps around, float64 rounds.
func applyOp[T int64 | float64](op byte, p, q T) T {
	switch op {
	case '+':
		return p + q
	case '-':
		return p - q
	}
	return p * q
}

// arith2 applies + - * / to two numbers as the VM does (arith).
func arith2(op byte, a, b aval, n syntax.Node) aval {
	a, oka := numeric(a)
	b, okb := numeric(b)
	if !oka || !okb {
		return aval{} // always fails
	}
	ints := a.intOnly() && b.intOnly()
	if !ints && (!a.finite() || !b.finite() || b.nan && op == '/') {
		return anyNum()
	}
	var lo, hi float64
	switch op {
	case '+':
		lo, hi = a.lo+b.lo, a.hi+b.hi
	case '-':
		lo, hi = a.lo-b.hi, a.hi-b.lo
	case '*':
		c := [4]float64{a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi}
		lo, hi = min(c[0], c[1], c[2], c[3]), max(c[0], c[1], c[2], c[3])
	case '/':
		if !ints {
			if b.lo <= 0 && b.hi >= 0 {
				return anyNum()
			}
			c := [4]float64{a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi}
			// (or, both integers, the truncated quotient)
			fl := orNaN(fixFloat(min(c[0], c[1], c[2], c[3]), max(c[0], c[1], c[2], c[3]), n), a, b)
			return withWorld(join(fl, intDiv(a, b, math.Trunc, n)), a, b)
		}
		return withWorld(intDiv(a, b, math.Trunc, n), a, b)
	}
	if ints {
		return withWorld(withSet(fixInt(lo, hi, n), arithSet(op, a, b)), a, b)
	}
	// Operands that may be floats may as well both be integers, whose
	// int64 arithmetic wraps around: the result is either.
	return withWorld(join(orNaN(fixFloat(lo, hi, n), a, b), fixInt(lo, hi, n)), a, b)
}

// intDiv divides integers rounding with rnd (truncation for /, floor for
// floor): the quotient is monotone in each operand where the divisor's
// sign is fixed, so the corners bound it. A zero divisor fails; the
// divisor -1 wraps MinInt64 around.
func intDiv(a, b aval, rnd func(float64) float64, n syntax.Node) aval {
	var parts [][2]float64
	if b.lo <= -1 {
		parts = append(parts, [2]float64{b.lo, math.Min(b.hi, -1)})
	}
	if b.hi >= 1 {
		parts = append(parts, [2]float64{math.Max(b.lo, 1), b.hi})
	}
	if len(parts) == 0 {
		return aval{} // always divides by zero
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range parts {
		for _, x := range []float64{a.lo, a.hi} {
			for _, y := range p {
				q := rnd(x / y)
				lo, hi = math.Min(lo, q), math.Max(hi, q)
			}
		}
	}
	// x/y in float64 may round across an integer once |x| reaches 2^53
	// (below, the rounding error is less than x/y's distance to the
	// next integer): widen by one.
	if math.Max(math.Abs(a.lo), math.Abs(a.hi)) >= exact {
		lo, hi = lo-1, hi+1
	}
	if a.lo <= minInt && b.lo <= -1 && b.hi >= -1 {
		lo = minInt // MinInt64 / -1 wraps to MinInt64
	}
	return fixInt(lo, hi, n)
}

// modRem bounds (mod a b) (floored) and (rem a b) (truncated) as the VM
// computes them (modRem).
func modRem(floored bool, a, b aval, n syntax.Node) aval {
	a, oka := numeric(a)
	b, okb := numeric(b)
	if !oka || !okb {
		return aval{}
	}
	if b.lo == 0 && b.hi == 0 {
		return aval{} // always divides by zero
	}
	if a.intOnly() && b.intOnly() {
		m := math.Max(math.Abs(b.lo), math.Abs(b.hi)) // |r| < m
		var lo, hi float64
		switch {
		case floored && b.lo >= 1:
			lo, hi = 0, b.hi-1
			if a.lo >= 0 && a.hi < b.lo {
				lo, hi = a.lo, a.hi // a is its own remainder
			}
		case floored && b.hi <= -1:
			lo, hi = b.lo+1, 0
		case floored:
			lo, hi = -(m - 1), m-1
		case a.lo >= 0:
			lo, hi = 0, math.Min(a.hi, m-1)
		case a.hi <= 0:
			lo, hi = math.Max(a.lo, -(m-1)), 0
		default:
			lo, hi = -(m - 1), m-1
		}
		if m >= maxInt {
			return withWorld(fixInt(minInt, maxInt-1, n), a, b)
		}
		return withWorld(fixInt(math.Min(lo, 0), math.Max(hi, 0), n), a, b)
	}
	// Floats: math.Mod, then +b for mod when the signs differ; the sum may
	// round to b itself. NaN and infinities make NaN.
	if !b.bounded() {
		return anyNum()
	}
	m := math.Max(math.Abs(b.lo), math.Abs(b.hi))
	lo, hi := -m, m
	if floored && b.lo > 0 {
		lo = 0
	} else if floored && b.hi < 0 {
		hi = 0
	} else if !floored && a.lo >= 0 {
		lo = 0
	} else if !floored && a.hi <= 0 {
		hi = 0
	}
	v := numRange(lo, hi, true, n)
	v.nan = !a.bounded() // (mod inf b) and (mod NaN b) are NaN; finite dividends stay in range
	return withWorld(v, a, b)
}

// valueAnalysis holds the summaries of one plan.
type valueAnalysis struct {
	res *normalize.Result
	// args is a stack of the arguments' values of the calls evList is
	// evaluating, innermost last: no call keeps them past its return.
	args  []aval
	fns   map[string]domain.Domain // world domains
	vars  map[string]*slot
	funcs map[string]*fnInfo
	// blocks holds what return-from NAME (and return, "nil") pass out.
	blocks map[string]*slot
	// localFns names flet/labels functions: a call may reach one of them.
	localFns map[string]bool
	// bound are the globals a top-level definition binds before any code
	// runs: reading them cannot fail.
	bound map[string]bool
	// once maps a variable bound once (let) and never assigned or rebound
	// to its expression: (first v) of a world query's list reads through it.
	once  map[string]syntax.Node
	scope map[string]int // lexically bound names while walking
	desig desigState     // what the plan's designator forms hold (desig.go)
	// Lexical bindings (lexical.go): the bindings in scope per name,
	// innermost last; what each binding ever holds; the binding each
	// variable reference of the walk resolved to; the special (global)
	// names, always by name.
	lex      map[string][]string
	scoped   map[string]*slot
	symKey   map[*syntax.Symbol]string
	specials map[string]bool
	// counters are the local variables only ever bound to 0 and
	// incremented by one (counters.go).
	counters map[string]string // name -> counterNote, globalCounterNote or resetCounterNote
	// resets are the names a (setq X 0) assigns (counters.go).
	resets map[string]bool
	// litLists are the globals bound to a quoted literal list and only
	// read: the join of their elements (desig.go).
	litLists map[string]aval
	// loopBlocks are the nil blocks of dolist and dotimes loops;
	// nilBlocks those the walk is inside, innermost last.
	loopBlocks map[*syntax.List]*slot
	nilBlocks  []*slot
	// record is set while walking the plan (bindings are joined into the
	// summaries); judging a label only reads them.
	record  bool
	changed bool
	ok      bool // the fixpoint was reached
	deep    bool // the walk gave up on a plan nested too deep: no verdicts
	// assume overrides variables by name while a label's conjunction is
	// judged (symbols.go); closAssigned caches closureAssigned.
	assume       map[string]aval
	closAssigned map[string]bool
	// assignedKeys are the lexical bindings assigned after they are
	// bound (setq, incf, push, a taint, ...), for the guard analysis.
	assignedKeys map[string]bool
	// ctx holds the bindings of an evaluation per call, ctxDepth its
	// nesting, refined the bindings a test said are not nil
	// (precise.go).
	ctx      map[string]aval
	ctxDepth int
	refined  map[string]aval
	// whileNN are the bindings the test of the while loop or cond clause
	// the walk is in says are conses of at least so many elements (V: 1,
	// (rest V): 2), until the body assigns them; directPops the (pop V)
	// forms of such a body that no inner loop or function holds (each
	// with V's binding), and popVals what each (pop V) returned over the
	// walk.
	whileNN    map[string]int
	directPops map[*syntax.List]string
	popVals    map[*syntax.List]aval
}

type slot struct {
	v        aval
	wlo, whi int8
	wshape   int8
}

type fnInfo struct {
	params []string // nil unless a defun with a simple lambda list
	result slot
	// free: parameters are unknown (not a defun, a complex lambda list,
	// or the function is used as a value).
	free bool
	// def is the defun (evaluated per call, precise.go), size its
	// node count once known.
	def  *syntax.List
	size int
}

// maxWalkDepth bounds the recursion of the walk (the reader bounds
// nesting, normalize adds a few levels): deeper plans get no verdicts.
const maxWalkDepth = 4 * syntax.MaxDepth

func analyzeValues(res *normalize.Result, fns map[string]domain.Domain) *valueAnalysis {
	a := &valueAnalysis{res: res, fns: fns, vars: map[string]*slot{}, funcs: map[string]*fnInfo{},
		blocks: map[string]*slot{}, localFns: map[string]bool{}, bound: map[string]bool{},
		once: map[string]syntax.Node{}, scope: map[string]int{}, loopBlocks: map[*syntax.List]*slot{},
		lex: map[string][]string{}, scoped: map[string]*slot{}, symKey: map[*syntax.Symbol]string{}, assignedKeys: map[string]bool{}}
	a.prepare()
	a.prepareDesigs()
	a.prepareLiteralLists()
	a.findCounters()
	a.findSpecials()
	a.record = true
	for round := 0; round < maxRounds; round++ {
		a.changed = false
		// Alternate directions: a chain of calls settles in a few rounds
		// whether callers come before their callees or after.
		for i := range res.Forms {
			if round%2 == 1 {
				i = len(res.Forms) - 1 - i
			}
			if f := res.Forms[i]; !res.Skipped(f) {
				a.ev(f, 0)
			}
		}
		if !a.changed && !a.deep {
			a.ok = true
			break
		}
		if a.deep {
			break
		}
	}
	a.record = false
	return a
}

// prepare collects the plan's functions, its always-bound globals, its
// local function names and its once-bound variables.
func (a *valueAnalysis) prepare() {
	frozen := false // some top-level code has run: later globals may be unbound
	for _, f := range a.res.Forms {
		if a.res.Skipped(f) {
			continue
		}
		l, ok := f.(*syntax.List)
		h := forms.Head(f)
		switch h {
		case "defun", "def-plan", "def-check", "def-policy", "def-cram-function":
			if len(l.Elems) < 3 {
				continue
			}
			name, ok := l.Elems[1].(*syntax.Symbol)
			if !ok {
				continue
			}
			fi := &fnInfo{free: h != "defun"}
			if isDefun(l) {
				fi.def = l
			}
			if ps, ok := l.Elems[2].(*syntax.List); ok && h == "defun" {
				fi.params = []string{}
				for _, p := range ps.Elems {
					s, ok := p.(*syntax.Symbol)
					if !ok || strings.HasPrefix(s.Name, "&") {
						fi.params, fi.free = nil, true
						break
					}
					fi.params = append(fi.params, s.Name)
				}
			} else {
				fi.free = true
			}
			a.funcs[forms.Name(name)] = fi
		case "defparameter", "defvar", "defconstant":
			if len(l.Elems) < 3 {
				continue
			}
			name, ok := l.Elems[1].(*syntax.Symbol)
			if !ok {
				continue
			}
			if !normalize.IsConstant(l.Elems[2]) {
				frozen = true
			}
			if !frozen {
				a.bound[name.Name] = true
			}
		default:
			if ok {
				frozen = true
			}
		}
	}
	a.localFns = localFuncNames(a.res)
	if a.dynamicCalls() {
		// A function computed at run time may be a symbol from outside
		// the plan (an argument, a world query) naming any function.
		for _, fi := range a.funcs {
			fi.free = true
		}
	}
	if len(a.fns) > 0 {
		a.findOnce()
	}
}

// funcArgHeads call a function value given as their first argument.
var funcArgHeads = map[string]bool{"funcall": true, "apply": true, "mapcar": true, "mapc": true, "mapcan": true,
	"maplist": true, "some": true, "every": true, "notany": true, "notevery": true, "reduce": true, "sort": true,
	"remove-if": true, "remove-if-not": true, "member-if": true, "member-if-not": true, "find-if": true,
	"find-if-not": true, "position-if": true, "position-if-not": true, "count-if": true, "count-if-not": true}

// dynamicCalls reports whether the plan calls a function value that is
// not written in place (#'f, 'f, a lambda): funcall of a variable, a
// :key or :test argument computed at run time.
func (a *valueAnalysis) dynamicCalls() bool {
	dynamic := false
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || dynamic || forms.Head(l) == "quote" {
				return !dynamic && ok
			}
			if funcArgHeads[forms.Head(l)] && len(l.Elems) > 1 && !staticFunction(l.Elems[1]) {
				dynamic = true
			}
			for i := 1; i+1 < len(l.Elems); i++ {
				if k, ok := l.Elems[i].(*syntax.Keyword); ok && (k.Name == "key" || k.Name == "test" || k.Name == "test-not") && !staticFunction(l.Elems[i+1]) {
					dynamic = true
				}
			}
			return !dynamic
		})
	}
	return dynamic
}

// staticFunction reports whether n names its function in place.
func staticFunction(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Prefixed:
		return n.Mark == syntax.MarkFunction
	case *syntax.Quote:
		_, ok := n.X.(*syntax.Symbol)
		return ok
	case *syntax.List:
		switch forms.Head(n) {
		case "function", "lambda":
			return true
		case "quote":
			return len(n.Elems) == 2 && isSymbolNode(n.Elems[1])
		}
	}
	return false
}

func isSymbolNode(n syntax.Node) bool { _, ok := n.(*syntax.Symbol); return ok }

// findOnce fills once: variables bound by exactly one let binding (NAME
// EXPR) and bound or assigned nowhere else.
func (a *valueAnalysis) findOnce() {
	bound := map[string]int{}
	assigned := map[string]bool{}
	for _, f := range a.res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			l, ok := n.(*syntax.List)
			if !ok || len(l.Elems) < 2 {
				return true
			}
			switch h := forms.Head(l); h {
			case "let", "let*":
				if bl, ok := l.Elems[1].(*syntax.List); ok {
					for _, b := range bl.Elems {
						if b, ok := b.(*syntax.List); ok && len(b.Elems) == 2 {
							if s, ok := b.Elems[0].(*syntax.Symbol); ok {
								bound[s.Name]++
								a.once[s.Name] = b.Elems[1]
								continue
							}
						}
						countSymbols(b, bound)
					}
				}
			default:
				f := forms.Lookup(h)
				if f != nil && f.Effect == forms.Assign {
					for _, x := range l.Elems[1:] {
						if s, ok := x.(*syntax.Symbol); ok {
							assigned[s.Name] = true
						}
					}
				} else if f != nil && f.Effect != forms.Plain && f.Effect != forms.Exit && f.Effect != forms.Constant {
					// Any other binder (parameters, loop variables,
					// handler variables, globals, loop clauses) rules a
					// name out.
					for i, x := range l.Elems[1:] {
						if f.From > 0 && i+1 >= f.From && h != "loop" {
							break
						}
						countSymbols(x, bound)
					}
				}
			}
			return true
		})
	}
	for name := range a.once {
		if bound[name] != 1 || assigned[name] {
			delete(a.once, name)
		}
	}
}

// countSymbols counts the symbols in n twice each in bound (never "once").
func countSymbols(n syntax.Node, bound map[string]int) {
	syntax.Walk(n, func(x syntax.Node) bool {
		if s, ok := x.(*syntax.Symbol); ok {
			bound[s.Name] += 2
		}
		return true
	})
}

func (a *valueAnalysis) slotOf(m map[string]*slot, name string) *slot {
	s := m[name]
	if s == nil {
		s = &slot{}
		m[name] = s
	}
	return s
}

// put joins v into s, widening bounds that keep growing.
func (a *valueAnalysis) put(s *slot, v aval) {
	if !a.record {
		return
	}
	n := join(s.v, v)
	if n.same(s.v) {
		if n.num && s.v.src[0].n == nil {
			s.v.src, s.v.more = n.src, n.more
		}
		return
	}
	if n.lists != nil && !sameShape(n.lists, s.v.lists) {
		if s.wshape++; s.wshape > widenShapes {
			n.lists = nil // an unknown cons from now on
		}
	}
	if n.num && s.v.num {
		if n.lo < s.v.lo {
			if s.wlo++; s.wlo > widenAfter {
				n.set = nil
				if n.frac || n.lo < minInt {
					n.lo = math.Inf(-1)
				} else {
					n.lo = minInt
				}
			}
		}
		if n.hi > s.v.hi {
			if s.whi++; s.whi > widenAfter {
				n.set = nil
				if n.frac || n.hi > maxInt {
					n.hi = math.Inf(1)
				} else {
					n.hi = maxInt
				}
			}
		}
	}
	s.v = n
	a.changed = true
}

func (a *valueAnalysis) putVar(name string, v aval) {
	a.put(a.slotOf(a.vars, name), v)
	clear(a.whileNN) // what a test said holds until the next assignment
	if k := a.keyOf(name); k != "" {
		a.put(a.slotOf(a.scoped, k), v)
		if a.record {
			a.assignedKeys[k] = true
		}
	}
}

// escape makes the parameters of user function name unknown: it is used
// as a value, so it may be called from anywhere with anything.
func (a *valueAnalysis) escape(name string) {
	if fi := a.funcs[name]; fi != nil && !fi.free && a.record {
		fi.free = true
		a.changed = true
	}
}

// taint makes everything below n unknown: every variable named in it,
// every function named in it, every block it returns from. It stands for
// code the analysis does not model (loop, reader conditionals, ...).
func (a *valueAnalysis) taint(n syntax.Node) {
	if !a.record {
		return
	}
	syntax.Walk(n, func(x syntax.Node) bool {
		switch x := x.(type) {
		case *syntax.Symbol:
			a.putVar(x.Name, top())
			a.escape(forms.Name(x))
			a.escape(x.Name)
			a.put(a.slotOf(a.blocks, x.Name), top())
		}
		return true
	})
}

// escapeData marks the functions named in quoted data or #'f as used as
// values.
func (a *valueAnalysis) escapeData(n syntax.Node) {
	if !a.record {
		return
	}
	syntax.Walk(n, func(x syntax.Node) bool {
		if s, ok := x.(*syntax.Symbol); ok {
			a.escape(forms.Name(s))
			a.escape(s.Name)
		}
		return true
	})
}

func (a *valueAnalysis) push(names []string) {
	for _, n := range names {
		a.scope[n]++
	}
}

func (a *valueAnalysis) pop(names []string) {
	for _, n := range names {
		if a.scope[n]--; a.scope[n] <= 0 {
			delete(a.scope, n)
		}
	}
}

var piVal = numRange(math.Pi, math.Pi, true, nil)

// ref is the value of variable s.
func (a *valueAnalysis) ref(s *syntax.Symbol) aval {
	switch s.Name {
	case "t", "nil":
		return symVal(s.Name)
	}
	if v, ok := a.assume[s.Name]; ok && !a.record {
		return v
	}
	if v, ok := a.lexRef(s); ok {
		return v
	}
	free := a.scope[s.Name] == 0 && !a.bound[s.Name]
	if s.Name == "pi" && (free || !a.record) {
		return join(piVal, a.varVal(s.Name))
	}
	if free && a.record {
		a.putVar(s.Name, nonNum()) // may be unbound: reading it fails
	}
	return a.varVal(s.Name)
}

func (a *valueAnalysis) varVal(name string) aval {
	if s := a.vars[name]; s != nil {
		return s.v
	}
	return aval{}
}

func (a *valueAnalysis) body(xs []syntax.Node, depth int) aval {
	v := nilVal() // an empty body is nil
	for _, x := range xs {
		v = a.ev(x, depth+1)
	}
	return v
}

// ev walks n (joining what it binds and assigns into the summaries when
// recording) and returns its value.
func (a *valueAnalysis) ev(n syntax.Node, depth int) aval {
	if depth > maxWalkDepth {
		a.deep = true
		return top()
	}
	switch n := n.(type) {
	case *syntax.Int:
		return intConst(n.Value, n)
	case *syntax.Float:
		return fixFloat(n.Value, n.Value, n)
	case *syntax.Keyword:
		return symVal(":" + n.Name)
	case *syntax.String, *syntax.Char:
		return atomVal()
	case *syntax.Symbol:
		return a.ref(n)
	case *syntax.Quote:
		a.escapeData(n.X)
		return datumVal(n.X, 0)
	case *syntax.Prefixed:
		if n.Mark == syntax.MarkFunction {
			if _, isSym := n.X.(*syntax.Symbol); isSym {
				a.escapeData(n.X)
				return nonNum()
			}
		}
		a.taint(n)
		return top()
	case *syntax.List:
		return a.evList(n, depth)
	}
	a.taint(n)
	return top()
}

func (a *valueAnalysis) evList(l *syntax.List, depth int) aval {
	if len(l.Elems) == 0 {
		return nonNum()
	}
	head, isSym := l.Elems[0].(*syntax.Symbol)
	if !isSym || forms.Opaque(l) {
		a.taint(l)
		return top()
	}
	h := forms.Name(head)
	args := l.Elems[1:]
	if forms.Lookup(h) != nil {
		return a.special(h, l, depth)
	}
	base := len(a.args)
	for _, x := range args {
		v := a.ev(x, depth+1) // leaves a.args as long as it found it
		a.args = append(a.args, v)
	}
	defer func() { a.args = a.args[:base] }()
	// A call below this one may grow a.args into new storage: vals stays
	// in the old, which nothing writes at vals' indices.
	vals := a.args[base:len(a.args):len(a.args)]
	if fi := a.funcs[h]; fi != nil {
		if fi.free || len(fi.params) != len(args) {
			for _, p := range fi.params {
				a.putParam(h, p, top())
			}
		} else {
			for i, p := range fi.params {
				a.putParam(h, p, vals[i])
			}
		}
		if a.localFns[h] {
			return top()
		}
		if v, ok := a.ctxCall(h, fi, vals, depth); ok {
			return v
		}
		return fi.result.v
	}
	if a.localFns[h] || a.res.IsUserFunc(h) {
		return top()
	}
	if d, ok := a.fns[h]; ok {
		return worldVal(d)
	}
	return a.builtin(h, l, vals)
}

// builtin is the value of a call of a core builtin (or of an external
// function: unknown).
func (a *valueAnalysis) builtin(h string, l *syntax.List, vals []aval) aval {
	n := len(vals)
	if v, ok := listBuiltin(h, vals); ok {
		return v
	}
	switch h {
	case "+", "*":
		if n == 0 {
			return intConst(identityOf(h[0]), l)
		}
		v, ok := numeric(vals[0])
		if !ok {
			return aval{}
		}
		for _, w := range vals[1:] {
			v = arith2(h[0], v, w, l)
		}
		return v
	case "-", "/":
		if n == 0 {
			return aval{}
		}
		if n == 1 {
			first := intConst(0, nil)
			if h == "/" {
				first = intConst(1, nil)
			}
			return arith2(h[0], first, vals[0], l)
		}
		v := vals[0]
		for _, w := range vals[1:] {
			v = arith2(h[0], v, w, l)
		}
		return v
	case "1+", "1-":
		if n != 1 {
			return aval{}
		}
		return arith2(stepOp(h), vals[0], intConst(1, nil), l)
	case "mod", "rem":
		if n != 2 {
			return aval{}
		}
		return modRem(h == "mod", vals[0], vals[1], l)
	case "abs":
		if n != 1 {
			return aval{}
		}
		x, ok := numeric(vals[0])
		if !ok {
			return aval{}
		}
		x.set = nil
		if x.nan {
			return anyNum()
		}
		switch {
		case x.lo >= 0:
			x.src = [2]vsrc{{n: l, lo: x.lo, hi: x.hi}}
			return x
		case x.hi <= 0:
			x.lo, x.hi = -x.hi, -x.lo
		default:
			x.lo, x.hi = 0, math.Max(-x.lo, x.hi)
		}
		if !x.nan && x.hi >= maxInt {
			// (abs MinInt64) wraps to MinInt64 (also when x may be a
			// float: it may as well be that integer).
			x.lo, x.hi = minInt, math.Max(x.hi, maxInt)
		}
		x.src, x.more = [2]vsrc{{n: l, lo: x.lo, hi: x.hi}}, false
		return x
	case "min", "max":
		if n == 0 {
			return aval{}
		}
		v, ok := numeric(vals[0])
		if !ok {
			return aval{}
		}
		for _, w := range vals[1:] {
			w, ok := numeric(w)
			if !ok {
				return aval{}
			}
			if v.nan || w.nan {
				v = join(v, w) // NaN compares false: either may be kept
				continue
			}
			j := join(v, w)
			if h == "min" {
				j.lo, j.hi = math.Min(v.lo, w.lo), math.Min(v.hi, w.hi)
			} else {
				j.lo, j.hi = math.Max(v.lo, w.lo), math.Max(v.hi, w.hi)
			}
			v = j
		}
		return v
	case "floor", "round":
		if n < 1 || n > 2 || h == "round" && n != 1 {
			return aval{}
		}
		x, ok := numeric(vals[0])
		if !ok {
			return aval{}
		}
		if n == 2 {
			y, ok := numeric(vals[1])
			if !ok {
				return aval{}
			}
			m := math.Max(math.Abs(y.lo), math.Abs(y.hi))
			if x.intOnly() && y.intOnly() && x.lo-m > minInt && x.hi+m < maxInt {
				// (the VM computes (x - (mod x y)) / y, which wraps
				// near the ends of int64)
				return intDiv(x, y, math.Floor, l)
			}
			return anyInt()
		}
		if x.intOnly() {
			return x
		}
		if !x.bounded() {
			return anyInt()
		}
		rnd := math.Floor
		if h == "round" {
			rnd = math.RoundToEven
		}
		return withWorld(fixInt(rnd(x.lo), rnd(x.hi), l), x)
	case "sqrt":
		if n != 1 {
			return aval{}
		}
		x, ok := numeric(vals[0])
		if !ok {
			return aval{}
		}
		if !x.bounded() {
			return anyNum()
		}
		return withWorld(fixFloat(math.Sqrt(math.Max(0, x.lo)), math.Sqrt(math.Max(0, x.hi)), l), x)
	case "length":
		if n == 1 {
			if v, ok := lengthVal(vals[0], l); ok {
				return v
			}
		}
		return numRange(0, maxInt, false, l)
	case "char-code":
		return numRange(0, 0x10FFFF, false, l)
	case "<", "<=", ">", ">=", "=", "/=", "eq", "eql", "equal", "string=", "not", "null", "numberp", "integerp",
		"floatp", "symbolp", "keywordp", "listp", "consp", "stringp", "functionp", "designatorp", "zerop",
		"plusp", "minusp", "evenp", "oddp":
		return boolVal()
	case "list", "cons", "append", "reverse", "member", "remove", "assoc", "make-designator", "subseq", "code-char":
		return nonNum()
	case "fail":
		return aval{}
	case "first", "car", "second", "third", "nth":
		return a.element(h, l, vals)
	}
	return top()
}

// element is the value of (first x), (nth k x) and the like: an element
// of a world query's list result when x is such a call (directly, or
// through a temporary or a variable bound once to one); unknown otherwise.
func (a *valueAnalysis) element(h string, l *syntax.List, vals []aval) aval {
	idx := -1
	var arg syntax.Node
	switch {
	case (h == "first" || h == "car") && len(l.Elems) == 2:
		idx, arg = 0, l.Elems[1]
	case h == "second" && len(l.Elems) == 2:
		idx, arg = 1, l.Elems[1]
	case h == "third" && len(l.Elems) == 2:
		idx, arg = 2, l.Elems[1]
	case h == "nth" && len(l.Elems) == 3:
		if k, ok := l.Elems[1].(*syntax.Int); ok && k.Value >= 0 && k.Value < 1<<20 {
			idx, arg = int(k.Value), l.Elems[2]
		}
	}
	if len(vals) == 0 || (h == "nth") != (len(vals) == 2) {
		return top()
	}
	// What the shape of the list says (shapes.go).
	shaped := elemOf(vals[len(vals)-1], idx)
	if idx < 0 && h == "nth" {
		if v, ok := nthVal(vals[0], vals[1]); ok {
			shaped = v
		}
	}
	if idx < 0 || len(a.fns) == 0 {
		return shaped
	}
	if s, ok := arg.(*syntax.Symbol); ok {
		if init, ok := a.once[s.Name]; ok {
			arg = init
		} else if a.res.IsTemp(s.Name) {
			if o := a.res.Origin(s); o != nil {
				arg = o
			}
		}
	}
	if c, ok := arg.(*syntax.List); ok {
		if v, ok := a.desigElem(c, idx); ok {
			return v
		}
		ch := forms.Head(c)
		if dom, ok := a.fns[ch]; ok && idx < len(dom.Elems) && !a.res.IsUserFunc(ch) && a.funcs[ch] == nil && !a.localFns[ch] {
			r := dom.Elems[idx]
			v := numRange(r.Lo, r.Hi, true, nil)
			v.other, v.world = true, dom.Why
			return v
		}
	}
	return shaped
}

// special walks special form l (named h).
func (a *valueAnalysis) special(h string, l *syntax.List, depth int) aval {
	el := l.Elems
	n := len(el)
	d := depth + 1
	switch h {
	case "quote":
		if n == 2 {
			a.escapeData(el[1])
			return datumVal(el[1], 0)
		}
		if n > 1 {
			a.escapeData(el[1])
		}
		return nonNum()
	case "function":
		if n == 2 {
			if _, ok := el[1].(*syntax.Symbol); ok {
				a.escapeData(el[1])
				return nonNum()
			}
			if forms.Head(el[1]) == "lambda" {
				a.ev(el[1], d)
				return nonNum()
			}
		}
	case "a", "an":
		// A designator: its keys and literal values bind nothing.
		for _, x := range a.slots(l) {
			a.ev(x, d)
		}
		a.designator(l, d)
		return nonNum()
	case "declare":
		return nonNum()
	case "if":
		if n < 3 || n > 4 {
			break
		}
		a.ev(el[1], d)
		mayT, mayF := a.ctxTruth(el[1])
		v := aval{}
		switch k, ok := a.refineNonNil(el[1]); {
		case !mayT:
		case ok:
			v = a.evNonNil(k, el[2], d)
		default:
			v = a.ev(el[2], d)
		}
		switch {
		case !mayF:
		case n == 4:
			v = join(v, a.ev(el[3], d))
		default:
			v = join(v, nilVal())
		}
		return v
	case "when", "unless":
		if n < 2 {
			break
		}
		a.ev(el[1], d)
		if k, ok := a.refineNonNil(el[1]); ok && h == "when" {
			return join(a.bodyNonNil(k, el[2:], d+1), nilVal())
		}
		return join(a.body(el[2:], d), nilVal())
	case "while", "assert":
		if h == "while" && a.record && n >= 2 {
			a.ev(el[1], d)
			a.underTest(el[1], el[2:], func() { a.body(el[2:], d) })
			return nonNum()
		}
		for _, x := range el[1:] {
			a.ev(x, d)
		}
		return nonNum()
	case "cond":
		v := aval{}
		exhaustive := false
		for i, c := range el[1:] {
			cl, ok := c.(*syntax.List)
			if !ok || len(cl.Elems) == 0 {
				a.taint(l)
				return top()
			}
			t := a.ev(cl.Elems[0], d)
			if len(cl.Elems) == 1 {
				v = join(v, t)
			} else {
				a.underTest(cl.Elems[0], cl.Elems[1:], func() { v = join(v, a.body(cl.Elems[1:], d)) })
			}
			if i == n-2 && normalize.IsConstant(cl.Elems[0]) && !syntax.IsSymbol(cl.Elems[0], "nil") {
				exhaustive = true
			}
		}
		if !exhaustive {
			v = join(v, nilVal())
		}
		return v
	case "case", "ecase", "typecase", "etypecase":
		if n < 2 {
			break
		}
		a.ev(el[1], d)
		// No clause matched: nil, unless a clause is the default
		// (otherwise or t) or the form fails instead (ecase, etypecase).
		exhaustive := h == "ecase" || h == "etypecase"
		v := aval{}
		for _, c := range el[2:] {
			cl, ok := c.(*syntax.List)
			if !ok || len(cl.Elems) == 0 {
				a.taint(l)
				return top()
			}
			if h == "case" || h == "typecase" {
				exhaustive = exhaustive || syntax.IsSymbol(cl.Elems[0], "otherwise") || syntax.IsSymbol(cl.Elems[0], "t")
			}
			v = join(v, a.body(cl.Elems[1:], d))
		}
		if !exhaustive {
			v = join(v, nilVal())
		}
		return v
	case "and":
		if n == 1 {
			return symVal("t")
		}
		return join(a.body(el[1:], d), nilVal())
	case "or":
		v := nilVal()
		for _, x := range el[1:] {
			v = join(v, a.ev(x, d))
		}
		return v
	case "progn", "seq", "top-level", "with-simulated-robot", "with-real-robot":
		return a.body(el[1:], d)
	case "ignore-errors":
		return join(a.body(el[1:], d), nonNum())
	case "unwind-protect":
		if n < 2 {
			break
		}
		v := a.ev(el[1], d)
		a.body(el[2:], d)
		return v
	case "let", "let*":
		bl, ok := el[1%n].(*syntax.List)
		if n < 2 || !ok {
			break
		}
		var names, keys []string
		for _, b := range bl.Elems {
			name, v := "", nilVal()
			switch b := b.(type) {
			case *syntax.Symbol:
				name = b.Name
			case *syntax.List:
				if len(b.Elems) == 0 || len(b.Elems) > 2 {
					a.taint(l)
					return top()
				}
				s, ok := b.Elems[0].(*syntax.Symbol)
				if !ok {
					a.taint(l)
					return top()
				}
				name = s.Name
				if len(b.Elems) == 2 {
					v = a.ev(b.Elems[1], d)
				}
			default:
				a.taint(l)
				return top()
			}
			key := a.lexKey(name, b)
			a.bindVal(name, key, v)
			a.ctxBind(key, v)
			if h == "let*" {
				a.pushLex([]string{name}, []string{key})
			}
			names, keys = append(names, name), append(keys, key)
		}
		if h == "let" {
			a.pushLex(names, keys)
		}
		v := a.body(el[2:], d)
		a.popLex(names)
		return v
	case "setq", "setf":
		if n%2 == 0 {
			break
		}
		v := nonNum()
		for i := 1; i+1 < n; i += 2 {
			switch p := el[i].(type) {
			case *syntax.Symbol:
				v = a.ev(el[i+1], d)
				a.putVar(p.Name, v)
			case *syntax.List:
				for _, x := range p.Elems[1:] {
					a.ev(x, d)
				}
				v = a.ev(el[i+1], d)
			default:
				a.taint(l)
				return top()
			}
		}
		return v
	case "incf", "decf":
		if n < 2 || n > 3 {
			break
		}
		delta := intConst(1, nil)
		switch p := el[1].(type) {
		case *syntax.Symbol:
			cur := a.ref(p)
			if note := a.counters[p.Name]; h == "incf" && n == 2 && note != "" {
				v := increment(cur, l, note)
				a.putVar(p.Name, v)
				return v
			}
			if n == 3 {
				delta = a.ev(el[2], d)
			}
			v := arith2(stepOp(h), cur, delta, l)
			a.putVar(p.Name, v)
			return v
		case *syntax.List:
			for _, x := range el[1:] {
				a.ev(x, d)
			}
			return top()
		}
	case "push", "pop":
		at := 1
		if h == "push" {
			if n != 3 {
				break
			}
			at = 2
		} else if n != 2 {
			break
		}
		var pushed aval
		if h == "push" {
			pushed = a.ev(el[1], d)
		}
		switch p := el[at].(type) {
		case *syntax.Symbol:
			cur := a.ref(p)
			if h == "push" {
				// (setq V (cons X V)): V's elements and X.
				if v, ok := listBuiltin("cons", []aval{pushed, cur}); ok && !cur.num {
					a.putVar(p.Name, v)
					return v
				}
			}
			if h == "pop" {
				// (prog1 (car V) (setq V (cdr V))): the first element of
				// V's shape, and V its rest; V is no nil where the test
				// of the while loop it pops in says so.
				if k := a.varKey(p); k != "" && a.whileNN[k] > 0 && a.directPops[l] == k {
					m := a.whileNN[k]
					cur = withoutNil(cur)
					if sureCons(cur) && cur.lists.min < m {
						sh := *cur.lists
						sh.min = m // a cons has a first element; (rest V) true, a second
						cur.lists = &sh
					}
				}
				first := elemOf(cur, 0)
				if a.record {
					if a.popVals == nil {
						a.popVals = map[*syntax.List]aval{}
					}
					a.popVals[l] = join(a.popVals[l], first)
				} else if v, ok := a.popVals[l]; ok {
					first = v
				}
				rest, ok := listBuiltin("rest", []aval{cur})
				if !ok || cur.num {
					rest = nonNum()
				}
				a.putVar(p.Name, rest)
				return first
			}
			a.putVar(p.Name, nonNum()) // a list, or nil
		case *syntax.List:
			for _, x := range p.Elems[1:] {
				a.ev(x, d)
			}
		default:
			a.taint(l)
			return top()
		}
		if h == "push" {
			return nonNum()
		}
		return top()
	case "dolist", "dotimes":
		spec, ok := el[1%n].(*syntax.List)
		if n < 2 || !ok || len(spec.Elems) < 2 || len(spec.Elems) > 3 {
			break
		}
		s, ok := spec.Elems[0].(*syntax.Symbol)
		if !ok {
			break
		}
		c := a.ev(spec.Elems[1], d)
		v := top()
		if h == "dolist" {
			// Each element of a literal list, or nil in the result form
			// (the VM binds the variable afresh for it: closures made in
			// the body never see that nil).
			end := aval{}
			if len(spec.Elems) == 3 {
				end = nilVal()
			}
			if e, ok := literalElems(spec.Elems[1]); ok {
				v = join(e, end)
			} else if g, ok := spec.Elems[1].(*syntax.Symbol); ok && a.scope[g.Name] == 0 && a.litLists[g.Name].num {
				v = join(a.litLists[g.Name], end)
			} else if e, ok := allElems(c); ok {
				v = join(e, end)
			}
		}
		if h == "dotimes" {
			if c, ok := numeric(c); ok && c.intOnly() {
				v = numRange(0, math.Max(0, c.hi), false, l)
			}
		}
		key := a.lexKey(s.Name, s)
		a.bindVal(s.Name, key, v)
		a.pushLex([]string{s.Name}, []string{key})
		// The loop's nil block gets what the returns lexically inside it
		// pass (those of nested nil blocks too: more than it may get).
		blk := a.loopBlocks[l]
		if blk == nil {
			blk = &slot{}
			a.loopBlocks[l] = blk
		}
		a.nilBlocks = append(a.nilBlocks, blk)
		res := nilVal() // no result form: nil
		if len(spec.Elems) == 3 {
			res = a.ev(spec.Elems[2], d)
		}
		a.body(el[2:], d)
		a.nilBlocks = a.nilBlocks[:len(a.nilBlocks)-1]
		a.popLex([]string{s.Name})
		// The result form's value, or what a return passes out.
		return join(res, blk.v)
	case "block":
		if n < 2 {
			break
		}
		s, ok := el[1].(*syntax.Symbol)
		if !ok {
			break
		}
		v := a.body(el[2:], d)
		return join(v, a.slotOf(a.blocks, s.Name).v)
	case "return-from", "return":
		name, from := "nil", 1
		if h == "return-from" {
			s, ok := el[1%n].(*syntax.Symbol)
			if n < 2 || !ok {
				break
			}
			name, from = s.Name, 2
		}
		v := a.body(el[from:], d)
		a.put(a.slotOf(a.blocks, name), v)
		if name == "nil" && len(a.nilBlocks) > 0 {
			a.put(a.nilBlocks[len(a.nilBlocks)-1], v)
		}
		return aval{}
	case "defun", "def-plan", "def-check", "def-policy", "def-cram-function":
		if n < 3 {
			break
		}
		s, ok := el[1].(*syntax.Symbol)
		if !ok || a.funcs[forms.Name(s)] == nil {
			break
		}
		fi := a.funcs[forms.Name(s)]
		var names []string
		if fi.params == nil || fi.free {
			for _, sl := range forms.Slots(l) {
				if sl.Path[0] == 2 { // &optional and &key defaults
					a.ev(forms.At(l, sl.Path), d)
				}
			}
			a.taint(el[2])
		}
		if ps, ok := el[2].(*syntax.List); ok {
			for _, p := range ps.Elems {
				if p, ok := p.(*syntax.Symbol); ok {
					names = append(names, p.Name)
				}
			}
		}
		keys := make([]string, len(names))
		for i, p := range names {
			keys[i] = a.paramKey(forms.Name(s), p)
		}
		a.pushLex(names, keys)
		if fi.params == nil || fi.free {
			for _, p := range names {
				a.putVar(p, top()) // called from anywhere with anything
			}
		}
		v := a.body(el[3:], d)
		a.popLex(names)
		a.put(&fi.result, join(v, a.slotOf(a.blocks, s.Name).v))
		return nonNum()
	case "defparameter", "defvar", "defconstant":
		if n < 2 {
			break
		}
		s, ok := el[1].(*syntax.Symbol)
		if !ok {
			break
		}
		v := nonNum() // (defvar x): unbound
		if n >= 3 {
			v = a.ev(el[2], d)
		}
		a.putVar(s.Name, v)
		return nonNum()
	case "loop", "retry":
		a.taint(l)
		return top()
	}
	// Everything else (closures, local functions, handlers, designators,
	// multiple values, logging, ...): whatever they bind is unknown,
	// their evaluated parts are walked, their value is unknown.
	ev := map[syntax.Node]bool{}
	for _, x := range a.slots(l) {
		ev[x] = true
		a.ev(x, d)
	}
	for _, x := range el[1:] {
		if !ev[x] {
			a.taintBinders(x, ev)
		}
	}
	return top()
}

// slots are the evaluated subexpressions of special form l.
func (a *valueAnalysis) slots(l *syntax.List) []syntax.Node {
	var out []syntax.Node
	for _, s := range forms.Slots(l) {
		if x := forms.At(l, s.Path); x != nil {
			out = append(out, x)
		}
	}
	return out
}

// taintBinders taints the symbols of n outside the evaluated parts ev.
func (a *valueAnalysis) taintBinders(n syntax.Node, ev map[syntax.Node]bool) {
	if ev[n] {
		return
	}
	if l, ok := n.(*syntax.List); ok {
		for _, x := range l.Elems {
			a.taintBinders(x, ev)
		}
		return
	}
	a.taint(n)
}

// where names the source expression n at its original position, cut
// short: "(mod raw 4294967296) docking.plan:44:25".
func (a *valueAnalysis) where(n syntax.Node) string {
	o := a.res.Origin(n)
	if o == nil {
		o = n
	}
	text := syntax.NodeStringCut(o, 41)
	if len(text) > 40 {
		text = text[:37] + "..."
	}
	start, _ := o.Span()
	if start.Line == 0 {
		return text
	}
	return text + " " + labels.PositionOf(filepath.Base(a.res.Orig.Name), start).String()
}

// localFuncNames are the names flet, labels and macrolet define anywhere
// in res: a call of such a name may reach a local function.
func localFuncNames(res *normalize.Result) map[string]bool {
	out := map[string]bool{}
	for _, f := range res.Forms {
		syntax.Walk(f, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.List); ok && len(l.Elems) > 1 {
				switch forms.Head(l) {
				case "flet", "labels", "macrolet":
					if ds, ok := l.Elems[1].(*syntax.List); ok {
						for _, d := range ds.Elems {
							if d, ok := d.(*syntax.List); ok && len(d.Elems) > 0 {
								if s, ok := d.Elems[0].(*syntax.Symbol); ok {
									out[forms.Name(s)] = true
								}
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// underTest runs eval, the walk of body, which runs only where test is
// true: with what test says of a lexical variable's length (testKey)
// while nothing assigns it (putVar ends it).
func (a *valueAnalysis) underTest(test syntax.Node, body []syntax.Node, eval func()) {
	k, m := a.testKey(test)
	if k == "" {
		eval()
		return
	}
	if a.whileNN == nil {
		a.whileNN = map[string]int{}
	}
	old, had := a.whileNN[k]
	a.markDirectPops(body, k)
	a.whileNN[k] = max(m, old)
	eval()
	if had {
		a.whileNN[k] = old
	} else {
		delete(a.whileNN, k)
	}
}

// testKey is the binding of lexical variable V and the least length of
// its value where test n is true: V or (and V ...) 1, (rest V) or (cdr
// V) (or (and (rest V) ...)) 2; "" otherwise.
func (a *valueAnalysis) testKey(n syntax.Node) (string, int) {
	if l, ok := n.(*syntax.List); ok && forms.Head(l) == "and" && len(l.Elems) > 1 && !a.res.IsUserFunc("and") {
		n = l.Elems[1]
	}
	m := 1
	if l, ok := n.(*syntax.List); ok && (forms.Head(l) == "rest" || forms.Head(l) == "cdr") && len(l.Elems) == 2 && !a.res.IsUserFunc(forms.Head(l)) {
		n, m = l.Elems[1], 2
	}
	s, ok := n.(*syntax.Symbol)
	if !ok || s.Name == "t" || s.Name == "nil" || a.specials[s.Name] || a.closureAssigned()[s.Name] {
		return "", 0
	}
	return a.varKey(s), m
}

// varKey is the lexical binding reference s reads ("": a special, or one
// the analysis cannot tell).
func (a *valueAnalysis) varKey(s *syntax.Symbol) string {
	if a.specials[s.Name] {
		return ""
	}
	if a.record {
		return a.keyOf(s.Name)
	}
	if k := a.symKey[s]; k != conflictKey {
		return k
	}
	return ""
}

// markDirectPops records the (pop V) forms of body that no inner loop,
// block, handler or function holds: each runs at most once per pass of the
// body, in the order of the text.
func (a *valueAnalysis) markDirectPops(body []syntax.Node, k string) {
	if a.directPops == nil {
		a.directPops = map[*syntax.List]string{}
	}
	var walk func(n syntax.Node)
	walk = func(n syntax.Node) {
		l, ok := n.(*syntax.List)
		if !ok || len(l.Elems) == 0 {
			return
		}
		switch forms.Head(l) {
		case "pop":
			if len(l.Elems) == 2 {
				if s, ok := l.Elems[1].(*syntax.Symbol); ok && a.varKey(s) == k {
					a.directPops[l] = k
				}
			}
			return
		case "let", "let*":
			if bl, ok := l.Elems[1%len(l.Elems)].(*syntax.List); ok && len(l.Elems) > 1 {
				for _, b := range bl.Elems {
					if bb, ok := b.(*syntax.List); ok && len(bb.Elems) == 2 {
						walk(bb.Elems[1])
					}
				}
			}
			for _, x := range l.Elems[2:] {
				walk(x)
			}
			return
		case "progn", "if", "when", "unless", "cond", "setq", "and", "or", "not", "null", "eq", "list", "prog1":
			for _, x := range l.Elems[1:] {
				walk(x)
			}
			return
		}
		if h := forms.Head(l); h != "" && forms.Lookup(h) == nil && !a.localFns[h] {
			for _, x := range l.Elems[1:] { // a call's arguments
				walk(x)
			}
		}
	}
	for _, x := range body {
		walk(x)
	}
}
