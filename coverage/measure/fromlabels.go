package measure

import (
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Hits is what a front end measured of its active labels, for FillLabels.
type Hits struct {
	// Covering lists, per label id, the indices into Tests of the tests
	// that reached it with its predicate true; Tests and TraceOf name each
	// test and its trace id. A label's abundance is the number of distinct
	// traces among the tests covering it. Nil Tests: which test covers
	// what is unknown (Go without per-test runs), and Covered says which
	// labels are covered.
	Covering       map[int][]int
	Tests, TraceOf []string
	Covered        map[int]bool
	// Reached: the labels reached at all; nil where unknown (Go).
	Reached map[int]bool
}

// FillLabels fills rep's labels, uncovered and infeasible labels, rows
// (criteria, all, diversity: labels.Figures) and resolution: active are
// the labels the measurement covers, in id order; all is every label
// (trivial and infeasible ones included), ds the MC/DC decisions; file
// names a label's file where its position has none; ends maps a label's
// offset to the end of the original expression it is about (plans; nil
// elsewhere). Every front end's report is built through it (Measurer.Run,
// FromLabels, Go's gotest.NewReport).
func FillLabels(rep *Report, active, all []*labels.Label, ds []*labels.Decision, file string, ends map[int]int, h Hits) error {
	known := h.Tests != nil
	abundance := map[int]int{}
	for _, l := range active {
		lr := &LabelResult{LabelRow: RowOf(l, file), End: l.Pos.Offset}
		if h.Reached != nil {
			r := h.Reached[l.ID]
			lr.Reached = &r
		}
		if e, ok := ends[l.Pos.Offset]; ok {
			lr.End = e
		}
		if known {
			lr.Tests = []string{}
			distinct := map[string]bool{}
			for _, ti := range h.Covering[l.ID] {
				lr.Tests = append(lr.Tests, h.Tests[ti])
				distinct[h.TraceOf[ti]] = true
			}
			n := len(distinct)
			lr.Traces = &n
			lr.Covered = n > 0
			abundance[l.ID] = n
		} else if lr.Covered = h.Covered[l.ID]; lr.Covered {
			abundance[l.ID] = 1
		}
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
	traces := -1 // diversity unknown
	if known {
		distinctAll := map[string]bool{}
		for _, id := range h.TraceOf {
			distinctAll[id] = true
		}
		traces = len(distinctAll)
	}
	if err := fillCriteria(rep, all, ds, abundance, traces); err != nil {
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
// no def-plan of the file ran. Nothing else of the plan is measured: the
// report has no instruction or branch coverage.
func FromLabels(m *labels.Manifest, orig *syntax.File, test string, covered, reached map[int]bool) (*Report, error) {
	var active []*labels.Label
	for _, l := range m.Labels {
		if l.Status == labels.Active {
			active = append(active, l)
		}
	}
	rep := &Report{Version: Version, FrontEnd: FrontSBCL, File: orig.Name, Plan: "(recorded)", Selected: m.Criteria, Source: orig.Src,
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
	if err := FillLabels(rep, active, m.Labels, m.Decisions, orig.Name, exprEnds(orig), Hits{Covering: covering, Reached: reach,
		Tests: []string{test}, TraceOf: []string{tr.Trace}}); err != nil {
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
	return rep, nil
}

// abundance maps each active label's id to the number of distinct traces
// that covered it.
func (r *Report) abundance() map[int]int {
	a := make(map[int]int, len(r.Labels))
	for _, l := range r.Labels {
		a[l.ID] = l.TraceCount()
	}
	return a
}
