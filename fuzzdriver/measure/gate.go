package measure

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/labels"
)

// Threshold is one coverage gate: the figure named Key must reach Min
// percent (cover --fail-under mcdc=80,mcc=90,wm=70).
type Threshold struct {
	Key string
	Min float64
}

// ParseThresholds reads KEY=PERCENT pairs separated by commas.
func ParseThresholds(s string) ([]Threshold, error) {
	var out []Threshold
	seen := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		k, v, ok := strings.Cut(f, "=")
		k = strings.ToLower(strings.Replace(strings.TrimSpace(k), ":", "-", 1))
		if !ok || k == "" {
			return nil, fmt.Errorf("threshold %q: want KEY=PERCENT, e.g. mcdc=80", f)
		}
		p, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), "%"), 64)
		if err != nil || p < 0 || p > 100 {
			return nil, fmt.Errorf("threshold %q: want a percentage between 0 and 100", f)
		}
		if seen[k] {
			return nil, fmt.Errorf("threshold for %s given twice", k)
		}
		seen[k] = true
		out = append(out, Threshold{Key: k, Min: p})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no threshold given (want KEY=PERCENT,..., e.g. mcdc=80,mcc=90,wm=70)")
	}
	return out, nil
}

// Miss is a threshold a report does not reach.
type Miss struct {
	Threshold
	Got labels.Fraction
}

func (m Miss) String() string {
	return fmt.Sprintf("%s %s (%.1f%%) < %g%%", m.Key, m.Got, 100*m.Got.Ratio(), m.Min)
}

// Check returns the thresholds figures miss: a figure misses when it
// covers less than Min percent of a non-zero total (0 of 0 has nothing to
// miss). A key figures lacks is an error naming the keys it has.
func Check(ts []Threshold, figures map[string]labels.Fraction) ([]Miss, error) {
	var misses []Miss
	for _, t := range ts {
		f, ok := figures[t.Key]
		if !ok {
			var keys []string
			for k := range figures {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return nil, fmt.Errorf("threshold %s: not measured here (measured: %s; a criterion must be among --criteria)", t.Key, strings.Join(keys, ", "))
		}
		if f.Total > 0 && float64(f.Covered)*100 < t.Min*float64(f.Total) {
			misses = append(misses, Miss{Threshold: t, Got: f})
		}
	}
	return misses, nil
}

// CriteriaFigures adds the selected keys, "wm" (the four mutation
// operators together, when one is selected) and "all".
func CriteriaFigures(out map[string]labels.Fraction, selected []labels.Key, get func(labels.Key) labels.Fraction, all labels.Fraction) {
	var wm labels.Fraction
	hasWM := false
	for _, k := range selected {
		f := get(k)
		out[string(k)] = f
		if strings.HasPrefix(string(k), "wm-") {
			hasWM = true
			wm.Covered += f.Covered
			wm.Total += f.Total
		}
	}
	if hasWM {
		out["wm"] = wm
	}
	out["all"] = all
}

// Figures names what a plan's report measured, for Check: each selected
// criterion (mcdc counts conditions), wm, all, instructions, branches and,
// with a world, actions.
func (r *Report) Figures() map[string]labels.Fraction {
	out := map[string]labels.Fraction{}
	get := func(k labels.Key) labels.Fraction {
		if kr := r.Criteria[k]; kr != nil {
			return labels.Fraction{Covered: kr.Covered, Total: kr.Total}
		}
		return labels.Fraction{}
	}
	var all labels.Fraction
	if r.All != nil {
		all = labels.Fraction{Covered: r.All.Covered, Total: r.All.Total}
	}
	CriteriaFigures(out, r.Selected, get, all)
	out["instructions"] = r.Coverage.Instructions.Fraction
	out["branches"] = r.Coverage.Branches.Fraction
	if a := r.Coverage.Actions; a != nil {
		out["actions"] = a.Fraction
	}
	return out
}
