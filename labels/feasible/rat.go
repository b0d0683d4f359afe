package feasible

import (
	"cmp"
	"math"
	"math/big"
	"strconv"
)

// rat is an exact rational n/d with int64 parts (d > 0, in lowest
// terms): the path analysis's numbers are small, and big.Rat cost it most
// of its time. An operation whose result does not fit panics with
// errOverflow; satisfiable and the path analysis recover from it (the
// answer is then "maybe", the value fresh).
type rat struct{ n, d int64 }

type overflow struct{}

var errOverflow = overflow{}

var (
	ratZero = rat{0, 1}
	ratOne  = rat{1, 1}
	ratNeg1 = rat{-1, 1}
)

func ri(i int64) rat { return rat{i, 1} }

func addOK(a, b int64) int64 {
	c := a + b
	if (c > a) != (b > 0) {
		panic(errOverflow)
	}
	return c
}

func mulOK(a, b int64) int64 {
	// Factors within ±2³¹ (nearly all) cannot overflow: no division to
	// check them.
	if uint64(a)+1<<31 < 1<<32 && uint64(b)+1<<31 < 1<<32 {
		return a * b
	}
	if a == 0 || b == 0 {
		return 0
	}
	c := a * b
	if c/b != a || a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 {
		panic(errOverflow)
	}
	return c
}

func negOK(a int64) int64 {
	if a == math.MinInt64 {
		panic(errOverflow)
	}
	return -a
}

func gcd(a, b int64) int64 {
	x, y := absU(a), absU(b)
	for y != 0 {
		x, y = y, x%y
	}
	if x > math.MaxInt64 {
		panic(errOverflow) // gcd(MinInt64, MinInt64 or 0)
	}
	return int64(x)
}

// absU is |a| (MinInt64's too).
func absU(a int64) uint64 {
	if a < 0 {
		return uint64(-(a + 1)) + 1
	}
	return uint64(a)
}

// mk normalizes n/d.
func mk(n, d int64) rat {
	if d == 0 {
		panic("labels: rational with zero denominator")
	}
	if d < 0 {
		n, d = negOK(n), negOK(d)
	}
	if g := gcd(n, d); g > 1 {
		n, d = n/g, d/g
	}
	return rat{n, d}
}

func (a rat) add(b rat) rat {
	if a.d == 1 && b.d == 1 {
		return rat{addOK(a.n, b.n), 1}
	}
	g := gcd(a.d, b.d)
	return mk(addOK(mulOK(a.n, b.d/g), mulOK(b.n, a.d/g)), mulOK(a.d/g, b.d))
}

func (a rat) neg() rat { return rat{negOK(a.n), a.d} }

func (a rat) sub(b rat) rat { return a.add(b.neg()) }

func (a rat) mul(b rat) rat {
	if a.n == 0 || b.n == 0 {
		return ratZero
	}
	if a.d == 1 && b.d == 1 {
		return rat{mulOK(a.n, b.n), 1} // (the gcds below are 1)
	}
	g1, g2 := gcd(a.n, b.d), gcd(b.n, a.d)
	return mk(mulOK(a.n/g1, b.n/g2), mulOK(a.d/g2, b.d/g1))
}

func (a rat) inv() rat { return mk(a.d, a.n) }

func (a rat) quo(b rat) rat { return a.mul(b.inv()) }

func (a rat) sign() int {
	switch {
	case a.n > 0:
		return 1
	case a.n < 0:
		return -1
	}
	return 0
}

func (a rat) cmp(b rat) int {
	if a.d == b.d {
		return cmp.Compare(a.n, b.n)
	}
	// Cross products in 128 bits via big.Int: exact whatever the size.
	x := new(big.Int).Mul(big.NewInt(a.n), big.NewInt(b.d))
	y := new(big.Int).Mul(big.NewInt(b.n), big.NewInt(a.d))
	return x.Cmp(y)
}

func (a rat) isInt() bool { return a.d == 1 }

func (a rat) abs() rat {
	if a.n < 0 {
		return a.neg()
	}
	return a
}

// floor and ceil of a rational.
func (a rat) floor() int64 {
	q := a.n / a.d
	if a.n%a.d != 0 && a.n < 0 {
		q--
	}
	return q
}

func (a rat) ceil() int64 {
	q := a.n / a.d
	if a.n%a.d != 0 && a.n > 0 {
		q++
	}
	return q
}

// float is the float64 nearest a, as the VM converts an integer.
func (a rat) float() float64 {
	f, _ := new(big.Rat).SetFrac64(a.n, a.d).Float64()
	return f
}

func (a rat) appendTo(b []byte) []byte {
	b = appendInt36(b, a.n)
	if a.d != 1 {
		b = appendInt36(append(b, '/'), a.d)
	}
	return b
}

// appendInt36 is strconv.AppendInt(b, i, 36), a digit without its
// general loop: the keys of constraints and directions are mostly
// small symbol numbers and coefficients.
func appendInt36(b []byte, i int64) []byte {
	if 0 <= i && i < 36 {
		return append(b, "0123456789abcdefghijklmnopqrstuvwxyz"[i])
	}
	return strconv.AppendInt(b, i, 36)
}

// ratOfFloat is f exactly, when it fits.
func ratOfFloat(f float64) (r rat, ok bool) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return rat{}, false
	}
	b := new(big.Rat).SetFloat64(f)
	if !b.Num().IsInt64() || !b.Denom().IsInt64() {
		return rat{}, false
	}
	return rat{b.Num().Int64(), b.Denom().Int64()}, true
}

// noOverflow runs f and reports false when its arithmetic overflowed.
func noOverflow(f func()) (ok bool) {
	defer recoverOverflow(&ok)
	f()
	return true
}

// recoverOverflow, deferred, sets *ok to false when the function
// deferring it panics with errOverflow (any other panic goes on).
func recoverOverflow(ok *bool) {
	if r := recover(); r != nil {
		if _, is := r.(overflow); !is {
			panic(r)
		}
		*ok = false
	}
}
