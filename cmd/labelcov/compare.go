package main

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/labelcov/labelcov/experiments/grid"
)

func newCompareCmd() *cobra.Command {
	var o grid.CompareOptions
	cmd := &cobra.Command{
		Use:   "compare --bench B,... --criteria none,mcc,... --runs N --budget D [--out DIR] | compare --go PATTERN... [...] | compare --merge DIR...",
		Short: "Compare guiding criteria by fuzzing campaigns on benchmark plans or Go fuzz targets, with statistics, tables and plots",
		Long: `compare answers "which coverage criterion should guide my fuzzer, and which one
should judge my tests?". It runs a grid of campaigns — every (benchmark, guiding
criterion, run) — with the built-in engine (or AFL++ with --engine afl), one
fuzzing worker per campaign and --workers campaigns in parallel, each with its
own seed derived from --seed.

Guiding a campaign by a criterion means fuzzing the plan annotated with that
criterion's labels (none: the original plan); the engine stays label-blind,
and labels count for it as in labelcov fuzz (fired only, retired once fired,
none in a run cut by a limit; see fuzz --help).
Every campaign is measured on one yardstick: branches, instructions and action
buckets of the original plan and the labels of all criteria (labels:mcc, labels:cc,
labels:wm, labels:mcdc in conditions; "labels" is their sum, as cover's all).

A benchmark is a folder of --bench-dir holding NAME.plan and truth.json (its
error categories and world). --bench also takes a path to such a folder.

Criteria: none, or label criteria joined by "+" (mcc, cc, wm, wm:ror, ..., dist, all),
e.g. --criteria none,mcc,wm,mcc+wm. "action" cannot guide (the engine would have
to look at the simulator's buckets) and is left out with a message.

--out DIR holds the campaigns (DIR/campaigns/BENCH/CRITERION/run-NN, fuzz
campaign directories) and the report: report.md, report.html, report.json
(every raw figure, "version": 1) and coverage-over-time plots (PNG and SVG).
Run the same command again to resume: finished campaigns are skipped,
interrupted ones restart from scratch with their seed.

Beyond one machine: --shard i/n runs the i-th of n shares of the grid (every
n-th benchmark and run from the i-th, each with all its criteria in turn), so
GNU parallel, a Slurm or a Kubernetes job array can spread the grid;
then "compare --merge DIR... --out REPORT" assembles the report from the shards'
output folders. See docs/compare.md.

On Slurm: --slurm-script FILE writes a job-array script of the grid instead
of running it; "bash FILE" submits it. --slurm-array N%K runs it in N array
tasks, each a fixed share of the grid (--shard i/N; default: one campaign per
task), at most K at once (default: no limit); --workers C asks for C CPUs per
task (default 1) and runs C campaigns at a time in each. The time limit of a
task follows from its share and --budget. The merge runs as a job that
starts when every task succeeded (--dependency=afterok).

Go fuzz targets: --go PATTERN (Go package patterns, e.g. ./testdata/gobench/...;
a pattern that is a path is loaded from the module that holds it) makes every fuzz
target (func FuzzX(f *testing.F)) of those packages a benchmark, named
DIR.FuzzX after its package directory relative to the module root ("header.FuzzDecode";
--bench then picks some of them by name). A campaign is "go test -fuzz" with one
fuzzing worker (-parallel 1) on the package annotated with the guiding criterion
through -overlay (none: the original code), from the seed corpus only (f.Add and
testdata/fuzz), with a private fuzz cache in the campaign's folder (never the
user's GOCACHE) and Go's mutator seeded from the grid seed. It ends at its first
failure, as go test -fuzz does (--keep-going: restart from the kept corpus until
the budget). Every failing input is replayed on the original code and named by its
site: panic@DIR/FILE.go:LINE, the first stack frame in the target's package (fail@
for t.Error/t.Fatal). Ground truth: truth.json beside the package's sources. Time
and execs to first failure come from go test's progress lines; coverage over time
from replaying the kept corpus on the original's coverage blocks and on the labels
of all criteria (dist too; "labels" is the sum of the rows, as cover's all).
--on-fixed builds every target against the module versions with its known
bugs fixed (truth.json's "fixed"), to measure execs/s over whole budgets.
Default criteria for Go: none,dist. --fuzzminimizetime 0s runs every campaign
of the grid without go test's minimization of new inputs (docs/go.md
recommends it for labelled campaigns: each new label is a new input, and
minimizing each stalls the fuzzer).

Exit status: 0 when every campaign of the shard finished (findings are the
grid's data, not failures); 3 when Ctrl-C or SIGTERM (scancel, a Slurm time
limit) stopped it with campaigns unfinished, after writing the report of
those that finished.

Statistics: each guiding criterion is compared with none per category (time
and execs to first find) and per coverage measure, with the Vargha-Delaney
Â12 effect size and a Mann-Whitney U test. The p-values are Holm-adjusted over
all tests of a benchmark, and "significant" means adjusted p < 0.05; results
significant only without the correction are listed apart.`,
		Example: `  # 5 runs of 2 minutes, 4 guiding criteria, two benchmarks, one campaign per CPU
  labelcov compare --bench warehouse-sort,kitchen --criteria none,mcc,wm,mcc+wm --runs 5 --budget 2m --out cmp

  # the same grid as a Slurm job array of 10 tasks, at most 4 running, 2 CPUs each; then the merge
  labelcov compare --bench warehouse-sort,kitchen --criteria none,mcc,wm,mcc+wm --runs 5 --budget 2m \
      --workers 2 --slurm-array 10%4 --out cmp --slurm-script grid.sh
  bash grid.sh

  # the same grid over 3 machines, then the report
  labelcov compare --bench warehouse-sort,kitchen --criteria none,mcc,wm,mcc+wm --runs 5 --budget 2m --shard 1/3 --out cmp-1
  labelcov compare --merge cmp-1 cmp-2 cmp-3 --out cmp

  # a Markdown report beside the campaigns (docs/results.md is the bundled one; write yours elsewhere)
  labelcov compare --bench temperature --runs 3 --budget 30s --out /tmp/cmp --md /tmp/cmp/results.md

  # Go: every fuzz target of the bundled Go benchmark module, plain go test -fuzz against dist labels
  labelcov compare --go ./testdata/gobench/... --criteria none,dist --runs 10 --budget 30s --workers 1 --out cmp-go

  # Go: two of the targets
  labelcov compare --go ./testdata/gobench/... --bench header.FuzzDecode,quota.FuzzReserve --runs 5 --budget 1m`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Changed, o.AFLTarget = cmd.Flags().Changed, aflTargetBinary
			o.Command, o.GridCommand = commandLine(cmd, nil), commandLine(cmd, nil, "shard", "out")
			o.SlurmTail, o.SlurmMerge = slurmFlags(cmd)
			return grid.Compare(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args, &o)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.Benches, "bench", nil, "benchmarks: names of folders of --bench-dir, or paths to benchmark folders")
	f.StringVar(&o.BenchDir, "bench-dir", grid.DefaultBenchDir, "folder of the benchmark folders (default: testdata/bench here or in the nearest parent directory that has it)")
	f.StringSliceVar(&o.Criteria, "criteria", []string{"none", "mcc", "wm", "mcc+wm"}, "guiding criteria: none, or label criteria joined by +")
	f.IntVar(&o.Runs, "runs", 5, "campaigns per (benchmark, criterion)")
	f.DurationVar(&o.Budget, "budget", 2*time.Minute, "wall-clock budget of each campaign")
	f.IntVar(&o.Workers, "workers", usableCPUs(os.Getenv), "campaigns run in parallel (each runs one fuzzing worker)"+workersFlagHelp)
	f.StringVar(&o.Out, "out", "compare-out", "output directory: campaigns and report (with --merge: the report)")
	f.Uint64Var(&o.Seed, "seed", 1, "grid seed; each campaign's seed derives from it, the benchmark, criterion and run")
	f.StringVar(&o.Shard, "shard", "", "run only slice i of n of the grid (i/n)")
	f.BoolVar(&o.Merge, "merge", false, "assemble the report from the output directories given as arguments")
	f.StringVar(&o.Note, "note", "", "free text shown under the report's title (e.g. what else ran on the machine)")
	f.StringVar(&o.MD, "md", "", "also write the Markdown report to this file, its plots in a folder named after it")
	f.StringVar(&o.SlurmScript, "slurm-script", "", "write a Slurm job-array script that runs the grid and merges its report, instead of running it (see above)")
	f.StringVar(&o.SlurmArray, "slurm-array", "", "with --slurm-script: N array tasks, each a fixed share of the grid (--shard i/N), at most K at once with N%K (default: one campaign per task, no limit)")
	f.StringVar(&o.Engine, "engine", subject.EngineBuiltin, "fuzzer of every campaign: builtin or afl (one afl-fuzz instance per campaign)")
	f.StringSliceVar(&o.GoPkgs, "go", nil, "Go package patterns: compare on their fuzz targets with go test -fuzz (see above)")
	f.StringSliceVar(&o.LabelPkgs, "label-pkgs", nil, "with --go: "+labelPkgsUsage)
	f.StringVar(&o.MinimizeTime, "fuzzminimizetime", "", "Go grids: -fuzzminimizetime of every campaign (a duration, or Nx; 0s: no minimization, as docs/go.md recommends for labelled campaigns; default: go test's 60s)")
	f.BoolVar(&o.OnFixed, "on-fixed", false, "Go grids: build every target against the module versions with the fixes of its known bugs "+
		"(\"fixed\": \"MODULE@VERSION\" of each bug in the target's truth.json; the highest per module), through a private -modfile "+
		"(your go.mod is never written), so that campaigns run their whole budget instead of ending at a known bug: "+
		"execs/s then measure what labels cost, not when campaigns ended (a ratio between campaigns that end at a quick find and "+
		"campaigns that run on is mostly their slow first seconds); finds are then new bugs, not the benchmark's. "+
		"A target without truth.json or with a bug without \"fixed\" is an error")
	f.StringSliceVar(&o.FixedAt, "fixed-at", nil, "with --on-fixed: MODULE@VERSION,... to build against instead of the fixed version truth.json names "+
		"for that module (at least that version, so the known bugs stay fixed), when the release with the fixes still has a later bug "+
		"that ends campaigns within seconds")
	f.BoolVar(&o.KeepGoing, "keep-going", false, "Go grids: restart go test -fuzz after a failure until the budget (default: a campaign ends at its first failure)")
	return cmd
}

