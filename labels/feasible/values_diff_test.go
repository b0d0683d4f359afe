package feasible_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
)

// valueVerdicts annotates f with every label active (Options.NoValues)
// and lists, by the id of that annotation, the labels the value analysis
// calls infeasible or trivial (with the same options otherwise). The two
// enumerations differ only in statuses, so their labels pair up by index.
func valueVerdicts(t *testing.T, f *syntax.File, lo labels.Options, fo feasible.Options, no normalize.Options) (*pipeline.Annotated, map[int]*labels.Label) {
	t.Helper()
	off := fo
	off.NoValues = true
	p, err := pipeline.Annotate(f, lo.Criteria, pipeline.Options{Labels: lo, Feasible: off, Normalize: no})
	if err != nil {
		t.Fatal(err)
	}
	on, err := transform.Plan(f, transform.Options{Labels: lo, Feasible: fo, Normalize: no})
	if err != nil {
		t.Fatal(err)
	}
	all, pruned := p.Transform.Labels.Labels, on.Labels.Labels
	if len(all) != len(pruned) {
		t.Fatalf("%d labels without the value analysis, %d with it", len(all), len(pruned))
	}
	out := map[int]*labels.Label{}
	for i, l := range all {
		q := pruned[i]
		if l.Criterion != q.Criterion || l.Operator != q.Operator || l.Pos != q.Pos {
			t.Fatalf("label %d differs: %s %s %s vs %s %s %s", i, l.Criterion, l.Operator, l.Pos, q.Criterion, q.Operator, q.Pos)
		}
		if l.Status == labels.Active && q.Status != labels.Active {
			if q.Status != labels.Infeasible && q.Status != labels.Trivial {
				t.Fatalf("label %s %s at %s: %s without the analysis, %s with it", l.Criterion, l.Operator, l.Pos, l.Status, q.Status)
			}
			out[l.ID] = q
		}
	}
	return p, out
}

// checkVerdicts fails for every label of verdicts the counters contradict:
// an infeasible label that held, a trivial label reached false.
func checkVerdicts(t *testing.T, name string, p *pipeline.Annotated, verdicts map[int]*labels.Label, hits []bool, input string) bool {
	t.Helper()
	ok := true
	for id, l := range verdicts {
		if l.Status == labels.Infeasible && hits[p.Counter(id, true)] {
			t.Errorf("%s: infeasible label held (input %s): %s %s %s at %s: %s", name, input, l.Criterion, l.Operator, l.Predicate, l.Pos, l.Reason)
			ok = false
		}
		if l.Status == labels.Trivial && hits[p.Counter(id, false)] {
			t.Errorf("%s: trivial label reached false (input %s): %s %s %s at %s: %s", name, input, l.Criterion, l.Operator, l.Predicate, l.Pos, l.Reason)
			ok = false
		}
	}
	return ok
}

// collect ORs counters into hits.
func collect(hits []bool, counters []uint8) {
	for i, c := range counters {
		if c != 0 {
			hits[i] = true
		}
	}
}

// extremes are argument values at the edges of int64 and of the words
// plans take apart with mod.
var extremes = []int64{0, 1, -1, 2, math.MinInt64, math.MaxInt64, math.MinInt64 + 1, math.MaxInt64 - 1,
	1 << 32, 1<<32 - 1, -(1 << 32), 1 << 16, 1<<16 - 1, 1 << 20, 1<<20 - 1, 4095, 4096, 150, 175, 550, 2000, 4000}

// argInput draws one argument vector: extremes, small numbers, numbers
// around thresholds and raw random words.
func argInput(rng *rand.Rand, n int) []byte {
	b := make([]byte, 8*n)
	for i := 0; i < n; i++ {
		var v int64
		switch rng.IntN(4) {
		case 0:
			v = extremes[rng.IntN(len(extremes))]
		case 1:
			v = int64(rng.IntN(200) - 60)
		case 2:
			v = int64(rng.IntN(9000) - 500)
		default:
			v = int64(rng.Uint64())
		}
		binary.LittleEndian.PutUint64(b[8*i:], uint64(v))
	}
	return b
}

