package vm

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels"
)

// TestPlanDistLadderMatchesBigInt: the plan dist rungs of (< a b), run by
// the VM (whose integer difference wraps), agree with |a-b| < 2^k on
// big.Int for integers and with math.Abs of the float difference
// otherwise, on edge values, random values and values close to each other.
func TestPlanDistLadderMatchesBigInt(t *testing.T) {
	preds, _ := distPreds(t, "(def-plan p (a b) (< a b))")
	rungs := labels.DistRungs(labels.PlanDist)
	if len(preds) != len(rungs) {
		t.Fatalf("%d rungs, want %d", len(preds), len(rungs))
	}
	src := "(def-plan q (a b) (list " + strings.Join(preds, " ") + "))"
	p := compileSrc(t, src)
	m, err := New(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	ints := []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1, 0, 1, -1, 1 << 62, -(1 << 62), 1<<62 - 1}
	for i := 0; i < 300; i++ {
		ints = append(ints, int64(r.Uint64()), r.Int64N(1<<20)-1<<19)
	}
	floats := []float64{0, math.Copysign(0, -1), 1.5, -1.5, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 1 << 62, 0x1p63, 0x1p64}
	for i := 0; i < 150; i++ {
		floats = append(floats, r.NormFloat64()*1e6, math.Float64frombits(r.Uint64()))
	}
	type pair struct{ a, b value.Value }
	var pairs []pair
	for i := 0; i < 40000; i++ {
		a := ints[r.IntN(len(ints))]
		b := ints[r.IntN(len(ints))]
		if i%3 == 0 {
			b = a + r.Int64N(1<<17) - 1<<16 // near, wrapping at the edges
		}
		pairs = append(pairs, pair{value.Int(a), value.Int(b)})
	}
	for i := 0; i < 20000; i++ {
		x, y := floats[r.IntN(len(floats))], floats[r.IntN(len(floats))]
		if i%3 == 0 {
			y = x + r.NormFloat64()*100
		}
		var a, b value.Value = value.Float(x), value.Float(y)
		if i%4 == 1 { // mixed: an integer against a float
			a = value.Int(ints[r.IntN(len(ints))])
		}
		pairs = append(pairs, pair{a, b})
	}
	for _, pr := range pairs {
		res := m.Run(context.Background(), p.Plan("q"), []value.Value{pr.a, pr.b})
		if res.Outcome != OutcomeOK {
			t.Fatalf("a=%v b=%v: %v", pr.a, pr.b, res.Failure)
		}
		got := res.Value
		for _, k := range rungs {
			var want bool
			if pr.a.Kind() == value.KInt && pr.b.Kind() == value.KInt {
				d := new(big.Int).Sub(big.NewInt(pr.a.Int()), big.NewInt(pr.b.Int()))
				want = d.Abs(d).Cmp(new(big.Int).Lsh(big.NewInt(1), uint(k))) < 0
			} else {
				want = math.Abs(pr.a.Number()-pr.b.Number()) < math.Ldexp(1, k)
			}
			if got.Kind() != value.KCons {
				t.Fatalf("result %v", got)
			}
			if held := !got.Car().IsNil(); held != want {
				t.Fatalf("rung 2^%d, a=%v b=%v: %v, want %v", k, pr.a, pr.b, held, want)
			}
			got = got.Cdr()
		}
	}
}

// rung is the dist rung |x-y| < k as the label pipeline writes it.
func rung(x, y string, k int64) string {
	d := "(- " + x + " " + y + ")"
	return "(and (< (abs " + d + ") " + value.Int(k).String() + ") (<= 0 (abs " + d + ")) (eq (< " + x + " " + y + ") (< " + d + " 0)))"
}

// ladderPlan has the ladders (every rung of labels.DistRungs) of
// relations over locals, a global (bound late: unbound while *early* is
// initialised), integer literals and sums, products and abs of them, in
// a function called inside another probe's predicate too (nested: the
// ladder is skipped), and a rung over a call (a PROBE block, no compare
// probe) in the middle of a chain.
func ladderPlan() string {
	var b strings.Builder
	ladder := func(x, y string) {
		for _, k := range labels.DistRungs(labels.PlanDist) {
			b.WriteString("    (when (ignore-errors " + rung(x, y, 1<<k) + "))\n")
		}
	}
	b.WriteString("(defparameter *early* (let ((x 3) (y 4))\n")
	ladder("*g*", "x")
	b.WriteString("    y))\n(defparameter *g* 100)\n(defun h (x y)\n")
	ladder("x", "y")
	b.WriteString("  (+ x 1))\n(def-plan main (x y)\n  (let ((f (* x 0.5)))\n")
	ladder("x", "y")
	ladder("*g*", "x")
	ladder("7", "y")
	ladder("(* 2 x)", "(- y *g*)")
	ladder("(abs (- x y))", "3")
	ladder("f", "y")
	b.WriteString("    (when (ignore-errors " + rung("(h x y)", "y", 16) + "))\n")
	ladder("(+ x y)", "(* x y)")
	b.WriteString("    (when (ignore-errors (= (h y x) 3)))\n    (setq *g* (+ *g* 1))\n    (list (h x y) *g*)))\n")
	return b.String()
}

