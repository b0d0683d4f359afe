package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/compare"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

type compareOptions struct {
	// guard holds what the grid reads (benchmark folders, worlds, shards).
	guard    outputs.Guard
	benches  []string
	benchDir string
	criteria []string
	runs     int
	budget   time.Duration
	workers  int
	out      string
	seed     uint64
	shard    string
	merge    bool
	md       string
	note     string
	engine   string
	// --slurm-script: write a job-array script of the grid instead.
	slurmScript string
	slurmArray  string
	// Go grids: package patterns whose fuzz targets are the benchmarks.
	goPkgs       []string
	labelPkgs    []string
	keepGoing    bool
	minimizeTime string
}

func newCompareCmd() *cobra.Command {
	var o compareOptions
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
buckets of the original plan and the labels of all criteria (mcc, cc, wm).

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

Beyond one machine: --shard i/n runs every n-th campaign of the grid from the
i-th, so GNU parallel, a Slurm or a Kubernetes job array can spread the grid;
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
of all criteria. Default criteria for Go: none,dist. --fuzzminimizetime 0s
runs every campaign of the grid without go test's minimization of new inputs
(docs/go.md recommends it for labelled campaigns: each new label is a new
input, and minimizing each stalls the fuzzer).

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
			if o.merge {
				return runCompareMerge(cmd, args, &o)
			}
			if len(args) > 0 {
				return fmt.Errorf("unexpected arguments %q (directories are for --merge)", args)
			}
			return runCompare(cmd, &o)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&o.benches, "bench", nil, "benchmarks: names of folders of --bench-dir, or paths to benchmark folders")
	f.StringVar(&o.benchDir, "bench-dir", defaultBenchDir, "folder of the benchmark folders (default: testdata/bench here or in the nearest parent directory that has it)")
	f.StringSliceVar(&o.criteria, "criteria", []string{"none", "mcc", "wm", "mcc+wm"}, "guiding criteria: none, or label criteria joined by +")
	f.IntVar(&o.runs, "runs", 5, "campaigns per (benchmark, criterion)")
	f.DurationVar(&o.budget, "budget", 2*time.Minute, "wall-clock budget of each campaign")
	f.IntVar(&o.workers, "workers", usableCPUs(os.Getenv), "campaigns run in parallel (each runs one fuzzing worker)"+workersFlagHelp)
	f.StringVar(&o.out, "out", "compare-out", "output directory: campaigns and report (with --merge: the report)")
	f.Uint64Var(&o.seed, "seed", 1, "grid seed; each campaign's seed derives from it, the benchmark, criterion and run")
	f.StringVar(&o.shard, "shard", "", "run only slice i of n of the grid (i/n)")
	f.BoolVar(&o.merge, "merge", false, "assemble the report from the output directories given as arguments")
	f.StringVar(&o.note, "note", "", "free text shown under the report's title (e.g. what else ran on the machine)")
	f.StringVar(&o.md, "md", "", "also write the Markdown report to this file, its plots in a folder named after it")
	f.StringVar(&o.slurmScript, "slurm-script", "", "write a Slurm job-array script that runs the grid and merges its report, instead of running it (see above)")
	f.StringVar(&o.slurmArray, "slurm-array", "", "with --slurm-script: N array tasks, each a fixed share of the grid (--shard i/N), at most K at once with N%K (default: one campaign per task, no limit)")
	f.StringVar(&o.engine, "engine", campaign.EngineBuiltin, "fuzzer of every campaign: builtin or afl (one afl-fuzz instance per campaign)")
	f.StringSliceVar(&o.goPkgs, "go", nil, "Go package patterns: compare on their fuzz targets with go test -fuzz (see above)")
	f.StringSliceVar(&o.labelPkgs, "label-pkgs", nil, "with --go: "+labelPkgsUsage)
	f.StringVar(&o.minimizeTime, "fuzzminimizetime", "", "Go grids: -fuzzminimizetime of every campaign (a duration, or Nx; 0s: no minimization, as docs/go.md recommends for labelled campaigns; default: go test's 60s)")
	f.BoolVar(&o.keepGoing, "keep-going", false, "Go grids: restart go test -fuzz after a failure until the budget (default: a campaign ends at its first failure)")
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