// TestValueVerdictsSoundOnBenchmarks is the soundness proof of the value
// analysis on the bundled benchmark plans: annotated with every label
// active, run on many seeded inputs (argument vectors with the extremes
// of int64 for plans without a world, decoded environments for the
// others), no label the analysis calls infeasible ever holds and no label
// it calls trivial is ever reached false.
func TestValueVerdictsSoundOnBenchmarks(t *testing.T) {
	n := testenv.Sized(400, 4000)
	if testing.Short() {
		n = 400
	}
	truths, err := filepath.Glob("../../testdata/bench/*/truth.json")
	if err != nil || len(truths) < 5 {
		t.Fatalf("benchmark folders: %v (%d)", err, len(truths))
	}
	c, err := labels.ParseCriteria("mcc,cc,wm,dist")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, truth := range truths {
		dir := filepath.Dir(truth)
		name := filepath.Base(dir)
		f, err := syntax.ParseFile(filepath.Join(dir, name+".plan"))
		if err != nil {
			t.Fatal(err)
		}
		var world *sim.World
		if path, err := sim.WorldBeside(filepath.Join(dir, name+".plan")); err != nil {
			t.Fatal(err)
		} else if path != "" {
			if world, err = sim.LoadWorld(path); err != nil {
				t.Fatal(err)
			}
		}
		lo := labels.Options{Criteria: c}
		orig, err := compile.Compile(f)
		if err != nil {
			t.Fatal(err)
		}
		entry, err := sim.SelectPlan(orig, "")
		if err != nil {
			t.Fatal(err)
		}
		// As the pipeline runs it: through its entry (functions it never
		// calls have infeasible labels).
		p, verdicts := valueVerdicts(t, f, lo, feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: entry.Name}, normalize.Options{PureFuncs: sim.QueryNames()})
		total += len(verdicts)
		r, err := runner.New(runner.Options{Program: p.Program, World: world, Stdout: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		tg := &runner.Target{R: r}
		plan, err := sim.SelectPlan(p.Program, "")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(len(name)), 0x5a1e))
		hits := make([]bool, p.Program.NumCounters())
		for i := 0; i < n; i++ {
			var input []byte
			if world != nil {
				input = make([]byte, world.BytesPerObject()*(1+rng.IntN(8)))
				for j := range input {
					input[j] = byte(rng.Uint32())
				}
			} else {
				input = argInput(rng, plan.NumParams())
			}
			if _, err := tg.Run(context.Background(), input); err != nil {
				t.Fatal(err)
			}
			collect(hits, tg.Counters())
			if !checkVerdicts(t, name, p, verdicts, hits, string(hexOf(input))) {
				break
			}
		}
	}
	if total < 100 {
		t.Errorf("the analysis decided only %d labels over the benchmarks: is it wired in?", total)
	}
}

// TestValueVerdictsSoundOnScripts runs every def-plan of the language's
// test scripts (64-bit wrap-around, mod and rem signs, floats, closures,
// loops, ...) annotated with every label active: no label the value
// analysis rules out holds, no trivial one is reached false.
func TestValueVerdictsSoundOnScripts(t *testing.T) {
	files, err := filepath.Glob("../../interp/compile/testdata/scripts/*.plan")
	if err != nil || len(files) < 10 {
		t.Fatalf("scripts: %v (%d)", err, len(files))
	}
	prelude, err := os.ReadFile("../../interp/compile/testdata/scripts/prelude.lisp")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("mcc,cc,wm,dist")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		src = append(append(src, '\n'), prelude...)
		f, err := syntax.Parse(file, src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := compile.Compile(f); err != nil {
			continue // scripts that test compile errors
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{}, normalize.Options{PureFuncs: sim.QueryNames()})
		m, err := vm.New(p.Program, vm.Config{Stdout: io.Discard, Builtins: sim.NoWorldBuiltins()})
		if err != nil {
			t.Fatal(err)
		}
		hits := make([]bool, p.Program.NumCounters())
		for _, fn := range p.Program.Plans() {
			args := make([]value.Value, fn.NumParams())
			for i := range args {
				args[i] = value.Int(0)
			}
			m.ResetCounters()
			m.Run(context.Background(), fn, args)
			collect(hits, m.Counters())
		}
		checkVerdicts(t, filepath.Base(file), p, verdicts, hits, "each def-plan")
	}
}

func hexOf(b []byte) []byte {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, x := range b {
		out = append(out, digits[x>>4], digits[x&15])
	}
	return out
}

