package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/spf13/cobra"
)

func newReduceCmd() *cobra.Command {
	var o coverOptions
	var out string
	cmd := &cobra.Command{
		Use:   "reduce PLAN --tests DIR|FILE... --out NEWDIR [--world W] [--criteria ...]",
		Short: "Copy a smallest-first subset of a test suite that keeps every covered label, branch, bucket and category",
		Long: `reduce measures every test of a plan's suite as cover does (.env, .args or byte
inputs; a truth.json beside PLAN names the world) and copies to NEWDIR a subset
that covers everything the whole suite covers: every label of --criteria
(default all,mcdc), every branch outcome of the original plan, every action
bucket and every finding category (what the checks return, failing checks, the
plan's failure kinds). It picks greedily the test that adds the most items not
yet covered, the smaller on a tie (as libFuzzer's -set_cover_merge and afl-cmin
do), measures the subset again to check that nothing was lost, and reports the
counts and sizes before and after. The original tests are never touched;
NEWDIR must not exist or be empty.`,
		Example: `  labelcov reduce testdata/bench/temperature/temperature.plan --tests testdata/bench/temperature/reproducers --out /tmp/reduced`,
		Args:    argsNamed(1, -1, "PLAN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			tests := append(append([]string(nil), o.tests...), args[1:]...)
			if len(tests) == 0 {
				return fmt.Errorf("no tests: give --tests DIR|FILE")
			}
			if out == "" {
				return fmt.Errorf("give --out NEWDIR: reduce writes the subset there and never touches the tests")
			}
			if err := refuseOverwrite("--out", out, append([]string{args[0], o.world}, tests...)...); err != nil {
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
			items, err := m.Items(cmd.Context(), ts)
			if err != nil {
				return err
			}
			sizes := make([]int, len(ts))
			names := map[string]string{}
			for i, t := range ts {
				data, err := os.ReadFile(t.Name)
				if err != nil {
					return fmt.Errorf("reading test: %w", err)
				}
				sizes[i] = len(data)
				base := filepath.Base(t.Name)
				if prev, ok := names[base]; ok {
					return fmt.Errorf("tests %s and %s have the same name: reduce copies tests by name", prev, t.Name)
				}
				names[base] = t.Name
			}
			keep := reduce.Cover(items, sizes)
			// The subset must cover what the suite covers: measure it again.
			subTests := make([]*measure.Test, len(keep))
			for j, i := range keep {
				subTests[j] = ts[i]
			}
			again, err := m.Items(cmd.Context(), subTests)
			if err != nil {
				return err
			}
			before, after := reduce.Union(items, nil), reduce.Union(again, nil)
			if strings.Join(before, "\n") != strings.Join(after, "\n") {
				return fmt.Errorf("reduce: the subset covers %d items, the suite %d (a labelcov bug)", len(after), len(before))
			}
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("reduce: %w", err)
			}
			total, kept := 0, 0
			for _, s := range sizes {
				total += s
			}
			for _, i := range keep {
				data, err := os.ReadFile(ts[i].Name)
				if err != nil {
					return fmt.Errorf("reading test: %w", err)
				}
				kept += len(data)
				if err := os.WriteFile(filepath.Join(out, filepath.Base(ts[i].Name)), data, 0o644); err != nil {
					return fmt.Errorf("reduce: %w", err)
				}
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "reduce: %d tests (%d bytes) -> %d tests (%d bytes) in %s\n", len(ts), total, len(keep), kept, out)
			for _, line := range itemCounts(before) {
				fmt.Fprintf(w, "  kept %s\n", line)
			}
			return nil
		},
	}
	registerSuiteFlags(cmd, &o)
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
	f := cmd.Flags()
	f.StringVar(&o.world, "world", "", "world file: run the plan in the simulator (.env and byte tests are its environments)")
	f.StringSliceVar(&o.tests, "tests", nil, "test files or directories (repeatable or comma-separated)")
	f.StringVar(&o.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.Int64Var(&o.maxSteps, "max-steps", runner.DefaultMaxSteps, "step budget per run and per check")
	f.IntVar(&o.maxObjects, "max-objects", runner.DefaultMaxObjects, "object slots read from byte tests")
}

// itemCounts summarizes items by kind (label, branch, action, category):
// "labels 12", "branches 30", ...
func itemCounts(items []string) []string {
	kinds := []struct{ prefix, name string }{{"label:", "labels"}, {"branch:", "branch outcomes"}, {"action:", "action buckets"}, {"category:", "finding categories"}}
	var out []string
	for _, k := range kinds {
		n := 0
		for _, it := range items {
			if strings.HasPrefix(it, k.prefix) {
				n++
			}
		}
		out = append(out, fmt.Sprintf("%d %s", n, k.name))
	}
	return out
}
