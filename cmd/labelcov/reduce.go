package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/labels"
	"github.com/spf13/cobra"
)

func newReduceCmd() *cobra.Command {
	var o coverOptions
	var g goFuzzOptions
	var out string
	cmd := &cobra.Command{
		Use:   "reduce PLAN --tests DIR|FILE... --out NEWDIR [--world W] [--criteria ...] | reduce PACKAGE --fuzz FuzzX --out NEWDIR [--fuzz-cache DIR]",
		Short: "Copy a smallest-first subset of a test suite or a Go fuzz corpus that keeps every covered label, branch, bucket and category",
		Long: `reduce measures every test of a plan's suite as cover does (.env, .args or byte
inputs; a truth.json beside PLAN names the world) and copies to NEWDIR a subset
that covers everything the whole suite covers: every label of --criteria
(default all,mcdc), every branch outcome of the original plan, every action
bucket and every finding category (what the checks return, failing checks, the
plan's failure kinds). It picks greedily the test that adds the most items not
yet covered, the smaller on a tie (as libFuzzer's -set_cover_merge and afl-cmin
do), measures the subset again to check that nothing was lost, and reports the
counts and sizes before and after. The original tests are never touched;
NEWDIR must not exist or be empty.

Go packages: given a package (./pkg) and --fuzz FuzzX instead of a plan,
reduce works on that fuzz target's corpus: the entries of the package's
testdata/fuzz/FuzzX and of go test -fuzz's cache for the target
($(go env GOCACHE)/fuzz/IMPORTPATH/FuzzX, or under --fuzz-cache). Each entry
runs alone on two coverage binaries built once (the package annotated with
--criteria, and the original), and the subset keeps, with the target's f.Add
seeds, every label, every coverage block of the original code and every
failure site (the first stack frame in the package, as compare --go names
findings) that the corpus covers. The kept entries are replayed together
and must cover it all again; they are written, under their names, to
NEWDIR/testdata/fuzz/FuzzX, ready to replace the package's. The corpus and
the cache are never touched. This is the corpus minimization Go lacks
(golang/go#49290). See docs/cover.md.`,
		Example: `  labelcov reduce testdata/bench/temperature/temperature.plan --tests testdata/bench/temperature/reproducers --out /tmp/reduced
  labelcov reduce ./parse --fuzz FuzzParse --out /tmp/reduced
  labelcov reduce ./shell --fuzz FuzzRun --fuzz-cache /tmp/gocache/fuzz --criteria mcc,cc --out /tmp/reduced --json`,
		Args: argsNamed(1, -1, "PLAN or PACKAGE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			goArg := isGoPackageArg(args[0])
			if !goArg && (g.fuzz != "" || g.fuzzCache != "" || g.dir != "" || g.json) {
				return fmt.Errorf("--fuzz, --fuzz-cache, -C and --json are for Go packages; %s is a plan", args[0])
			}
			if goArg {
				if out == "" {
					return fmt.Errorf("give --out NEWDIR: reduce writes the kept entries to NEWDIR/testdata/fuzz/FuzzX and never touches the corpus")
				}
				if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
					return fmt.Errorf("--out %s is not empty", out)
				}
				return runReduceGo(cmd, args, &o, &g, out)
			}
			tests := append(append([]string(nil), o.tests...), args[1:]...)
			if len(tests) == 0 {
				return fmt.Errorf("no tests: give --tests DIR|FILE")
			}
			if out == "" {
				return fmt.Errorf("give --out NEWDIR: reduce writes the subset there and never touches the tests")
			}
			og := planGuard(args[0], o.world, tests)
			if err := og.CheckDir("--out", out, ""); err != nil {
				return err
			}
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
				return fmt.Errorf("--out %s is not empty", out)
			}
			m, err := coverMeasurer(cmd, args[0], &o)
			if err != nil {
				return err
			}
			ts, err := m.LoadTests(tests...)
			if err != nil {
				return err
			}
			// reduce copies tests by name, so two of one name cannot both be kept.
			names := map[string]string{}
			for _, t := range ts {
				base := filepath.Base(t.Name)
				if prev, ok := names[base]; ok {
					return fmt.Errorf("tests %s and %s have the same name: reduce copies tests by name", prev, t.Name)
				}
				names[base] = t.Name
			}
			red, err := measure.Reduce(cmd.Context(), m, ts)
			if err != nil {
				return err
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("reduce: %w", err)
			}
			total, kept := 0, 0
			for _, s := range red.Sizes {
				total += s
			}
			for _, t := range red.Kept {
				data, err := os.ReadFile(t.Name)
				if err != nil {
					return fmt.Errorf("reading test: %w", err)
				}
				kept += len(data)
				if err := og.WriteFile("--out", filepath.Join(out, filepath.Base(t.Name)), data, 0o644); err != nil {
					return fmt.Errorf("reduce: %w", err)
				}
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "reduce: %d tests (%d bytes) -> %d tests (%d bytes) in %s\n", len(ts), total, len(red.Kept), kept, out)
			for _, line := range itemCounts(red.Items, planItemKinds) {
				fmt.Fprintf(w, "  kept %s\n", line)
			}
			line, err := criterionLine(m.Labels(), m.Decisions(), red.Items)
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "  criteria (as cover counts them, the same as the whole suite): %s\n", line)
			return nil
		},
	}
	registerSuiteFlags(cmd, &o)
	g.register(cmd, true)
	cmd.Flags().StringVar(&out, "out", "", "folder to write the kept tests to (must not exist or be empty)")
	return cmd
}

