package measure

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// TraceText is the trace of one run, the unit of label-coverage
// diversity. Two runs have the same trace exactly when they have the same
// outcome (ok with the same printed result value, or failure of the same
// kind, or timeout), the same def-check categories and check failures in
// check order, and the same action trace (every performed action with its
// arguments, outcome and result, in order; empty without a world). Printed
// output and step counts are not part of the trace.
func TraceText(outcome vm.Result, errors []string, checkErrors []string, actions []string) string {
	var b strings.Builder
	switch outcome.Outcome {
	case vm.OutcomeOK:
		fmt.Fprintf(&b, "outcome ok %s\n", outcome.Value.String())
	case vm.OutcomeFailure:
		kind := ""
		if outcome.Failure != nil {
			kind = outcome.Failure.Kind
		}
		fmt.Fprintf(&b, "outcome failure %s\n", kind)
	default:
		fmt.Fprintf(&b, "outcome %s\n", outcome.Outcome)
	}
	for _, e := range errors {
		fmt.Fprintf(&b, "error %s\n", e)
	}
	for _, e := range checkErrors {
		fmt.Fprintf(&b, "check-error %s\n", e)
	}
	for _, a := range actions {
		fmt.Fprintf(&b, "action %s\n", a)
	}
	return b.String()
}

// TraceID is a short stable digest of a trace text.
func TraceID(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:6])
}

// traceOf is the trace text of a run (TraceText).
func traceOf(res *runner.Result) string {
	var ce, acts []string
	for _, c := range res.Sim.CheckErrors {
		ce = append(ce, c.Check+" "+c.Kind)
	}
	for i := range res.Sim.Actions {
		acts = append(acts, res.Sim.Actions[i].String())
	}
	return TraceText(res.Sim.VM, res.Sim.Errors, ce, acts)
}

