package fuzzdriver

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

// TestFuzzTargetsRetireLabels: the fuzzing target retires labels that fired
// (a label some earlier input made true reads true for the zero input
// afterwards), keeps the map of one input stable from run to run, and
// PlanSetup.NoRetire and Replay's target evaluate every label afresh.
func TestFuzzTargetsRetireLabels(t *testing.T) {
	f := readPlanFile(t, "testdata/range.plan")
	ctx := context.Background()
	zero := make([]byte, 64)
	rng := rand.New(rand.NewPCG(1, 2))
	var inputs [][]byte
	for range 200 {
		b := make([]byte, 64)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		inputs = append(inputs, b)
	}
	counters := func(tg engine.Target, in []byte) []byte {
		if _, err := tg.Run(ctx, in); err != nil {
			t.Fatal(err)
		}
		return append([]byte(nil), tg.Counters()...)
	}
	for _, noRetire := range []bool{false, true} {
		pf, err := PlanSetup{Plan: f, Criteria: mccWM(t), NoRetire: noRetire}.Build()
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := pf.fuzzedTarget(false)
		if err != nil {
			t.Fatal(err)
		}
		want := counters(fresh, zero)
		tg, err := pf.NewTarget()
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range inputs {
			if a, b := counters(tg, in), counters(tg, in); !bytes.Equal(a, b) {
				t.Fatalf("noRetire %v: one input, two maps", noRetire)
			}
		}
		got := counters(tg, zero)
		if noRetire != bytes.Equal(got, want) {
			t.Errorf("noRetire %v: zero input's map after other inputs equal to a fresh target's: %v", noRetire, bytes.Equal(got, want))
		}
	}
}
