package measure

import "github.com/labelcov/labelcov/labels"

// Version is the version of the Report's JSON schema, for every front
// end (docs/report-schema.md). Version 2 made plans' and Go packages'
// reports one type: "front_end", Go's sections ("packages", "fuzz",
// "corpus", "per_test", "failing", "unlabelled", coverage.statements and
// .blocks), and code coverage a front end does not measure left out.
const Version = 2

// The front ends a Report comes from (Report.FrontEnd).
const (
	FrontPlan = "plan" // a plan run in labelcov's VM (Measurer)
	FrontGo   = "go"   // Go packages' tests or a fuzz target's corpus
	FrontSBCL = "sbcl" // a plan's labels recorded by SBCL's sb-cover (FromLabels)
)

// Report is what a suite covers, for every front end: plans, Go packages
// and SBCL's records. Its JSON form is the output of `labelcov cover
// --json`, documented field by field in docs/report-schema.md (a test
// keeps that list and these tags equal). Sections a front end does not
// fill are left out (omitempty); fields tagged "-" are for renderers
// (HTML, LCOV) only.
type Report struct {
	Version int `json:"version"`
	// FrontEnd is FrontPlan, FrontGo or FrontSBCL.
	FrontEnd string `json:"front_end"`
	// File, World and Plan: the plan file, its world file and the
	// def-plan run (plans, SBCL: "(recorded)").
	File  string `json:"file,omitempty"`
	World string `json:"world,omitempty"`
	Plan  string `json:"plan,omitempty"`
	// Packages are the Go packages measured; Fuzz names the fuzz target
	// whose corpus was measured ("" = the tests).
	Packages []string `json:"packages,omitempty"`
	Fuzz     string   `json:"fuzz,omitempty"`
	// Selected lists the criterion keys measured, in report order.
	Selected []labels.Key `json:"selected"`
	// Criteria has one entry per selected key.
	Criteria map[labels.Key]*KeyReport `json:"criteria"`
	// All sums every key.
	All      *KeyReport `json:"all"`
	Coverage Coverage   `json:"coverage"`
	// MCDC is the MC/DC of each decision (criterion mcdc selected).
	MCDC *MCDCReport `json:"mcdc,omitempty"`
	// Corpus counts the corpus entries a Go fuzz target ran (with Fuzz).
	Corpus *Corpus `json:"corpus,omitempty"`
	// Diversity is the diversity of all label coverage (same as
	// All.Diversity); nil where which test covers what is unknown (Go
	// without per-test runs).
	Diversity *Diversity `json:"diversity,omitempty"`
	// Uncovered lists every active label no test covered, in id order.
	Uncovered []*LabelResult `json:"uncovered"`
	// Infeasible lists the labels of the selected criteria that the
	// static analysis (labels/feasible) proved can never hold, with its
	// reason: they are not active, so no figure counts them.
	Infeasible []*LabelResult `json:"infeasible"`
	// Tests are the tests run (plans, SBCL: the recorded run).
	Tests []*TestResult `json:"tests,omitempty"`
	// PerTest (Go, per-test runs) maps "package TestName" (or a corpus
	// entry) to the label ids it covers when run alone.
	PerTest map[string][]int `json:"per_test,omitempty"`
	// Labels lists every active label in id order.
	Labels []*LabelResult `json:"labels"`
	// Failing lists the Go tests that failed; they were skipped and the
	// coverage is that of the other tests.
	Failing []string `json:"failing,omitempty"`
	// Unlabelled lists the Go functions left unlabelled, with the reason.
	Unlabelled []string `json:"unlabelled,omitempty"`
	// Warnings: label enumeration warnings and runs where the annotated plan
	// behaved differently from the original (a labelcov bug).
	Warnings []string `json:"warnings,omitempty"`

	Source []byte         `json:"-"` // the original plan text
	Lines  []LineCoverage `json:"-"` // original plan, lines with instructions
	Funcs  []FuncCoverage `json:"-"` // original plan, named functions
}

