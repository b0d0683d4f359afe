package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	"github.com/labelcov/labelcov/labels"
	"github.com/spf13/cobra"
)

func newGentestsCmd() *cobra.Command {
	var o coverOptions
	var g goFuzzOptions
	var out, guide string
	var budget time.Duration
	var runs int64
	var seed uint64
	var so solveOptions
	cmd := &cobra.Command{
		Use:   "gentests PLAN --tests DIR|FILE... --out NEWDIR [--budget 30s | --runs N] [--seed N] | gentests PACKAGE --fuzz FuzzX --out DIR --budget 30s",
		Short: "Generate tests for what a suite does not cover: fuzz seeded with the suite, keep the minimal new inputs",
		Long: `gentests measures a plan's suite as cover does, fuzzes the plan (built-in
engine, one worker, --seed) seeded with the suite's inputs and guided by
--guide (default mcc,wm), and keeps a small set of the inputs the campaign
found that cover what the suite does not — labels of --criteria (default
all,mcdc), branch outcomes, action buckets, finding categories — chosen by
greedy set cover over what each adds. Each is written to NEWDIR as a readable
test in the suite's own format: .args (the plan's arguments) without a world,
.env (a scenario) with one, named by what it covers first
(gen-01-mcc-TF-label-17.args). Each written test is measured again from its
file and must cover what it is kept for; the report gives the coverage
before and after. With --solve (plans without a world; z3 on PATH), each
label still uncovered is then resolved: covered by arguments z3 solves
for (replayed, written as gen-solved-NN-....args), infeasible (z3 proved
that no integer arguments reach it; the reason gives the contradictory
conditions) or unresolved (with what was tried); see docs/solve.md.

Go packages: given a package (./pkg) and --fuzz FuzzX instead of a plan, the
suite is the target's f.Add seeds and its testdata/fuzz/FuzzX entries. go test
-fuzz runs on the package annotated with --guide (an overlay; one worker,
GODEBUG fuzzseed from --seed, a private fuzz cache, restarted after each
failure until --budget is spent; inputs are not minimized). The suite and
each entry the campaign kept (and each failing input) run alone on coverage
binaries of the package annotated with --criteria and of the original; the
entries that cover labels, blocks or failure sites the suite does not are
chosen by greedy set cover and written to DIR/testdata/fuzz/FuzzX, in go
test's corpus format, named by what they cover first
(gen-01-mcc_TF_label-17). Pass the package's directory as DIR to add them to
its testdata; an existing file is never overwritten. Each is run again from
the written file and must cover what it was kept for. See docs/cover.md.`,
		Example: `  labelcov gentests testdata/bench/temperature/temperature.plan --tests testdata/bench/temperature/reproducers --out gen --runs 20000
  labelcov gentests ./shell --fuzz FuzzRun --budget 30s --out /tmp/gen
  labelcov gentests ./shell --fuzz FuzzRun --budget 1m --guide dist --out ./shell   # into the package's testdata`,
		Args: argsNamed(1, -1, "PLAN or PACKAGE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if isGoPackageArg(args[0]) {
				if cmd.Flags().Changed("runs") {
					return fmt.Errorf("--runs is for plans: go test -fuzz takes a --budget")
				}
				if out == "" {
					return fmt.Errorf("give --out DIR: gentests writes the new entries to DIR/testdata/fuzz/FuzzX")
				}
				if budget <= 0 {
					return fmt.Errorf("give a positive --budget")
				}
				return runGentestsGo(cmd, args, &o, &g, goGenOptions{out: out, guide: guide, budget: budget, seed: seed})
			}
			if g.fuzz != "" || g.dir != "" || g.json && !so.on {
				return fmt.Errorf("--fuzz, -C and --json are for Go packages; %s is a plan", args[0])
			}
			asJSON := g.json
			tests := append(append([]string(nil), o.tests...), args[1:]...)
			if len(tests) == 0 {
				return fmt.Errorf("no tests: give --tests DIR|FILE (the suite to extend)")
			}
			if out == "" {
				return fmt.Errorf("give --out NEWDIR: gentests writes the new tests there")
			}
			if budget <= 0 && runs <= 0 {
				return fmt.Errorf("give a positive --budget or --runs")
			}
			og := planGuard(args[0], o.world, tests)
			if err := og.CheckDir("--out", out, ""); err != nil {
				return err
			}
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
				return fmt.Errorf("--out %s is not empty", out)
			}
			g, err := labels.ParseCriteria(guide)
			if err != nil {
				return fmt.Errorf("--guide: %w", err)
			}
			ms, err := coverSetup(cmd, args[0], &o)
			if err != nil {
				return err
			}
			m := ms.m
			if so.on {
				if err := solvable(m); err != nil {
					return err
				}
			}
			ts, err := m.LoadTests(tests...)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			work, err := os.MkdirTemp("", "labelcov-gentests-")
			if err != nil {
				return fmt.Errorf("gentests: %w", err)
			}
			defer os.RemoveAll(work)
			gen, err := campaign.Generate(ctx, campaign.GenerateOptions{Measurer: m, Plan: ms.f, PlanName: o.plan, Guide: g,
				Seed: seed, Budget: budget, Runs: runs, Work: work}, ts)
			if gen == nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("gentests: %w", err)
			}
			labelOf := labelSlugs(m.Labels())
			w := cmd.OutOrStdout()
			if asJSON {
				w = io.Discard
			}
			all := [][]string{gen.Base}
			for n, t := range gen.Kept {
				adds := gen.Adds[n]
				text, ext := m.Render(t)
				name := fmt.Sprintf("gen-%02d-%s%s", n+1, slugItem(adds, labelOf), ext)
				path := filepath.Join(out, name)
				if err := og.WriteFile("--out", path, text, 0o644); err != nil {
					return fmt.Errorf("gentests: %w", err)
				}
				// The written test must replay to what it is kept for.
				wt, err := m.ParseTest(path, text)
				if err != nil {
					return fmt.Errorf("gentests: %s does not read back: %w", path, err)
				}
				got, err := m.Items(ctx, []*measure.Test{wt})
				if err != nil {
					return err
				}
				gotSet := map[string]bool{}
				for _, it := range got[0] {
					gotSet[it] = true
				}
				for _, it := range adds {
					if !gotSet[it] {
						return fmt.Errorf("gentests: %s does not cover %s as the input it was written from did (a labelcov bug)", path, it)
					}
				}
				all = append(all, got[0])
				fmt.Fprintf(w, "%s: covers %d item(s) the suite does not (%s)\n", name, len(adds), strings.Join(firstN(adds, 4), ", "))
			}
			after := reduce.Union(all, nil)
			base, sum := gen.Base, gen.Campaign
			fmt.Fprintf(w, "gentests: %d tests covered %d items; with %d generated test(s) (from %d campaign inputs, %d runs): %d items\n",
				len(ts), len(base), len(gen.Kept), len(sum.Inputs), sum.Execs, len(after))
			for _, line := range itemDelta(base, after, planItemKinds) {
				fmt.Fprintf(w, "  %s\n", line)
			}
			names, b, cerr := criterionFigures(m.Labels(), m.Decisions(), base)
			_, a, aerr := criterionFigures(m.Labels(), m.Decisions(), after)
			if cerr = errors.Join(cerr, aerr); cerr != nil {
				return cerr
			}
			for i, n := range names {
				fmt.Fprintf(w, "  %-7s %s -> %s\n", n, b[i], a[i])
			}
			if err != nil && !errors.Is(err, ctx.Err()) {
				return err
			}
			if so.on {
				have := map[string]bool{}
				for _, it := range gen.After() {
					have[it] = true
				}
				s, err := solveUncovered(ctx, w, m, og, out, o.plan, have, so)
				if err != nil {
					return err
				}
				if asJSON {
					return writeSolveJSON(cmd.OutOrStdout(), s)
				}
				printSolveSummary(w, s)
			}
			return nil
		},
	}
	registerSuiteFlags(cmd, &o)
	g.register(cmd, false)
	f := cmd.Flags()
	f.StringVar(&out, "out", "", "folder to write the generated tests to (plans: must not exist or be empty; Go: DIR/testdata/fuzz/FuzzX)")
	f.StringVar(&guide, "guide", "mcc,wm", "criteria guiding the campaign (Go packages: none fuzzes the original code)")
	f.DurationVar(&budget, "budget", 0, "wall-clock budget of the campaign")
	f.Int64Var(&runs, "runs", 0, "run budget of the campaign (deterministic with --seed)")
	f.Uint64Var(&seed, "seed", 1, "random seed of the campaign")
	so.register(cmd, "plans without a world: then solve each label still uncovered with z3 (docs/solve.md); --json prints the resolution as JSON")
	return cmd
}

