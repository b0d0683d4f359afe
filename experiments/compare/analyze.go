package compare

import (
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/experiments/compare/significance"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/labels"
)

// Baseline is the guiding criterion the others are compared with.
const Baseline = "none"

// Report is report.json: every raw figure of a comparison and the tables
// computed from them. Field meanings are documented in docs/compare.md.
type Report struct {
	Version  int      `json:"version"`
	Benches  []string `json:"benches"`
	Criteria []string `json:"criteria"`
	Runs     int      `json:"runs"`
	BudgetS  float64  `json:"budget_s"`
	Seed     uint64   `json:"seed"`
	// Kind is "go" for Go fuzz targets (Grid.Kind), MinimizeTime a Go
	// grid's -test.fuzzminimizetime ("" = go test's default).
	Kind         string `json:"kind,omitempty"`
	MinimizeTime string `json:"minimize_time,omitempty"`
	// OnFixed: Grid.OnFixed.
	OnFixed bool    `json:"on_fixed,omitempty"`
	Alpha   float64 `json:"alpha"`
	// Correction names the multiple-comparison adjustment behind
	// TestRow.PAdj and the verdicts; the family is every test of one
	// benchmark (see the constant Correction).
	Correction string `json:"correction"`
	// Note is free text shown under the title (labelcov compare --note).
	Note string `json:"note,omitempty"`
	// Command regenerates the whole grid (never one shard of it): the
	// command of an unsharded run, else the shards' grid command.
	Command string        `json:"command,omitempty"`
	Sources []Source      `json:"sources"`
	Missing []Cell        `json:"missing"`
	Results []BenchReport `json:"results"`
}

// Source is one output directory the report was assembled from.
type Source struct {
	Shard   string  `json:"shard"`
	Workers int     `json:"workers"`
	Command string  `json:"command,omitempty"`
	Machine Machine `json:"machine"`
}

// BenchReport is the comparison on one benchmark.
type BenchReport struct {
	Bench string `json:"bench"`
	Plan  string `json:"plan"`
	World string `json:"world,omitempty"`
	// Package, Target and Shape describe a Go fuzz target (BenchInfo).
	Package   string   `json:"package,omitempty"`
	Target    string   `json:"target,omitempty"`
	Shape     string   `json:"shape,omitempty"`
	LabelPkgs []string `json:"label_pkgs,omitempty"`
	// Fixed: BenchInfo.Fixed.
	Fixed []string `json:"fixed,omitempty"`
	// Categories: the truth.json categories in order, then every other
	// finding key some run found, sorted.
	Categories []string `json:"categories"`
	// Measures: the measuring criteria (coverage names of stats.json) in
	// report order, and their totals.
	Measures   []string          `json:"measures"`
	Totals     map[string]int    `json:"totals"`
	Runs       []RunReport       `json:"runs"`
	TimeToFind []FindRow         `json:"time_to_find"`
	Coverage   []CoverageRow     `json:"coverage"`
	Saturation []SaturationRow   `json:"after_saturation"`
	Throughput []ThroughputRow   `json:"throughput"`
	Tests      []TestRow         `json:"tests"`
	Verdicts   map[string]string `json:"verdicts"` // per criterion, one sentence
}

// RunReport holds the raw figures of one campaign.
type RunReport struct {
	Criterion   string  `json:"criterion"`
	Run         int     `json:"run"`
	Seed        uint64  `json:"seed"`
	Execs       int64   `json:"execs"`
	ElapsedS    float64 `json:"elapsed_s"`
	ExecsPerSec float64 `json:"execs_per_sec"`
	// FuzzS is the time ExecsPerSec is measured over, when the runner
	// gave it (go test -fuzz: after the seeds' baseline); 0: ElapsedS.
	FuzzS float64 `json:"fuzz_s,omitempty"`
	// CPUS is the campaign's CPU time (Result.CPUS), when known.
	CPUS   float64 `json:"cpu_s,omitempty"`
	Corpus int     `json:"corpus"`
	// Final is the coverage of the last sample; SaturatedS the campaign
	// time of the first sample that showed the final value.
	Final      map[string]engine.Figure `json:"final"`
	SaturatedS map[string]float64       `json:"saturated_s"`
	Findings   []FindTime               `json:"findings"`
	Series     Series                   `json:"series"`
}

// FindTime is the first discovery of a finding key in one campaign.
type FindTime struct {
	Key   string  `json:"key"`
	TimeS float64 `json:"time_s"`
	Execs int64   `json:"execs"`
}

