package gotest

import (
	"fmt"
	"slices"
	"sort"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// Report is what the tests of Go packages (or one fuzz target's corpus)
// cover: the one report of every front end (measure.Report), its Go
// sections filled (packages, fuzz, corpus, per_test, failing,
// unlabelled, statements and blocks). Its JSON form is the output of
// `labelcov cover PACKAGES --json` (docs/report-schema.md).
type Report = measure.Report

// NewReport computes the report of measurement m of the annotated
// packages res; fuzz names the fuzz target m ran ("" for the tests).
func NewReport(res *gotransform.Result, m *Measurement, fuzz string) *Report {
	rep := &Report{Version: measure.Version, FrontEnd: measure.FrontGo, Fuzz: fuzz, Selected: res.Criteria.Keys(),
		Warnings: res.Warnings, PerTest: m.Traces, Failing: m.Failing}
	for _, p := range res.Packages {
		rep.Packages = append(rep.Packages, p.Path)
		rep.Unlabelled = append(rep.Unlabelled, p.Skipped...)
	}
	var active []*labels.Label
	for _, l := range res.Labels {
		if l.Status == labels.Active {
			active = append(active, l)
		}
	}
	sort.Slice(active, func(i, j int) bool { return active[i].ID < active[j].ID })
	// Which test covers what, after per-test runs: a test's trace is the
	// set of labels it covers; tests that cover none leave no trace.
	h := measure.Hits{Covered: map[int]bool{}}
	for id, n := range m.Hits {
		h.Covered[id] = n > 0
	}
	if m.Traces != nil {
		h.Covering, h.Tests, h.TraceOf = map[int][]int{}, []string{}, []string{}
		names := make([]string, 0, len(m.Traces))
		for name := range m.Traces {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			ids := append([]int(nil), m.Traces[name]...)
			sort.Ints(ids)
			ids = slices.Compact(ids)
			if len(ids) == 0 {
				continue
			}
			ti := len(h.Tests)
			h.Tests, h.TraceOf = append(h.Tests, name), append(h.TraceOf, fmt.Sprint(ids))
			for _, id := range ids {
				h.Covering[id] = append(h.Covering[id], ti)
			}
		}
	}
	if err := measure.FillLabels(rep, active, res.Labels, res.Decisions, "", nil, h); err != nil {
		rep.Warnings = append(rep.Warnings, err.Error())
	}
	st := measure.Count{Fraction: labels.Fraction{Covered: m.StatementsCovered, Total: m.Statements}, Percent: measure.Percent(m.StatementsCovered, m.Statements)}
	bl := measure.Count{Fraction: labels.Fraction{Covered: m.BlocksCovered, Total: m.Blocks}, Percent: measure.Percent(m.BlocksCovered, m.Blocks)}
	rep.Coverage.Statements, rep.Coverage.Blocks = &st, &bl
	if fuzz != "" {
		rep.Corpus = &measure.Corpus{Seeds: m.SeedInputs, Cached: m.CachedInputs, Crashing: m.Crashing}
	}
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
