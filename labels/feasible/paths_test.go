package feasible

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/labelcov/labelcov/labels"
)

// TestSatisfiable checks the Fourier–Motzkin test on small systems over
// symbols 0 (x) and 1 (y), integers when ints.
func TestSatisfiable(t *testing.T) {
	x, y := linSym(0), linSym(1)
	k := ri
	c := func(e lin, rel int32) constraint { return constraint{e: e, rel: rel} }
	lt := func(a, b lin) constraint { return c(a.plus(b, ratNeg1), relLT) } // a < b
	le := func(a, b lin) constraint { return c(a.plus(b, ratNeg1), relLE) }
	n := linInt
	for _, tc := range []struct {
		name string
		cs   []constraint
		ints bool
		want bool
	}{
		{"x<y<x", []constraint{lt(x, y), lt(y, x)}, false, false},
		{"x<=y<=x", []constraint{le(x, y), le(y, x)}, false, true},
		{"reals between 1 and 2", []constraint{lt(n(1), x), lt(x, n(2))}, false, true},
		{"no integer between 1 and 2", []constraint{lt(n(1), x), lt(x, n(2))}, true, false},
		{"2x = 1 over integers", []constraint{c(x.scale(k(2)).plus(n(1), ratNeg1), relEQ)}, true, false},
		{"2x = 1 over reals", []constraint{c(x.scale(k(2)).plus(n(1), ratNeg1), relEQ)}, false, true},
		{"x=y, x!=y", []constraint{c(x.plus(y, ratNeg1), relEQ), c(x.plus(y, ratNeg1), relNE)}, false, false},
		{"x in [3,3], x != 3", []constraint{le(n(3), x), le(x, n(3)), c(x.plus(n(3), ratNeg1), relNE)}, false, false},
		{"x in [3,4], x != 3", []constraint{le(n(3), x), le(x, n(4)), c(x.plus(n(3), ratNeg1), relNE)}, false, true},
		{"min: y<x, x>=150, y<150, y>=150", []constraint{lt(y, x), le(n(150), x), lt(y, n(150)), le(n(150), y)}, false, false},
		{"x+y=10, x-y=4, x>7", []constraint{c(x.plus(y, ratOne).plus(n(10), ratNeg1), relEQ), c(x.plus(y, ratNeg1).plus(n(4), ratNeg1), relEQ), lt(n(7), x)}, false, false},
	} {
		got := satisfiable(tc.cs, func(int) bool { return tc.ints })
		if got != tc.want {
			t.Errorf("%s: satisfiable = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// pathStatus enumerates src's labels and returns them by criterion and
// predicate (Expr when it has temporaries), in source order.
func pathStatus(t *testing.T, src string, crit string, noValues bool) map[string][]*labels.Label {
	t.Helper()
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	set, err := Enumerate(normalized(t, src), labels.Options{Criteria: c}, Options{NoValues: noValues})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]*labels.Label{}
	for _, l := range set.Labels {
		k := l.Predicate
		if l.Expr != "" {
			k = l.Expr
		}
		k = string(l.Criterion) + " " + k
		out[k] = append(out[k], l)
	}
	return out
}

const guardedPlan = `
(defparameter *blind* 150)
(defparameter *cmd* nil)
(defparameter *near* 0)
(defun valid-p (mm) (and (>= mm *blind*) (<= mm 4000)))
(defun decide (l r)
  (let ((near (min l r)))
    (setq *near* near)
    (cond ((not (valid-p near)) 'stop)
          ((< near 550) 'creep)
          (t 'go))))
(def-plan main (a b)
  (setq *cmd* (decide (mod a 65536) (mod b 65536))))
(def-check crept-blind ()
  (when (and (eq *cmd* 'creep) (not (valid-p *near*))) 'bad))
`

// TestPathVerdicts checks what the path analysis proves on a plan with
// guards the value analysis cannot see through, and what it keeps.
func TestPathVerdicts(t *testing.T) {
	ls := pathStatus(t, guardedPlan, "mcc,wm", false)
	get := func(key string, i int) *labels.Label {
		if len(ls[key]) <= i {
			var keys []string
			for k := range ls {
				keys = append(keys, k)
			}
			t.Fatalf("no label %q (#%d) among %s", key, i, strings.Join(keys, "; "))
		}
		return ls[key][i]
	}
	for _, c := range []struct {
		key    string
		i      int
		status labels.Status
		reason string
	}{
		// mm is 0 on some path where (>= mm *blind*) runs (the check
		// may see *near* at 0: the run stopped before decide), never
		// where (<= mm 4000) does.
		{"wm-abs (= mm 0)", 0, labels.Active, ""},
		{"wm-abs (= mm 0)", 1, labels.Infeasible, "cannot hold on any path"},
		{"wm-abs (< near 0)", 0, labels.Infeasible, "cannot hold:"}, // the value analysis's
		// decide creeps only when near is valid.
		{"mcc (and (eq *cmd* 'creep) (not (valid-p *near*)))", 0, labels.Infeasible, "cannot hold on any path"},
		{"mcc (and (eq *cmd* 'creep) (valid-p *near*))", 0, labels.Active, ""},
		{"wm-ror (= near 550)", 0, labels.Active, ""},
	} {
		l := get(c.key, c.i)
		if l.Status != c.status || !strings.Contains(l.Reason, c.reason) {
			t.Errorf("%s #%d: %s (%s), want %s (%s)", c.key, c.i, l.Status, l.Reason, c.status, c.reason)
		}
	}
	// --no-values turns it off.
	if l := pathStatus(t, guardedPlan, "mcc,wm", true)["wm-abs (= mm 0)"][1]; l.Status != labels.Active {
		t.Errorf("NoValues: (= mm 0) is %s (%s)", l.Status, l.Reason)
	}
}

// TestPathAnalysisGivesUp checks that plans outside what it follows get
// no path verdicts, and that path explosions stop at the limits.
func TestPathAnalysisGivesUp(t *testing.T) {
	loop := strings.Replace(guardedPlan, "(setq *cmd* (decide", "(dotimes (i 2) (setq *near* i)) (setq *cmd* (decide", 1)
	// (The guard analysis, local, still proves it: only (>= mm *blind*)
	// leads there.)
	if l := pathStatus(t, loop, "mcc,wm", false)["wm-abs (= mm 0)"][1]; strings.Contains(l.Reason, "on any path") || !strings.Contains(l.Reason, "only reached where (>= mm *blind*) is true") {
		t.Errorf("a plan with a loop: (= mm 0) is %s (%s)", l.Status, l.Reason)
	}
	// 2^40 paths: forty independent splits.
	var b strings.Builder
	b.WriteString("(defparameter *x* 0)\n(def-plan main (")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, " p%d", i)
	}
	b.WriteString(")\n")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, "  (when (< p%d 0) (setq *x* (+ *x* 1)))\n", i)
	}
	b.WriteString("  *x*)\n")
	a := newPathAnalysis(normalized(t, b.String()))
	a.run()
	if a.bad == "" {
		t.Errorf("the analysis of 2^40 paths did not give up (work %d)", a.work)
	}
	if a.work > maxWork+1 {
		t.Errorf("work %d beyond the limit %d", a.work, maxWork)
	}
}