// genPlan writes a random plan of integer and float arithmetic over
// parameters, globals, let variables, loop variables and a helper
// function, each statement under ignore-errors so that a failing one
// (division by zero, a type error) leaves the rest running.
func genPlan(rng *rand.Rand) string {
	leaves := []string{"a", "b", "c", "v1", "v2", "*g*", "*h*", "(f1 a b)", "i"}
	lits := []string{"0", "1", "-1", "2", "3", "7", "-7", "16", "255", "4096", "4294967296", "65536",
		"9223372036854775807", "-9223372036854775808", "4611686018427387904", "0.5", "-2.5", "1e300", "-1e300", "1.0", "0.0"}
	var expr func(d int) string
	expr = func(d int) string {
		if d <= 0 || rng.IntN(4) == 0 {
			if rng.IntN(3) == 0 {
				return lits[rng.IntN(len(lits))]
			}
			return leaves[rng.IntN(len(leaves))]
		}
		e := func() string { return expr(d - 1) }
		switch rng.IntN(17) {
		case 0:
			return "(+ " + e() + " " + e() + ")"
		case 1:
			return "(- " + e() + " " + e() + ")"
		case 2:
			return "(* " + e() + " " + e() + ")"
		case 3:
			return "(/ " + e() + " " + e() + ")"
		case 4:
			return "(mod " + e() + " " + e() + ")"
		case 5:
			return "(rem " + e() + " " + e() + ")"
		case 6:
			return "(abs " + e() + ")"
		case 7:
			return "(min " + e() + " " + e() + ")"
		case 8:
			return "(max " + e() + " " + e() + ")"
		case 9:
			return "(floor " + e() + ")"
		case 10:
			return "(floor " + e() + " " + e() + ")"
		case 11:
			return "(round " + e() + ")"
		case 12:
			return "(1+ " + e() + ")"
		case 13:
			return "(- " + e() + ")"
		case 14:
			return "(if (< " + e() + " " + e() + ") " + e() + " " + e() + ")"
		case 15:
			return "(sqrt " + e() + ")"
		default:
			return "(mod " + e() + " " + lits[rng.IntN(12)] + ")"
		}
	}
	rel := func() string {
		ops := []string{"<", "<=", ">", ">=", "=", "/="}
		return "(" + ops[rng.IntN(len(ops))] + " " + expr(2) + " " + expr(2) + ")"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "(defparameter *g* %s)\n(defparameter *h* %s)\n", lits[rng.IntN(len(lits))], expr(1))
	fmt.Fprintf(&b, "(defun f1 (x y) (if %s %s %s))\n", rel(), strings.NewReplacer("a", "x", "b", "y").Replace(expr(2)), "x")
	fmt.Fprintf(&b, "(defun f2 (x y) (- x %s))\n(defun f3 () (+ *g* 1))\n", expr(1))
	b.WriteString("(def-plan main (a b c)\n  (let ((v1 " + expr(3) + ") (v2 0) (i 0))\n")
	for k := 0; k < 6; k++ {
		switch rng.IntN(9) {
		case 5:
			fmt.Fprintf(&b, "    (ignore-errors (setq v2 (funcall (if %s #'f1 #'f2) %s %s)))\n", rel(), expr(2), expr(2))
		case 6:
			fmt.Fprintf(&b, "    (ignore-errors (setq v1 (block blk (when %s (return-from blk %s)) %s)))\n", rel(), expr(2), expr(2))
		case 7:
			fmt.Fprintf(&b, "    (ignore-errors (let ((*g* %s)) (setq v2 (f3))))\n", expr(2))
		case 8:
			fmt.Fprintf(&b, "    (ignore-errors (loop for k from 0 below 3 do (setq v2 (+ v2 %s))))\n", expr(2))
		case 0:
			fmt.Fprintf(&b, "    (ignore-errors (setq v2 %s))\n", expr(3))
		case 1:
			fmt.Fprintf(&b, "    (ignore-errors (setq *g* %s))\n", expr(3))
		case 2:
			fmt.Fprintf(&b, "    (ignore-errors (dotimes (i (mod %s 5)) (incf v2 %s)))\n", expr(1), expr(2))
		case 3:
			fmt.Fprintf(&b, "    (ignore-errors (when (and %s %s) (setq v1 %s)))\n", rel(), rel(), expr(2))
		default:
			fmt.Fprintf(&b, "    (ignore-errors (if %s (setq c %s) (setq *h* %s)))\n", rel(), expr(3), expr(2))
		}
	}
	b.WriteString("    (list v1 v2 *g* *h*)))\n")
	return b.String()
}