// TestDistRungsAreCompareProbes: the rungs of ladderPlan over variables,
// literals and arithmetic compile to compare probes (one instruction
// each), the rung over a call to a PROBE block.
func TestDistRungsAreCompareProbes(t *testing.T) {
	p := compileSrc(t, ladderPlan())
	n := len(labels.DistRungs(labels.PlanDist))
	cmp, blocks := countProbes(p, 'd'), 0
	for _, op := range p.Code {
		if op == compile.PROBE {
			blocks++
		}
	}
	if cmp != 9*n || blocks != 2 {
		t.Errorf("%d dist compare probes (want %d), %d PROBE blocks (want 2)", cmp, 9*n, blocks)
	}
}

// TestDistRungMatchesItsForm: a rung's compare probe counts exactly as
// the general compilation of the same when (a body, so no probe) on
// integers at the edges of int64, floats (NaN, infinities, mixed with
// integers), non-numbers and an unbound global, for operands that are
// variables, literals and arithmetic.
func TestDistRungMatchesItsForm(t *testing.T) {
	vals := []string{"0", "1", "-1", "5", "-7", "9223372036854775807", "-9223372036854775808", "4611686018427387904",
		"-4611686018427387905", "2.5", "-0.5", "1e300", "-1e300", "a", "nil", `"s"`}
	operands := [][2]string{{"x", "y"}, {"x", "*g*"}, {"3", "y"}, {"x", "*late*"}, {"(* 2 x)", "(- y 1)"}, {"(abs x)", "(+ y *g*)"}}
	for _, ops := range operands {
		for _, k := range []int64{1, 2, 16, 1 << 20, 1 << 62} {
			pred := rung(ops[0], ops[1], k)
			tmpl := `(defparameter *g* 3)
(defparameter *early* (let ((x 1) (y 2)) (when (ignore-errors %[1]s)%[2]s) 1))
(defparameter *late* 0)
(def-plan main () (let ((n 0)) (dolist (x '(%[3]s)) (dolist (y '(%[3]s)) (when (ignore-errors %[1]s)%[2]s) (setq n (+ n 1)))) n))`
			list := strings.Join(vals, " ")
			probe := fmt.Sprintf(tmpl, pred, "", list)
			plain := fmt.Sprintf(tmpl, pred, " nil", list)
			if cmps := countProbes(compileSrc(t, probe), 'd'); cmps != 2 {
				t.Fatalf("%s: %d dist compare probes, want 2", pred, cmps)
			}
			probeMatchesWhen(t, pred, probe, plain, value.Int(int64(len(vals)*len(vals))).String())
		}
	}
}

// TestDistRungHoldsAsItsForm compares distHolds and distance.below with
// the rung's form run by the VM (not as a probe) on random and edge
// values, integers, floats and mixed (non-numbers:
// TestDistRungMatchesItsForm).
func TestDistRungHoldsAsItsForm(t *testing.T) {
	ks := []int64{1, 2, 3, 1 << 16, 1 << 32, 1 << 62, math.MaxInt64}
	var preds []string
	for _, k := range ks {
		preds = append(preds, rung("a", "b", k))
	}
	p := compileSrc(t, "(def-plan q (a b) (list "+strings.Join(preds, " ")+"))")
	m, err := New(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 6))
	ints := []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, 0, 1, -1, 1 << 62, -(1 << 62), 1 << 32}
	floats := []float64{0, math.Copysign(0, -1), 0.5, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, 0x1p62, 0x1p63}
	pick := func() value.Value { // numbers: a non-number fails the form
		switch r.IntN(4) {
		case 0:
			return value.Int(ints[r.IntN(len(ints))] + r.Int64N(5) - 2)
		case 1:
			return value.Float(floats[r.IntN(len(floats))])
		case 2:
			return value.Float(r.NormFloat64() * 1e5)
		}
		return value.Int(r.Int64N(1<<20) - 1<<19)
	}
	for i := 0; i < 20000; i++ {
		a, b := pick(), pick()
		res := m.Run(context.Background(), p.Plan("q"), []value.Value{a, b})
		if res.Outcome != OutcomeOK {
			t.Fatalf("a=%v b=%v: %v", a, b, res.Failure)
		}
		got := res.Value
		d := distanceOf(a, b)
		for _, k := range ks {
			want := !got.Car().IsNil()
			if h := distHolds(a, b, k); h != want {
				t.Fatalf("distHolds(%v, %v, %d) = %v, the form %v", a, b, k, h, want)
			}
			if h := d.below(k); h != want {
				t.Fatalf("distance(%v, %v).below(%d) = %v, the form %v", a, b, k, h, want)
			}
			got = got.Cdr()
		}
	}
}