// TestRatMatchesBigRat checks rat's arithmetic against math/big on
// random and extreme operands: every result that fits is exact, every
// other one panics with errOverflow.
func TestRatMatchesBigRat(t *testing.T) {
	vals := []int64{0, 1, -1, 2, 3, -7, 12, 1 << 31, 1 << 53, math.MaxInt64, math.MinInt64, math.MinInt64 + 1, math.MaxInt64 - 1}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 200; i++ {
		vals = append(vals, int64(rng.Uint64())>>uint(rng.IntN(64)))
	}
	big1 := func(r rat) *big.Rat { return big.NewRat(r.n, r.d) }
	var rats []rat
	for i := 0; i < 400; i++ {
		n, d := vals[rng.IntN(len(vals))], vals[rng.IntN(len(vals))]
		if d <= 0 {
			d = 1
		}
		if noOverflow(func() { rats = append(rats, mk(n, d)) }) {
			continue
		}
	}
	for i := 0; i+1 < len(rats); i++ {
		a, b := rats[i], rats[i+1]
		for name, op := range map[string]func() (rat, *big.Rat){
			"add": func() (rat, *big.Rat) { return a.add(b), new(big.Rat).Add(big1(a), big1(b)) },
			"sub": func() (rat, *big.Rat) { return a.sub(b), new(big.Rat).Sub(big1(a), big1(b)) },
			"mul": func() (rat, *big.Rat) { return a.mul(b), new(big.Rat).Mul(big1(a), big1(b)) },
		} {
			var got rat
			var want *big.Rat
			if noOverflow(func() { got, want = op() }) {
				if big1(got).Cmp(want) != 0 || got.d <= 0 || new(big.Int).GCD(nil, nil, new(big.Int).Abs(big.NewInt(got.n)), big.NewInt(got.d)).Cmp(big.NewInt(1)) > 0 {
					t.Errorf("%v %s %v = %v, want %v", a, name, b, got, want)
				}
			}
		}
		if c, w := a.cmp(b), big1(a).Cmp(big1(b)); c != w {
			t.Errorf("cmp(%v, %v) = %d, want %d", a, b, c, w)
		}
	}
	// Elimination over numbers that overflow says "maybe", never panics.
	x, y := linSym(0), linSym(1)
	huge := constraint{e: x.scale(ri(math.MaxInt64)).plus(y.scale(ri(math.MaxInt64-2)), ratOne).plus(linInt(math.MinInt64), ratOne), rel: relLE}
	other := constraint{e: x.scale(ri(-(math.MaxInt64 - 4))).plus(y.scale(ri(3)), ratOne), rel: relLT}
	if !satisfiable([]constraint{huge, other}, func(int) bool { return true }) {
		t.Errorf("overflowing system called unsatisfiable")
	}
}