// checkGenerated annotates one generated plan with and without the value
// analysis and runs it on inputs argument vectors.
func checkGenerated(t *testing.T, seed uint64, inputs int) {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	src := genPlan(rng)
	checkPlanVerdicts(t, fmt.Sprintf("seed %d", seed), src, "mcc,cc,wm,dist", inputs, func(int) []byte { return argInput(rng, 3) })
}

// checkPlanVerdicts annotates src (a plan of three arguments) with its
// labels of crit active, and runs it on inputs argument vectors from
// draw: no label the value analysis rules out may hold. It returns how
// many labels the analysis decided.
func checkPlanVerdicts(t *testing.T, name, src, crit string, inputs int, draw func(i int) []byte) int {
	f, err := syntax.Parse("gen.plan", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, src)
	}
	c, _ := labels.ParseCriteria(crit)
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{}, normalize.Options{})
	r, err := runner.New(runner.Options{Program: p.Program, Stdout: io.Discard, Limits: runner.Limits{MaxSteps: 20000}})
	if err != nil {
		t.Fatal(err)
	}
	tg := &runner.Target{R: r}
	hits := make([]bool, p.Program.NumCounters())
	for i := 0; i < inputs; i++ {
		input := draw(i)
		if _, err := tg.Run(context.Background(), input); err != nil {
			t.Fatal(err)
		}
		collect(hits, tg.Counters())
		if !checkVerdicts(t, name, p, verdicts, hits, string(hexOf(input))) {
			t.Logf("plan:\n%s", src)
			break
		}
	}
	return len(verdicts)
}

// TestValueVerdictsSoundOnGeneratedPlans checks the value verdicts on
// random arithmetic plans (wrap-around, floats, NaN, zero divisors,
// loops, a helper function called with several arguments).
func TestValueVerdictsSoundOnGeneratedPlans(t *testing.T) {
	plans, inputs := testenv.Sized(40, 1000), testenv.Sized(100, 300)
	if testing.Short() {
		plans, inputs = 40, 100
	}
	for seed := uint64(1); seed <= uint64(plans); seed++ {
		checkGenerated(t, seed, inputs)
		if t.Failed() {
			return
		}
	}
}

// FuzzValueVerdicts searches generated plans for a value verdict a run
// contradicts: go test -fuzz FuzzValueVerdicts ./labels.
func FuzzValueVerdicts(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkGenerated(t, seed, 50) })
}

