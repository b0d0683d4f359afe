package campaign

import (
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// BenchmarkSetup builds what a labelled campaign builds before its first
// run (Setup.Build and Fuzzer.Campaign, --measure none) on the benchmark
// plans: set-up's allocation (B/op, allocs/op) does not depend on load.
func BenchmarkSetup(b *testing.B) {
	for _, bc := range []struct{ name, plan, crit string }{
		{"plan=battery/criteria=dist", "../../testdata/bench/battery/battery.plan", "dist"},
		{"plan=docking/criteria=dist", "../../testdata/bench/docking/docking.plan", "dist"},
		{"plan=docking/criteria=mcc,wm", "../../testdata/bench/docking/docking.plan", "mcc,wm"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			f := readPlanFile(b, bc.plan)
			c, err := labels.ParseCriteria(bc.crit)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				pf, err := Setup{Plan: f, Criteria: c, NoMeasure: true}.Build()
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
