package subject

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/solve"
)

// SolveOptions are gentests' --solve flags.
type SolveOptions struct {
	On      bool
	Timeout time.Duration
}

// labelResolution is one active label after gentests --solve.
type labelResolution struct {
	ID        int        `json:"id"`
	Criterion labels.Key `json:"criterion"`
	Operator  string     `json:"operator"`
	Pos       string     `json:"pos"`
	// Status is covered, infeasible or unresolved.
	Status string `json:"status"`
	// Test names the test covering it ("suite" when the suite or the
	// fuzzed tests did); Reason explains infeasible and unresolved.
	Test   string `json:"test,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// solveSummary is what --solve did, per label and per criterion.
type solveSummary struct {
	Tests    []string                    `json:"tests"`
	Labels   []labelResolution           `json:"labels"`
	Criteria map[labels.Key]*statusTally `json:"criteria"`
	Seconds  float64                     `json:"seconds"`
}

type statusTally struct {
	Covered    int `json:"covered"`
	Infeasible int `json:"infeasible"`
	Unresolved int `json:"unresolved"`
}

// solveUncovered is gentests --solve: for each active label no test
// covers (have), it solves the label's reach condition with z3, replays
// the arguments found on the plan and writes those that cover it to out
// as .args tests (gen-solved-NN-...); the others end infeasible (z3 proved
// the exact condition unsatisfiable) or unresolved.
func solveUncovered(ctx context.Context, w io.Writer, m *measure.Measurer, og *outputs.Guard, out, plan string, have map[string]bool, so SolveOptions) (*solveSummary, error) {
	start := time.Now()
	if err := solvable(m); err != nil {
		return nil, err
	}
	z3, err := solve.LookZ3()
	if err != nil {
		return nil, fmt.Errorf("--solve: %w", err)
	}
	ann := m.Annotated()
	an, err := solve.Analyze(ann.File, ann.Active, plan)
	if err != nil {
		return nil, fmt.Errorf("--solve: %w", err)
	}
	z, err := solve.StartZ3(ctx, z3)
	if err != nil {
		return nil, fmt.Errorf("--solve: %w", err)
	}
	defer z.Close()
	sum := &solveSummary{Criteria: map[labels.Key]*statusTally{}}
	by := map[int]*labelResolution{}
	labelOf := labelSlugs(ann.Active)
	for _, l := range ann.Active {
		r := &labelResolution{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator, Pos: l.Pos.String()}
		if have["label:"+strconv.Itoa(l.ID)] {
			r.Status, r.Test = "covered", "suite"
		}
		by[l.ID] = r
	}
	n := 0
	// mismatch names a label whose exact condition's model did not cover
	// it on replay: the translation disagrees with the VM on this plan, so
	// none of its unsat answers is trusted.
	mismatch := 0
	for _, l := range ann.Active {
		r := by[l.ID]
		if r.Status != "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			r.Status, r.Reason = "unresolved", "not tried: "+err.Error()
			continue
		}
		v, err := an.Solve(z, l.ID, so.Timeout)
		if err != nil && ctx.Err() != nil { // interrupted: z3 was killed
			r.Status, r.Reason = "unresolved", "not tried: "+ctx.Err().Error()
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("--solve: label %d: %w", l.ID, err)
		}
		switch v.Status {
		case solve.Infeasible:
			r.Status, r.Reason = "infeasible", v.Reason
			continue
		case solve.Unresolved:
			r.Status, r.Reason = "unresolved", v.Reason
			continue
		}
		var text strings.Builder
		for _, a := range v.Args {
			fmt.Fprintf(&text, "%d\n", a)
		}
		t, err := m.ParseTest("solved.args", []byte(text.String()))
		if err != nil {
			return nil, fmt.Errorf("--solve: the solver's arguments do not read as a test (a labelcov bug): %w", err)
		}
		got, err := m.Items(ctx, []*measure.Test{t})
		if err != nil {
			return nil, err
		}
		var adds []string
		covers := false
		for _, it := range got[0] {
			if it == "label:"+strconv.Itoa(l.ID) {
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
			r.Status, r.Reason = "unresolved", fmt.Sprintf("the solver's arguments %s did not cover it on replay (%s)", strings.Fields(text.String()), notExact(an, l.ID))
			continue
		}
		n++
		name := fmt.Sprintf("gen-solved-%02d-%s.args", n, fileSafe(labelOf["label:"+strconv.Itoa(l.ID)]))
		path := filepath.Join(out, name)
		if err := og.WriteFile("--out", path, []byte(text.String()), 0o644); err != nil {
			return nil, fmt.Errorf("gentests: %w", err)
		}
		sum.Tests = append(sum.Tests, name)
		for _, it := range adds {
			have[it] = true
			if id, ok := strings.CutPrefix(it, "label:"); ok {
				k, _ := strconv.Atoi(id)
				if o := by[k]; o != nil && o.Status == "" {
					o.Status, o.Test = "covered", name
				}
			}
		}
		fmt.Fprintf(w, "%s: solved for label %d, covers %d item(s) no test did (%s)\n", name, l.ID, len(adds), strings.Join(firstN(adds, 4), ", "))
	}
	for _, l := range ann.Active {
		r := by[l.ID]
		if r.Status == "infeasible" && mismatch != 0 {
			r.Status, r.Reason = "unresolved", fmt.Sprintf("the solver proved it unreachable, but on label %d a model of an exact condition did not replay: the translation disagrees with the VM on this plan, so no proof is trusted (%s)", mismatch, r.Reason)
		}
		sum.Labels = append(sum.Labels, *r)
		t := sum.Criteria[l.Criterion]
		if t == nil {
			t = &statusTally{}
			sum.Criteria[l.Criterion] = t
		}
		switch r.Status {
		case "covered":
			t.Covered++
		case "infeasible":
			t.Infeasible++
		default:
			t.Unresolved++
		}
	}
	sum.Seconds = time.Since(start).Seconds()
	return sum, nil
}

// solvable says why --solve cannot run on m's plan (nil when it can):
// checked before the campaign, so that it does not run in vain.
func solvable(m *measure.Measurer) error {
	if m.World() != nil {
		return fmt.Errorf("--solve: the plan runs in a world; solving covers plans whose inputs are their arguments (.args) only so far")
	}
	if _, err := solve.LookZ3(); err != nil {
		return fmt.Errorf("--solve: %w", err)
	}
	return nil
}

func notExact(an *solve.Analysis, id int) string {
	if an.Exact(id) {
		return "the condition is exact: the translation disagrees with the VM (a labelcov bug)"
	}
	return "the condition is approximate"
}

// printSolveSummary prints the resolution per criterion, then every
// infeasible and unresolved label with its reason.
func printSolveSummary(w io.Writer, s *solveSummary) {
	var keys []string
	for k := range s.Criteria {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	before, covered, infeasible, unresolved := 0, 0, 0, 0
	for _, r := range s.Labels {
		switch r.Status {
		case "covered":
			covered++
			if r.Test == "suite" {
				before++
			}
		case "infeasible":
			infeasible++
		default:
			unresolved++
		}
	}
	fmt.Fprintf(w, "solve: %d solved test(s) in %.1fs; of %d active labels: covered %d -> %d, proven infeasible %d, unresolved %d\n",
		len(s.Tests), s.Seconds, len(s.Labels), before, covered, infeasible, unresolved)
	for _, k := range keys {
		t := s.Criteria[labels.Key(k)]
		fmt.Fprintf(w, "  %-6s covered %d, infeasible %d, unresolved %d\n", k, t.Covered, t.Infeasible, t.Unresolved)
	}
	for _, r := range s.Labels {
		if r.Status == "covered" {
			continue
		}
		fmt.Fprintf(w, "  label %d (%s %s, %s) %s: %s\n", r.ID, r.Criterion, r.Operator, r.Pos, r.Status, r.Reason)
	}
}

func writeSolveJSON(w io.Writer, s *solveSummary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