// Run runs every test on the annotated and on the original plan and
// reports what the suite covers. A test that cannot run (wrong number of
// arguments, say) is an error naming the test; a plan that fails or times
// out on a test is not: that is the test's outcome.
func (m *Measurer) Run(ctx context.Context, tests []*Test) (*Report, error) {
	ann, err := m.newRunner(m.ann.Program, m.ann)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	orig, err := m.newRunner(m.put.Original, nil)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	p := m.put.Original
	tally := NewTally(p, m.opts.World, m.ann)
	traceIDs := make([]string, len(tests))
	rep := &Report{Version: Version, FrontEnd: FrontPlan, File: m.put.File.Name, World: m.opts.WorldPath, Plan: m.plan.Name,
		Selected: m.opts.Labels.Criteria.Keys(), Source: m.put.File.Src}
	rep.Warnings = m.Warnings()

	for ti, t := range tests {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("measure: stopped before test %s: %w", t.Name, err)
		}
		ar, err := m.run(ctx, ann, t)
		if err != nil {
			return nil, err
		}
		tally.AddLabels(ti, ar)
		tr := &TestResult{Name: t.Name, Kind: t.Kind, Labels: append([]int{}, ar.Labels...)}
		annTrace := traceOf(ar)

		or, err := m.run(ctx, orig, t)
		if err != nil {
			return nil, err
		}
		tally.AddOriginal(or)
		origTrace := traceOf(or)
		if origTrace != annTrace {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("%s: the annotated plan behaved differently from the original (a labelcov bug):\noriginal:\n%sannotated:\n%s", t.Name, origTrace, annTrace))
		}
		traceIDs[ti] = TraceID(origTrace)
		tr.Trace = traceIDs[ti]
		res := or.Sim
		tr.Outcome = string(res.VM.Outcome)
		switch {
		case res.VM.Outcome == vm.OutcomeOK:
			tr.Result = res.VM.Value.String()
		case res.VM.Failure != nil:
			f := res.VM.Failure
			tr.Failure = f.Kind + ": " + f.Message
			if f.Pos.IsValid() {
				tr.Failure = fmt.Sprintf("%s at %s:%s", tr.Failure, f.File, f.Pos)
			}
		}
		tr.Errors = append(tr.Errors, res.Errors...)
		for _, c := range res.CheckErrors {
			tr.Errors = append(tr.Errors, "check "+c.Check+" failed: "+c.Kind)
		}
		tr.Actions = len(res.Actions)
		rep.Tests = append(rep.Tests, tr)
	}
	if rep.Tests == nil {
		rep.Tests = []*TestResult{}
	}

	names := make([]string, len(tests))
	for i, t := range tests {
		names[i] = t.Name
	}
	if err := FillLabels(rep, m.ann.Active, m.ann.Labels().Labels, m.ann.Labels().Decisions, m.put.File.Name, exprEnds(m.put.File),
		Hits{Covering: tally.Covering, Reached: tally.Reached, Tests: names, TraceOf: traceIDs}); err != nil {
		return nil, err
	}
	if m.opts.Labels.Criteria.Has(labels.MCDC) {
		testsOf := func(id int) []string {
			var out []string
			for _, ti := range tally.Covering[id] {
				out = append(out, tests[ti].Name)
			}
			return out
		}
		mc, err := NewMCDCReport(m.ann.Labels().Decisions, func(id int) bool { return len(tally.Covering[id]) > 0 }, testsOf)
		if err != nil {
			return nil, err
		}
		mc.Vectors = labels.MCDCVectors(m.ann.Labels().Labels, rep.abundance())
		rep.MCDC = mc
		rep.Criteria[labels.MCDC].Operators, rep.Criteria[labels.MCDC].OperatorOrder = nil, nil
	}

	// Plain coverage of the original plan.
	ins, br := withPercent(tally.Instructions()), withPercent(tally.Branches())
	rep.Coverage.Instructions, rep.Coverage.Branches = &ins, &br
	if w := m.opts.World; w != nil {
		ac := &ActionCoverage{Count: withPercent(tally.Actions()), Hit: []Bucket{}}
		for i, h := range tally.ActionHits {
			if h > 0 {
				ac.Hit = append(ac.Hit, Bucket{Bucket: w.BucketName(i), Hits: h})
			}
		}
		rep.Coverage.Actions = ac
	}
	rep.Lines = lineCoverage(p, tally.InstrHits)
	rep.Funcs = funcCoverage(p, tally.InstrHits)
	return rep, nil
}

// withPercent adds the percentage to a covered/total pair.
func withPercent(f labels.Fraction) Count {
	return Count{Fraction: f, Percent: Percent(f.Covered, f.Total)}
}

// fillCriteria computes per-key and per-operator counts and diversity of
// the labels all (every label, active or not); traces < 0: diversity
// unknown (the abundances only say covered or not).
func fillCriteria(rep *Report, all []*labels.Label, ds []*labels.Decision, abundance map[int]int, traces int) error {
	cov, err := labels.Figures(all, ds, abundance)
	if err != nil {
		return err
	}
	rep.Criteria = map[labels.Key]*KeyReport{}
	for _, k := range rep.Selected {
		rep.Criteria[k] = &KeyReport{Operators: map[string]*Count{}}
	}
	allKey := &KeyReport{}
	for _, l := range all {
		if kr := rep.Criteria[l.Criterion]; kr != nil {
			TallyLabel(kr, allKey, l, abundance[l.ID] > 0)
		}
	}
	diversity := func(c *labels.KeyCoverage) *Diversity {
		switch {
		case traces < 0:
			return nil
		case c == nil:
			return &Diversity{Traces: traces}
		}
		return &Diversity{Hill: RoundHill(c.Diversity), Traces: traces}
	}
	for k, kr := range rep.Criteria {
		if c := cov[k]; c != nil {
			kr.Covered, kr.Total = c.Covered, c.Total
		}
		kr.Diversity = diversity(cov[k])
		kr.Percent = Percent(kr.Covered, kr.Total)
		SortOperators(kr.OperatorOrder)
	}
	if c := cov[labels.All]; c != nil {
		allKey.Covered, allKey.Total = c.Covered, c.Total
	}
	allKey.Diversity = diversity(cov[labels.All])
	allKey.Percent = Percent(allKey.Covered, allKey.Total)
	rep.All = allKey
	rep.Diversity = allKey.Diversity
	return nil
}