// gridCommandLine is the command that runs the whole grid of which the
// invocation runs shard: without --shard, and without --out, which names
// the shard's own folder. "" for the whole grid (commandLine is it).
func gridCommandLine(cmd *cobra.Command, shard compare.Shard) string {
	if shard == compare.All {
		return ""
	}
	return commandLine(cmd, nil, "shard", "out")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string { return subject.ShellQuote(s) }

func runCompare(cmd *cobra.Command, o *compareOptions) error {
	stderr := cmd.ErrOrStderr()
	if len(o.goPkgs) > 0 {
		return runCompareGo(cmd, o)
	}
	if o.keepGoing || o.minimizeTime != "" {
		return errors.New("--keep-going and --fuzzminimizetime are for Go grids (--go)")
	}
	if len(o.benches) == 0 {
		return errors.New("--bench: give at least one benchmark, e.g. --bench warehouse-sort,temperature")
	}
	shard, err := o.gridShard()
	if err != nil {
		return err
	}
	var crits []string
	for _, c := range o.criteria {
		if _, err := compare.ParseGuide(c); err != nil {
			if errors.Is(err, compare.ErrActionGuide) {
				fmt.Fprintln(stderr, "labelcov: leaving out", err)
				continue
			}
			return fmt.Errorf("--criteria: %w", err)
		}
		crits = append(crits, c)
	}
	var benches []*compare.Bench
	var names []string
	var infos []compare.BenchInfo
	for _, b := range o.benches {
		dir, err := benchFolder(b, o.benchDir, cmd.Flags().Changed("bench-dir"))
		if err != nil {
			return err
		}
		bench, err := compare.LoadBench(dir)
		if err != nil {
			return err
		}
		o.guard.Folder("the benchmark folder", dir)
		o.guard.Input("the benchmark's world", bench.WorldPath)
		benches = append(benches, bench)
		names = append(names, bench.Info.Name)
		infos = append(infos, bench.Info)
	}
	if o.engine != campaign.EngineBuiltin && o.engine != campaign.EngineAFL {
		return fmt.Errorf("--engine must be builtin or afl, got %q", o.engine)
	}
	g := compare.Grid{Benches: names, Criteria: crits, Runs: o.runs, Budget: o.budget, Seed: o.seed}
	if err := g.Validate(); err != nil {
		return err
	}
	if err := o.checkOutputs(); err != nil {
		return err
	}
	// Annotating every plan with every criterion up front reports plan
	// errors before hours of campaigns.
	for _, b := range benches {
		for _, c := range crits {
			if err := compare.CheckSetup(b, c); err != nil {
				return fmt.Errorf("%s guided by %s: %w", b.Info.Name, c, err)
			}
		}
	}
	if o.slurmScript != "" {
		return writeSlurmScript(cmd, o, g)
	}
	// From here on a signal stops the grid cleanly (before, it would
	// kill a process that has nothing to save).
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	n := len(shard.Cells(g))
	waves := (n + o.workers - 1) / o.workers
	fmt.Fprintf(stderr, "compare: %d campaign(s) of %s (shard %s), %d in parallel: about %s\n",
		n, o.budget, shard, o.workers, (time.Duration(waves) * o.budget).Round(time.Second))

	ro := compare.RunnerOptions{Engine: o.engine}
	if o.engine == campaign.EngineAFL {
		exe, err := aflTargetBinary()
		if err != nil {
			return fmt.Errorf("locating the labelcov binary: %w", err)
		}
		ro.Exe = exe
	}
	res, err := compare.Run(ctx, compare.Options{Grid: g, Shard: shard, Workers: o.workers, Out: o.out, Benches: infos,
		Runner: compare.PlanRunner(benches, ro), Command: commandLine(cmd, nil), GridCommand: gridCommandLine(cmd, shard), Progress: stderr})
	if err != nil {
		return err
	}
	return finishCompare(cmd, o, res)
}

// finishCompare writes the report of what finished; campaigns left
// unfinished by a signal make it an interruption.
func finishCompare(cmd *cobra.Command, o *compareOptions, res compare.Outcome) error {
	repErr := writeCompareReport(cmd.OutOrStdout(), o, o.out)
	if res.Unfinished > 0 {
		// A signal (Ctrl-C, SIGTERM from scancel or a time limit): the
		// report covers what finished, and a scheduler must not record
		// the task as done.
		return errors.Join(interrupted("compare: interrupted with %d of %d campaign(s) to run unfinished; run the same command again to resume",
			res.Unfinished, res.Unfinished+res.Ran), repErr)
	}
	return repErr
}

// gridShard checks --workers and reads --shard (all of the grid when not
// given).
func (o *compareOptions) gridShard() (compare.Shard, error) {
	if o.workers <= 0 {
		return compare.Shard{}, fmt.Errorf("--workers must be positive, got %d", o.workers)
	}
	if o.slurmArray != "" && o.slurmScript == "" {
		return compare.Shard{}, errors.New("--slurm-array goes with --slurm-script")
	}
	if o.shard == "" {
		return compare.All, nil
	}
	s, err := compare.ParseShard(o.shard)
	if err != nil {
		return compare.Shard{}, fmt.Errorf("--shard: %w", err)
	}
	return s, nil
}

func runCompareMerge(cmd *cobra.Command, dirs []string, o *compareOptions) error {
	if len(dirs) == 0 {
		return errors.New("--merge needs the output directories of the shards as arguments")
	}
	// The shards' folders are read: the report goes to --out, the
	// Markdown to --md, neither inside a shard.
	o.guard.Folder("a shard's folder", dirs...)
	if err := o.checkOutputs(); err != nil {
		return err
	}
	for _, name := range []string{"bench", "criteria", "runs", "budget", "shard", "seed", "workers", "go", "keep-going", "engine", "fuzzminimizetime", "slurm-script", "slurm-array"} {
		if cmd.Flags().Changed(name) {
			return fmt.Errorf("--%s does not go with --merge: the grid comes from the directories", name)
		}
	}
	return writeCompareReport(cmd.OutOrStdout(), o, o.out, dirs...)
}

// writeCompareReport writes the report of dirs (a merge: the whole grid)
// into out, or without dirs the report of out's own shard.
func writeCompareReport(w io.Writer, o *compareOptions, out string, dirs ...string) error {
	var d *compare.Data
	var err error
	if len(dirs) == 0 {
		d, err = compare.LoadShard(out)
	} else {
		d, err = compare.Load(dirs...)
	}
	if err != nil {
		return err
	}
	r := compare.Analyze(d)
	r.Note = o.note
	files, err := r.Write(out)
	if err != nil {
		return err
	}
	if o.md != "" {
		if err := o.checkOutputs(); err != nil {
			return err
		}
		more, err := r.WriteMarkdownAt(o.md)
		if err != nil {
			return err
		}
		files = append(files, more...)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d campaign(s) finished", len(d.Runs))
	if len(d.Missing) > 0 {
		fmt.Fprintf(&b, ", %d missing", len(d.Missing))
	}
	b.WriteString("\n")
	for _, br := range r.Results {
		for _, c := range r.Criteria {
			if v, ok := br.Verdicts[c]; ok {
				fmt.Fprintf(&b, "%s: %s\n", br.Bench, v)
			}
		}
	}
	fmt.Fprintf(&b, "report: %s (%d files)\n", filepath.Join(out, "report.md"), len(files))
	if o.md != "" {
		fmt.Fprintf(&b, "markdown: %s\n", o.md)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// checkOutputs checks compare's outputs against what it reads (o.guard):
// --out (a folder compare writes campaigns and the report into), --md
// and the folder of its plots, --slurm-script. compare writes nothing
// else.
func (o *compareOptions) checkOutputs() error {
	if err := o.guard.CheckDir("--out", o.out, "compare-out"); err != nil {
		return err
	}
	if o.md != "" {
		if err := o.guard.Check("--md", o.md); err != nil {
			return err
		}
		if err := o.guard.CheckDir("--md", compare.MarkdownPlotDir(o.md), ""); err != nil {
			return err
		}
	}
	return o.guard.Check("--slurm-script", o.slurmScript)
}

// defaultBenchDir is where the repository keeps its benchmarks.
var defaultBenchDir = filepath.Join("testdata", "bench")

// benchFolder finds the folder of benchmark b: b itself when it is a path,
// else b under benchDir; when benchDir was not given, under testdata/bench
// of the working directory or of the nearest parent that has it, so that
// `compare --bench temperature` works from anywhere inside the repository.
func benchFolder(b, benchDir string, explicit bool) (string, error) {
	if strings.ContainsAny(b, `/\`) {
		return b, nil
	}
	if explicit {
		dir := filepath.Join(benchDir, b)
		if _, err := os.Stat(dir); err != nil {
			return "", fmt.Errorf("benchmark %s: no folder %s (--bench-dir %s): %w", b, dir, benchDir, err)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("benchmark %s: %w", b, err)
	}
	for d := wd; ; {
		dir := filepath.Join(d, defaultBenchDir, b)
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			return relTo(wd, dir), nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	return "", fmt.Errorf("benchmark %s: no folder %s in %s or any parent directory; "+
		"give --bench-dir DIR (the folder of benchmark folders: testdata/bench in the labelcov repository) "+
		"or a path to the benchmark folder (--bench path/to/%s)", b, filepath.Join(defaultBenchDir, b), wd, b)
}

// relTo is path relative to base when it can be, for shorter messages.
func relTo(base, path string) string {
	if r, err := filepath.Rel(base, path); err == nil {
		return r
	}
	return path
}