// TestDistLaddersMatchPlain runs ladderPlan on the fused code, where a
// ladder's live rungs share one distance in a probe group, and on the
// plain code (one compare probe a rung), in every label mode and under
// small budgets, on inputs that climb the ladders: results, steps, label
// steps and every counter must be identical run by run.
func TestDistLaddersMatchPlain(t *testing.T) {
	p := compileSrc(t, ladderPlan())
	type in struct{ x, y value.Value }
	inputs := []in{{value.Int(1 << 40), value.Int(0)}, {value.Int(1000), value.Int(0)}, {value.Int(100), value.Int(90)},
		{value.Float(2.5), value.Int(7)}, {value.Symbol("a"), value.Int(1)}, {value.Int(7), value.Int(7)},
		{value.Int(math.MinInt64), value.Int(math.MaxInt64)}, {value.Int(3), value.Int(-3)}, {value.Int(50), value.Int(-50)},
		{value.Float(math.NaN()), value.Int(1)}, {value.Int(7), value.Int(8)}, {value.Int(0), value.Int(0)}, {value.Int(2), value.Int(1)}}
	engine := LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}
	for _, cfg := range []Config{{}, {Labels: LabelMode{Retire: true}}, {Labels: LabelMode{FiredOnly: true}}, {Labels: LabelMode{Retire: true, FiredOnly: true}},
		{Labels: engine}, {Labels: engine, MaxSteps: 40}, {Labels: engine, MaxLabelSteps: 100}, {MaxLabelSteps: 150}, {Labels: LabelMode{Retire: true, SilentRetire: true}}} {
		fused, plain := fusedAndPlain(t, p, cfg)
		dist := 0
		for _, g := range fused.groups {
			for _, ts := range g.tests {
				if ts.dist && ts.hi-ts.lo > 1 {
					dist++
				}
			}
		}
		if dist == 0 {
			t.Fatalf("%+v: no ladder shares a distance", cfg)
		}
		for round := 0; round < 2; round++ {
			for _, a := range inputs {
				res, cnt := runPair(p, [2]*Machine{fused, plain}, a.x, a.y)
				if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
					t.Errorf("%+v, x=%v y=%v:\ngroups %s\nplain  %s\ncounters equal: %v", cfg, a.x, a.y, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
				}
			}
		}
	}
}

// TestExprProbe: expression probes (Cmp 'x': arithmetic, comparisons,
// not, and, or, eq and member over variables, integers and names) count
// like the when
// they stand for on integers at the edges, floats, non-numbers, zero
// divisors and an unbound global, fused and plain.
func TestExprProbe(t *testing.T) {
	preds := []string{"(< (+ x 1) y)", "(/= (- x y) (* x y))", "(= (/ x 2) y)", "(or (= y 0) (/= x (/ x y)))", "(> (mod x 7) (abs y))",
		"(and (< x y) (not (= x 0)) (>= (* 2 x) y))", "(not (eq (null (< x 3)) (null (<= y *g*))))", "(or (> x 1) (< y *late*))",
		"(and (< x 3) (or (= y 2) (> (- x y) 0)))", "(eq (and x y) (or y x))", "(<= (mod x y) 2)", "(not (and (> *g* x) nil))",
		"(and t (<= 0 (abs (- x y))))", "(> (* x x) 100)", "(and (eq x 'a) (< y 3))", "(or (member x '(a 1 :k)) (eq y :k))",
		"(eq (member y '(1 2 a)) nil)", "(and (not (member x '(0 7))) (>= (- x y) 1))"}
	const vals = `'(0 1 -1 2 3 7 9223372036854775807 -9223372036854775808 2.5 -0.5 a nil :k)`
	const tmpl = `(defparameter *g* 3)
(defparameter *early* (let ((x 1) (y 2)) (when (ignore-errors %[1]s)%[2]s) 1))
(defparameter *late* 0)
(def-plan main () (let ((n 0)) (dolist (x %[3]s) (dolist (y %[3]s) (when (ignore-errors %[1]s)%[2]s) (setq n (+ n 1)))) n))`
	for _, pred := range preds {
		probe := fmt.Sprintf(tmpl, pred, "", vals)
		plain := fmt.Sprintf(tmpl, pred, " nil", vals)
		if n := countProbes(compileSrc(t, probe), 'x'); n != 2 {
			t.Fatalf("%s: %d expression probes, want 2", pred, n)
		}
		probeMatchesWhen(t, pred, probe, plain, "169")
	}
}