// genLoopFreePlan writes a random loop-free plan the path analysis
// follows: globals, helpers with cond/and/or/min/max, a def-plan whose
// statements assign globals under decisions, and checks that read them —
// so that the analysis must split paths on every min, max, comparison and
// and/or, and fork the run's stop states at each global assignment.
func genLoopFreePlan(rng *rand.Rand) string {
	lits := []string{"0", "1", "-1", "2", "3", "5", "7", "-7", "16", "150", "550", "4096", "4294967296",
		"9223372036854775807", "-9223372036854775808", "0.5", "-2.5", "1.0", "9007199254740993", "9007199254740992.0"}
	var expr func(leaves []string, d int) string
	expr = func(leaves []string, d int) string {
		if d <= 0 || rng.IntN(3) == 0 {
			if rng.IntN(4) == 0 {
				return lits[rng.IntN(len(lits))]
			}
			return leaves[rng.IntN(len(leaves))]
		}
		e := func() string { return expr(leaves, d-1) }
		switch rng.IntN(11) {
		case 0:
			return "(+ " + e() + " " + e() + ")"
		case 1:
			return "(- " + e() + " " + e() + ")"
		case 2:
			return "(* " + e() + " " + lits[rng.IntN(10)] + ")"
		case 3:
			return "(* " + e() + " " + e() + ")"
		case 4:
			return "(mod " + e() + " " + lits[4+rng.IntN(9)] + ")"
		case 5:
			return "(min " + e() + " " + e() + ")"
		case 6:
			return "(max " + e() + " " + e() + ")"
		case 7:
			return "(1+ " + e() + ")"
		case 8:
			return "(abs " + e() + ")"
		case 9:
			return "(/ " + e() + " " + e() + ")"
		default:
			return "(if " + relOf(rng, expr, leaves) + " " + e() + " " + e() + ")"
		}
	}
	locals := []string{"a", "b", "c", "v1", "v2", "v3", "*g*", "*h*"}
	globals := []string{"*g*", "*h*", "*r*", "*left*"}
	rel := func(leaves []string) string { return relOf(rng, expr, leaves) }
	cmds := []string{"'go", "'creep", "'stop", "nil"}
	var b strings.Builder
	fmt.Fprintf(&b, "(defparameter *g* %s)\n(defparameter *h* %s)\n(defparameter *r* 0)\n(defparameter *left* 0)\n(defparameter *cmd* nil)\n",
		lits[rng.IntN(len(lits))], expr([]string{"*g*"}, 1))
	xy := []string{"x", "y", "*g*"}
	fmt.Fprintf(&b, "(defun f1 (x y) (cond (%s x) ((and %s %s) (min x y)) (t (max x y %s))))\n", rel(xy), rel(xy), rel(xy), expr(xy, 1))
	fmt.Fprintf(&b, "(defun f2 (x) (if (or %s %s) %s %s))\n", rel([]string{"x"}), rel([]string{"x", "*h*"}), cmds[rng.IntN(4)], cmds[rng.IntN(4)])
	fmt.Fprintf(&b, "(defun valid (x) (and (>= x %s) (<= x %s)))\n", lits[rng.IntN(10)], lits[4+rng.IntN(9)])
	b.WriteString("(def-plan main (a b c)\n  (let ((v1 (mod a 4096)) (v2 (min a b)) (v3 (max b c)))\n")
	for k := 0; k < 2+rng.IntN(3); k++ {
		switch rng.IntN(9) {
		case 0:
			fmt.Fprintf(&b, "    (setq %s %s)\n", globals[rng.IntN(len(globals))], expr(locals, 2))
		case 1:
			fmt.Fprintf(&b, "    (setq v%d %s)\n", 1+rng.IntN(3), expr(locals, 2))
		case 2:
			fmt.Fprintf(&b, "    (setq *cmd* (f2 %s))\n", expr(locals, 1))
		case 3:
			fmt.Fprintf(&b, "    (cond (%s (setq *r* %s)) ((and %s %s) (setq *cmd* 'creep)) (t (setq v2 (f1 v1 %s))))\n",
				rel(locals), expr(locals, 1), rel(locals), rel(locals), expr(locals, 1))
		case 4:
			fmt.Fprintf(&b, "    (when (or %s (not (valid %s))) (setq *h* %s))\n", rel(locals), expr(locals, 1), expr(locals, 2))
		case 5:
			fmt.Fprintf(&b, "    (ignore-errors (setq *r* (/ %s %s)))\n", expr(locals, 1), expr(locals, 1))
		case 6:
			fmt.Fprintf(&b, "    (if (not %s) (setq *cmd* 'go) (setq *cmd* (f2 v3)))\n", rel(locals))
		case 7:
			fmt.Fprintf(&b, "    (let* ((n (min v1 v2)) (m (max v1 v3))) (setq *left* n) (when (valid n) (setq *cmd* (f2 (- m n)))))\n")
		default:
			fmt.Fprintf(&b, "    (unless (eq *cmd* 'stop) (setq *g* (f1 %s %s)))\n", expr(locals, 1), expr(locals, 1))
		}
	}
	b.WriteString("    (list v1 v2 v3)))\n")
	gl := []string{"*g*", "*h*", "*r*", "*left*"}
	fmt.Fprintf(&b, "(def-check chk1 () (when (and (member *cmd* '(go creep)) (or (not (valid *left*)) %s) %s) 'bad))\n", rel(gl), rel(gl))
	fmt.Fprintf(&b, "(def-check chk2 () (cond (%s 'odd) ((or %s (eq *cmd* 'stop)) nil) ((valid (min *g* *h*)) 'both)))\n", rel(gl), rel(gl))
	return b.String()
}

func relOf(rng *rand.Rand, expr func([]string, int) string, leaves []string) string {
	ops := []string{"<", "<=", ">", ">=", "=", "/="}
	return "(" + ops[rng.IntN(len(ops))] + " " + expr(leaves, 1) + " " + expr(leaves, 1) + ")"
}