// registerSuiteFlags registers the flags reduce and gentests share with
// cover: the label flags (criteria default all,mcdc: every item counts),
// world, tests, plan and limits.
func registerSuiteFlags(cmd *cobra.Command, o *coverOptions) {
	o.labelFlags.register(cmd)
	if fl := cmd.Flags().Lookup("criteria"); fl != nil {
		fl.DefValue, o.criteria = "all,mcdc", "all,mcdc"
		_ = fl.Value.Set("all,mcdc")
	}
	registerPlanTestFlags(cmd, o)
}

// registerPlanTestFlags registers the flags that say how a plan's tests
// run: world, tests, plan and limits (cover, reduce, gentests).
func registerPlanTestFlags(cmd *cobra.Command, o *coverOptions) {
	f := cmd.Flags()
	f.StringVar(&o.world, "world", "", "world file: run the plan in the simulator (.env and byte tests are its environments)")
	f.StringSliceVar(&o.tests, "tests", nil, "test files or directories (repeatable or comma-separated)")
	f.StringVar(&o.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.Int64Var(&o.maxSteps, "max-steps", runner.DefaultMaxSteps, "step budget per run and per check")
	f.IntVar(&o.maxObjects, "max-objects", runner.DefaultMaxObjects, "object slots read from byte tests")
}

// itemKind is a kind of coverage item: its prefix and its name in counts.
type itemKind struct{ prefix, name string }

// planItemKinds name the items of a plan's tests (measure.Items).
var planItemKinds = []itemKind{{measure.ItemLabel, "labels"}, {measure.ItemBranch, "branch outcomes"},
	{measure.ItemAction, "action buckets"}, {measure.ItemCategory, "finding categories"}}

// itemCounts summarizes items by kind: "12 labels", "30 branch outcomes", ...
func itemCounts(items []string, kinds []itemKind) []string {
	var out []string
	for _, k := range kinds {
		out = append(out, fmt.Sprintf("%d %s", countKind(items, k.prefix), k.name))
	}
	return out
}

// criterionFigures are the per-criterion figures of what items cover, as
// cover reports them (labels.Figures: each criterion in its unit, mcdc in
// conditions, all the sum), in report order: "mcc 5/6".
func criterionFigures(ls []*labels.Label, ds []*labels.Decision, items []string) ([]string, []labels.Fraction, error) {
	cov, err := labels.Figures(ls, ds, measure.LabelHits(items))
	if err != nil {
		return nil, nil, err
	}
	var names []string
	var figs []labels.Fraction
	for _, k := range append(labels.AllKeys(), labels.All) {
		if c := cov[k]; c != nil {
			names = append(names, string(k))
			figs = append(figs, c.Fraction)
		}
	}
	return names, figs, nil
}

// criterionLine is criterionFigures as one line: "mcc 5/6, mcdc 1/3
// conditions, all 6/9".
func criterionLine(ls []*labels.Label, ds []*labels.Decision, items []string) (string, error) {
	names, figs, err := criterionFigures(ls, ds, items)
	if err != nil {
		return "", err
	}
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + " " + figs[i].String()
		if n == string(labels.MCDC) {
			parts[i] += " conditions"
		}
	}
	return strings.Join(parts, ", "), nil
}

// countKind counts the items with prefix.
func countKind(items []string, prefix string) int {
	n := 0
	for _, it := range items {
		if strings.HasPrefix(it, prefix) {
			n++
		}
	}
	return n
}