// TestMerge checks that run-end states merge only into their exact union:
// two upper bounds on x join to the weaker, opposite bounds stay apart.
func TestMerge(t *testing.T) {
	a := &pathAnalysis{}
	base := &pstate{glob: &[]pbind{{"*g*", vT}}}
	base, x := a.fresh(base, sfact{int: true})
	with := func(cs ...constraint) *pstate {
		s := base.clone()
		for _, c := range cs {
			s.cons = s.cons.push(keyed(s, c))
		}
		return s
	}
	le := func(e lin, k int64) constraint { return constraint{e: e.plus(linInt(k), ratNeg1), rel: relLE} } // e ≤ k
	xs := linSym(x)
	ge := func(k int64) constraint { return constraint{e: linInt(k).plus(xs, ratNeg1), rel: relLE} } // x ≥ k
	isInt := func(int) bool { return true }

	out := merge([]*pstate{with(ge(0), le(xs, 5)), with(ge(0), le(xs, 10))})
	if len(out) != 1 {
		t.Fatalf("x ≤ 5 and x ≤ 10: %d states, want 1", len(out))
	}
	if !satisfiable(append(out[0].cons.appendTo(nil), ge(8)), isInt) {
		t.Errorf("merged x ≤ 5 | x ≤ 10 excludes x = 8: %v", out[0].cons.appendTo(nil))
	}
	if satisfiable(append(out[0].cons.appendTo(nil), ge(11)), isInt) {
		t.Errorf("merged x ≤ 5 | x ≤ 10 admits x = 11")
	}
	out = merge([]*pstate{with(le(xs, 149)), with(ge(4001))})
	if len(out) != 2 {
		t.Errorf("x < 150 and x > 4000 merged into %d state(s), want 2 (their hull adds runs)", len(out))
	}
	other := with(le(xs, 5))
	other.glob = &[]pbind{{"*g*", vNil}}
	if out := merge([]*pstate{with(le(xs, 5)), other}); len(out) != 2 {
		t.Errorf("states with different globals merged")
	}
}

// TestArithBuiltins checks the path analysis's + - * on constants: (-)
// with no argument fails as in the VM (the analysis must not rely on its
// callers rejecting the arity first), (+) and (*) are their identities,
// and integer constants wrap around at 2^63.
func TestArithBuiltins(t *testing.T) {
	a := &pathAnalysis{}
	constOf := func(outs []pout) (int64, bool) {
		if len(outs) != 1 || outs[0].fail || !outs[0].v.num || !outs[0].v.e.isConst() || outs[0].v.e.c.d != 1 {
			return 0, false
		}
		return outs[0].v.e.c.n, true
	}
	if outs := a.builtin("-", &pstate{}, nil); len(outs) != 1 || !outs[0].fail {
		t.Errorf("(-): %+v, want one failure", outs)
	}
	num := func(i int64) val { return vNum(linInt(i)) }
	for _, tc := range []struct {
		h    string
		args []val
		want int64
	}{
		{"+", nil, 0},
		{"*", nil, 1},
		{"-", []val{num(5)}, -5},
		{"-", []val{num(5), num(7)}, -2},
		{"*", []val{num(6), num(7)}, 42},
		{"+", []val{num(math.MaxInt64), num(1)}, math.MinInt64},
		{"1-", []val{num(math.MinInt64)}, math.MaxInt64},
		{"1+", []val{num(41)}, 42},
	} {
		if got, ok := constOf(a.builtin(tc.h, &pstate{}, tc.args)); !ok || got != tc.want {
			t.Errorf("(%s %v) = %d (constant %v), want %d", tc.h, tc.args, got, ok, tc.want)
		}
	}
}

