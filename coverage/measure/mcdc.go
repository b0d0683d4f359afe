package measure

import (
	"fmt"

	"github.com/labelcov/labelcov/labels"
)

// MCDCReport is the MC/DC of a suite (criterion mcdc), as clang's llvm-cov
// reports it: per decision its executed test vectors and, per condition,
// the independence pair that covers it. Count counts conditions, as the
// mcdc row of the criteria does (labels.Figures); Vectors counts the test
// vectors (the mcdc labels) executed, apart.
type MCDCReport struct {
	Count
	Vectors   labels.Fraction   `json:"vectors"`
	Decisions []*DecisionReport `json:"decisions"`
}

// DecisionReport is the MC/DC of one decision.
type DecisionReport struct {
	ID     int    `json:"id"`
	Pos    string `json:"pos"`
	Source string `json:"source,omitempty"`
	// Covered and Total count its conditions.
	labels.Fraction
	// Executed lists the executed test vectors, numbered 1, 2, ... as
	// llvm-cov numbers them (outcome false first).
	Executed []*VectorReport `json:"executed"`
	// Conditions in source (evaluation) order.
	Conditions []*ConditionReport `json:"conditions"`

	At labels.Position `json:"-"`
}

// VectorReport is one test vector of a decision: T, F or - (not
// evaluated) per condition, and the decision's outcome.
type VectorReport struct {
	// N is the vector's number among the executed vectors (0 when it was
	// not executed).
	N       int    `json:"n,omitempty"`
	Values  string `json:"values"`
	Outcome bool   `json:"outcome"`
	// Label is the id of the vector's label.
	Label int `json:"label,omitempty"`
	// Tests names the tests that executed the vector (when known).
	Tests []string `json:"tests,omitempty"`
}

// ConditionReport is one condition of a decision.
type ConditionReport struct {
	Pos     string `json:"pos"`
	Source  string `json:"source,omitempty"`
	Covered bool   `json:"covered"`
	// Pair is the independence pair covering the condition: the numbers
	// of its executed vectors, outcome false then true (llvm-cov's
	// "C1-Pair: covered: (1,3)"), nil when not covered.
	Pair []int `json:"pair,omitempty"`
	// PairTests names the tests that executed the pair's vectors (false
	// vector's, then true vector's), when known.
	PairTests [][]string `json:"pair_tests,omitempty"`
	// Suggest, for an uncovered condition, lists the vectors a new test
	// (or two) must execute to complete a pair; empty when no feasible
	// pair exists.
	Suggest []*VectorReport `json:"suggest,omitempty"`

	At labels.Position `json:"-"`
}

// NewMCDCReport computes the MC/DC of decisions ds; covered says whether
// an active label (by id) was covered, tests (may be nil) which tests
// covered it.
func NewMCDCReport(ds []*labels.Decision, covered func(id int) bool, tests func(id int) []string) (*MCDCReport, error) {
	rep := &MCDCReport{Decisions: []*DecisionReport{}}
	for _, d := range ds {
		res, vs, err := d.Measure(covered)
		if err != nil {
			return nil, fmt.Errorf("mcdc: %w", err)
		}
		dr := &DecisionReport{ID: d.ID, Pos: d.Pos.String(), Source: d.Source, At: d.Pos, Executed: []*VectorReport{}}
		vector := func(i, n int) *VectorReport {
			v := &VectorReport{N: n, Values: vs[i].String(), Outcome: vs[i].Outcome, Label: d.Vectors[i].LabelID}
			if tests != nil && n > 0 {
				v.Tests = tests(v.Label)
			}
			return v
		}
		num := map[int]int{}
		for k, i := range res.Executed {
			num[i] = k + 1
			dr.Executed = append(dr.Executed, vector(i, k+1))
		}
		for c, cond := range d.Conditions {
			cr := &ConditionReport{Pos: cond.Pos.String(), Source: cond.Source, At: cond.Pos}
			if p := res.Pairs[c]; p != nil {
				cr.Covered = true
				cr.Pair = []int{num[p.False], num[p.True]}
				if tests != nil {
					cr.PairTests = [][]string{dr.Executed[num[p.False]-1].Tests, dr.Executed[num[p.True]-1].Tests}
				}
			}
			for _, i := range res.Suggest[c] {
				cr.Suggest = append(cr.Suggest, vector(i, num[i]))
			}
			dr.Add(cr.Covered)
			rep.Add(cr.Covered)
			dr.Conditions = append(dr.Conditions, cr)
		}
		rep.Decisions = append(rep.Decisions, dr)
	}
	rep.Percent = Percent(rep.Covered, rep.Total)
	return rep, nil
}