// Corpus counts the corpus entries a Go fuzz target ran on.
type Corpus struct {
	Seeds  int `json:"seeds"`
	Cached int `json:"cached"`
	// Crashing lists the entries the target fails on ("f.Add seed #N" or a
	// file path); the coverage is that of the other entries.
	Crashing []string `json:"crashing,omitempty"`
}

// KeyReport is the coverage of one criterion key (or of all keys), the
// one row every front end reports (plans, Go packages, SBCL's records):
// covered/total in the key's unit (labels; conditions for mcdc) as
// labels.Figures counts it.
type KeyReport struct {
	Count
	Trivial    int `json:"trivial"`
	Infeasible int `json:"infeasible"`
	// Skipped counts labels listed but not injected (a point nested too
	// deep, dist rungs left out), each with its reason in the manifest;
	// like trivial and infeasible ones they are not in Total.
	Skipped int `json:"skipped,omitempty"`
	// Diversity is the Hill numbers of the row's unit over distinct
	// traces: always for plans, after per-test runs for Go (nil
	// otherwise: which test covers what is unknown).
	Diversity *Diversity `json:"diversity,omitempty"`
	// Resolution splits Total (in the key's unit: labels, MC/DC
	// conditions) into covered, proven infeasible and unresolved; nil
	// where labels are not resolved (Go).
	Resolution *Resolution `json:"resolution,omitempty"`
	// Operators breaks the key down by label operator ("TF", "true",
	// "< -> <=", ...), listed in OperatorOrder.
	Operators     map[string]*Count `json:"operators,omitempty"`
	OperatorOrder []string          `json:"operator_order,omitempty"`
}

// TallyLabel counts label l in its criterion's row kr and in all: a
// trivial, infeasible or skipped label in that count (such labels are not
// in Total), an active one under its operator, covered or not. It reports
// whether l is active. Every front end's rows are counted by it.
func TallyLabel(kr, all *KeyReport, l *labels.Label, covered bool) bool {
	switch l.Status {
	case labels.Trivial:
		kr.Trivial++
		all.Trivial++
		return false
	case labels.Infeasible:
		kr.Infeasible++
		all.Infeasible++
		return false
	case labels.Skipped:
		kr.Skipped++
		all.Skipped++
		return false
	}
	op := kr.Operators[l.Operator]
	if op == nil {
		op = &Count{}
		kr.Operators[l.Operator] = op
		kr.OperatorOrder = append(kr.OperatorOrder, l.Operator)
	}
	op.Record(covered)
	return true
}

// Count is covered out of total, with the percentage reports print.
type Count struct {
	labels.Fraction
	Percent *float64 `json:"percent"` // null when Total is 0
}

// Record counts one more item, covered or not, and updates Percent.
func (c *Count) Record(covered bool) {
	c.Add(covered)
	c.Percent = Percent(c.Covered, c.Total)
}

// Percent is covered/total in percent with one decimal, or nil when there
// is nothing to cover: 0 of 0 is neither 0 % nor 100 % (reports print n/a,
// JSON null).
func Percent(covered, total int) *float64 {
	if total == 0 {
		return nil
	}
	p := float64(int(1000*float64(covered)/float64(total)+0.5)) / 10
	return &p
}

// Coverage is the plain coverage of the original code, each measure
// where its front end measures it (nil: not measured): instructions and
// branch outcomes of a plan (not of SBCL's records), action buckets with
// a world, Go's statements and blocks.
type Coverage struct {
	Instructions *Count `json:"instructions,omitempty"`
	// Branches counts branch outcomes: each conditional jump has two.
	Branches *Count `json:"branches,omitempty"`
	// Actions is nil without a world.
	Actions *ActionCoverage `json:"actions,omitempty"`
	// Statements is Go's statement coverage of the original code.
	Statements *Count `json:"statements,omitempty"`
	// Blocks counts the original Go code's basic blocks that ran.
	Blocks *Count `json:"blocks,omitempty"`
}

// ActionCoverage is action-coverage buckets hit by the suite.
type ActionCoverage struct {
	Count
	// Hit lists the hit buckets (name and how many actions fell in it).
	Hit []Bucket `json:"hit"`
}

// Bucket is one hit action bucket.
type Bucket struct {
	Bucket string `json:"bucket"`
	Hits   uint64 `json:"hits"`
}