// Series is a campaign's stats.json time series, column-wise.
type Series struct {
	ElapsedS []float64        `json:"elapsed_s"`
	Execs    []int64          `json:"execs"`
	Covered  map[string][]int `json:"covered"`
}

// FindRow is time to first find of one category under one guiding
// criterion, over the runs that found it (nil figures when none did).
type FindRow struct {
	Category  string   `json:"category"`
	Criterion string   `json:"criterion"`
	Found     int      `json:"found"`
	N         int      `json:"n"`
	MinS      *float64 `json:"min_s"`
	MedianS   *float64 `json:"median_s"`
	MeanS     *float64 `json:"mean_s"`
	MaxS      *float64 `json:"max_s"`
	// MedianExecs is the median of the campaign execs at first discovery
	// over the runs that found it: a figure machine load does not change.
	MedianExecs *float64 `json:"median_execs"`
}

// CoverageRow is final coverage on one measuring criterion under one
// guiding criterion, in covered items.
type CoverageRow struct {
	Measure   string  `json:"measure"`
	Criterion string  `json:"criterion"`
	Total     int     `json:"total"`
	N         int     `json:"n"`
	Min       float64 `json:"min"`
	Mean      float64 `json:"mean"`
	Max       float64 `json:"max"`
}

// SaturationRow counts finds (run, key) made after the measuring criterion
// had reached its final value in that run.
type SaturationRow struct {
	Measure   string `json:"measure"`
	Criterion string `json:"criterion"` // "all" sums the criteria
	After     int    `json:"after"`
	Finds     int    `json:"finds"`
	// RunsAfter counts the runs with at least one find after saturation.
	RunsAfter int `json:"runs_after"`
	N         int `json:"n"`
}

// ThroughputRow is execs/s of one guiding criterion: the pooled rate of
// the runs' fuzzing phases when the runner measured them (go test
// -fuzz), else the mean of the runs' rates.
type ThroughputRow struct {
	Criterion   string   `json:"criterion"`
	N           int      `json:"n"`
	ExecsPerSec float64  `json:"execs_per_sec"`
	Ratio       *float64 `json:"ratio_to_none"`
	// MeasuredS is the median of the runs' measuring times (FuzzS, else
	// ElapsedS): under ShortRunS the rate is mostly the campaigns' first
	// seconds, the slowest for any criterion, and says more about when
	// they ended than about the criterion's cost (render notes it).
	MeasuredS float64 `json:"measured_s"`
	// ExecsPerCPUS is all the runs' execs over all their CPU seconds
	// (RunReport.CPUS: the test process and its fuzzing worker, start-up
	// included), when every run measured it, and CPURatio its ratio to
	// none's: what a criterion costs per execution, which other work on
	// the machine changes far less than it changes wall-clock rates.
	ExecsPerCPUS float64  `json:"execs_per_cpu_s,omitempty"`
	CPURatio     *float64 `json:"cpu_ratio_to_none,omitempty"`
}

// ShortRunS is the median measuring time below which a criterion's
// execs/s is marked as measured over campaigns that ended within seconds.
const ShortRunS = 10.0

// TestRow compares one guiding criterion with none on one subject.
type TestRow struct {
	// Kind is "time_to_find" (subject: a category; runs that never found
	// it count at the budget), "execs_to_find" (the same in campaign
	// execs; never found counts at the largest execs of the runs compared)
	// or "coverage" (subject: a measure).
	Kind      string `json:"kind"`
	Subject   string `json:"subject"`
	Criterion string `json:"criterion"`
	N1        int    `json:"n1"` // runs of the criterion
	N2        int    `json:"n2"` // runs of none
	// Values and Baseline are the samples tested.
	Values   []float64 `json:"values"`
	Baseline []float64 `json:"baseline"`
	U        float64   `json:"u"`
	P        float64   `json:"p"` // raw
	// PAdj is P Holm-adjusted over the benchmark's family of tests (every
	// row of BenchReport.Tests).
	PAdj  float64 `json:"p_adj"`
	Exact bool    `json:"exact"`
	// A12 is the probability that a run guided by the criterion does
	// better than a run of none — finds sooner, or covers more — ties ½.
	A12       float64 `json:"a12"`
	Magnitude string  `json:"magnitude"`
	// Significant is PAdj < α; SignificantUncorrected is P < α, shown
	// apart so that what the correction removed stays visible.
	Significant            bool `json:"significant"`
	SignificantUncorrected bool `json:"significant_uncorrected"`
	// Outcome: "better", "worse" (significant after correction either
	// way), "no significant difference", or "identical" (every value
	// equal).
	Outcome string `json:"outcome"`
}

