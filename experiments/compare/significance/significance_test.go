package significance

import (
	"math"
	"math/rand/v2"
	"testing"
)

func near(a, b, eps float64) bool { return math.Abs(a-b) <= eps }

// The permeability example of Hollander & Wolfe, used in R's
// ?wilcox.test: wilcox.test(x, y, alternative = "g") gives W = 35,
// p-value = 0.1272 (exact, no ties); two-sided is twice that.
func TestMannWhitneyHollanderWolfe(t *testing.T) {
	x := []float64{0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46}
	y := []float64{1.15, 0.88, 0.90, 0.74, 1.21}
	r := MannWhitney(x, y)
	if r.U1 != 35 || r.U2 != 15 || r.U != 15 || !r.Exact || r.Ties {
		t.Fatalf("got %+v, want U1 35, U2 15, exact, no ties", r)
	}
	if !near(r.P, 2*0.1272, 0.0005) {
		t.Errorf("p = %.5f, want 0.2544 (2 × R's one-sided 0.1272)", r.P)
	}
	if r.Significant() {
		t.Error("significant at 0.05, want not")
	}
}

// Wikipedia's tortoise-and-hare example: finishing order THHHHHTTTTTH,
// U_T = 11, U_H = 25; the two-tailed 5% critical value for 6 and 6 is 5, so
// not significant.
func TestMannWhitneyTortoiseHare(t *testing.T) {
	order := "THHHHHTTTTTH"
	var tort, hare []float64
	for i, c := range order {
		// A smaller finishing place beats; U_T counts hares behind each
		// tortoise, i.e. pairs with a larger place: negate places.
		if c == 'T' {
			tort = append(tort, -float64(i+1))
		} else {
			hare = append(hare, -float64(i+1))
		}
	}
	r := MannWhitney(tort, hare)
	if r.U1 != 11 || r.U2 != 25 || r.U != 11 {
		t.Fatalf("got U1 %v U2 %v, want 11, 25", r.U1, r.U2)
	}
	if r.Significant() {
		t.Errorf("p = %v, want not significant", r.P)
	}
	// P(U <= 11) for 6 and 6, counted by brute force below.
	if want := bruteP(tort, hare); !near(r.P, want, 1e-12) {
		t.Errorf("p = %v, brute force %v", r.P, want)
	}
}

// The classic table of two-tailed critical values of U at α = 0.05 for
// equal sample sizes (e.g. Siegel & Castellan, Table J; Zar, Table B.11):
// the largest U whose exact two-sided p is at most 0.05.
func TestMannWhitneyCriticalValues(t *testing.T) {
	table := map[int]int{5: 2, 6: 5, 7: 8, 8: 13, 9: 17, 10: 23, 11: 30, 12: 37, 13: 45, 14: 55, 15: 64, 16: 75, 17: 87, 18: 99, 19: 113, 20: 127}
	for n, crit := range table {
		got := -1
		for u := 0; u <= n*n/2; u++ {
			x, y := withU(n, n, u)
			r := MannWhitneyExact(x, y)
			if r.U != float64(u) {
				t.Fatalf("n=%d: constructed U %d, test says %v", n, u, r.U)
			}
			if r.P <= 0.05 {
				got = u
			}
		}
		if got != crit {
			t.Errorf("n1 = n2 = %d: critical U = %d, table says %d", n, got, crit)
		}
	}
}

// withU builds samples of sizes n1, n2 without ties whose U1 is u: x starts
// below all of y and climbs one pair at a time.
func withU(n1, n2, u int) (x, y []float64) {
	for j := 0; j < n2; j++ {
		y = append(y, float64(10*j+5))
	}
	for i := 0; i < n1; i++ {
		// x_i is above k_i values of y; sum of k_i = u.
		k := min(u, n2)
		u -= k
		x = append(x, float64(10*k)-float64(i)/float64(n1+1))
	}
	return x, y
}