// oddArgs are arguments beyond the fuzzers' int64, as run, replay and
// cover pass them from plan literals: floats (the reader makes no NaN or
// infinity, but the largest floats overflow to them in arithmetic, and a
// float just past 2^53 compares inexactly with an integer) and
// non-numbers.
var oddArgs = []value.Value{value.Float(0.5), value.Float(math.Copysign(0, -1)), value.Float(math.MaxFloat64),
	value.Float(-math.MaxFloat64), value.Float(9007199254740992), value.Float(150), value.Float(4000.5), value.Float(1e300),
	value.Float(4294967295.75), value.Int(9007199254740993), value.Nil, value.Symbol("go")}

// checkLoopFree annotates one generated loop-free plan with and without
// the value and path analyses and runs it on inputs argument vectors,
// some with small step budgets (runs stopping midway, which cover no
// label) and some with floats and non-numbers; it returns how many
// labels the path analysis decided.
func checkLoopFree(t *testing.T, seed uint64, inputs int) int {
	rng := rand.New(rand.NewPCG(seed, 0x10f3))
	src := genLoopFreePlan(rng)
	f, err := syntax.Parse("loopfree.plan", []byte(src))
	if err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, src)
	}
	c, _ := labels.ParseCriteria("mcc,cc,wm,dist")
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{}, normalize.Options{})
	decided := 0
	for _, l := range verdicts {
		if strings.Contains(l.Reason, "path") {
			decided++
		}
	}
	plan, err := sim.SelectPlan(p.Program, "")
	if err != nil {
		t.Fatal(err)
	}
	// A run cut by its step budget covers and reaches no label (the VM
	// clears their counters): short budgets check that the analysis need
	// not follow where such runs stop.
	hits := make([]bool, p.Program.NumCounters())
	machines := map[int64]*vm.Machine{}
	for i := 0; i < inputs; i++ {
		steps := int64(20000)
		if rng.IntN(4) == 0 {
			steps = int64(1 + rng.IntN(120))
		}
		m := machines[steps]
		if m == nil {
			if m, err = vm.New(p.Program, vm.Config{Stdout: io.Discard, Builtins: sim.NoWorldBuiltins(), MaxSteps: steps}); err != nil {
				t.Fatal(err)
			}
			machines[steps] = m
		}
		in := argInput(rng, 3)
		args := make([]value.Value, 3)
		desc := ""
		for j := range args {
			args[j] = value.Int(int64(binary.LittleEndian.Uint64(in[8*j:])))
			if rng.IntN(6) == 0 {
				args[j] = oddArgs[rng.IntN(len(oddArgs))]
			}
			desc += args[j].String() + " "
		}
		m.ResetCounters()
		m.Run(context.Background(), plan, args)
		for _, ch := range p.Program.Checks() {
			m.Call(context.Background(), ch, nil)
		}
		collect(hits, m.Counters())
		if !checkVerdicts(t, fmt.Sprintf("seed %d", seed), p, verdicts, hits, fmt.Sprintf("%s(steps %d)", desc, steps)) {
			t.Logf("plan:\n%s", src)
			return decided
		}
	}
	return decided
}

// TestPathVerdictsSoundOnLoopFreePlans checks the path analysis's
// verdicts on generated loop-free plans, and that it decides some.
func TestPathVerdictsSoundOnLoopFreePlans(t *testing.T) {
	plans, inputs := testenv.Sized(30, 300), testenv.Sized(100, 300)
	if testing.Short() {
		plans, inputs = 30, 100
	}
	decided := 0
	for seed := uint64(1); seed <= uint64(plans); seed++ {
		decided += checkLoopFree(t, seed, inputs)
		if t.Failed() {
			return
		}
	}
	if decided < plans {
		t.Errorf("the path analysis decided only %d labels over %d generated plans: is it wired in?", decided, plans)
	}
}

// FuzzPathVerdicts searches generated loop-free plans for a path verdict
// a run contradicts: go test -fuzz FuzzPathVerdicts ./labels.
func FuzzPathVerdicts(f *testing.F) {
	for _, s := range []uint64{1, 2, 3, 42} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, seed uint64) { checkLoopFree(t, seed, 60) })
}