// RoundHill rounds Hill numbers to 6 decimals, so reports (and golden
// files) do not depend on the last bits of floating-point arithmetic, which
// may differ between platforms (fused multiply-add).
func RoundHill(h labels.Hill) labels.Hill {
	r := func(x float64) float64 { return math.Round(x*1e6) / 1e6 }
	return labels.Hill{D0: r(h.D0), D1: r(h.D1), D2: r(h.D2)}
}

// SortOperators sorts operators in report order: CC true before false,
// MCC outcomes as binary numbers with T first (TT, TF, FT, FF), mutants
// ("< -> <=") grouped by the original operator in the order the originals
// were first seen, anything else in first-seen order (the sort is stable).
func SortOperators(ops []string) {
	first := map[string]int{}
	for i, op := range ops {
		if from, _, ok := strings.Cut(op, " -> "); ok {
			if _, seen := first[from]; !seen {
				first[from] = i
			}
		}
	}
	group := func(op string) int {
		from, _, _ := strings.Cut(op, " -> ")
		return first[from]
	}
	sort.SliceStable(ops, func(i, j int) bool {
		if ri, rj := operatorRank(ops[i]), operatorRank(ops[j]); ri != rj {
			return ri < rj
		}
		return group(ops[i]) < group(ops[j])
	})
}

// operatorRank is the sort key of SortOperators.
func operatorRank(op string) int {
	switch op {
	case "true":
		return 0
	case "false":
		return 1
	}
	if op != "" && strings.Trim(op, "TF") == "" && len(op) < 20 {
		r := 0
		for _, c := range op {
			r <<= 1
			if c == 'F' {
				r |= 1
			}
		}
		return r + len(op)<<20
	}
	return 1 << 30
}

// exprEnds maps the start offset of every expression of f to its end
// offset (the outermost expression when several start at one offset).
func exprEnds(f *syntax.File) map[int]int {
	out := map[int]int{}
	for _, form := range f.Forms {
		syntax.Walk(form, func(n syntax.Node) bool {
			s, e := n.Span()
			if _, ok := out[s.Offset]; !ok {
				out[s.Offset] = e.Offset
			}
			return true
		})
	}
	return out
}

func lineCoverage(p *compile.Program, hits []int) []LineCoverage {
	byLine := map[int]*LineCoverage{}
	var lines []int
	for pc, h := range hits {
		pos := p.Instr(pc)
		if pos.Line <= 0 || (p.Init != nil && pc >= p.Init.Entry && pc < p.Init.End && pos == p.Init.Pos) {
			continue // the initialiser's own return sits at 1:1, not in any form
		}
		ln := pos.Line
		lc := byLine[ln]
		if lc == nil {
			lc = &LineCoverage{Line: ln}
			byLine[ln] = lc
			lines = append(lines, ln)
		}
		lc.Instructions++
		if h > 0 {
			lc.Covered++
		}
		lc.Hits = max(lc.Hits, h)
	}
	sort.Ints(lines)
	out := make([]LineCoverage, len(lines))
	for i, ln := range lines {
		out[i] = *byLine[ln]
	}
	return out
}

func funcCoverage(p *compile.Program, hits []int) []FuncCoverage {
	var out []FuncCoverage
	for _, f := range p.Funcs {
		switch f.Kind {
		case compile.KindDefun, compile.KindPlan, compile.KindCheck, compile.KindPolicy:
		default:
			continue
		}
		fc := FuncCoverage{Name: f.Name, Line: f.Pos.Line}
		if f.Entry >= 0 && f.Entry < f.End && f.Entry < len(hits) {
			fc.Hits = hits[f.Entry]
		}
		out = append(out, fc)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