// bruteP enumerates every split of the pooled sample into n1 and n2 values
// and returns the two-sided p of x's U1: 2·min(P(U1' <= U1), P(U1' >= U1)).
func bruteP(x, y []float64) float64 {
	pool := append(append([]float64(nil), x...), y...)
	n1, n := len(x), len(pool)
	u1 := func(a, b []float64) float64 {
		var s float64
		for _, p := range a {
			for _, q := range b {
				if p > q {
					s++
				} else if p == q {
					s += 0.5
				}
			}
		}
		return s
	}
	obs := u1(x, y)
	var le, ge, tot float64
	for mask := 0; mask < 1<<n; mask++ {
		if popcount(mask) != n1 {
			continue
		}
		var a, b []float64
		for i := 0; i < n; i++ {
			if mask&(1<<i) != 0 {
				a = append(a, pool[i])
			} else {
				b = append(b, pool[i])
			}
		}
		v := u1(a, b)
		tot++
		if v <= obs+1e-9 {
			le++
		}
		if v >= obs-1e-9 {
			ge++
		}
	}
	return math.Min(1, 2*math.Min(le, ge)/tot)
}

func popcount(m int) int {
	c := 0
	for ; m != 0; m &= m - 1 {
		c++
	}
	return c
}

// The exact test with ties agrees with brute-force enumeration of the
// permutation distribution.
func TestMannWhitneyExactTiesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		n1, n2 := 1+rng.IntN(6), 1+rng.IntN(6)
		x, y := make([]float64, n1), make([]float64, n2)
		for i := range x {
			x[i] = float64(rng.IntN(4))
		}
		for i := range y {
			y[i] = float64(rng.IntN(4))
		}
		r := MannWhitneyExact(x, y)
		if want := bruteP(x, y); !near(r.P, want, 1e-12) {
			t.Fatalf("x=%v y=%v: p = %v, brute force %v", x, y, r.P, want)
		}
		if !near(r.U1/float64(n1*n2), A12(x, y), 1e-12) {
			t.Fatalf("x=%v y=%v: U1/(n1 n2) = %v, A12 = %v", x, y, r.U1/float64(n1*n2), A12(x, y))
		}
	}
}

// A hand-computed normal approximation with a tie:
// x = 1 2 3 4, y = 3 5 6 7 8; pooled ranks 1 2 3.5 | 3.5 5 | 6 7 8 9 (x's: 1,
// 2, 3.5, 5), R1 = 11.5, U1 = 11.5 − 4·5/2 = 1.5, U2 = 18.5. Mean 10;
// variance 4·5/12·(10 − (2³−2)/(9·8)) = 20/12·(10 − 1/12) = 16.52778;
// z = (1.5 − 10 + 0.5)/√16.52778 = −8/4.065437 = −1.967808;
// p = erfc(1.967808/√2) = 0.049090.
func TestMannWhitneyNormalHand(t *testing.T) {
	x := []float64{1, 2, 3, 4}
	y := []float64{3, 5, 6, 7, 8}
	r := MannWhitneyNormal(x, y)
	if r.U1 != 1.5 || r.U2 != 18.5 || r.Exact || !r.Ties {
		t.Fatalf("got %+v", r)
	}
	if !near(r.Z, -1.967808, 1e-6) || !near(r.P, 0.049090, 1e-6) {
		t.Errorf("z = %.6f p = %.6f, want -1.967808, 0.049090", r.Z, r.P)
	}
}

