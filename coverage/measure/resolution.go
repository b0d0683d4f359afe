package measure

import (
	"fmt"
	"strings"

	"github.com/labelcov/labelcov/labels"
)

// The statuses every active label ends in (LabelResult.Status).
const (
	// StatusCovered: a test of the suite covers the label.
	StatusCovered = "covered"
	// StatusInfeasible: no input can cover it, for the reason given.
	StatusInfeasible = "infeasible"
	// StatusUnresolved: neither; the reason says what was tried.
	StatusUnresolved = "unresolved"
)

// Resolution counts a criterion's objectives (labels; for mcdc,
// conditions) by status; the three add up to the key's Total.
type Resolution struct {
	Covered    int `json:"covered"`
	Infeasible int `json:"infeasible"`
	Unresolved int `json:"unresolved"`
}

// Justified is covered plus proven infeasible, out of the total.
func (r Resolution) Justified() labels.Fraction {
	return labels.Fraction{Covered: r.Covered + r.Infeasible, Total: r.Covered + r.Infeasible + r.Unresolved}
}

// Verdict is a prover's answer on an active label no test covers (package
// coverage/resolve asks z3): Infeasible with the reason no input can
// cover it, or unresolved with what was tried.
type Verdict struct {
	Infeasible bool
	Reason     string
}

// Resolve sets the status of every active label of rep that no test
// covers from verdicts (by label id; a label without one stays unresolved)
// and recounts each criterion's Resolution. An MC/DC condition is
// infeasible when no independence pair can cover it: every pair has a
// vector proven infeasible, by verdicts or by the static analysis.
func (m *Measurer) Resolve(rep *Report, verdicts map[int]Verdict) error {
	return resolve(rep, m.ann.Labels().Labels, m.ann.Labels().Decisions, verdicts)
}

// resolve is Resolve on the labels all and decisions ds rep was measured
// with; FillLabels calls it without verdicts.
func resolve(rep *Report, all []*labels.Label, ds []*labels.Decision, verdicts map[int]Verdict) error {
	proven := map[int]bool{}
	for _, l := range rep.Labels {
		switch v, ok := verdicts[l.ID]; {
		case l.Covered:
			l.Status, l.Reason = StatusCovered, ""
		case ok && v.Infeasible:
			l.Status, l.Reason = StatusInfeasible, v.Reason
			proven[l.ID] = true
		case ok:
			l.Status, l.Reason = StatusUnresolved, v.Reason
		default:
			l.Status, l.Reason = StatusUnresolved, Untried(l)
		}
	}
	selected := map[labels.Key]bool{}
	for _, k := range rep.Selected {
		selected[k] = true
	}
	rep.Infeasible = []*LabelResult{}
	for _, l := range all {
		if l.Status != labels.Infeasible || !selected[l.Criterion] {
			continue
		}
		lr := &LabelResult{LabelRow: RowOf(l, rep.File), Tests: []string{},
			End: l.Pos.Offset, Status: StatusInfeasible, Reason: "static analysis: " + l.Reason}
		rep.Infeasible = append(rep.Infeasible, lr)
	}
	res := map[labels.Key]*Resolution{}
	get := func(k labels.Key) *Resolution {
		if res[k] == nil {
			res[k] = &Resolution{}
		}
		return res[k]
	}
	for _, l := range rep.Labels {
		if l.Criterion == labels.MCDC {
			continue
		}
		r := get(l.Criterion)
		switch l.Status {
		case StatusCovered:
			r.Covered++
		case StatusInfeasible:
			r.Infeasible++
		default:
			r.Unresolved++
		}
	}
	covered := map[int]bool{}
	for _, l := range rep.Labels {
		covered[l.ID] = l.Covered
	}
	for di, d := range ds {
		got, _, err := d.Measure(func(id int) bool { return covered[id] })
		if err != nil {
			return fmt.Errorf("mcdc: %w", err)
		}
		impossible, err := d.Impossible(func(id int) bool { return proven[id] })
		if err != nil {
			return fmt.Errorf("mcdc: %w", err)
		}
		r := get(labels.MCDC)
		for c, p := range got.Pairs {
			switch {
			case p != nil:
				r.Covered++
			case impossible[c]:
				r.Infeasible++
				// The MC/DC report suggests no vectors for it: "no
				// feasible independence pair".
				if rep.MCDC != nil && len(rep.MCDC.Decisions) == len(ds) && c < len(rep.MCDC.Decisions[di].Conditions) {
					rep.MCDC.Decisions[di].Conditions[c].Suggest = nil
				}
			default:
				r.Unresolved++
			}
		}
	}
	var sum Resolution
	for k, kr := range rep.Criteria {
		if r := res[k]; r != nil {
			kr.Resolution = r
			sum.Covered += r.Covered
			sum.Infeasible += r.Infeasible
			sum.Unresolved += r.Unresolved
		} else {
			kr.Resolution = &Resolution{}
		}
	}
	if rep.All != nil {
		rep.All.Resolution = &sum
	}
	return nil
}

// Untried is the reason of an uncovered label without a verdict: the
// suite and the static analysis were tried.
func Untried(l *LabelResult) string {
	if l.Reached == nil { // not measured (Go)
		return "no test covers it and the static analysis does not rule it out"
	}
	var b strings.Builder
	b.WriteString("no test covers it (")
	if *l.Reached {
		b.WriteString("reached: evaluated, never true")
	} else {
		b.WriteString("never reached")
	}
	b.WriteString(") and the static analysis does not rule it out")
	return b.String()
}
