package vm

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// conjChain is the MCC labels of a decision of atoms, the 2^n
// conjunctions of the atoms and their negations, one after the other (a
// chain), each with body after its test.
func conjChain(atoms []string, body string) string {
	var b strings.Builder
	for mask := 0; mask < 1<<len(atoms); mask++ {
		b.WriteString("  (when (ignore-errors (and")
		for i, a := range atoms {
			if mask>>i&1 != 0 {
				a = "(not " + a + ")"
			}
			b.WriteString(" " + a)
		}
		b.WriteString("))" + body + ")\n")
	}
	return b.String()
}

// conjDecisions are the decisions whose MCC labels TestConjunctionsEachRun
// runs: comparisons of variables, constants, globals (*late* unbound
// while *early* is computed) and arithmetic on them, where integers wrap
// and abs of the most negative integer is itself.
var conjDecisions = [][]string{
	{"(< x y)", "(< y *g*)", "(= (- y x) *g*)"},
	{"(>= (abs x) 3)", "(/= (* x y) (+ x 1))"},
	{"(<= x *late*)", "(> (- x y) 0)"},
	{"(> (+ x y) 1)"},
}

// conjPlan has every decision's chain in a function called from *early*
// and from main; body follows each label's test.
func conjPlan(body string) string {
	var b strings.Builder
	b.WriteString("(defparameter *g* 3)\n(defun d (x y)\n")
	for _, d := range conjDecisions {
		b.WriteString(conjChain(d, body))
		b.WriteString("  (setq *g* (+ *g* 0))\n") // ends the decision's chain
	}
	b.WriteString("  x)\n(defparameter *early* (d 1 2))\n(defparameter *late* 0)\n")
	b.WriteString("(def-plan main (x y)\n  (setq *late* (if (eq x 2) y (- y 1)))\n  (d x y)\n  (list x y))")
	return b.String()
}

// TestConjunctionsEachRun: the MCC labels of a decision whose atoms are
// integer comparisons share one test in a group (runConj: the atoms once,
// on integers), which counts every label's when as the general
// compilation of the same when does and as the plain code does (results,
// steps, label steps and every counter), run by run, one pair of values a
// run: integers at the edges, floats, a name, nil (the general code's
// cases) and a global unbound while *early* is computed; with and without
// retirement (labels retire between runs and the groups are rebuilt) and
// under small budgets (the label budget exhausted in the middle of the
// chains).
func TestConjunctionsEachRun(t *testing.T) {
	p, pw := compileSrc(t, conjPlan("")), compileSrc(t, conjPlan(" nil"))
	nLabels := 0
	for _, d := range conjDecisions {
		nLabels += 1 << len(d)
	}
	if n := countProbes(p, 'x'); n != nLabels {
		t.Fatalf("%d expression probes, want %d", n, nLabels)
	}
	vals := []value.Value{value.Int(0), value.Int(1), value.Int(-1), value.Int(2), value.Int(3), value.Int(-3),
		value.Int(math.MaxInt64), value.Int(math.MinInt64), value.Float(2.5), value.Float(3), value.Symbol("a"), value.Nil}
	probesCountLikeWhens(t, "conjunctions", p, pw, vals, func(mp *Machine) {
		shared := 0
		for _, g := range mp.groups {
			for _, ts := range g.tests {
				if ts.mcc != nil && int(ts.hi-ts.lo) == 1<<len(ts.mcc.atoms) {
					shared++
				}
			}
		}
		if shared != len(conjDecisions) {
			t.Fatalf("%d tests shared by a decision's MCC labels, want %d", shared, len(conjDecisions))
		}
	})
	// Retirement: a run in which only a label of one decision holds fires
	// it (Machine.fired), on integers and in the general code (floats),
	// so that it retires after the run as it does on the plain code.
	engine := LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}
	one := compileSrc(t, "(defparameter *g* 3)\n(def-plan main (x y)\n"+conjChain(conjDecisions[0], "")+"  x)")
	fused, plain := fusedAndPlain(t, one, Config{Labels: engine})
	for _, xy := range [][2]value.Value{{value.Float(2.5), value.Int(3)}, {value.Float(2.5), value.Int(3)}, {value.Int(0), value.Int(3)},
		{value.Int(0), value.Int(3)}, {value.Int(4), value.Int(1)}, {value.Float(4), value.Int(1)}} {
		res, cnt := runPair(one, [2]*Machine{fused, plain}, xy[0], xy[1])
		if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
			t.Errorf("retiring, x=%s y=%s:\ngroups %s\nplain  %s\ncounters equal: %v", xy[0], xy[1], res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
		}
	}
	for _, cfg := range []Config{{}, {Labels: LabelMode{Retire: true}}, {MaxLabelSteps: 30}, {Labels: LabelMode{FiredOnly: true}},
		{Labels: engine}, {Labels: engine, MaxSteps: 30}, {Labels: engine, MaxLabelSteps: 60}} {
		fused, plain := fusedAndPlain(t, p, cfg)
		for _, x := range vals {
			for _, y := range vals {
				res, cnt := runPair(p, [2]*Machine{fused, plain}, x, y)
				if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
					t.Errorf("%+v, x=%s y=%s:\ngroups %s\nplain  %s\ncounters equal: %v", cfg, x, y, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
				}
			}
		}
	}
}

