package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

func newGentestsCmd() *cobra.Command {
	var o coverOptions
	var g goFuzzOptions
	var gen subject.GenerateOptions
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
before and after. With --solve (z3 on PATH), each label still uncovered
is then resolved: covered by arguments z3 solves for (replayed, written as
gen-solved-NN-....args), infeasible (z3 proved that no integer arguments
reach it; the reason gives the contradictory conditions) or unresolved
(with what was tried); see docs/solve.md. On a plan with a world z3 does
not run (it does not model the environment's query results): an
environment search does (from the suite, the campaign's inputs, regions
packed full and every one-object scenario of the world, then mutations of
the scenarios closest to each label); a scenario that covers a label is
replayed and written as gen-solved-NN-....env, the labels left end
unresolved with what the search tried.
On a plan, --budget bounds the whole command: the campaign ends when a
tenth of it is left (half of it with --solve), for measuring what it
found, writing and replaying the tests kept and the closing resolution;
solving stops at the deadline (the labels left are unresolved, "not
tried"). With --runs instead, the environment search runs as many
scenarios as the campaign.

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
its testdata; an existing file is never overwritten. Then, unless
--no-directed, entries derived from the package's constants (each integer
constant, 0 and their neighbours; string, "WORD N" and byte tokens spliced
into the inputs) are screened for what is still uncovered and the useful ones written
as gen-directed-NN-.... Each is run again from the written file and must
cover what it was kept for. The report lists the labels left unresolved.
An entry kept for a failure it reproduces fails under go test until the bug
is fixed: the report marks it "FAILS at SITE" ("fails" in --json) and
gentests exits 1 naming it. See docs/cover.md and docs/solve.md.`,
		Example: `  labelcov gentests testdata/bench/temperature/temperature.plan --tests testdata/bench/temperature/reproducers --out gen --runs 20000
  labelcov gentests ./shell --fuzz FuzzRun --budget 30s --out /tmp/gen
  labelcov gentests ./shell --fuzz FuzzRun --budget 1m --guide dist --out ./shell   # into the package's testdata`,
		Args: argsNamed(1, -1, "PLAN or PACKAGE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openSubject(cmd, args, &o, &g)
			if err != nil {
				return err
			}
			return s.Generate(cmd.Context(), cmd.OutOrStdout(), gen)
		},
	}
	registerSuiteFlags(cmd, &o)
	g.register(cmd, false)
	f := cmd.Flags()
	f.StringVar(&gen.Out, "out", "", "folder to write the generated tests to (plans: must not exist or be empty; Go: DIR/testdata/fuzz/FuzzX)")
	f.StringVar(&gen.Guide, "guide", "mcc,wm", "criteria guiding the campaign (Go packages: none fuzzes the original code)")
	f.DurationVar(&gen.Budget, "budget", 0, "wall-clock budget (plans: of the whole command: the campaign ends when a tenth is left, half with --solve, and solving stops by it; Go packages: of the campaign)")
	f.Int64Var(&gen.Runs, "runs", 0, "run budget of the campaign (deterministic with --seed)")
	f.Uint64Var(&gen.Seed, "seed", 1, "random seed of the campaign")
	f.BoolVar(&gen.NoDirected, "no-directed", false, "Go packages: no directed entries (derived from the package's constants for what the campaign left; docs/solve.md)")
	registerSolve(cmd, &gen.Solve, "plans: then solve each label still uncovered with z3 (docs/solve.md; with a world, search for a scenario that covers it instead); --json prints the resolution as JSON")
	return cmd
}