// labelSlugs maps the item of each label ("label:ID") to the words a
// generated test is named by: criterion, operator, id.
func labelSlugs(ls []*labels.Label) map[string]string {
	out := map[string]string{}
	for _, l := range ls {
		out[measure.LabelItem(l.ID)] = fmt.Sprintf("%s_%s_label-%d", l.Criterion, l.Operator, l.ID)
	}
	return out
}

// slugItem names a generated test by the first label it adds (else the
// first item).
func slugItem(adds []string, labelOf map[string]string) string {
	for _, it := range adds {
		if s, ok := labelOf[it]; ok {
			return fileSafe(s)
		}
	}
	if len(adds) > 0 {
		return fileSafe(adds[0])
	}
	return "none"
}

func fileSafe(s string) string {
	s = strings.NewReplacer("<=", "le", ">=", "ge", "/=", "ne", "!=", "ne", "==", "eq", "&&", "and", "||", "or", "->", "to", "<", "lt", ">", "gt", "=", "eq",
		"+", "plus", "*", "mul", "/", "div", "(", "", ")", "", " ", "-").Replace(s)
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := b.String()
	for strings.Contains(out, "--") {
		out = strings.ReplaceAll(out, "--", "-")
	}
	return out
}

func firstN(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(append([]string(nil), xs[:n]...), fmt.Sprintf("+%d more", len(xs)-n))
}

// itemDelta counts items by kind before and after.
func itemDelta(before, after []string, kinds []itemKind) []string {
	b, a := itemCounts(before, kinds), itemCounts(after, kinds)
	out := make([]string, len(a))
	for i := range a {
		out[i] = b[i] + " -> " + a[i]
	}
	return out
}