// TestDecodeConj: what a conjunction of integer comparisons is, and what
// is left to the general code.
func TestDecodeConj(t *testing.T) {
	for _, c := range []struct {
		pred  string
		atoms int
		want  uint64
	}{
		{"(and (< x y) (not (< y *g*)) (= (- y x) *g*))", 3, 0b101},
		{"(not (not (< x 1)))", 1, 1},
		{"(not (>= (abs (* x y)) 3))", 1, 0},
		{"(and (< x y) (or (= x 1) (= y 2)))", 0, 0},            // an or
		{"(and (< x y) (and (= x 1) (not (= y 2))))", 3, 0b011}, // the same conjunction
		{"(and (and (= x 1) (= y 2)) (< x y))", 0, 0},           // an and inside an atom
		{"(and (< x y) (eq x 1))", 0, 0},                        // eq
		{"(and (< x y) (< (mod x 2) 1))", 0, 0},                 // mod
		{"(and (< x y) (not (null x)))", 0, 0},                  // not a comparison
		{"(< (not x) y)", 0, 0},
	} {
		p := compileSrc(t, fmt.Sprintf("(defparameter *g* 3)\n(def-plan main (x y) (when (ignore-errors %s)) 1)", c.pred))
		if countProbes(p, 'x') != 1 {
			t.Fatalf("%s: not an expression probe", c.pred)
		}
		for _, pr := range p.Probes {
			cj, ok := decodeConj(pr.Ops)
			if ok != (c.atoms > 0) || len(cj.atoms) != c.atoms || cj.want != c.want {
				t.Errorf("%s: %v %d atoms want %b, expected %d atoms want %b", c.pred, ok, len(cj.atoms), cj.want, c.atoms, c.want)
			}
		}
	}
}

// TestSingleGroupEachRun: a group whose one live label compares two
// integers (runSingle: a local or a global with a local, a global or a
// constant) counts as the plain code does, run by run, once the other
// labels of its chain retired: results, steps, label steps and every
// counter, on one pair of values a run (integers, a float, a name, nil,
// a global unbound while *early* is computed), and under label budgets
// that run out at every point of a run.
func TestSingleGroupEachRun(t *testing.T) {
	chains := func() string {
		var b strings.Builder
		for _, pred := range []string{"(= x y)", "(= x *g*)", "(= *late* x)", "(= x *late*)", "(= *late* *g*)", "(= x 5)", "(< y 3)"} {
			b.WriteString("(when (ignore-errors " + pred + ")) (when (ignore-errors (= x 100))) (setq n (+ n 1))\n")
		}
		return b.String()
	}
	src := "(defparameter *g* 3)\n(defparameter *early* (let ((x 1) (y 2) (n 0)) " + chains() + " n))\n(defparameter *late* 0)\n" +
		"(def-plan main (x y)\n  (setq *late* y)\n  (let ((n 0)) (dotimes (i 3) " + chains() + ") n))"
	p := compileSrc(t, src)
	vals := []value.Value{value.Int(1), value.Int(3), value.Int(5), value.Int(-7), value.Int(math.MaxInt64), value.Int(math.MinInt64),
		value.Float(3), value.Float(5), value.Symbol("a"), value.Nil}
	for budget := int64(0); budget <= 20; budget++ {
		for _, xFirst := range []bool{false, true} {
			singleGroupRuns(t, p, vals, budget, xFirst)
		}
	}
}

// singleGroupRuns is a part of TestSingleGroupEachRun: one budget (0:
// the default), the pairs with a float, a name or nil first (in x first,
// or in y first), as equal numbers retire the labels on them.
func singleGroupRuns(t *testing.T, p *compile.Program, vals []value.Value, budget int64, xFirst bool) {
	t.Helper()
	fused, plain := fusedAndPlain(t, p, Config{Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}})
	// The first run retires every chain's (= x 100) and nothing else;
	// the budget applies from the next run on.
	runPair(p, [2]*Machine{fused, plain}, value.Int(100), value.Int(-7))
	if budget > 0 {
		fused.cfg.MaxLabelSteps, plain.cfg.MaxLabelSteps = budget, budget
	}
	var pairs [][2]value.Value
	for class := 0; class < 3; class++ {
		for _, x := range vals {
			for _, y := range vals {
				c := 2 // two integers
				if x.Kind() != value.KInt {
					c = 1
				} else if y.Kind() != value.KInt {
					c = 0
				}
				if xFirst && c < 2 {
					c = 1 - c
				}
				if c == class {
					pairs = append(pairs, [2]value.Value{x, y})
				}
			}
		}
	}
	single := 0
	for _, xy := range pairs {
		for _, g := range fused.groups {
			if g.single {
				single++
			}
		}
		res, cnt := runPair(p, [2]*Machine{fused, plain}, xy[0], xy[1])
		if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
			t.Errorf("budget %d, x=%s y=%s:\ngroups %s\nplain  %s\ncounters equal: %v", budget, xy[0], xy[1], res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
		}
	}
	if single == 0 {
		t.Fatalf("budget %d: no group of one integer comparison", budget)
	}
}