// commandLine reconstructs the invocation from the flags set, for the
// report's "regenerate with" line, leaving out the flags named in skip.
func commandLine(cmd *cobra.Command, args []string, skip ...string) string {
	parts := []string{"labelcov compare"}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if slices.Contains(skip, f.Name) {
			return
		}
		v := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",")
		}
		if f.Value.Type() == "bool" {
			parts = append(parts, "--"+f.Name)
			return
		}
		parts = append(parts, "--"+f.Name+" "+shellQuote(v))
	})
	for _, a := range args {
		parts = append(parts, shellQuote(a))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string { return subject.ShellQuote(s) }

// slurmOnlyFlags go into the script's header, not into its compare commands;
// the tasks get --shard and --out of their own, and their --workers from
// --cpus-per-task; --md and --note are the merge's.
var slurmOnlyFlags = map[string]bool{"slurm-script": true, "slurm-array": true, "shard": true, "out": true,
	"workers": true, "md": true, "note": true}

// slurmFlags are the flags of a Slurm script's task commands (the grid's)
// and of its merge (--md, --note), quoted for a shell.
func slurmFlags(cmd *cobra.Command) (tail, merge string) {
	var t, m []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if !slurmOnlyFlags[f.Name] {
			t = append(t, flagArg(f))
		}
	})
	for _, name := range []string{"md", "note"} {
		if f := cmd.Flags().Lookup(name); f.Changed {
			m = append(m, flagArg(f))
		}
	}
	return strings.Join(t, " "), strings.Join(m, " ")
}

// flagArg is --name value, quoted for a shell.
func flagArg(f *pflag.Flag) string {
	if f.Value.Type() == "bool" {
		return "--" + f.Name + "=" + f.Value.String()
	}
	v := f.Value.String()
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		v = strings.Join(sv.GetSlice(), ",")
	}
	return "--" + f.Name + " " + shellQuote(v)
}
