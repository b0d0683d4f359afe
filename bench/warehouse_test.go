package bench

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// The warehouse-sort benchmark plan and its world. LABELCOV_WAREHOUSE_PLAN
// overrides the plan (e.g. ../interp/sim/testdata/sort.plan to try the
// benchmark before the real one exists).
var (
	warehousePlan  = filepath.Join("..", "testdata", "bench", "warehouse-sort", "warehouse-sort.plan")
	warehouseWorld = filepath.Join("..", "testdata", "worlds", "warehouse.world")
)

const (
	warehouseObjects = 6   // objects per environment
	warehouseInputs  = 256 // distinct seeded environments, cycled through
)

// warehouseVariants loads the original plan and its annotated version as
// two sim.Runners on the warehouse world. The annotated version is
// NAME.annotated.plan next to the plan when that file exists, else the plan
// annotated here with every criterion (simulator queries declared pure, as
// `labelcov annotate --pure` would). It skips when the plan is missing.
func warehouseVariants(tb testing.TB) (original, annotated *sim.Runner, nlabels int) {
	tb.Helper()
	path := warehousePlan
	if p := os.Getenv("LABELCOV_WAREHOUSE_PLAN"); p != "" {
		path = p
	}
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		tb.Skipf("%s does not exist yet (set LABELCOV_WAREHOUSE_PLAN to use another plan)", path)
	}
	if err != nil {
		tb.Fatal(err)
	}
	world, err := sim.LoadWorld(warehouseWorld)
	if err != nil {
		tb.Fatal(err)
	}
	f, err := syntax.Parse(path, src)
	if err != nil {
		tb.Fatal(err)
	}
	original = warehouseRunner(tb, f, world)

	annPath := strings.TrimSuffix(path, ".plan") + ".annotated.plan"
	var af *syntax.File
	if asrc, err := os.ReadFile(annPath); err == nil {
		if af, err = syntax.Parse(annPath, asrc); err != nil {
			tb.Fatal(err)
		}
		nlabels = bytes.Count(asrc, []byte("; label "))
	} else {
		af, nlabels = annotate(tb, f, "all", annPath)
	}
	annotated = warehouseRunner(tb, af, world)
	return original, annotated, nlabels
}

func warehouseRunner(tb testing.TB, f *syntax.File, w *sim.World) *sim.Runner {
	tb.Helper()
	p, err := compile.Compile(f)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := sim.NewRunner(p, w, sim.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// warehouseEnvs returns n seeded byte strings that each decode to exactly
// six objects in w (inputs whose objects overlap decode to fewer and are
// skipped), the same inputs on every run.
func warehouseEnvs(w *sim.World, n int) [][]byte {
	rng := rand.New(rand.NewPCG(2026, warehouseObjects))
	var out [][]byte
	for len(out) < n {
		data := make([]byte, warehouseObjects*w.BytesPerObject())
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		if len(w.DecodeEnv(data, 0).Objects) == warehouseObjects {
			out = append(out, data)
		}
	}
	return out
}

// BenchmarkWarehouse measures whole simulator runs of the warehouse-sort
// plan with six objects, as a fuzzer executes them: decode the environment
// from bytes, reset the world, run the plan and its checks, coverage on.
// variant=original is the plan as written, variant=annotated the plan with
// labels injected; runs/s is the figure to compare. steps/run (VM
// instructions of the plan, checks not included) tells whether the annotated
// plan is slower because it executes more instructions or slower ones.
func BenchmarkWarehouse(b *testing.B) {
	original, annotated, nlabels := warehouseVariants(b)
	envs := warehouseEnvs(original.World(), warehouseInputs)
	for _, v := range []struct {
		name string
		r    *sim.Runner
	}{{"original", original}, {"annotated", annotated}} {
		b.Run("system=labelcov/variant="+v.name, func(b *testing.B) {
			ctx := context.Background()
			actions, steps, i := 0, int64(0), 0
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				res := v.r.RunBytes(ctx, envs[i%len(envs)])
				actions += len(res.Actions)
				steps += res.VM.Steps
				i++
			}
			cpu.report(b)
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/run")
			b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
			if v.name == "annotated" {
				b.ReportMetric(float64(nlabels), "labels")
			}
		})
	}
}

// TestWarehouseAnnotatedAgrees checks that the two variants the benchmark
// compares do the same work: labels are empty conditionals, so on every
// benchmark input the annotated plan must end the same way, perform the same
// actions and report the same errors as the original.
func TestWarehouseAnnotatedAgrees(t *testing.T) {
	original, annotated, nlabels := warehouseVariants(t)
	if nlabels == 0 {
		t.Fatal("annotated plan has no labels")
	}
	ctx := context.Background()
	var totalActions int
	for i, data := range warehouseEnvs(original.World(), warehouseInputs) {
		o := original.RunBytes(ctx, data).Clone()
		a := annotated.RunBytes(ctx, data)
		totalActions += len(o.Actions)
		if o.VM.Outcome != a.VM.Outcome || !value.Equal(o.VM.Value, a.VM.Value) ||
			len(o.Actions) != len(a.Actions) || strings.Join(o.Errors, ",") != strings.Join(a.Errors, ",") {
			t.Fatalf("input %d: original %s %v, %d actions, errors %v; annotated %s %v, %d actions, errors %v",
				i, o.VM.Outcome, o.VM.Value, len(o.Actions), o.Errors,
				a.VM.Outcome, a.VM.Value, len(a.Actions), a.Errors)
		}
		for j := range o.Actions {
			if os, as := o.Actions[j].String(), a.Actions[j].String(); os != as {
				t.Fatalf("input %d, action %d: original %s, annotated %s", i, j, os, as)
			}
		}
	}
	if totalActions == 0 {
		t.Fatal("no input performed any action")
	}
	t.Logf("%d labels; %.1f actions/run", nlabels, float64(totalActions)/warehouseInputs)
}
