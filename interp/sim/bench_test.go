package sim

import (
	"context"
	"math/rand/v2"
	"testing"
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

// BenchmarkRunSixObjects measures whole runs of sort.plan on the warehouse
// world with six objects: decode, reset, plan, both checks, coverage on.
func BenchmarkRunSixObjects(b *testing.B) {
	r := loadRunner(b, "sort.plan")
	inputs := sixObjectInputs(b, r.World(), 256)
	ctx := context.Background()
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		res := r.RunBytes(ctx, inputs[i%len(inputs)])
		actions += len(res.Actions)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/run")
}

// BenchmarkWarehouseSortSixObjects runs the warehouse-sort benchmark plan
// (testdata/bench/warehouse-sort) the same way, when it is present.
func BenchmarkWarehouseSortSixObjects(b *testing.B) {
	r, err := LoadRunner("../../testdata/bench/warehouse-sort/warehouse-sort.plan", "../../testdata/worlds/warehouse.world", Options{})
	if err != nil {
		b.Skip(err)
	}
	inputs := sixObjectInputs(b, r.World(), 256)
	ctx := context.Background()
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		res := r.RunBytes(ctx, inputs[i%len(inputs)])
		actions += len(res.Actions)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "runs/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/run")
}