// checksPlan has a check whose labels all hold on the first state the
// plan ends in (quiet), then one that sets a global through a function on
// every state (copies), then two whose verdicts depend on that write.
const checksPlan = `
(defparameter *mode* nil)
(defparameter *seen* nil)
(defparameter *n* 0)
(defun note () (setq *seen* *mode*))
(def-plan main (a b)
  (setq *n* b)
  (if (< a 0) (setq *mode* 'low) (setq *mode* 'high)))
(def-check quiet ()
  (when (or (< *n* 0) (>= *n* 0)) 'fine))
(def-check copies ()
  (note)
  nil)
(def-check second ()
  (when (and (eq *seen* 'low) (eq *mode* 'high)) 'odd))
(def-check third ()
  (when (eq *mode* *seen*) 'same))
`

// TestPathChecksStopEarly checks the verdicts of the checks that follow
// one the analysis stops running early (every label of quiet may hold
// after its first state, and it sets no global): a check that sets a
// global through a function it calls still runs on every state, and the
// labels after it are judged on all of them.
func TestPathChecksStopEarly(t *testing.T) {
	ls := pathStatus(t, checksPlan, "mcc", false)
	for _, c := range []struct {
		key    string
		status labels.Status
		reason string
	}{
		{"mcc (and (< *n* 0) (not (>= *n* 0)))", labels.Active, ""},
		{"mcc (and (not (< *n* 0)) (>= *n* 0))", labels.Active, ""},
		// *seen* is low only where copies ran on the low state.
		{"mcc (and (eq *seen* 'low) (not (eq *mode* 'high)))", labels.Active, ""},
		{"mcc (and (eq *seen* 'low) (eq *mode* 'high))", labels.Infeasible, "cannot hold on any path (3 paths reach it)"},
		// copies set *seen* to *mode* on every state.
		{"mcc (not (eq *mode* *seen*))", labels.Infeasible, "cannot hold on any path (3 paths reach it)"},
		{"mcc (eq *mode* *seen*)", labels.Active, ""},
	} {
		got := ls[c.key]
		if len(got) != 1 {
			t.Fatalf("%d labels %q", len(got), c.key)
		}
		if l := got[0]; l.Status != c.status || !strings.Contains(l.Reason, c.reason) {
			t.Errorf("%s: %s (%s), want %s (%s)", c.key, l.Status, l.Reason, c.status, c.reason)
		}
	}
}

// TestAppendInt36 checks the keys' digit fast path against strconv: the
// directions' keys order merged conditions, so they must not change.
func TestAppendInt36(t *testing.T) {
	for _, i := range []int64{math.MinInt64, -37, -36, -35, -1, 0, 1, 9, 10, 35, 36, 37, 1295, 1296, 4294967296, math.MaxInt64} {
		if got, want := string(appendInt36([]byte("k"), i)), string(strconv.AppendInt([]byte("k"), i, 36)); got != want {
			t.Errorf("appendInt36(%d) = %q, want %q", i, got, want)
		}
	}
}

// TestPathStateSize holds a path state to 80 bytes, the size class it was
// made to fit (it is allocated on every fork and change of a path: 96
// bytes before its globals went behind a pointer).
func TestPathStateSize(t *testing.T) {
	if n := unsafe.Sizeof(pstate{}); n > 80 {
		t.Errorf("a path state is %d bytes, want at most 80", n)
	}
}

// TestKeyIDOneToOne checks that satisfiable's memo numbers constraint keys
// one to one (equal keys, equal numbers; different keys, different ones),
// and that setting a key drops the number an older key had.
func TestKeyIDOneToOne(t *testing.T) {
	a := &pathAnalysis{}
	keys := []string{"0-1 1:1", "0-1 i1:1", "1-1 1:1", "0-1 1:1 2:-1", "", "0-1 1:1"}
	seen := map[uint32]string{}
	for _, k := range keys {
		id := a.keyID(k)
		if id == 0 {
			t.Fatalf("keyID(%q) = 0, the number of no key", k)
		}
		if other, ok := seen[id]; ok && other != k {
			t.Errorf("keys %q and %q share the number %d", other, k, id)
		}
		seen[id] = k
		if again := a.keyID(k); again != id {
			t.Errorf("keyID(%q) = %d, then %d", k, id, again)
		}
	}
	if len(seen) != 5 {
		t.Errorf("%d numbers for 5 keys", len(seen))
	}
	st := &pstate{facts: []sfact{{}, {int: true}}}
	c := constraint{e: linSym(1), rel: relLE, kid: 7}
	if c = keyed(st, c); c.kid != 0 {
		t.Errorf("keyed kept the number %d of the constraint's older key", c.kid)
	}
}
