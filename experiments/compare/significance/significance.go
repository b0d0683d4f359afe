// Package significance holds the two statistics Klees et al. ("Evaluating Fuzz
// Testing", CCS 2018) recommend for comparing fuzzing campaigns: the
// Mann-Whitney U test (is the difference between two samples of runs
// significant?) and the Vargha-Delaney Â12 effect size (how large is it?).
//
// Both are rank statistics: they make no assumption about the shape of the
// distributions, which matters for fuzzing, where time-to-find is often
// censored at the budget and coverage piles up at a few values.
//
// Holm adjusts the p-values of a family of such tests for multiple
// comparisons (family-wise error rate, valid under any dependence).
package significance

import (
	"math"
	"sort"
)

// Alpha is the significance level the reports use.
const Alpha = 0.05

// MaxExact is the largest combined sample size (n1+n2) for which
// MannWhitney computes the exact p-value; larger samples use the normal
// approximation. Up to 50 the counts of the permutation distribution are
// integers below 2^53, exact in float64.
const MaxExact = 50

// MWResult is the outcome of a two-sided Mann-Whitney U test of x against y.
type MWResult struct {
	N1, N2 int
	// U1 counts the pairs (x_i, y_j) with x_i > y_j, ties counting ½;
	// U2 = N1·N2 − U1. U is the smaller of the two (the tables' U).
	U1, U2, U float64
	// Z is the normal approximation's statistic (continuity and tie
	// corrected); 0 when the variance is zero.
	Z float64
	// P is the two-sided p-value.
	P float64
	// Exact is true when P comes from the exact permutation distribution
	// (conditional on the ties), false for the normal approximation.
	Exact bool
	// Ties is true when some values occur more than once in x ∪ y.
	Ties bool
}

// Significant reports P < Alpha.
func (r MWResult) Significant() bool { return r.P < Alpha }

// MannWhitney tests x against y, two-sided: exact when n1+n2 <= MaxExact
// (ties included: the permutation distribution of the midrank sum), else
// the normal approximation with tie and continuity corrections. Samples with
// an empty side give P = 1.
func MannWhitney(x, y []float64) MWResult {
	if len(x)+len(y) <= MaxExact {
		return MannWhitneyExact(x, y)
	}
	return MannWhitneyNormal(x, y)
}

// ranked holds the midranks of x ∪ y, doubled so that they are integers.
type ranked struct {
	n1, n2 int
	r2     []int // doubled midrank of each value; x first, then y
	tieSum float64
	ties   bool
}

func rank(x, y []float64) ranked {
	n := len(x) + len(y)
	type item struct {
		v float64
		i int
	}
	items := make([]item, 0, n)
	for i, v := range x {
		items = append(items, item{v, i})
	}
	for i, v := range y {
		items = append(items, item{v, len(x) + i})
	}
	sort.SliceStable(items, func(a, b int) bool { return items[a].v < items[b].v })
	rk := ranked{n1: len(x), n2: len(y), r2: make([]int, n)}
	for i := 0; i < n; {
		j := i
		for j < n && items[j].v == items[i].v {
			j++
		}
		// Ranks i+1 .. j share the midrank (i+1+j)/2; doubled: i+1+j.
		for k := i; k < j; k++ {
			rk.r2[items[k].i] = i + 1 + j
		}
		if t := float64(j - i); t > 1 {
			rk.tieSum += t*t*t - t
			rk.ties = true
		}
		i = j
	}
	return rk
}

// u1 is U1 from the doubled rank sum of x.
func (rk ranked) u1(r2sum int) float64 {
	n1 := float64(rk.n1)
	return float64(r2sum)/2 - n1*(n1+1)/2
}

func (rk ranked) result() MWResult {
	r := MWResult{N1: rk.n1, N2: rk.n2, Ties: rk.ties, P: 1}
	s := 0
	for _, v := range rk.r2[:rk.n1] {
		s += v
	}
	r.U1 = rk.u1(s)
	r.U2 = float64(rk.n1*rk.n2) - r.U1
	r.U = math.Min(r.U1, r.U2)
	r.Z = rk.z(r.U1)
	return r
}

// z is the tie- and continuity-corrected normal statistic of U1.
func (rk ranked) z(u1 float64) float64 {
	n1, n2 := float64(rk.n1), float64(rk.n2)
	n := n1 + n2
	if n < 2 {
		return 0
	}
	mean := n1 * n2 / 2
	v := n1 * n2 / 12 * ((n + 1) - rk.tieSum/(n*(n-1)))
	if v <= 0 {
		return 0
	}
	d := u1 - mean
	switch {
	case d > 0:
		d = math.Max(d-0.5, 0)
	case d < 0:
		d = math.Min(d+0.5, 0)
	}
	return d / math.Sqrt(v)
}

