package feasible

import (
	"math"
	"math/big"
	"testing"
)

// TestMulOKAtItsEdges checks mulOK against math/big around the bound of
// its check-free path (±2³¹) and at int64's ends: a product that fits is
// exact, one that does not panics with errOverflow.
func TestMulOKAtItsEdges(t *testing.T) {
	var vals []int64
	for _, c := range []int64{0, 1 << 31, 1 << 32, 3037000499, 3037000500, math.MaxInt64} {
		for d := int64(-2); d <= 2; d++ {
			if v := c + d; (c < math.MaxInt64-2 || d <= 0) && v >= 0 {
				vals = append(vals, v, -v)
			}
		}
	}
	vals = append(vals, math.MinInt64, math.MinInt64+1, -1<<31-1, -1<<31, -1<<31+1)
	for _, a := range vals {
		for _, b := range vals {
			want := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
			var got int64
			if noOverflow(func() { got = mulOK(a, b) }) {
				if !want.IsInt64() || want.Int64() != got {
					t.Errorf("mulOK(%d, %d) = %d, want %v", a, b, got, want)
				}
			} else if want.IsInt64() {
				t.Errorf("mulOK(%d, %d) overflowed, want %v", a, b, want)
			}
		}
	}
}
