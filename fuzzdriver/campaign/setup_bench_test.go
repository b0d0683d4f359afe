package campaign

import (
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/labels"
)

// BenchmarkSetup builds what a labelled campaign builds before its first
// run (Setup.Build and Fuzzer.Campaign, --measure none) on the benchmark
// plans: set-up's allocation (B/op, allocs/op) does not depend on load.
// The world plans run the analyses that need a world (elems.go's
// detected objects through lists among them), which argument plans skip.
func BenchmarkSetup(b *testing.B) {
	for _, bc := range []struct{ name, plan, world, crit string }{
		{"plan=battery/criteria=dist", "../../testdata/bench/battery/battery.plan", "", "dist"},
		{"plan=docking/criteria=dist", "../../testdata/bench/docking/docking.plan", "", "dist"},
		{"plan=docking/criteria=mcc,wm", "../../testdata/bench/docking/docking.plan", "", "mcc,wm"},
		{"plan=warehouse-sort/criteria=dist", "../../testdata/bench/warehouse-sort/warehouse-sort.plan", warehouseWorld, "dist"},
		{"plan=warehouse-sort/criteria=mcc,wm", "../../testdata/bench/warehouse-sort/warehouse-sort.plan", warehouseWorld, "mcc,wm"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := readPlanFile(b, bc.plan)
			c, err := labels.ParseCriteria(bc.crit)
			if err != nil {
				b.Fatal(err)
			}
			var w *sim.World
			if bc.world != "" {
				if w, err = sim.LoadWorld(bc.world); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				pf, err := Setup{Plan: f, World: w, Criteria: c, NoMeasure: true}.Build()
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := pf.Campaign(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
