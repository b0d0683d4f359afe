package subject

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/coverage/resolve"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/labels"
)

// DefaultSolveTimeout is z3's default budget per label (resolve.DefaultTimeout).
const DefaultSolveTimeout = resolve.DefaultTimeout

// SolveOptions are the --solve flags of gentests and cover.
type SolveOptions struct {
	On      bool
	Timeout time.Duration
}

// solveSummary is what gentests --solve did, per label and per criterion.
type solveSummary struct {
	Tests    []string                           `json:"tests"`
	Labels   []resolve.Label                    `json:"labels"`
	Criteria map[labels.Key]*measure.Resolution `json:"criteria"`
	Seconds  float64                            `json:"seconds"`
}

// solveUncovered is gentests --solve: resolve.Uncovered, writing each
// solved test to out as gen-solved-NN-....args (or .env: with a world,
// found by the environment search from seeds with seed, within runs
// environments when runs > 0: gentests --runs).
func solveUncovered(ctx context.Context, w io.Writer, m *measure.Measurer, og *outputs.Guard, out, plan string, have map[string]bool, so SolveOptions, seeds []*measure.Test, seed uint64, runs int) (*solveSummary, error) {
	start := time.Now()
	labelOf := labelSlugs(m.Labels())
	n := 0
	write := func(text, ext string, id int, adds []string) (string, error) {
		n++
		name := fmt.Sprintf("gen-solved-%02d-%s%s", n, fileSafe(labelOf[measure.LabelItem(id)]), ext)
		if err := og.WriteFile("--out", filepath.Join(out, name), []byte(text), 0o644); err != nil {
			return "", fmt.Errorf("gentests: %w", err)
		}
		how := "solved"
		if ext == ".env" {
			how = "found by the environment search"
		}
		fmt.Fprintf(w, "%s: %s for label %d, covers %d item(s) no test did (%s)\n", name, how, id, len(adds), strings.Join(firstN(adds, 4), ", "))
		return name, nil
	}
	r, err := resolve.Uncovered(ctx, m, have, resolve.Options{Plan: plan, Timeout: so.Timeout, Write: write, Seeds: seeds, Seed: seed, Runs: runs})
	if err != nil {
		return nil, fmt.Errorf("--solve: %w", err)
	}
	return &solveSummary{Tests: r.Tests, Labels: r.Labels, Criteria: r.Tally(), Seconds: time.Since(start).Seconds()}, nil
}

// solvable says why --solve cannot run on m's plan (nil when it can):
// checked before the long work, so that it does not run in vain.
func solvable(m *measure.Measurer) error {
	if err := resolve.Solvable(m); err != nil {
		return fmt.Errorf("--solve: %w", err)
	}
	return nil
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
		case measure.StatusCovered:
			covered++
			if r.Test == "suite" {
				before++
			}
		case measure.StatusInfeasible:
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
		if r.Status == measure.StatusCovered {
			continue
		}
		fmt.Fprintf(w, "  label %d (%s %s, %s) %s: %s\n", r.ID, r.Criterion, r.Operator, r.Pos, r.Status, r.Reason)
	}
}

// verdicts are s's labels neither covered nor written, as
// measure.Resolve takes them.
func (s *solveSummary) verdicts() map[int]measure.Verdict {
	r := resolve.Result{Labels: s.Labels}
	return r.Verdicts()
}

func writeSolveJSON(w io.Writer, s *solveSummary) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(s)
}
