package campaign

import (
	"bytes"
	"context"
	"math/rand/v2"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/vm"
)

// TestFuzzTargetsRetireLabels: the fuzzing targets record only that a
// label fired (no label false counter, everything else as replay's
// target); the built-in engine's target retires labels that fired,
// silently (an input's map loses them once retired, and stays the same
// while nothing retires), the AFL++ executor keeps writing a retired
// label's true counter (one input, one map, and a label some earlier
// input made true reads true for the zero input afterwards);
// Setup.NoRetire evaluates every label afresh in both.
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
		pf, err := Setup{Plan: f, Criteria: mccWM(t), NoRetire: noRetire}.Build()
		if err != nil {
			t.Fatal(err)
		}
		n := pf.Fuzzed.NumInstructions()
		label := make([]bool, pf.Fuzzed.NumCounters()) // a label's branch counter
		for b := range pf.Fuzzed.NumBranches() {
			switch pf.Fuzzed.Code[pf.Fuzzed.Branch(b).PC] {
			case compile.PROBECMP, compile.PROBEGUARD, compile.PROBE, compile.PROBEOK:
				label[n+2*b], label[n+2*b+1] = true, true
			}
		}
		isFalse := func(i int) bool { return label[i] && (i-n)%2 == 1 }
		// drops reports whether b is a with some counters zeroed, all
		// of them allowed by may, and how many.
		drops := func(a, b []byte, may func(int) bool) (bool, int) {
			k := 0
			for i := range a {
				if a[i] != b[i] {
					if b[i] != 0 || !may(i) {
						return false, k
					}
					k++
				}
			}
			return len(a) == len(b), k
		}
		fresh, err := pf.fuzzedTarget(vm.LabelMode{})
		if err != nil {
			t.Fatal(err)
		}
		firedOnly, err := pf.fuzzedTarget(vm.LabelMode{FiredOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		dropped := 0
		for _, in := range inputs[:20] {
			ok, k := drops(counters(fresh, in), counters(firedOnly, in), isFalse)
			if !ok {
				t.Fatalf("noRetire %v: a fired-only map is not replay's without some label false counters", noRetire)
			}
			dropped += k
		}
		if dropped == 0 {
			t.Fatalf("noRetire %v: no label false counter ever dropped", noRetire)
		}
		want := counters(firedOnly, zero)

		eng, err := pf.NewTarget()
		if err != nil {
			t.Fatal(err)
		}
		ex, err := pf.NewExecutor()
		if err != nil {
			t.Fatal(err)
		}
		exec := func(in []byte) []byte {
			c, _, err := ex.Exec(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			return append([]byte(nil), c...)
		}
		silenced := 0
		for _, in := range inputs {
			e1, e2, e3 := counters(eng, in), counters(eng, in), counters(eng, in)
			ok, k := drops(e1, e2, func(i int) bool { return label[i] && !isFalse(i) })
			if !ok || !bytes.Equal(e2, e3) {
				t.Fatalf("noRetire %v: engine target, one input: %v then %v then %v", noRetire, e1, e2, e3)
			}
			silenced += k
			for i, c := range e1 {
				if isFalse(i) && c != 0 {
					t.Fatalf("noRetire %v: engine target wrote label false counter %d", noRetire, i)
				}
			}
			if a, b := exec(in), exec(in); !bytes.Equal(a, b) {
				t.Fatalf("noRetire %v: AFL++ executor, one input, two maps", noRetire)
			}
		}
		if (silenced > 0) == noRetire {
			t.Errorf("noRetire %v: %d label true counters silenced by retirement", noRetire, silenced)
		}
		got := counters(eng, zero)
		if ok, k := drops(want, got, func(i int) bool { return label[i] }); !ok || (k == 0) != noRetire {
			t.Errorf("noRetire %v: engine target's zero-input map after other inputs: %d counters dropped (ok %v)", noRetire, k, ok)
		}
		got = exec(zero)
		if ok, k := drops(got, want, func(i int) bool { return label[i] && !isFalse(i) }); !ok || (k == 0) != noRetire {
			t.Errorf("noRetire %v: AFL++ executor's zero-input map after other inputs: %d retired labels read true (ok %v)", noRetire, k, ok)
		}
	}
}
