package bench

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
)

// The label-cost benchmark: the same inputs run on the plan as written
// (variant=none) and on the plan annotated in memory with --criteria
// mcc,wm, with labels counting as in the built-in engine's workers
// (fired only), with label retirement on
// (variant=mcc+wm, what `labelcov fuzz` runs: silent retirement) and off
// (variant=mcc+wm-no-retire, `labelcov fuzz --no-retire`). Its figure is
// cpu-ns/op of none over each annotated variant: the throughput a fuzzer
// keeps when labels guide it.

var dockingPlan = filepath.Join("..", "testdata", "bench", "docking", "docking.plan")

// labelCriteria is what the label-cost benchmark annotates with.
const labelCriteria = "mcc,wm"

// annotate returns the plan annotated with crit, as `labelcov fuzz
// --criteria crit` does in memory (simulator queries pure), read back as
// name, and how many labels it carries.
func annotate(tb testing.TB, f *syntax.File, crit, name string) (*syntax.File, int) {
	tb.Helper()
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := transform.Plan(f, transform.Options{
		Labels:    labels.Options{Criteria: c, MCCMaxAtoms: labels.DefaultMCCMaxAtoms},
		Normalize: normalize.Options{PureFuncs: sim.QueryNames()},
	})
	if err != nil {
		tb.Fatal(err)
	}
	af := res.File // built with the text, as the pipeline compiles it
	af.Name = name
	n := 0
	for _, l := range res.Labels.Labels {
		if l.Annotated != nil {
			n++
		}
	}
	return af, n
}

func parseFile(tb testing.TB, path string) *syntax.File {
	tb.Helper()
	f, err := syntax.ParseFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return f
}

func compileFile(tb testing.TB, f *syntax.File) *compile.Program {
	tb.Helper()
	p, err := compile.Compile(f)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// argsRunner runs a world-less plan as the fuzzer's args target does: the
// input's 8-byte little-endian words are the plan's parameters, then the
// checks run; it returns the steps of the run.
func argsRunner(tb testing.TB, p *compile.Program, cfg vm.Config) func(input []byte) int64 {
	tb.Helper()
	cfg.MaxSteps = 1_000_000
	m, err := vm.New(p, cfg)
	if err != nil {
		tb.Fatal(err)
	}
	plan := p.Plan("main")
	checks := p.Checks()
	args := make([]value.Value, plan.NumParams())
	ctx := context.Background()
	return func(input []byte) int64 {
		for i := range args {
			args[i] = value.Int(int64(binary.LittleEndian.Uint64(input[8*i:])))
		}
		m.ResetCounters()
		r := m.Run(ctx, plan, args)
		for _, c := range checks {
			m.Call(ctx, c, nil)
		}
		m.Counters() // as a fuzzer reads them after each run
		return r.Steps
	}
}

// dockingInputs are n seeded inputs of docking's four parameters, each a
// reading in 0..4999 (millimetres, or ADC counts for the battery), so that
// runs reach past the range checks.
func dockingInputs(n int) [][]byte {
	rng := rand.New(rand.NewPCG(2026, 4))
	out := make([][]byte, n)
	for i := range out {
		b := make([]byte, 32)
		for j := 0; j < 4; j++ {
			binary.LittleEndian.PutUint64(b[8*j:], rng.Uint64N(5000))
		}
		out[i] = b
	}
	return out
}

type labelVariant struct {
	name   string
	crit   string
	labels vm.LabelMode
}

// labelVariants: the annotated variants' modes are
// campaign.EngineLabels(false) and (true), written out because the
// bench module does not import fuzzdriver (and its dependencies).
var labelVariants = []labelVariant{
	{"none", "", vm.LabelMode{}},
	{"mcc+wm", labelCriteria, vm.LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}},
	{"mcc+wm-no-retire", labelCriteria, vm.LabelMode{FiredOnly: true}},
	{"dist", "dist", vm.LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}},
	{"dist-no-retire", "dist", vm.LabelMode{FiredOnly: true}},
}

// BenchmarkLabels measures the CPU cost of labels per run on docking
// (world-less) and warehouse-sort (six objects), same inputs for every
// variant.
func BenchmarkLabels(b *testing.B) {
	b.Run("plan=docking", func(b *testing.B) {
		orig := parseFile(b, dockingPlan)
		inputs := dockingInputs(256)
		for _, v := range labelVariants {
			b.Run("variant="+v.name, func(b *testing.B) {
				f := orig
				if v.crit != "" {
					f, _ = annotate(b, orig, v.crit, "annotated.plan")
				}
				run := argsRunner(b, compileFile(b, f), vm.Config{Labels: v.labels})
				benchRuns(b, len(inputs), func(i int) int64 { return run(inputs[i]) })
			})
		}
	})
	b.Run("plan=warehouse-sort", func(b *testing.B) {
		orig := parseFile(b, warehousePlan)
		world, err := sim.LoadWorld(warehouseWorld)
		if err != nil {
			b.Fatal(err)
		}
		envs := warehouseEnvs(world, warehouseInputs)
		for _, v := range labelVariants {
			b.Run("variant="+v.name, func(b *testing.B) {
				f := orig
				if v.crit != "" {
					f, _ = annotate(b, orig, v.crit, "annotated.plan")
				}
				r, err := sim.NewRunner(compileFile(b, f), world, sim.Options{Labels: v.labels})
				if err != nil {
					b.Fatal(err)
				}
				ctx := context.Background()
				benchRuns(b, len(envs), func(i int) int64 {
					steps := r.RunBytes(ctx, envs[i]).VM.Steps
					r.Counters() // as a fuzzer reads them after each run
					return steps
				})
			})
		}
	})
}

// benchRuns times run over n inputs, cycled, reporting CPU time and the
// plan's steps per run.
func benchRuns(b *testing.B, n int, run func(i int) int64) {
	for i := range n { // warm up: retirement settles, caches fill
		run(i)
	}
	var steps int64
	i := 0
	b.ReportAllocs()
	cpu := startCPU()
	for b.Loop() {
		steps += run(i % n)
		i++
	}
	cpu.report(b)
	b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
}

// BenchmarkLabelSetup measures what a labelled campaign pays once before
// its first run: enumerating the labels with their value and path
// analyses and annotating the plan (transform.Plan, as `labelcov fuzz
// --criteria` does, the annotated tree built with its text), and
// compiling it. Its figures are cpu-ns/op and B/op: the analyses' allocations
// fault in page by page, so bytes cost system time as well.
func BenchmarkLabelSetup(b *testing.B) {
	plans := []struct{ name, path string }{
		{"docking", dockingPlan},
		{"battery", filepath.Join("..", "testdata", "bench", "battery", "battery.plan")},
		{"warehouse-sort", warehousePlan},
	}
	for _, p := range plans {
		orig := parseFile(b, p.path)
		for _, crit := range []string{"none", "mcc,wm", "dist"} {
			b.Run("plan="+p.name+"/criteria="+crit, func(b *testing.B) {
				b.ReportAllocs()
				cpu := startCPU()
				for b.Loop() {
					f := orig
					if crit != "none" {
						f, _ = annotate(b, orig, crit, "annotated.plan")
					}
					compileFile(b, f)
				}
				cpu.report(b)
			})
		}
	}
}
