package vm

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels"
)

// TestPlanDistLadderMatchesBigInt: the plan dist rungs of (< a b), run by
// the VM (whose integer difference wraps), agree with |a-b| < 2^k on
// big.Int for integers and with math.Abs of the float difference
// otherwise, on edge values, random values and values close to each other.
func TestPlanDistLadderMatchesBigInt(t *testing.T) {
	preds, _ := distPreds(t, "(def-plan p (a b) (< a b))")
	rungs := labels.DistRungs(labels.PlanDist)
	if len(preds) != len(rungs) {
		t.Fatalf("%d rungs, want %d", len(preds), len(rungs))
	}
	src := "(def-plan q (a b) (list " + strings.Join(preds, " ") + "))"
	p := compileSrc(t, src)
	m, err := New(p, Config{})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	ints := []int64{math.MinInt64, math.MinInt64 + 1, math.MaxInt64, math.MaxInt64 - 1, 0, 1, -1, 1 << 62, -(1 << 62), 1<<62 - 1}
	for i := 0; i < 300; i++ {
		ints = append(ints, int64(r.Uint64()), r.Int64N(1<<20)-1<<19)
	}
	floats := []float64{0, math.Copysign(0, -1), 1.5, -1.5, math.NaN(), math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, 1 << 62, 0x1p63, 0x1p64}
	for i := 0; i < 150; i++ {
		floats = append(floats, r.NormFloat64()*1e6, math.Float64frombits(r.Uint64()))
	}
	type pair struct{ a, b value.Value }
	var pairs []pair
	for i := 0; i < 40000; i++ {
		a := ints[r.IntN(len(ints))]
		b := ints[r.IntN(len(ints))]
		if i%3 == 0 {
			b = a + r.Int64N(1<<17) - 1<<16 // near, wrapping at the edges
		}
		pairs = append(pairs, pair{value.Int(a), value.Int(b)})
	}
	for i := 0; i < 20000; i++ {
		x, y := floats[r.IntN(len(floats))], floats[r.IntN(len(floats))]
		if i%3 == 0 {
			y = x + r.NormFloat64()*100
		}
		var a, b value.Value = value.Float(x), value.Float(y)
		if i%4 == 1 { // mixed: an integer against a float
			a = value.Int(ints[r.IntN(len(ints))])
		}
		pairs = append(pairs, pair{a, b})
	}
	for _, pr := range pairs {
		res := m.Run(context.Background(), p.Plan("q"), []value.Value{pr.a, pr.b})
		if res.Outcome != OutcomeOK {
			t.Fatalf("a=%v b=%v: %v", pr.a, pr.b, res.Failure)
		}
		got := res.Value
		for _, k := range rungs {
			var want bool
			if pr.a.Kind() == value.KInt && pr.b.Kind() == value.KInt {
				d := new(big.Int).Sub(big.NewInt(pr.a.Int()), big.NewInt(pr.b.Int()))
				want = d.Abs(d).Cmp(new(big.Int).Lsh(big.NewInt(1), uint(k))) < 0
			} else {
				want = math.Abs(pr.a.Number()-pr.b.Number()) < math.Ldexp(1, k)
			}
			if got.Kind() != value.KCons {
				t.Fatalf("result %v", got)
			}
			if held := !got.Car().IsNil(); held != want {
				t.Fatalf("rung 2^%d, a=%v b=%v: %v, want %v", k, pr.a, pr.b, held, want)
			}
			got = got.Cdr()
		}
	}
}
