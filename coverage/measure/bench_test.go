package measure

import (
	"context"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/normalize"
)

// BenchmarkCoverWarehouse measures a suite of random six-object
// environments on warehouse-sort with every criterion: tests/s (each test
// runs the annotated and the original plan) and the cost of Run beyond
// the runs. It skips while the benchmark plan does not exist.
func BenchmarkCoverWarehouse(b *testing.B) {
	const plan = "../../testdata/bench/warehouse-sort/warehouse-sort.plan"
	if _, err := os.Stat(plan); err != nil {
		b.Skip("no warehouse-sort benchmark plan")
	}
	w, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		b.Fatal(err)
	}
	m := newMeasurer(b, plan, "all", Options{World: w, Normalize: normalize.Options{PureFuncs: sim.QueryNames()}})
	r := rand.New(rand.NewPCG(1, 2))
	var tests []*Test
	for range 100 {
		data := make([]byte, 12)
		for i := range data {
			data[i] = byte(r.IntN(256))
		}
		tc, err := m.ParseTest("random.bin", data)
		if err != nil {
			b.Fatal(err)
		}
		tests = append(tests, tc)
	}
	b.ResetTimer()
	var rep *Report
	for b.Loop() {
		if rep, err = m.Run(context.Background(), tests); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(tests))*float64(b.N)/b.Elapsed().Seconds(), "tests/s")
	b.ReportMetric(float64(rep.All.Covered), "labels-covered")
	b.ReportMetric(float64(rep.All.Total), "labels")
}