// countProbes counts p's compare probes of kind cmp (compile.ProbeCmp.Cmp).
func countProbes(p *compile.Program, cmp byte) int {
	n := 0
	for pc, op := range p.Code {
		if op == compile.PROBECMP && p.Probes[p.A[pc]].Cmp == cmp {
			n++
		}
	}
	return n
}

// TestExprProbeEachRun: an expression probe's predicate on one pair of
// values a run (integers at the edges, where arithmetic wraps and
// comparisons meet equality, floats and names) counts its when's branch
// as the general compilation does, run by run, so that every comparison
// and arithmetic operator on two integers is decided by each pair.
func TestExprProbeEachRun(t *testing.T) {
	preds := []string{"(< (- x 1) y)", "(<= (- x 1) y)", "(> (+ x 1) y)", "(>= (+ x 1) y)", "(= (- x 1) y)", "(/= (* x 1) y)", "(= (+ x y) 1)", "(< (- x y) 0)",
		"(>= (* x y) 3)", "(<= (- x y) (+ y x))", "(and (< x y) (not (= (- y x) 1)))", "(or (> x 2) (<= y (* 2 x)))"}
	vals := []value.Value{value.Int(0), value.Int(1), value.Int(-1), value.Int(2), value.Int(3), value.Int(math.MaxInt64),
		value.Int(math.MinInt64), value.Float(2.5), value.Float(1), value.Symbol("a")}
	const tmpl = `(def-plan main (x y) (when (ignore-errors %s)%s) 1)`
	for _, pred := range preds {
		pp := compileSrc(t, fmt.Sprintf(tmpl, pred, ""))
		pw := compileSrc(t, fmt.Sprintf(tmpl, pred, " nil"))
		if n := countProbes(pp, 'x'); n != 1 {
			t.Fatalf("%s: %d expression probes, want 1", pred, n)
		}
		probesCountLikeWhens(t, pred, pp, pw, vals, nil)
	}
}

