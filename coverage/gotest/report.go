package gotest

import (
	"sort"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// Report is what the tests of Go packages (or one fuzz target's corpus)
// cover. Its JSON form ("version": 1) is the output of
// `labelcov cover PACKAGES --json` (see docs/go.md); criteria.<key>.covered
// and .total mean what they mean for plans.
type Report struct {
	Version  int      `json:"version"`
	Packages []string `json:"packages"`
	// Fuzz names the fuzz target whose corpus was measured ("" = the tests).
	Fuzz string `json:"fuzz,omitempty"`
	// Selected lists the criterion keys measured, in report order.
	Selected []labels.Key `json:"selected"`
	// Criteria has one entry per selected key.
	Criteria map[labels.Key]*KeyReport `json:"criteria"`
	// All sums every key.
	All      *KeyReport   `json:"all"`
	Coverage CodeCoverage `json:"coverage"`
	// MCDC is the MC/DC of each decision (criterion mcdc selected).
	MCDC *measure.MCDCReport `json:"mcdc,omitempty"`
	// Corpus counts the corpus entries run (with Fuzz only).
	Corpus *Corpus `json:"corpus,omitempty"`
	// Tests (with per-test runs) maps "package TestName" to the label ids
	// the test covers when run alone.
	Tests map[string][]int `json:"tests,omitempty"`
	// Uncovered lists every active label no test covered, in id order.
	Uncovered []*LabelResult `json:"uncovered"`
	// Labels lists every active label in id order.
	Labels []*LabelResult `json:"labels"`
	// Failing lists the tests that failed; they were skipped and the
	// coverage is that of the other tests.
	Failing []string `json:"failing,omitempty"`
	// Skipped lists the functions left unlabelled, with the reason.
	Skipped  []string `json:"skipped,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
}

// KeyReport is the row of one criterion key (or of all keys): the one
// row every front end reports (measure.KeyReport). Go reports leave its
// Resolution out; its Diversity is there after per-test runs.
type KeyReport = measure.KeyReport

// CodeCoverage is the plain coverage of the original Go code under the same
// tests.
type CodeCoverage struct {
	// Statements is Go's statement coverage of the original code.
	Statements measure.Count `json:"statements"`
	// Blocks counts the original code's basic blocks that ran.
	Blocks measure.Count `json:"blocks"`
}

// Corpus counts the corpus entries a fuzz target ran on.
type Corpus struct {
	Seeds  int `json:"seeds"`
	Cached int `json:"cached"`
	// Crashing lists the entries the target fails on ("f.Add seed #N" or a
	// file path); the coverage is that of the other entries.
	Crashing []string `json:"crashing,omitempty"`
}

// LabelResult is one active label of Go code: the row every front end
// reports (measure.LabelRow) and, after per-test runs, the tests that
// cover it ("package TestName").
type LabelResult struct {
	measure.LabelRow
	Tests []string `json:"tests,omitempty"`
}

// NewReport computes the report of measurement m of the annotated
// packages res; fuzz names the fuzz target m ran ("" for the tests).
func NewReport(res *gotransform.Result, m *Measurement, fuzz string) *Report {
	rep := &Report{Version: measure.Version, Fuzz: fuzz, Selected: res.Criteria.Keys(), Criteria: map[labels.Key]*KeyReport{},
		Uncovered: []*LabelResult{}, Labels: []*LabelResult{}, Warnings: res.Warnings}
	for _, p := range res.Packages {
		rep.Packages = append(rep.Packages, p.Path)
		rep.Skipped = append(rep.Skipped, p.Skipped...)
	}
	for _, k := range rep.Selected {
		rep.Criteria[k] = &KeyReport{Operators: map[string]*measure.Count{}}
	}
	all := &KeyReport{}
	for _, l := range res.Labels {
		kr := rep.Criteria[l.Criterion]
		if kr == nil {
			continue
		}
		covered := m.Hits[l.ID] > 0
		if !measure.TallyLabel(kr, all, l, covered) {
			continue
		}
		lr := &LabelResult{LabelRow: measure.RowOf(l, "")}
		lr.Covered = covered
		rep.Labels = append(rep.Labels, lr)
		if !covered {
			rep.Uncovered = append(rep.Uncovered, lr)
		}
	}
	// The figures, from the one function every report uses: per criterion
	// in its unit (conditions for mcdc), all their sum; Hill numbers
	// when each test ran alone (distinct traces as abundances).
	cov, err := labels.Figures(res.Labels, res.Decisions, m.Hits)
	if err != nil {
		rep.Warnings = append(rep.Warnings, err.Error())
	}
	div := map[labels.Key]*labels.KeyCoverage{}
	traces := 0
	if m.Traces != nil && err == nil {
		ds := m.distinct()
		traces = len(ds)
		div, _ = labels.Figures(res.Labels, res.Decisions, labels.CountTraces(ds))
	}
	for k, kr := range rep.Criteria {
		kr.Fraction = labels.Fraction{}
		if c := cov[k]; c != nil {
			kr.Fraction = c.Fraction
		}
		if c := div[k]; c != nil {
			kr.Diversity = &measure.Diversity{Hill: measure.RoundHill(c.Diversity), Traces: traces}
		}
		kr.Percent = measure.Percent(kr.Covered, kr.Total)
		measure.SortOperators(kr.OperatorOrder)
	}
	all.Fraction = labels.Fraction{}
	if c := cov[labels.All]; c != nil {
		all.Fraction = c.Fraction
	}
	if c := div[labels.All]; c != nil {
		all.Diversity = &measure.Diversity{Hill: measure.RoundHill(c.Diversity), Traces: traces}
	}
	all.Percent = measure.Percent(all.Covered, all.Total)
	rep.All = all
	if m.Traces != nil {
		rep.Tests = m.Traces
		byID := map[int]*LabelResult{}
		for _, l := range rep.Labels {
			byID[l.ID] = l
		}
		names := make([]string, 0, len(m.Traces))
		for name := range m.Traces {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			for _, id := range m.Traces[name] {
				if l := byID[id]; l != nil && (len(l.Tests) == 0 || l.Tests[len(l.Tests)-1] != name) {
					l.Tests = append(l.Tests, name)
				}
			}
		}
	}
	sort.Slice(rep.Labels, func(i, j int) bool { return rep.Labels[i].ID < rep.Labels[j].ID })
	sort.Slice(rep.Uncovered, func(i, j int) bool { return rep.Uncovered[i].ID < rep.Uncovered[j].ID })
	rep.Coverage.Statements = measure.Count{Fraction: labels.Fraction{Covered: m.StatementsCovered, Total: m.Statements}, Percent: measure.Percent(m.StatementsCovered, m.Statements)}
	rep.Coverage.Blocks = measure.Count{Fraction: labels.Fraction{Covered: m.BlocksCovered, Total: m.Blocks}, Percent: measure.Percent(m.BlocksCovered, m.Blocks)}
	if fuzz != "" {
		rep.Corpus = &Corpus{Seeds: m.SeedInputs, Cached: m.CachedInputs, Crashing: m.Crashing}
	}
	rep.Failing = m.Failing
	if res.Criteria.Has(labels.MCDC) {
		var tests func(int) []string
		if m.Traces != nil {
			by := map[int][]string{}
			for name, ids := range m.Traces {
				for _, id := range ids {
					by[id] = append(by[id], name)
				}
			}
			for _, ts := range by {
				sort.Strings(ts)
			}
			tests = func(id int) []string { return by[id] }
		}
		mc, err := measure.NewMCDCReport(res.Decisions, func(id int) bool { return m.Hits[id] > 0 }, tests)
		if err != nil {
			rep.Warnings = append(rep.Warnings, err.Error())
		} else {
			mc.Vectors = labels.MCDCVectors(res.Labels, m.Hits)
			rep.MCDC = mc
			if kr := rep.Criteria[labels.MCDC]; kr != nil {
				kr.Operators, kr.OperatorOrder = nil, nil
			}
		}
	}
	return rep
}

// Figures names what a Go report measured, for measure.Check (cover
// --fail-under): each selected criterion (mcdc counts conditions), wm,
// all, statements and blocks.
func (r *Report) Figures() map[string]labels.Fraction {
	out := map[string]labels.Fraction{}
	get := func(k labels.Key) labels.Fraction {
		if kr := r.Criteria[k]; kr != nil {
			return kr.Fraction
		}
		return labels.Fraction{}
	}
	var all labels.Fraction
	if r.All != nil {
		all = r.All.Fraction
	}
	measure.CriteriaFigures(out, r.Selected, get, all)
	out["statements"] = r.Coverage.Statements.Fraction
	out["blocks"] = r.Coverage.Blocks.Fraction
	return out
}
