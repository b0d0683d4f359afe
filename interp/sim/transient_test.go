package sim

import (
	"bytes"
	"context"
	"path/filepath"
	"reflect"
	"testing"
)

// loadRunnerKeeping loads a runner with the VM's designator reuse
// (vm.TransientHost) on or off.
func loadRunnerKeeping(t *testing.T, plan string, keep bool) *Runner {
	t.Helper()
	keepDesignators = keep
	defer func() { keepDesignators = false }()
	r, err := LoadRunner(plan, "../../testdata/worlds/warehouse.world", Options{})
	if err != nil {
		t.Skip(err)
	}
	return r
}

// TestTransientDesignatorsAgree runs plans with reused perform designators
// and with fresh ones: every run must end the same way.
func TestTransientDesignatorsAgree(t *testing.T) {
	plans, _ := filepath.Glob("testdata/*.plan")
	plans = append(plans, "../../testdata/bench/warehouse-sort/warehouse-sort.plan")
	ctx := context.Background()
	for _, plan := range plans {
		t.Run(filepath.Base(plan), func(t *testing.T) {
			fresh := loadRunnerKeeping(t, plan, true)
			reused := loadRunnerKeeping(t, plan, false)
			n := 64
			if filepath.Base(plan) == "policy-loop.plan" {
				n = 2 // every run times out after millions of steps
			}
			for i, data := range sixObjectInputs(t, fresh.World(), n) {
				a := fresh.RunBytes(ctx, data).Clone()
				ca := append([]uint8(nil), fresh.Counters()...)
				b := reused.RunBytes(ctx, data).Clone()
				if a.VM.Outcome != b.VM.Outcome || a.VM.Value.String() != b.VM.Value.String() || a.VM.Steps != b.VM.Steps ||
					!reflect.DeepEqual(a.VM.Failure, b.VM.Failure) || !reflect.DeepEqual(a.Errors, b.Errors) ||
					!reflect.DeepEqual(a.CheckErrors, b.CheckErrors) || !reflect.DeepEqual(a.Actions, b.Actions) ||
					!reflect.DeepEqual(a.Hits, b.Hits) || !bytes.Equal(ca, reused.Counters()) {
					t.Fatalf("input %d (% x): runs differ:\nfresh  %s %v %+v %v\nreused %s %v %+v %v", i, data,
						a.VM.Outcome, a.VM.Value, a.VM.Failure, a.Errors, b.VM.Outcome, b.VM.Value, b.VM.Failure, b.Errors)
				}
			}
		})
	}
}

func TestTransientDesignatorsSaveAllocations(t *testing.T) {
	plan := "testdata/sort.plan"
	fresh := loadRunnerKeeping(t, plan, true)
	reused := loadRunnerKeeping(t, plan, false)
	data := sixObjectInputs(t, fresh.World(), 1)[0]
	ctx := context.Background()
	af := testing.AllocsPerRun(20, func() { fresh.RunBytes(ctx, data) })
	ar := testing.AllocsPerRun(20, func() { reused.RunBytes(ctx, data) })
	if ar >= af {
		t.Errorf("reusing designators: %v allocations per run, fresh: %v", ar, af)
	}
}