// MannWhitneyNormal is the test with the normal approximation: mean
// n1·n2/2, variance n1·n2/12·((N+1) − Σ(t³−t)/(N(N−1))) over the tie groups
// of sizes t, and a continuity correction of ½ towards the mean (as R's
// wilcox.test with correct = TRUE).
func MannWhitneyNormal(x, y []float64) MWResult {
	rk := rank(x, y)
	r := rk.result()
	if rk.n1 == 0 || rk.n2 == 0 {
		return r
	}
	r.P = math.Min(1, math.Erfc(math.Abs(r.Z)/math.Sqrt2))
	return r
}

// MannWhitneyExact is the test with the exact permutation distribution of
// the (mid)rank sum of x over all C(N, n1) ways to split the pooled values,
// conditional on the ties; two-sided P = min(1, 2·min(P(S <= s), P(S >= s))).
// Without ties this is the distribution of the classic tables. The cost is
// O(N·n1·N²); use it for small samples (MannWhitney switches at MaxExact).
func MannWhitneyExact(x, y []float64) MWResult {
	rk := rank(x, y)
	r := rk.result()
	r.Exact = true
	n1 := rk.n1
	if n1 == 0 || rk.n2 == 0 {
		return r
	}
	s := 0
	for _, v := range rk.r2[:n1] {
		s += v
	}
	maxSum := 0
	for _, v := range rk.r2 {
		maxSum += v
	}
	// dp[k][t]: number of k-subsets of the items seen so far with doubled
	// rank sum t.
	dp := make([][]float64, n1+1)
	for k := range dp {
		dp[k] = make([]float64, maxSum+1)
	}
	dp[0][0] = 1
	for i, v := range rk.r2 {
		for k := min(i+1, n1); k >= 1; k-- {
			row, prev := dp[k], dp[k-1]
			for t := maxSum; t >= v; t-- {
				if prev[t-v] != 0 {
					row[t] += prev[t-v]
				}
			}
		}
	}
	var total, le, ge float64
	for t, c := range dp[n1] {
		total += c
		if t <= s {
			le += c
		}
		if t >= s {
			ge += c
		}
	}
	r.P = math.Min(1, 2*math.Min(le, ge)/total)
	return r
}

// A12 is the Vargha-Delaney effect size: the probability that a value drawn
// from x is larger than one drawn from y, ties counting ½ —
// (#{x_i > y_j} + ½·#{x_i = y_j}) / (n1·n2). 0.5 means no effect; 1 means
// every x is larger than every y. NaN when a sample is empty.
func A12(x, y []float64) float64 {
	if len(x) == 0 || len(y) == 0 {
		return math.NaN()
	}
	var gt, eq float64
	for _, a := range x {
		for _, b := range y {
			switch {
			case a > b:
				gt++
			case a == b:
				eq++
			}
		}
	}
	return (gt + eq/2) / float64(len(x)*len(y))
}

// Magnitude names the size of an Â12 effect by Vargha and Delaney's
// thresholds on |Â12 − 0.5|: negligible below 0.06, small below 0.14,
// medium below 0.21, large from 0.21 (Â12 of 0.56, 0.64 and 0.71).
func Magnitude(a12 float64) string {
	// Rounded so that 0.71 − 0.5 counts as 0.21 despite binary floats.
	d := math.Round(math.Abs(a12-0.5)*1e9) / 1e9
	switch {
	case math.IsNaN(d):
		return "n/a"
	case d < 0.06:
		return "negligible"
	case d < 0.14:
		return "small"
	case d < 0.21:
		return "medium"
	}
	return "large"
}

// Summary is min, median, mean and max of a sample.
type Summary struct {
	N                      int
	Min, Median, Mean, Max float64
}

// Summarize summarizes xs (zero Summary with N = 0 for an empty sample).
// The median of an even sample is the mean of the two middle values.
func Summarize(xs []float64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	var sum float64
	for _, v := range s {
		sum += v
	}
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return Summary{N: len(s), Min: s[0], Median: med, Mean: sum / float64(len(s)), Max: s[len(s)-1]}
}

// MinExactP is the smallest two-sided exact p-value the Mann-Whitney test
// can give for samples of sizes n1 and n2 (complete separation, no ties):
// 2 / C(n1+n2, n1). With 3 runs against 3 it is 0.1: no difference between
// two 3-run samples can be significant at α = 0.05.
func MinExactP(n1, n2 int) float64 {
	c := 1.0
	for i := 1; i <= n1; i++ {
		c = c * float64(n2+i) / float64(i)
	}
	return math.Min(1, 2/c)
}
