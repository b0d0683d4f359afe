package transform

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// BenchmarkWarehouseVariants runs the warehouse-sort benchmark plan on 256
// seeded six-object environments as original, annotated with MCC+WM and
// annotated with every criterion, interleaved within one binary. It reports
// cpu-ns/op (process CPU time per run: a loaded machine disturbs it less
// than wall-clock time) and instr/run (VM instructions per run, plan and
// label probes together; steps/run is what the plan itself is charged).
// Compare with benchstat -col /variant.
func BenchmarkWarehouseVariants(b *testing.B) {
	path := filepath.Join("..", "testdata", "bench", "warehouse-sort", "warehouse-sort.plan")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Skip(err)
	}
	world, err := sim.LoadWorld(filepath.Join("..", "testdata", "worlds", "warehouse.world"))
	if err != nil {
		b.Fatal(err)
	}
	f, err := syntax.Parse(path, src)
	if err != nil {
		b.Fatal(err)
	}
	runner := func(f *syntax.File) *sim.Runner {
		p, err := compile.Compile(f)
		if err != nil {
			b.Fatal(err)
		}
		r, err := sim.NewRunner(p, world, sim.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return r
	}
	annotated := func(criteria string) *sim.Runner {
		crit, err := labels.ParseCriteria(criteria)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Plan(f, Options{
			Labels:    labels.Options{Criteria: crit, MCCMaxAtoms: labels.DefaultMCCMaxAtoms},
			Normalize: normalize.Options{PureFuncs: sim.QueryNames()},
		})
		if err != nil {
			b.Fatal(err)
		}
		af, err := readBack(res)
		if err != nil {
			b.Fatal(err)
		}
		return runner(af)
	}
	rng := rand.New(rand.NewPCG(2026, 6))
	var envs [][]byte
	for len(envs) < 256 {
		data := make([]byte, 6*world.BytesPerObject())
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		if len(world.DecodeEnv(data, 0).Objects) == 6 {
			envs = append(envs, data)
		}
	}
	for _, v := range []struct {
		name string
		r    *sim.Runner
	}{{"original", runner(f)}, {"mcc+wm", annotated("mcc,wm")}, {"all", annotated("all")}} {
		b.Run("variant="+v.name, func(b *testing.B) {
			ctx := context.Background()
			var steps, instr int64
			i := 0
			b.ReportAllocs()
			t0 := cpuTime()
			for b.Loop() {
				res := v.r.RunBytes(ctx, envs[i%len(envs)])
				steps += res.VM.Steps
				instr += res.VM.Steps + res.VM.LabelSteps
				i++
			}
			b.ReportMetric(float64(cpuTime()-t0)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(steps)/float64(b.N), "steps/run")
			b.ReportMetric(float64(instr)/float64(b.N), "instr/run")
		})
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
