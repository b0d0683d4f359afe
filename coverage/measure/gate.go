package measure

import (
	"fmt"
	"math"
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
		if err != nil || math.IsNaN(p) || p < 0 || p > 100 {
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
	keys := make([]string, 0, len(figures))
	for k := range figures {
		keys = append(keys, k)
	}
	if err := ValidateGates(ts, keys); err != nil {
		return nil, err
	}
	var misses []Miss
	for _, t := range ts {
		f := figures[t.Key]
		if f.Total > 0 && float64(f.Covered)*100 < t.Min*float64(f.Total) {
			misses = append(misses, Miss{Threshold: t, Got: f})
		}
	}
	return misses, nil
}

// ValidateGates is the one check of --fail-under gates against what a
// subject measures: every gate's key must be among keys (the figures the
// subject reports: GateKeys), and its percentage a number from 0 to 100
// (ParseThresholds refuses NaN; a Threshold built otherwise is checked
// here too). A verb calls it before measuring when it knows the keys, and
// Check calls it on the figures measured.
func ValidateGates(ts []Threshold, keys []string) error {
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	for _, t := range ts {
		if math.IsNaN(t.Min) || t.Min < 0 || t.Min > 100 {
			return fmt.Errorf("threshold %s=%g: want a percentage between 0 and 100", t.Key, t.Min)
		}
		if !have[t.Key] {
			sorted := append([]string(nil), keys...)
			sort.Strings(sorted)
			return fmt.Errorf("threshold %s: not measured here (measured: %s; a criterion must be among --criteria)", t.Key, strings.Join(sorted, ", "))
		}
	}
	return nil
}

// GateKeys are the figure keys a subject labelled with selected reports
// (as CriteriaFigures names them: each criterion, wm with a mutation
// operator, all) and its code figures (instructions, branches, actions;
// Go: statements, blocks).
func GateKeys(selected []labels.Key, code ...string) []string {
	out := map[string]labels.Fraction{}
	CriteriaFigures(out, selected, func(labels.Key) labels.Fraction { return labels.Fraction{} }, labels.Fraction{})
	keys := append([]string(nil), code...)
	for k := range out {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// CriteriaFigures adds the selected keys, "wm" (the four mutation
// operators together, when one is selected) and "all".
func CriteriaFigures(out map[string]labels.Fraction, selected []labels.Key, get func(labels.Key) labels.Fraction, all labels.Fraction) {
	var wm labels.Fraction
	hasWM := false
	for _, k := range selected {
		f := get(k)
		out[string(k)] = f
		if labels.Group(k) == labels.WM {
			hasWM = true
			wm.Covered += f.Covered
			wm.Total += f.Total
		}
	}
	if hasWM {
		out[string(labels.WM)] = wm
	}
	out["all"] = all
}

// Figures names what a report measured, for Check: each selected
// criterion (mcdc counts conditions), wm, all, and the code coverage its
// front end measured (plans: instructions, branches and, with a world,
// actions; Go: statements and blocks; none for SBCL's recorded labels).
func (r *Report) Figures() map[string]labels.Fraction { return r.figures(false) }

// JustifiedFigures is Figures with each criterion's objectives proven
// infeasible counted with the covered ones (Resolution.Justified): cover
// --fail-under-justified.
func (r *Report) JustifiedFigures() map[string]labels.Fraction { return r.figures(true) }

func (r *Report) figures(justified bool) map[string]labels.Fraction {
	out := map[string]labels.Fraction{}
	of := func(kr *KeyReport) labels.Fraction {
		if justified && kr.Resolution != nil {
			return kr.Resolution.Justified()
		}
		return labels.Fraction{Covered: kr.Covered, Total: kr.Total}
	}
	get := func(k labels.Key) labels.Fraction {
		if kr := r.Criteria[k]; kr != nil {
			return of(kr)
		}
		return labels.Fraction{}
	}
	var all labels.Fraction
	if r.All != nil {
		all = of(r.All)
	}
	CriteriaFigures(out, r.Selected, get, all)
	for _, c := range r.Coverage.Measures() {
		out[c.Name] = c.Fraction
	}
	return out
}

// CodeMeasure is one measure of code coverage a report has, by name.
type CodeMeasure struct {
	Name string
	Count
}

// Measures lists the code coverage c has, in report order, each by the
// name gates and reports use: instructions, branches, actions,
// statements, blocks (those a front end does not measure are absent).
func (c Coverage) Measures() []CodeMeasure {
	var out []CodeMeasure
	add := func(name string, n *Count) {
		if n != nil {
			out = append(out, CodeMeasure{name, *n})
		}
	}
	add("instructions", c.Instructions)
	add("branches", c.Branches)
	if c.Actions != nil {
		add("actions", &c.Actions.Count)
	}
	add("statements", c.Statements)
	add("blocks", c.Blocks)
	return out
}
