package bench

import (
	"context"
	"fmt"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

func init() {
	systems = append(systems, system{name: "labelcov", ext: ".plan", load: loadLabelcov})
}

// benchMaxSteps is the step budget for benchmark runs: fib(30) executes
// tens of millions of instructions, more than the default budget.
const benchMaxSteps = 1 << 40

// loadLabelcov parses and compiles the plan file and makes one machine;
// the runner is one m.Run of plan main (which also resets the globals).
// Coverage counting is always on in the VM; the counters are reset before
// each run, as a fuzzer would.
func loadLabelcov(tb testing.TB, filename string, src []byte) func() (int64, error) {
	f, err := syntax.Parse(filename, src)
	if err != nil {
		tb.Fatal(err)
	}
	prog, err := compile.Compile(f)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := vm.New(prog, vm.Config{MaxSteps: benchMaxSteps})
	if err != nil {
		tb.Fatal(err)
	}
	plan := prog.Plan("main")
	if plan == nil {
		tb.Fatalf("%s: no plan main", filename)
	}
	ctx := context.Background()
	return func() (int64, error) {
		m.ResetCounters()
		r := m.Run(ctx, plan, nil)
		if r.Outcome != vm.OutcomeOK {
			return 0, fmt.Errorf("outcome %v: %v", r.Outcome, r.Failure)
		}
		if r.Value.Kind() != value.KInt {
			return 0, fmt.Errorf("main returned %s, not an int", r.Value)
		}
		return r.Value.Int(), nil
	}
}

// TestLabelcovCountsCoverage makes sure the labelcov benchmarks measure the
// VM with coverage counting on: after one run of each workload, instruction
// counters are hit, and for fib both outcomes of (< n 2) are recorded in
// its branch counters. (dotimes is not a conditional of the language, so the
// loop workload has instruction counters only.)
func TestLabelcovCountsCoverage(t *testing.T) {
	for _, tc := range []struct {
		w        workload
		branches int
	}{{fib30, 1}, {loop, 0}} {
		w := tc.w
		t.Run(w.name, func(t *testing.T) {
			src := readWorkload(t, w.name+".plan")
			f, err := syntax.Parse(w.name+".plan", src)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := compile.Compile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := vm.New(prog, vm.Config{MaxSteps: benchMaxSteps})
			if err != nil {
				t.Fatal(err)
			}
			r := m.Run(context.Background(), prog.Plan("main"), nil)
			if r.Outcome != vm.OutcomeOK || r.Value.Int() != w.want {
				t.Fatalf("run: %v %v %v", r.Outcome, r.Value, r.Failure)
			}
			c := m.Counters()
			ni, nb := prog.NumInstructions(), prog.NumBranches()
			if nb != tc.branches || len(c) != ni+2*nb {
				t.Fatalf("%d counters, %d instructions, %d branches; want %d branches",
					len(c), ni, nb, tc.branches)
			}
			hit := 0
			for _, n := range c[:ni] {
				if n > 0 {
					hit++
				}
			}
			if hit == 0 {
				t.Fatal("no instruction counter was hit")
			}
			for i := range nb {
				if c[ni+2*i] == 0 || c[ni+2*i+1] == 0 {
					t.Errorf("branch %d: true %d, false %d; want both hit", i, c[ni+2*i], c[ni+2*i+1])
				}
			}
			t.Logf("%d steps, %d/%d instruction counters hit, %d branches", r.Steps, hit, ni, nb)
		})
	}
}