// Correction is Report.Correction: Holm-Bonferroni (see
// significance.Holm for why not Benjamini-Hochberg) over one family per
// benchmark, every test of every guiding criterion against none — time and
// execs to find per category, final coverage per measure. Per benchmark
// because the benchmarks are separate questions (issue 10 asks it of each);
// all criteria together because "is any criterion worse than none here" is
// the question the family answers.
const Correction = "holm per benchmark"

// measureOrder is the report order of the known measuring criteria.
var measureOrder = []string{"branches", "blocks", "instructions", "actions", labels.AllFigure,
	labels.FigureName(labels.MCC), labels.FigureName(labels.MCDC), labels.FigureName(labels.CC), labels.FigureName(labels.WM), labels.FigureName(labels.DIST)}

// Analyze computes the report of d.
func Analyze(d *Data) *Report {
	r := &Report{Version: Version, Benches: d.Grid.Benches, Criteria: d.Grid.Criteria, Runs: d.Grid.Runs,
		BudgetS: d.Grid.Budget.Seconds(), Seed: d.Grid.Seed, Kind: d.Grid.Kind, MinimizeTime: d.Grid.MinimizeTime, OnFixed: d.Grid.OnFixed, Alpha: significance.Alpha,
		Correction: Correction, Missing: d.Missing}
	if r.Missing == nil {
		r.Missing = []Cell{}
	}
	for _, m := range d.Metas {
		r.Sources = append(r.Sources, Source{Shard: m.Shard, Workers: m.Workers, Command: m.Command, Machine: m.Machine})
	}
	sort.SliceStable(r.Sources, func(i, j int) bool { return r.Sources[i].Shard < r.Sources[j].Shard })
	r.Command = gridCommand(d.Metas)
	info := map[string]BenchInfo{}
	for _, b := range d.Benches {
		info[b.Name] = b
	}
	for _, b := range d.Grid.Benches {
		r.Results = append(r.Results, analyzeBench(d, info[b], b))
	}
	return r
}

// gridCommand is the command that reruns the whole grid the metas hold:
// an unsharded run's own command, else the grid command a shard recorded
// (a shard's own command would rerun its share only).
func gridCommand(metas []Meta) string {
	for _, m := range metas {
		if m.Shard == All.String() && m.Command != "" {
			return m.Command
		}
	}
	ms := slices.Clone(metas)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Shard < ms[j].Shard })
	for _, m := range ms {
		if m.GridCommand != "" {
			return m.GridCommand
		}
	}
	return ""
}

