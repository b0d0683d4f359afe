package measure

import (
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// fillLabels fills rep's labels, uncovered labels, criteria and diversity:
// active are the labels the annotated plan evaluates, in id order; all is
// every label (trivial and infeasible ones included); orig is the original
// plan (label positions); covering lists, per label id, the indices of
// the tests that reached it with its predicate true, reached the labels
// reached at all; tests and traceOf name each test and its trace id. A
// label's abundance is the number of distinct traces among the tests
// covering it. Measurer.Run and FromLabels build their reports through it.
func fillLabels(rep *Report, active, all []*labels.Label, ds []*labels.Decision, orig *syntax.File, covering map[int][]int, reached map[int]bool, tests, traceOf []string) error {
	ends := exprEnds(orig)
	abundance := map[int]int{}
	for _, l := range active {
		lr := &LabelResult{LabelRow: RowOf(l, orig.Name), Reached: reached[l.ID], Tests: []string{}, End: l.Pos.Offset}
		if e, ok := ends[l.Pos.Offset]; ok {
			lr.End = e
		}
		distinct := map[string]bool{}
		for _, ti := range covering[l.ID] {
			lr.Tests = append(lr.Tests, tests[ti])
			distinct[traceOf[ti]] = true
		}
		lr.Traces = len(distinct)
		lr.Covered = lr.Traces > 0
		abundance[l.ID] = lr.Traces
		rep.Labels = append(rep.Labels, lr)
		if !lr.Covered {
			rep.Uncovered = append(rep.Uncovered, lr)
		}
	}
	if rep.Labels == nil {
		rep.Labels = []*LabelResult{}
	}
	if rep.Uncovered == nil {
		rep.Uncovered = []*LabelResult{}
	}
	distinctAll := map[string]bool{}
	for _, id := range traceOf {
		distinctAll[id] = true
	}
	if err := fillCriteria(rep, all, ds, abundance, len(distinctAll)); err != nil {
		return err
	}
	return resolve(rep, all, ds, nil)
}

// FromLabels builds the report of label coverage measured outside
// labelcov's VM — by SBCL's sb-cover, say (package coverage/sbcover) —
// from the label manifest m of the annotated plan, the original plan orig
// (as m names it) and the labels that run covered and reached. The run
// counts as one test named test, whose trace is the run itself: every
// covered label has abundance 1; the report's plan is "(recorded)", as
// no def-plan of the file ran. Nothing else of the plan is measured, so
// the instruction and branch coverage of the original plan are 0 of 0.
func FromLabels(m *labels.Manifest, orig *syntax.File, test string, covered, reached map[int]bool) (*Report, error) {
	var active []*labels.Label
	for _, l := range m.Labels {
		if l.Status == labels.Active {
			active = append(active, l)
		}
	}
	rep := &Report{Version: Version, File: orig.Name, Plan: "(recorded)", Selected: m.Criteria, Source: orig.Src,
		Warnings: append([]string(nil), m.Warnings...)}
	tr := &TestResult{Name: test, Kind: KindRecorded, Outcome: "recorded", Labels: []int{}, Trace: TraceID(test)}
	covering, reach := map[int][]int{}, map[int]bool{}
	for _, l := range active {
		if covered[l.ID] {
			covering[l.ID] = []int{0}
			tr.Labels = append(tr.Labels, l.ID)
		}
		reach[l.ID] = reached[l.ID] || covered[l.ID]
	}
	rep.Tests = []*TestResult{tr}
	if err := fillLabels(rep, active, m.Labels, m.Decisions, orig, covering, reach, []string{test}, []string{tr.Trace}); err != nil {
		return nil, err
	}
	if len(m.Decisions) > 0 {
		mc, err := NewMCDCReport(m.Decisions, func(id int) bool { return covered[id] }, nil)
		if err != nil {
			return nil, err
		}
		mc.Vectors = labels.MCDCVectors(m.Labels, rep.abundance())
		rep.MCDC = mc
	}
	rep.Coverage.Instructions.Percent = Percent(0, 0)
	rep.Coverage.Branches.Percent = Percent(0, 0)
	return rep, nil
}

// abundance maps each active label's id to the number of distinct traces
// that covered it.
func (r *Report) abundance() map[int]int {
	a := make(map[int]int, len(r.Labels))
	for _, l := range r.Labels {
		a[l.ID] = l.Traces
	}
	return a
}