// Large samples switch to the normal approximation, which is close to the
// exact p for a shift of well-separated samples.
func TestMannWhitneyLargeNormal(t *testing.T) {
	var x, y []float64
	for i := 0; i < 30; i++ {
		x = append(x, float64(i))
		y = append(y, float64(i)+7.5)
	}
	r := MannWhitney(x, y)
	if r.Exact {
		t.Fatal("n = 60 should use the normal approximation")
	}
	// U1 = Σ over x of the ys below it: x_i = i exceeds y_j = j+7.5 for
	// j <= i−8, so U1 = Σ_{i=8}^{29} (i−7) = 253; mean 450; no ties;
	// variance 900·61/12 = 4575; z = (253 − 450 + 0.5)/67.638746 = −2.905140.
	if r.U1 != 253 || !near(r.Z, -2.905140, 1e-5) {
		t.Fatalf("U1 %v z %v", r.U1, r.Z)
	}
	ex := MannWhitneyExact(x, y)
	if !near(r.P, ex.P, 0.001) || !r.Significant() {
		t.Errorf("normal p %v exact p %v", r.P, ex.P)
	}
}

func TestMannWhitneyDegenerate(t *testing.T) {
	same := []float64{60, 60, 60}
	for _, r := range []MWResult{MannWhitney(same, same), MannWhitneyNormal(same, same), MannWhitney(nil, same)} {
		if r.P != 1 || r.Significant() {
			t.Errorf("%+v: want p = 1", r)
		}
	}
	// 3 against 3, complete separation: the smallest p there is, 0.1.
	r := MannWhitney([]float64{1, 2, 3}, []float64{4, 5, 6})
	if !near(r.P, 0.1, 1e-12) || r.U != 0 || r.Significant() {
		t.Errorf("3 vs 3 separated: %+v, want p = 0.1", r)
	}
	if !near(MinExactP(3, 3), 0.1, 1e-12) || !near(MinExactP(5, 5), 2.0/252, 1e-12) {
		t.Errorf("MinExactP(3,3) = %v, MinExactP(5,5) = %v", MinExactP(3, 3), MinExactP(5, 5))
	}
	// 4 against 4 separated: 2/70 = 0.0286, significant.
	r = MannWhitney([]float64{1, 2, 3, 4}, []float64{5, 6, 7, 8})
	if !near(r.P, 2.0/70, 1e-12) || !r.Significant() {
		t.Errorf("4 vs 4 separated: %+v", r)
	}
}

func TestA12(t *testing.T) {
	cases := []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{1, 2, 3}, 0.5},         // identical
		{[]float64{5, 5, 5}, []float64{5, 5}, 0.5},            // all tied
		{[]float64{4, 5, 6}, []float64{1, 2, 3}, 1},           // x dominates
		{[]float64{1, 2, 3}, []float64{4, 5, 6}, 0},           // y dominates
		{[]float64{1, 3}, []float64{2, 2}, 0.5},               // 1 loses twice, 3 wins twice
		{[]float64{2, 3}, []float64{1, 2}, (3 + 0.5) / 4},     // 2>1, 2=2, 3>1, 3>2
		{[]float64{10, 20, 30, 40}, []float64{25}, 2.0 / 4.0}, // two above
	}
	for _, c := range cases {
		if got := A12(c.x, c.y); !near(got, c.want, 1e-12) {
			t.Errorf("A12(%v, %v) = %v, want %v", c.x, c.y, got, c.want)
		}
	}
	if !math.IsNaN(A12(nil, []float64{1})) {
		t.Error("A12 of an empty sample should be NaN")
	}
}

func TestMagnitude(t *testing.T) {
	for a, want := range map[float64]string{0.5: "negligible", 0.55: "negligible", 0.44: "small", 0.63: "small", 0.64: "medium", 0.3: "medium", 0.71: "large", 0: "large", 1: "large"} {
		if got := Magnitude(a); got != want {
			t.Errorf("Magnitude(%v) = %s, want %s", a, got, want)
		}
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{4, 1, 3, 2})
	if s != (Summary{N: 4, Min: 1, Median: 2.5, Mean: 2.5, Max: 4}) {
		t.Errorf("got %+v", s)
	}
	s = Summarize([]float64{7, 1, 3})
	if s != (Summary{N: 3, Min: 1, Median: 3, Mean: 11.0 / 3, Max: 7}) {
		t.Errorf("got %+v", s)
	}
	if Summarize(nil).N != 0 {
		t.Error("empty")
	}
}