// probesCountLikeWhens runs plan main of pp, whose whens are label
// probes, and of pw, the same whens with a body (compiled in the general
// form), with Config{}, one pair of vals a run, and fails unless each
// probe's branch counters read as its when's do (bits, not hit counts)
// and the runs end alike (outcome and value). check, if not nil, is called with pp's machine
// before the first run.
func probesCountLikeWhens(t *testing.T, what string, pp, pw *compile.Program, vals []value.Value, check func(*Machine)) {
	t.Helper()
	wp, ww := whenBranches(pp), whenBranches(pw)
	if len(wp) != len(ww) {
		t.Fatalf("%s: %d whens with probes, %d in the general form", what, len(wp), len(ww))
	}
	mp, err := New(pp, Config{})
	if err != nil {
		t.Fatal(err)
	}
	mw, err := New(pw, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if check != nil {
		check(mp)
	}
	for _, x := range vals {
		for _, y := range vals {
			var res [2]string
			for k, m := range []*Machine{mp, mw} {
				m.ResetCounters()
				r := m.Run(context.Background(), m.Program().Plan("main"), []value.Value{x, y})
				res[k] = fmt.Sprint(r.Outcome, " ", r.Value, " ", r.Failure != nil) // the steps differ: probes are free
			}
			if res[0] != res[1] {
				t.Fatalf("%s, x=%s y=%s: %s with probes, %s in the general form", what, x, y, res[0], res[1])
			}
			for i := range wp {
				for _, outcome := range []bool{true, false} {
					if cp, cw := mp.Counters()[pp.BranchCounter(wp[i], outcome)], mw.Counters()[pw.BranchCounter(ww[i], outcome)]; cp != min(cw, 1) {
						t.Errorf("%s, x=%s y=%s, when at %s: %v counted %d by the probe, %d by the when", what, x, y, pp.Branch(wp[i]).Form, outcome, cp, cw)
					}
				}
			}
		}
	}
}

// TestDistLadderIntsEachRun: dist rungs on integer code (intPair: a
// ladder alone at its point, runLadder; a rung alone, probeFast) count
// their when's branch as the general compilation of the same when does,
// run by run, on one pair of values a run: integers at the edges, where
// the arithmetic and the difference wrap and abs of the most negative
// integer is itself, floats, a name and nil (the general code's cases),
// and a global unbound while *early* is computed. Rungs over two
// variables, a variable and a constant either way round, a global, and
// sums, differences, products and abs of them.
func TestDistLadderIntsEachRun(t *testing.T) {
	pairs := [][2]string{{"x", "y"}, {"x", "5"}, {"7", "y"}, {"*g*", "y"}, {"(* 40 z)", "(- x y)"},
		{"(abs (- x y))", "*g*"}, {"(+ x y)", "(* x y)"}, {"(abs x)", "0"}, {"f", "y"}}
	var b strings.Builder
	point := func(x, y string, bounds []int64, body string) {
		for _, k := range bounds {
			b.WriteString("      (when (ignore-errors " + rung(x, y, k) + ")" + body + ")\n")
		}
		b.WriteString("      (setq n (+ n 1))\n") // ends the point's chain of probes
	}
	var ladder []int64
	for _, k := range labels.DistRungs(labels.PlanDist) {
		ladder = append(ladder, 1<<k)
	}
	src := func(body string) string {
		b.Reset()
		b.WriteString("(defparameter *early* (let ((x 1) (y 2) (n 0))\n")
		point("*g*", "x", ladder, body)
		b.WriteString("      n))\n(defparameter *g* -3)\n(def-plan main (x y)\n  (let ((n 0) (z (ignore-errors (- y 1))) (f (ignore-errors (* x 0.5))))\n")
		for _, p := range pairs {
			point(p[0], p[1], ladder, body)
			point(p[0], p[1], []int64{1}, body)
			point(p[0], p[1], []int64{1 << 40}, body)
		}
		b.WriteString("    (setq *g* (- *g* 1))\n    n))")
		return b.String()
	}
	pp, pw := compileSrc(t, src("")), compileSrc(t, src(" nil"))
	if n := countProbes(pp, 'd'); n != len(whenBranches(pp)) || countProbes(pw, 'd') != 0 {
		t.Fatalf("%d rungs compiled to %d compare probes", len(whenBranches(pp)), n)
	}
	// Retirement: a run in which only a ladder's farthest rung holds
	// fires it (Machine.fired), so that it retires after the run as it
	// does on the plain code.
	b.Reset()
	point("x", "y", ladder, "")
	one := compileSrc(t, "(def-plan main (x y)\n  (let ((n 0))\n"+b.String()+"    n))")
	fused, plain := fusedAndPlain(t, one, Config{Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}})
	if len(fused.groups) != 1 || !fused.groups[0].ladder {
		t.Fatalf("%d groups, want one ladder run by runLadder", len(fused.groups))
	}
	for _, x := range []int64{ladder[0] - 1, ladder[0] - 1, ladder[1] - 1, 0, 0} {
		res, cnt := runPair(one, [2]*Machine{fused, plain}, value.Int(x), value.Int(0))
		if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
			t.Errorf("retiring, x=%d:\nladder %s\nplain  %s\ncounters equal: %v", x, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
		}
	}
	vals := []value.Value{value.Int(0), value.Int(1), value.Int(-1), value.Int(2), value.Int(5), value.Int(7), value.Int(-3),
		value.Int(1 << 40), value.Int(1<<40 + 1), value.Int(math.MaxInt64), value.Int(math.MinInt64), value.Int(math.MinInt64 + 1),
		value.Int(math.MaxInt64 / 40), value.Float(2.5), value.Float(-3), value.Symbol("a"), value.Nil}
	probesCountLikeWhens(t, "ladders", pp, pw, vals, func(mp *Machine) {
		ladders := 0
		for _, g := range mp.groups {
			if g.ladder {
				ladders++
			}
		}
		if ladders != len(pairs)+1 { // f's too (a local, holding a float), and *early*'s
			t.Fatalf("%d ladders run by runLadder, want %d", ladders, len(pairs)+1)
		}
	})
}