func analyzeBench(d *Data, info BenchInfo, name string) BenchReport {
	br := BenchReport{Bench: name, Plan: info.Plan, World: info.World, Package: info.Package, Target: info.Target, Shape: info.Shape, LabelPkgs: info.LabelPkgs, Fixed: info.Fixed,
		Totals: map[string]int{}, Verdicts: map[string]string{}}
	budget := d.Grid.Budget.Seconds()
	byCrit := map[string][]*RunReport{}
	keys := map[string]bool{}
	measures := map[string]bool{}
	for _, c := range d.Grid.Cells() {
		if c.Bench != name || d.Runs[c] == nil {
			continue
		}
		rr := runReport(c, d.Runs[c])
		br.Runs = append(br.Runs, rr)
		for _, f := range rr.Findings {
			keys[f.Key] = true
		}
		for m, f := range rr.Final {
			measures[m] = true
			br.Totals[m] = max(br.Totals[m], f.Total)
		}
	}
	sort.SliceStable(br.Runs, func(i, j int) bool {
		a, b := br.Runs[i], br.Runs[j]
		if a.Criterion != b.Criterion {
			return critIndex(d.Grid, a.Criterion) < critIndex(d.Grid, b.Criterion)
		}
		return a.Run < b.Run
	})
	for i := range br.Runs {
		byCrit[br.Runs[i].Criterion] = append(byCrit[br.Runs[i].Criterion], &br.Runs[i])
	}

	br.Categories = append([]string{}, info.Categories...)
	inTruth := map[string]bool{}
	for _, c := range info.Categories {
		inTruth[c] = true
	}
	var extra []string
	for k := range keys {
		if !inTruth[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	br.Categories = append(br.Categories, extra...)
	for _, m := range measureOrder {
		if measures[m] {
			br.Measures = append(br.Measures, m)
			delete(measures, m)
		}
	}
	var rest []string
	for m := range measures {
		rest = append(rest, m)
	}
	sort.Strings(rest)
	br.Measures = append(br.Measures, rest...)

	// Samples per criterion.
	ttf := func(runs []*RunReport, cat string) (found []float64, all []float64) {
		for _, rr := range runs {
			t, ok := findTime(rr, cat)
			if ok {
				found = append(found, t)
				all = append(all, t)
			} else {
				all = append(all, budget)
			}
		}
		return
	}
	// Execs to find: never found counts at the largest execs of the runs
	// compared (a censored value no find beats).
	etf := func(runs []*RunReport, cat string, censor float64) (found []float64, all []float64) {
		for _, rr := range runs {
			n, ok := findExecs(rr, cat)
			if ok {
				found = append(found, float64(n))
				all = append(all, float64(n))
			} else {
				all = append(all, censor)
			}
		}
		return
	}
	maxExecs := func(runs ...[]*RunReport) float64 {
		var m int64
		for _, rs := range runs {
			for _, rr := range rs {
				m = max(m, rr.Execs)
			}
		}
		return float64(m)
	}
	finals := func(runs []*RunReport, m string) []float64 {
		var out []float64
		for _, rr := range runs {
			out = append(out, float64(rr.Final[m].Covered))
		}
		return out
	}

	for _, cat := range br.Categories {
		for _, crit := range d.Grid.Criteria {
			runs := byCrit[crit]
			found, _ := ttf(runs, cat)
			row := FindRow{Category: cat, Criterion: crit, Found: len(found), N: len(runs)}
			if len(found) > 0 {
				s := significance.Summarize(found)
				row.MinS, row.MedianS, row.MeanS, row.MaxS = ptr(s.Min), ptr(s.Median), ptr(s.Mean), ptr(s.Max)
				fe, _ := etf(runs, cat, 0)
				row.MedianExecs = ptr(significance.Summarize(fe).Median)
			}
			br.TimeToFind = append(br.TimeToFind, row)
		}
	}
	for _, m := range br.Measures {
		for _, crit := range d.Grid.Criteria {
			runs := byCrit[crit]
			row := CoverageRow{Measure: m, Criterion: crit, Total: br.Totals[m], N: len(runs)}
			if len(runs) > 0 {
				s := significance.Summarize(finals(runs, m))
				row.Min, row.Mean, row.Max = s.Min, round6(s.Mean), s.Max
			}
			br.Coverage = append(br.Coverage, row)
		}
	}
	for _, m := range br.Measures {
		all := SaturationRow{Measure: m, Criterion: "all"}
		for _, crit := range d.Grid.Criteria {
			row := SaturationRow{Measure: m, Criterion: crit}
			for _, rr := range byCrit[crit] {
				row.N++
				sat, ok := rr.SaturatedS[m]
				if !ok {
					continue
				}
				n := 0
				for _, f := range rr.Findings {
					row.Finds++
					if f.TimeS > sat {
						n++
					}
				}
				row.After += n
				if n > 0 {
					row.RunsAfter++
				}
			}
			all.After += row.After
			all.Finds += row.Finds
			all.RunsAfter += row.RunsAfter
			all.N += row.N
			br.Saturation = append(br.Saturation, row)
		}
		br.Saturation = append(br.Saturation, all)
	}
	var base, baseCPU float64
	for _, crit := range d.Grid.Criteria {
		row := ThroughputRow{Criterion: crit, N: len(byCrit[crit])}
		// With the runs' measuring times (go test -fuzz), the pooled rate
		// of the fuzzing phases, all execs over all seconds: a campaign
		// that ends within a second of fuzzing weighs by its second, not
		// as a run; without them, the mean of the runs' rates.
		var sum, execs, secs, allExecs, cpu float64
		var measured []float64
		pooled, cpuKnown := true, len(byCrit[crit]) > 0
		for _, rr := range byCrit[crit] {
			allExecs += float64(rr.Execs)
			cpu += rr.CPUS
			cpuKnown = cpuKnown && rr.CPUS > 0
			sum += rr.ExecsPerSec
			execs += rr.ExecsPerSec * rr.FuzzS
			secs += rr.FuzzS
			pooled = pooled && rr.FuzzS > 0
			if rr.FuzzS > 0 {
				measured = append(measured, rr.FuzzS)
			} else {
				measured = append(measured, rr.ElapsedS)
			}
		}
		if len(measured) > 0 {
			row.MeasuredS = round6(significance.Summarize(measured).Median)
		}
		switch {
		case row.N > 0 && pooled && secs > 0:
			row.ExecsPerSec = round6(execs / secs)
		case row.N > 0:
			row.ExecsPerSec = round6(sum / float64(row.N))
		}
		if cpuKnown {
			row.ExecsPerCPUS = round6(allExecs / cpu)
		}
		if crit == Baseline {
			base, baseCPU = row.ExecsPerSec, row.ExecsPerCPUS
		}
		br.Throughput = append(br.Throughput, row)
	}
	for i := range br.Throughput {
		if base > 0 && br.Throughput[i].N > 0 {
			br.Throughput[i].Ratio = ptr(round6(br.Throughput[i].ExecsPerSec / base))
		}
		if baseCPU > 0 && br.Throughput[i].ExecsPerCPUS > 0 {
			br.Throughput[i].CPURatio = ptr(round6(br.Throughput[i].ExecsPerCPUS / baseCPU))
		}
	}

	baseRuns := byCrit[Baseline]
	var compared []string
	for _, crit := range d.Grid.Criteria {
		if crit == Baseline || len(baseRuns) == 0 || len(byCrit[crit]) == 0 {
			continue
		}
		compared = append(compared, crit)
		for _, cat := range br.Categories {
			_, x := ttf(byCrit[crit], cat)
			_, y := ttf(baseRuns, cat)
			// Sooner is better: Â12 of none's times against the criterion's.
			br.Tests = append(br.Tests, test("time_to_find", cat, crit, x, y, significance.A12(y, x)))
		}
		for _, cat := range br.Categories {
			censor := maxExecs(byCrit[crit], baseRuns)
			_, x := etf(byCrit[crit], cat, censor)
			_, y := etf(baseRuns, cat, censor)
			br.Tests = append(br.Tests, test("execs_to_find", cat, crit, x, y, significance.A12(y, x)))
		}
		for _, m := range br.Measures {
			x, y := finals(byCrit[crit], m), finals(baseRuns, m)
			br.Tests = append(br.Tests, test("coverage", m, crit, x, y, significance.A12(x, y)))
		}
	}
	// The family is every test of the benchmark (Correction), execs to find
	// included: each is shown as significant or not.
	raw := make([]float64, len(br.Tests))
	for i, t := range br.Tests {
		raw[i] = t.P
	}
	for i, p := range significance.Holm(raw) {
		decide(&br.Tests[i], round6(p))
	}
	for _, crit := range compared {
		var now, unc tallies
		for _, t := range br.Tests {
			// Execs to find is not tallied in the verdict: it is the same
			// question as time to find, measured without the clock.
			if t.Criterion != crit || t.Kind == "execs_to_find" {
				continue
			}
			now.add(t.Outcome)
			unc.add(uncorrectedOutcome(t))
		}
		br.Verdicts[crit] = verdict(crit, now, unc, len(br.Tests), len(byCrit[crit]), len(baseRuns))
	}
	return br
}

// tallies counts the outcomes of one criterion's tests.
type tallies struct{ better, worse, ns int }

func (c *tallies) add(outcome string) {
	switch outcome {
	case "better":
		c.better++
	case "worse":
		c.worse++
	default:
		c.ns++
	}
}

// verdict is the one-line summary of crit against none over family tests:
// the corrected counts, then, when they differ, the uncorrected ones.
func verdict(crit string, c, unc tallies, family, n1, n2 int) string {
	var b strings.Builder
	b.WriteString(crit + " against none: ")
	switch {
	case c.better == 0 && c.worse == 0:
		b.WriteString("no significant difference on any category or measure")
	default:
		b.WriteString(plural(c.better, "significant improvement") + ", " + plural(c.worse, "significant deterioration") +
			", " + plural(c.ns, "comparison") + " without significant difference")
	}
	b.WriteString(" (α = 0.05, Holm-adjusted over the " + plural(family, "test") + " of this benchmark")
	if unc != c {
		b.WriteString("; uncorrected: " + itoa(unc.better) + " better, " + itoa(unc.worse) + " worse")
	}
	// Holm multiplies the smallest p by the family size.
	if p := significance.MinExactP(n1, n2) * float64(max(family, 1)); p >= significance.Alpha {
		b.WriteString("; with " + itoa(n1) + " and " + itoa(n2) + " runs the smallest attainable adjusted p is " +
			fmtFloat(min(p, 1), 3) + ", so no difference can be significant: more runs are needed")
	}
	b.WriteString(").")
	return b.String()
}

// uncorrectedOutcome is t's outcome had p not been adjusted.
func uncorrectedOutcome(t TestRow) string {
	decide(&t, t.P)
	return t.Outcome
}

func test(kind, subject, crit string, x, y []float64, a12 float64) TestRow {
	mw := significance.MannWhitney(x, y)
	t := TestRow{Kind: kind, Subject: subject, Criterion: crit, N1: len(x), N2: len(y), Values: x, Baseline: y,
		U: mw.U, P: round6(mw.P), Exact: mw.Exact, A12: round6(a12), Magnitude: significance.Magnitude(a12),
		SignificantUncorrected: round6(mw.P) < significance.Alpha} // the p shown, as uncorrectedOutcome
	decide(&t, t.P) // a family of one until analyzeBench adjusts it
	return t
}

// decide sets t's adjusted p and the verdicts that follow from it.
func decide(t *TestRow, pAdj float64) {
	t.PAdj = pAdj
	t.Significant = t.PAdj < significance.Alpha
	identical := true
	for _, v := range append(append([]float64{}, t.Values...), t.Baseline...) {
		if v != t.Values[0] {
			identical = false
		}
	}
	switch {
	case identical:
		t.Outcome = "identical"
	case !t.Significant:
		t.Outcome = "no significant difference"
	case t.A12 > 0.5:
		t.Outcome = "better"
	default:
		t.Outcome = "worse"
	}
}

func runReport(c Cell, rd *RunData) RunReport {
	rr := RunReport{Criterion: c.Criterion, Run: c.Run, Seed: rd.Result.Seed, Final: map[string]engine.Figure{},
		SaturatedS: map[string]float64{}, Findings: []FindTime{}, Series: Series{Covered: map[string][]int{}}}
	samples := rd.Stats.Samples
	if n := len(samples); n > 0 {
		last := samples[n-1]
		rr.Execs, rr.ElapsedS, rr.Corpus = last.Execs, last.ElapsedS, last.Corpus
		if last.ElapsedS > 0 {
			rr.ExecsPerSec = round6(float64(last.Execs) / last.ElapsedS)
		}
		if rd.Result.FuzzS > 0 && rd.Result.ExecsPerSec > 0 {
			// The runner measured its rate over the fuzzing phase.
			rr.ExecsPerSec, rr.FuzzS = round6(rd.Result.ExecsPerSec), rd.Result.FuzzS
		}
		rr.CPUS = rd.Result.CPUS
		for m, f := range last.Coverage {
			rr.Final[m] = f
		}
	}
	for _, s := range samples {
		rr.Series.ElapsedS = append(rr.Series.ElapsedS, s.ElapsedS)
		rr.Series.Execs = append(rr.Series.Execs, s.Execs)
		for m := range rr.Final {
			rr.Series.Covered[m] = append(rr.Series.Covered[m], s.Coverage[m].Covered)
			if _, ok := rr.SaturatedS[m]; !ok && s.Coverage[m].Covered >= rr.Final[m].Covered {
				rr.SaturatedS[m] = s.ElapsedS
			}
		}
	}
	for _, f := range rd.Stats.Findings {
		rr.Findings = append(rr.Findings, FindTime{Key: f.Key, TimeS: f.TimeS, Execs: f.Execs})
	}
	sort.SliceStable(rr.Findings, func(i, j int) bool { return rr.Findings[i].TimeS < rr.Findings[j].TimeS })
	return rr
}

func findExecs(rr *RunReport, key string) (int64, bool) {
	for _, f := range rr.Findings {
		if f.Key == key {
			return f.Execs, true
		}
	}
	return 0, false
}

func findTime(rr *RunReport, key string) (float64, bool) {
	for _, f := range rr.Findings {
		if f.Key == key {
			return f.TimeS, true
		}
	}
	return 0, false
}

func critIndex(g Grid, c string) int {
	for i, x := range g.Criteria {
		if x == c {
			return i
		}
	}
	return len(g.Criteria)
}

func ptr(f float64) *float64 { return &f }

func round6(f float64) float64 {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0
	}
	return math.Round(f*1e6) / 1e6
}
