package labels_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
)

// valueVerdicts annotates f with every label active (Options.NoValues)
// and lists, by the id of that annotation, the labels the value analysis
// calls infeasible or trivial (with the same options otherwise). The two
// enumerations differ only in statuses, so their labels pair up by index.
func valueVerdicts(t *testing.T, f *syntax.File, lo labels.Options, no normalize.Options) (*measure.Plan, map[int]*labels.Label) {
	t.Helper()
	off := lo
	off.NoValues = true
	p, err := measure.NewPlan(f, off, no)
	if err != nil {
		t.Fatal(err)
	}
	on, err := transform.Plan(f, transform.Options{Labels: lo, Normalize: no})
	if err != nil {
		t.Fatal(err)
	}
	all, pruned := p.Result.Labels.Labels, on.Labels.Labels
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
func checkVerdicts(t *testing.T, name string, p *measure.Plan, verdicts map[int]*labels.Label, hits []bool, input string) bool {
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
	n := 4000
	if testing.Short() {
		n = 400
	}
	truths, err := filepath.Glob("../testdata/bench/*/truth.json")
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
		world := benchWorld(t, truth)
		lo := labels.Options{Criteria: c, Domains: sim.LabelDomains(world)}
		p, verdicts := valueVerdicts(t, f, lo, normalize.Options{PureFuncs: sim.QueryNames()})
		total += len(verdicts)
		var tg engine.Target
		if world != nil {
			r, err := sim.NewRunner(p.AnnProg, world, sim.Options{Stdout: io.Discard})
			if err != nil {
				t.Fatal(err)
			}
			tg = fuzzdriver.NewPlanTarget(r)
		} else {
			tg, err = fuzzdriver.NewArgsTarget(p.AnnProg, "", vm.Config{Stdout: io.Discard, Builtins: sim.NoWorldBuiltins()})
			if err != nil {
				t.Fatal(err)
			}
		}
		plan, err := sim.SelectPlan(p.AnnProg, "")
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(len(name)), 0x5a1e))
		hits := make([]bool, p.AnnProg.NumCounters())
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
	files, err := filepath.Glob("../interp/compile/testdata/scripts/*.plan")
	if err != nil || len(files) < 10 {
		t.Fatalf("scripts: %v (%d)", err, len(files))
	}
	prelude, err := os.ReadFile("../interp/compile/testdata/scripts/prelude.lisp")
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
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, normalize.Options{PureFuncs: sim.QueryNames()})
		m, err := vm.New(p.AnnProg, vm.Config{Stdout: io.Discard, Builtins: sim.NoWorldBuiltins()})
		if err != nil {
			t.Fatal(err)
		}
		hits := make([]bool, p.AnnProg.NumCounters())
		for _, fn := range p.AnnProg.Plans() {
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

// benchWorld loads the world a benchmark's truth.json names, or nil.
func benchWorld(t *testing.T, truthPath string) *sim.World {
	t.Helper()
	data, err := os.ReadFile(truthPath)
	if err != nil {
		t.Fatal(err)
	}
	var truth struct {
		World string `json:"world"`
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	if truth.World == "" {
		return nil
	}
	w, err := sim.LoadWorld(filepath.Join(filepath.Dir(truthPath), truth.World))
	if err != nil {
		t.Fatal(err)
	}
	return w
}
