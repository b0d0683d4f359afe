package resolve

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/solve"
)

// DefaultTimeout is z3's default budget per label (solve.Analysis.Solve).
const DefaultTimeout = 5 * time.Second

// Options say how to resolve.
type Options struct {
	// Plan names the def-plan ("" for main or the only one).
	Plan string
	// Timeout is z3's budget per label (DefaultTimeout when 0): its
	// resource limit, about that much CPU time.
	Timeout time.Duration
	// Write, when set, keeps an input that covers label id on replay as
	// a test and returns its name: text is the test's file (arguments,
	// one integer per line, or a scenario) and ext its extension (".args"
	// or ".env"); adds are the coverage items no earlier test had.
	// Without Write, such a label stays unresolved, its reason giving the
	// input.
	Write func(text, ext string, id int, adds []string) (name string, err error)
	// With a world: Seeds are the tests whose environments the
	// environment search starts from (the suite, the campaign's inputs),
	// Seed its random seed, and Runs a bound on the environments it runs
	// (0: until ctx ends, or Timeout per label when ctx has no deadline).
	Seeds []*measure.Test
	Seed  uint64
	Runs  int
}

// Label is one active label's resolution.
type Label struct {
	ID        int        `json:"id"`
	Criterion labels.Key `json:"criterion"`
	Operator  string     `json:"operator"`
	Pos       string     `json:"pos"`
	// Status is measure.StatusCovered, StatusInfeasible or StatusUnresolved.
	Status string `json:"status"`
	// Test names the test covering it ("suite" when one of the tests
	// given did); Reason explains infeasible and unresolved.
	Test   string `json:"test,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Result is what Uncovered did.
type Result struct {
	// Tests are the names Write returned, in order.
	Tests []string `json:"tests"`
	// Labels are every active label, in the measurer's order.
	Labels []Label `json:"labels"`
}

// Verdicts are the labels of r neither covered nor written, as
// measure.Resolve takes them.
func (r *Result) Verdicts() map[int]measure.Verdict {
	out := map[int]measure.Verdict{}
	for _, l := range r.Labels {
		if l.Status != measure.StatusCovered {
			out[l.ID] = measure.Verdict{Infeasible: l.Status == measure.StatusInfeasible, Reason: l.Reason}
		}
	}
	return out
}

// Solvable says why Uncovered cannot run on m's plan (nil when it can):
// a verb checks it before any long work.
func Solvable(m *measure.Measurer) error {
	if m.World() != nil {
		return nil // the environment search (searchWorld) needs no z3
	}
	_, err := solve.LookZ3()
	return err
}

// Uncovered resolves each active label of m's plan whose item
// (measure.LabelItem) is not in have: it solves the label's reach
// condition with z3, replays the arguments found on the plan and, when
// they cover the label, hands them to o.Write (have then gains what they
// cover); otherwise the label ends infeasible (z3 proved its exact
// condition unsatisfiable) or unresolved. Once ctx is done, the labels
// left end unresolved ("not tried"). On a plan with a world the solver
// does not run (it models arguments, not the query results the
// environment decides): an environment search does (searchWorld).
func Uncovered(ctx context.Context, m *measure.Measurer, have map[string]bool, o Options) (*Result, error) {
	if err := Solvable(m); err != nil {
		return nil, err
	}
	ann := m.Annotated()
	by := map[int]*Label{}
	for _, l := range ann.Active {
		r := &Label{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator, Pos: l.Pos.String()}
		if have[measure.LabelItem(l.ID)] {
			r.Status, r.Test = measure.StatusCovered, "suite"
		}
		by[l.ID] = r
	}
	if m.World() != nil {
		return searchWorld(ctx, m, have, by, o)
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	z3, err := solve.LookZ3()
	if err != nil {
		return nil, err
	}
	an, err := solve.Analyze(ann.File, ann.Active, o.Plan)
	if err != nil {
		return nil, err
	}
	z, err := solve.StartZ3(ctx, z3)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	res := &Result{}
	// found holds, for each label that arguments found (and not written)
	// cover on replay, those arguments.
	found := map[int][]string{}
	// mismatch names a label whose exact condition's model did not cover
	// it on replay: the translation disagrees with the VM on this plan, so
	// none of its unsat answers is trusted.
	mismatch := 0
	for _, l := range ann.Active {
		r := by[l.ID]
		if r.Status != "" {
			continue
		}
		if args, ok := found[l.ID]; ok {
			r.Status, r.Reason = measure.StatusUnresolved, coverable(args)
			continue
		}
		if ctx.Err() != nil {
			r.Status, r.Reason = measure.StatusUnresolved, notTried(ctx)
			continue
		}
		v, err := an.Solve(z, l.ID, timeout)
		if err != nil && ctx.Err() != nil { // interrupted: z3 was killed
			r.Status, r.Reason = measure.StatusUnresolved, notTried(ctx)
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("label %d: %w", l.ID, err)
		}
		switch v.Status {
		case solve.Infeasible:
			r.Status, r.Reason = measure.StatusInfeasible, v.Reason
			continue
		case solve.Unresolved:
			r.Status, r.Reason = measure.StatusUnresolved, v.Reason
			continue
		}
		var text strings.Builder
		args := make([]string, len(v.Args))
		for i, a := range v.Args {
			args[i] = strconv.FormatInt(a, 10)
			fmt.Fprintf(&text, "%d\n", a)
		}
		t, err := m.ParseTest("solved.args", []byte(text.String()))
		if err != nil {
			return nil, fmt.Errorf("the solver's arguments do not read as a test (a labelcov bug): %w", err)
		}
		got, err := m.Items(ctx, []*measure.Test{t})
		if err != nil && ctx.Err() != nil {
			r.Status, r.Reason = measure.StatusUnresolved, notTried(ctx)
			continue
		}
		if err != nil {
			return nil, err
		}
		var adds []string
		covers := false
		for _, it := range got[0] {
			if it == measure.LabelItem(l.ID) {
				covers = true
			}
			if !have[it] {
				adds = append(adds, it)
			}
		}
		if !covers {
			if an.Exact(l.ID) && mismatch == 0 {
				mismatch = l.ID
			}
			r.Status, r.Reason = measure.StatusUnresolved, fmt.Sprintf("the solver's arguments %s did not cover it on replay (%s)", args, notExact(an, l.ID))
			continue
		}
		if o.Write == nil {
			for _, it := range adds {
				if id, ok := labelOf(it); ok {
					if _, seen := found[id]; !seen {
						found[id] = args
					}
				}
			}
			r.Status, r.Reason = measure.StatusUnresolved, coverable(args)
			continue
		}
		name, err := o.Write(text.String(), ".args", l.ID, adds)
		if err != nil {
			return nil, err
		}
		res.Tests = append(res.Tests, name)
		for _, it := range adds {
			have[it] = true
			if id, ok := labelOf(it); ok {
				if o := by[id]; o != nil && o.Status == "" {
					o.Status, o.Test = measure.StatusCovered, name
				}
			}
		}
	}
	for _, l := range ann.Active {
		r := by[l.ID]
		if r.Status == measure.StatusInfeasible && mismatch != 0 {
			r.Status, r.Reason = measure.StatusUnresolved, fmt.Sprintf("the solver proved it unreachable, but on label %d a model of an exact condition did not replay: the translation disagrees with the VM on this plan, so no proof is trusted (%s)", mismatch, r.Reason)
		}
		res.Labels = append(res.Labels, *r)
	}
	return res, nil
}

// notTried is the reason of a label left once ctx is done: its deadline
// (gentests' --budget) passed, or the run was interrupted.
func notTried(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "not tried: the time budget (gentests --budget) ran out before it"
	}
	return "not tried: " + ctx.Err().Error()
}

// coverable is the reason of a label that arguments found by the solver
// cover on replay, when no test was written for them.
func coverable(args []string) string {
	return fmt.Sprintf("no test covers it; the solver found arguments %s that cover it on replay (gentests --solve writes them as a test)", args)
}

// labelOf is the id of a label item.
func labelOf(item string) (int, bool) {
	s, ok := strings.CutPrefix(item, measure.ItemLabel)
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(s)
	return id, err == nil
}

func notExact(an *solve.Analysis, id int) string {
	if an.Exact(id) {
		return "the condition is exact: the translation disagrees with the VM (a labelcov bug)"
	}
	return "the condition is approximate"
}

// Tally counts r's labels by status per criterion (labels, MC/DC vectors
// included as labels).
func (r *Result) Tally() map[labels.Key]*measure.Resolution {
	out := map[labels.Key]*measure.Resolution{}
	for _, l := range r.Labels {
		t := out[l.Criterion]
		if t == nil {
			t = &measure.Resolution{}
			out[l.Criterion] = t
		}
		switch l.Status {
		case measure.StatusCovered:
			t.Covered++
		case measure.StatusInfeasible:
			t.Infeasible++
		default:
			t.Unresolved++
		}
	}
	return out
}
