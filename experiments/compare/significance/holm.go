package significance

import "sort"

// Holm returns the Holm-Bonferroni adjusted p-values of one family of
// tests, in the order of p: the i-th smallest raw p is multiplied by
// m−i+1 (i from 1), running maxima keep the adjusted values in the order
// of the raw ones, and values are capped at 1. A test is significant with
// the family-wise error rate held at α when its adjusted p is below α.
//
// Holm rather than Benjamini-Hochberg: the comparisons of a report share
// their samples (every criterion is tested against the same runs of none,
// time and execs to find are the same finds, coverage measures overlap), so
// the tests are dependent in no known direction. Holm controls the
// probability of even one false "significant" under any dependence and is
// uniformly more powerful than plain Bonferroni; BH controls only the
// expected share of false discoveries, and only under independence or
// positive dependence. A report whose bar is "not significantly worse on
// any category" needs the family-wise guarantee.
func Holm(p []float64) []float64 {
	m := len(p)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return p[idx[a]] < p[idx[b]] })
	adj := make([]float64, m)
	run := 0.0
	for rank, i := range idx {
		run = max(run, min(1, float64(m-rank)*p[i]))
		adj[i] = run
	}
	return adj
}