// Diversity is the Hill numbers of label coverage: the abundance of a
// label is the number of distinct test traces that cover it. D0 is the
// number of covered labels, D1 exp(Shannon entropy), D2 inverse Simpson.
type Diversity struct {
	labels.Hill
	// Traces is how many distinct traces the suite's tests produced.
	Traces int `json:"traces"`
}

// LabelRow is what every front end reports of one label (plans, Go
// packages, SBCL's records): its identity, predicate, position and
// whether it is covered. Each front end's label result embeds it and adds
// what it knows besides (plans: reached, the covering tests, the status).
type LabelRow struct {
	ID        int        `json:"id"`
	Criterion labels.Key `json:"criterion"`
	Operator  string     `json:"operator"`
	Predicate string     `json:"predicate"`
	// Expr is Predicate with temporaries resolved back to the source
	// expressions they hold (labels.Label.Expr); Source is the original
	// text the label is about. Reports show these, not %lcN temporaries.
	Expr   string `json:"expr,omitempty"`
	Source string `json:"source,omitempty"`
	Guard  string `json:"guard,omitempty"`
	// Pos is file:line:col of the original source (At, for people).
	Pos string `json:"pos"`
	// Covered: some test reached the label with its predicate true.
	Covered bool `json:"covered"`

	At labels.Position `json:"-"`
}

// RowOf is the row of label l, not covered yet; file names l's file when
// its position has none.
func RowOf(l *labels.Label, file string) LabelRow {
	r := LabelRow{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator, Predicate: l.Predicate,
		Expr: l.Expr, Source: l.Source, Guard: l.Guard, At: l.Pos}
	if r.At.File == "" {
		r.At.File = file
	}
	r.Pos = r.At.String()
	return r
}

// LabelResult is one active label and what covered it, for every front
// end.
type LabelResult struct {
	LabelRow
	// Reached: some test evaluated the predicate at all; nil where it is
	// not known (Go).
	Reached *bool `json:"reached,omitempty"`
	// Tests names the tests covering the label (null where which test
	// covers what is unknown: Go without per-test runs); Traces counts
	// their distinct traces (the label's abundance for Diversity; nil
	// where unknown).
	Tests  []string `json:"tests"`
	Traces *int     `json:"traces,omitempty"`
	// Status is the label's resolution: StatusCovered (Tests name the
	// tests), StatusInfeasible (Reason says why no input can cover it) or
	// StatusUnresolved (Reason says what was tried).
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`

	// End is the byte offset just past the original expression the label
	// is about (At.Offset when unknown).
	End int `json:"-"`
}

// WasReached reports whether some test is known to have evaluated l's
// predicate.
func (l *LabelResult) WasReached() bool { return l.Reached != nil && *l.Reached }

// TraceCount is l's number of distinct covering traces (0 when unknown).
func (l *LabelResult) TraceCount() int {
	if l.Traces == nil {
		return 0
	}
	return *l.Traces
}

// TestResult is one test's run.
type TestResult struct {
	Name    string `json:"name"`
	Kind    Kind   `json:"kind"`
	Outcome string `json:"outcome"`
	Result  string `json:"result,omitempty"`
	Failure string `json:"failure,omitempty"`
	// Errors are the categories the def-checks returned.
	Errors  []string `json:"errors,omitempty"`
	Actions int      `json:"actions"`
	// Trace identifies the test's trace (see TraceText): equal traces,
	// equal ids.
	Trace string `json:"trace"`
	// Labels are the ids of the labels the test covered.
	Labels []int `json:"labels"`
}

// LineCoverage is one line of the original plan that has instructions.
type LineCoverage struct {
	Line int
	// Instructions on the line and how many ran.
	Instructions, Covered int
	// Hits is the largest execution count of the line's instructions,
	// summed over tests (counters saturate at 255 per run: a lower bound).
	Hits int
}

// FuncCoverage is one named function (defun, def-plan, def-check,
// def-policy) of the original plan.
type FuncCoverage struct {
	Name string
	Line int
	// Hits sums over tests how often its first instruction ran
	// (saturating at 255 per run).
	Hits int
}
