package labels

import (
	"fmt"
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

// All is the key of the "all" figure: the sum of every criterion's row,
// each in its own unit (labels; conditions for mcdc), dist and mcdc
// included when they are measured. Its covered and total are the sums of
// the rows', and its Hill numbers are computed over the rows' units
// together.
const All Key = "all"

// Figures is the one computation of label coverage per criterion that
// every report uses (cover in text, JSON and HTML, gentests, reduce,
// compare's yardsticks and the fuzzing meters): for each criterion key of
// the active labels ls, covered/total and the Hill numbers in one unit,
// and the key All, the sum of the rows. The unit is the label, except
// for mcdc, whose unit is the condition of a decision of ds: covered when
// the executed test vectors (its labels) hold an independence pair for
// it. hits maps a label id to its abundance, the number of distinct test
// traces that covered it (0 or absent: not covered); a covered
// condition's abundance is the sum of its pair's two vectors'. So D0 of a
// row is its covered count and never exceeds its total. The test vectors
// themselves are counted by MCDCVectors, apart.
func Figures(ls []*Label, ds []*Decision, hits map[int]int) (map[Key]*KeyCoverage, error) {
	out := map[Key]*KeyCoverage{}
	abund := map[Key][]int{}
	add := func(k Key, a int) {
		for _, k := range []Key{k, All} {
			c := out[k]
			if c == nil {
				c = &KeyCoverage{}
				out[k] = c
			}
			c.Total++
			if a > 0 {
				c.Covered++
			}
			abund[k] = append(abund[k], a)
		}
	}
	for _, l := range ls {
		if l.Status != Active || l.Criterion == MCDC {
			continue
		}
		add(l.Criterion, hits[l.ID])
	}
	for _, d := range ds {
		res, _, err := d.Measure(func(id int) bool { return hits[id] > 0 })
		if err != nil {
			return nil, fmt.Errorf("mcdc: %w", err)
		}
		for _, p := range res.Pairs {
			a := 0
			if p != nil {
				a = hits[d.Vectors[p.False].LabelID] + hits[d.Vectors[p.True].LabelID]
			}
			add(MCDC, a)
		}
	}
	for k, c := range out {
		c.Diversity = HillNumbers(abund[k])
	}
	return out, nil
}

// AllFigure is the name of the All figure among a campaign's figures
// (stats.json, compare): "labels"; FigureName names the groups'.
const AllFigure = "labels"

// GroupFigures folds Figures' rows into what a campaign reports (its
// meters, stats.json, compare): all, Figures' All — the sum of every row,
// dist and mcdc included when measured, as cover's "all" — and the figure
// of the group (Group) of each of keys, the measured criteria: the wm
// operators summed into wm, zero for a group without labels.
func GroupFigures(cov map[Key]*KeyCoverage, keys []Key) (all Fraction, groups map[Key]Fraction) {
	groups = map[Key]Fraction{}
	for _, k := range keys {
		groups[Group(k)] = Fraction{}
	}
	for k, c := range cov {
		if k == All {
			all = c.Fraction
			continue
		}
		f := groups[Group(k)]
		f.Covered += c.Covered
		f.Total += c.Total
		groups[Group(k)] = f
	}
	return all, groups
}

// MCDCVectors counts MC/DC's test vectors: the active labels of
// criterion mcdc, covered when executed. Reports show it beside the mcdc
// row (whose unit is the condition), named as test vectors.
func MCDCVectors(ls []*Label, hits map[int]int) Fraction {
	var f Fraction
	for _, l := range ls {
		if l.Status == Active && l.Criterion == MCDC {
			f.Total++
			if hits[l.ID] > 0 {
				f.Covered++
			}
		}
	}
	return f
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
