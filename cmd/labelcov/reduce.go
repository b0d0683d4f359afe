package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/subject"
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
			s, err := openSubject(cmd, args, &o, &g)
			if err != nil {
				return err
			}
			return s.Reduce(cmd.Context(), cmd.OutOrStdout(), out)
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
	f.Int64Var(&o.maxSteps, "max-steps", subject.DefaultMaxSteps, "step budget per run and per check")
	f.IntVar(&o.maxObjects, "max-objects", subject.DefaultMaxObjects, "object slots read from byte tests")
}
