package sim

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/labelcov/labelcov/internal/cputime"
)

// sixObjectInputs returns n seeded byte strings that each decode to six
// objects (inputs whose objects overlap are skipped).
func sixObjectInputs(tb testing.TB, w *World, n int) [][]byte {
	rng := rand.New(rand.NewPCG(42, 6))
	var out [][]byte
	for len(out) < n {
		data := make([]byte, 6*w.BytesPerObject())
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		if len(w.DecodeEnv(data, 0).Objects) == 6 {
			out = append(out, data)
		}
	}
	return out
}

// benchRuns runs r on 256 seeded six-object inputs, b.N runs in all, and
// reports runs/s, actions/run and cpu-ns/op: the process CPU time per run,
// garbage collection included, which a loaded machine disturbs less than
// wall-clock time.
func benchRuns(b *testing.B, r *Runner) {
	inputs := sixObjectInputs(b, r.World(), 256)
	ctx := context.Background()
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	t0, cpuOK := cputime.Process()
	for i := range b.N {
		res := r.RunBytes(ctx, inputs[i%len(inputs)])
		actions += len(res.Actions)
	}
	if t1, ok := cputime.Process(); ok && cpuOK && b.N > 0 {
		b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/run")
}

// BenchmarkRunSixObjects measures whole runs of sort.plan on the warehouse
// world with six objects: decode, reset, plan, both checks, coverage on.
func BenchmarkRunSixObjects(b *testing.B) {
	r := loadRunner(b, "sort.plan")
	benchRuns(b, r)
}

// BenchmarkWarehouseSortSixObjects runs the warehouse-sort benchmark plan
// (testdata/bench/warehouse-sort) the same way, when it is present.
func BenchmarkWarehouseSortSixObjects(b *testing.B) {
	r, err := LoadRunner("../../testdata/bench/warehouse-sort/warehouse-sort.plan", "../../testdata/worlds/warehouse.world", Options{})
	if err != nil {
		b.Skip(err)
	}
	benchRuns(b, r)
}
