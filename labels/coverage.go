package labels

import (
	"math"

	"github.com/labelcov/labelcov/labels/fraction"
)

// Hill holds the Hill numbers (effective numbers) of order 0, 1 and 2 of a
// distribution: richness, exp(Shannon entropy) and inverse Simpson. Two
// suites with the same coverage can differ here: one that covers every
// label by one trace only is less diverse than one spreading its traces.
type Hill struct {
	D0 float64 `json:"d0"`
	D1 float64 `json:"d1"`
	D2 float64 `json:"d2"`
}

// HillNumbers computes Hill numbers over abundances (zeros are ignored).
func HillNumbers(abundance []int) Hill {
	total := 0
	rich := 0
	for _, a := range abundance {
		if a > 0 {
			total += a
			rich++
		}
	}
	if total == 0 {
		return Hill{}
	}
	var h, simpson float64
	for _, a := range abundance {
		if a <= 0 {
			continue
		}
		p := float64(a) / float64(total)
		h -= p * math.Log(p)
		simpson += p * p
	}
	return Hill{D0: float64(rich), D1: math.Exp(h), D2: 1 / simpson}
}

// Fraction is covered out of total (package labels/fraction, which the VM
// and the simulator import without importing labels).
type Fraction = fraction.Fraction

// KeyCoverage is the coverage of one criterion key.
type KeyCoverage struct {
	Fraction
	// Diversity is computed over, for each label, how many distinct test
	// traces covered it.
	Diversity Hill `json:"diversity"`
}

// CoverageByKey computes per-key coverage of the active labels in ls from hits:
// label id -> number of distinct test traces that covered the label. The
// key "all" sums every key.
func CoverageByKey(ls []*Label, hits map[int]int) map[Key]*KeyCoverage {
	out := map[Key]*KeyCoverage{}
	abund := map[Key][]int{}
	for _, l := range ls {
		if l.Status != Active {
			continue
		}
		for _, k := range []Key{l.Criterion, "all"} {
			c := out[k]
			if c == nil {
				c = &KeyCoverage{}
				out[k] = c
			}
			c.Total++
			if hits[l.ID] > 0 {
				c.Covered++
			}
			abund[k] = append(abund[k], hits[l.ID])
		}
	}
	for k, c := range out {
		c.Diversity = HillNumbers(abund[k])
	}
	return out
}

// CountTraces turns the labels covered by each distinct trace into hits
// (label id -> number of traces covering it). traces must already be
// distinct; within one trace a label counts once.
func CountTraces(traces [][]int) map[int]int {
	hits := map[int]int{}
	for _, t := range traces {
		seen := map[int]bool{}
		for _, id := range t {
			if !seen[id] {
				seen[id] = true
				hits[id]++
			}
		}
	}
	return hits
}
