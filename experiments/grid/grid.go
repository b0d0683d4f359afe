// Package grid is the library front end of labelcov compare: grids of
// campaigns of guiding criteria on benchmarks, plan folders (--bench) or
// Go fuzz targets (--go), run here, sharded, merged or written as a Slurm
// job array (experiments/compare runs and analyses them). Whether a grid
// is of plans or of Go targets is decided here from the flags, never in
// cmd. It writes files only through an outputs.Guard (only below --out,
// never into a benchmark's folder) and returns fuzzdriver/subject's typed
// errors (an *subject.InterruptedError for a stopped grid).
package grid

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/template"
	"time"

	"github.com/labelcov/labelcov/experiments/compare"
	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// CompareOptions are compare's flags.
type CompareOptions struct {
	Benches      []string
	BenchDir     string
	Criteria     []string
	Runs         int
	Budget       time.Duration
	Workers      int
	Out          string
	Seed         uint64
	Shard        string
	Merge        bool
	MD           string
	Note         string
	Engine       string
	SlurmScript  string
	SlurmArray   string
	GoPkgs       []string
	LabelPkgs    []string
	KeepGoing    bool
	MinimizeTime string
	OnFixed      bool
	FixedAt      []string
	// Changed reports whether the user set the flag name.
	Changed func(name string) bool
	// Command is the invocation, for the report's "regenerate with"
	// line; GridCommand the same without --shard and --out (the command
	// of the whole grid a shard belongs to).
	Command, GridCommand string
	// SlurmTail are the grid's flags for the Slurm tasks' commands,
	// SlurmMerge the merge's (--md, --note), quoted for a shell.
	SlurmTail, SlurmMerge string
	// AFLTarget locates the labelcov binary afl-fuzz runs.
	AFLTarget func() (string, error)

	// guard holds what the grid reads (benchmark folders, worlds, shards).
	guard outputs.Guard
}

func (o *CompareOptions) changed(name string) bool { return o.Changed != nil && o.Changed(name) }

// gridCommand is the command of the whole grid of which shard is a part,
// "" for the whole grid (Command is it).
func (o *CompareOptions) gridCommand(shard compare.Shard) string {
	if shard == compare.All {
		return ""
	}
	return o.GridCommand
}

// Compare runs compare: with Merge, the report of the shards' folders
// dirs; else the grid of Go fuzz targets (GoPkgs) or of benchmark plans,
// or its Slurm script.
func Compare(ctx context.Context, w, stderr io.Writer, dirs []string, o *CompareOptions) error {
	if o.Merge {
		return runCompareMerge(w, dirs, o)
	}
	if len(dirs) > 0 {
		return fmt.Errorf("unexpected arguments %q (directories are for --merge)", dirs)
	}
	return runCompare(ctx, w, stderr, o)
}

func runCompare(ctx context.Context, w, stderr io.Writer, o *CompareOptions) error {
	if len(o.FixedAt) > 0 && !o.OnFixed {
		return errors.New("--fixed-at goes with --on-fixed")
	}
	if len(o.GoPkgs) > 0 {
		return runCompareGo(ctx, w, stderr, o)
	}
	if o.KeepGoing || o.MinimizeTime != "" || o.OnFixed {
		return errors.New("--keep-going, --fuzzminimizetime and --on-fixed are for Go grids (--go)")
	}
	if len(o.Benches) == 0 {
		return errors.New("--bench: give at least one benchmark, e.g. --bench warehouse-sort,temperature")
	}
	shard, err := o.gridShard()
	if err != nil {
		return err
	}
	var crits []string
	for _, c := range o.Criteria {
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
	for _, b := range o.Benches {
		dir, err := benchFolder(b, o.BenchDir, o.changed("bench-dir"))
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
	if o.Engine != campaign.EngineBuiltin && o.Engine != campaign.EngineAFL {
		return fmt.Errorf("--engine must be builtin or afl, got %q", o.Engine)
	}
	g := compare.Grid{Benches: names, Criteria: crits, Runs: o.Runs, Budget: o.Budget, Seed: o.Seed}
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
	if o.SlurmScript != "" {
		return writeSlurmScript(w, o, g)
	}
	// From here on a signal stops the grid cleanly (before, it would
	// kill a process that has nothing to save).
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	n := len(shard.Cells(g))
	waves := (n + o.Workers - 1) / o.Workers
	fmt.Fprintf(stderr, "compare: %d campaign(s) of %s (shard %s), %d in parallel: about %s\n",
		n, o.Budget, shard, o.Workers, (time.Duration(waves) * o.Budget).Round(time.Second))

	ro := compare.RunnerOptions{Engine: o.Engine}
	if o.Engine == campaign.EngineAFL {
		exe, err := o.AFLTarget()
		if err != nil {
			return fmt.Errorf("locating the labelcov binary: %w", err)
		}
		ro.Exe = exe
	}
	res, err := compare.Run(ctx, compare.Options{Grid: g, Shard: shard, Workers: o.Workers, Out: o.Out, Benches: infos,
		Runner: compare.PlanRunner(benches, ro), Command: o.Command, GridCommand: o.gridCommand(shard), Progress: stderr})
	if err != nil {
		return err
	}
	return finishCompare(w, o, res)
}

// finishCompare writes the report of what finished; campaigns left
// unfinished by a signal make it an interruption.
func finishCompare(w io.Writer, o *CompareOptions, res compare.Outcome) error {
	repErr := writeCompareReport(w, o, o.Out)
	if res.Unfinished > 0 {
		// A signal (Ctrl-C, SIGTERM from scancel or a time limit): the
		// report covers what finished, and a scheduler must not record
		// the task as done.
		return errors.Join(subject.Interrupted("compare: interrupted with %d of %d campaign(s) to run unfinished; run the same command again to resume",
			res.Unfinished, res.Unfinished+res.Ran), repErr)
	}
	return repErr
}

// gridShard checks --workers and reads --shard (all of the grid when not
// given).
func (o *CompareOptions) gridShard() (compare.Shard, error) {
	if o.Workers <= 0 {
		return compare.Shard{}, fmt.Errorf("--workers must be positive, got %d", o.Workers)
	}
	if o.SlurmArray != "" && o.SlurmScript == "" {
		return compare.Shard{}, errors.New("--slurm-array goes with --slurm-script")
	}
	if o.Shard == "" {
		return compare.All, nil
	}
	s, err := compare.ParseShard(o.Shard)
	if err != nil {
		return compare.Shard{}, fmt.Errorf("--shard: %w", err)
	}
	return s, nil
}

func runCompareMerge(w io.Writer, dirs []string, o *CompareOptions) error {
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
		if o.changed(name) {
			return fmt.Errorf("--%s does not go with --merge: the grid comes from the directories", name)
		}
	}
	return writeCompareReport(w, o, o.Out, dirs...)
}

// writeCompareReport writes the report of dirs (a merge: the whole grid)
// into out, or without dirs the report of out's own shard.
func writeCompareReport(w io.Writer, o *CompareOptions, out string, dirs ...string) error {
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
	r.Note = o.Note
	files, err := r.Write(out)
	if err != nil {
		return err
	}
	if o.MD != "" {
		if err := o.checkOutputs(); err != nil {
			return err
		}
		more, err := r.WriteMarkdownAt(o.MD)
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
	if o.MD != "" {
		fmt.Fprintf(&b, "markdown: %s\n", o.MD)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// checkOutputs checks compare's outputs against what it reads (o.guard):
// --out (a folder compare writes campaigns and the report into), --md
// and the folder of its plots, --slurm-script. compare writes nothing
// else.
func (o *CompareOptions) checkOutputs() error {
	if err := o.guard.CheckDir("--out", o.Out, "compare-out"); err != nil {
		return err
	}
	if o.MD != "" {
		if err := o.guard.Check("--md", o.MD); err != nil {
			return err
		}
		if err := o.guard.CheckDir("--md", compare.MarkdownPlotDir(o.MD), ""); err != nil {
			return err
		}
	}
	return o.guard.Check("--slurm-script", o.SlurmScript)
}

// DefaultBenchDir is where the repository keeps its benchmarks.
var DefaultBenchDir = filepath.Join("testdata", "bench")

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
		dir := filepath.Join(d, DefaultBenchDir, b)
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
		"or a path to the benchmark folder (--bench path/to/%s)", b, filepath.Join(DefaultBenchDir, b), wd, b)
}

// relTo is path relative to base when it can be, for shorter messages.
func relTo(base, path string) string {
	if r, err := filepath.Rel(base, path); err == nil {
		return r
	}
	return path
}

// runCompareGo runs a Go grid: the fuzz targets of --go's packages.
func runCompareGo(ctx context.Context, w, stderr io.Writer, o *CompareOptions) error {
	if o.changed("engine") {
		return errors.New("--engine does not go with --go: Go targets are fuzzed by go test -fuzz")
	}
	if o.changed("bench-dir") {
		return errors.New("--bench-dir does not go with --go: the benchmarks are the fuzz targets of the --go packages")
	}
	shard, err := o.gridShard()
	if err != nil {
		return err
	}
	crits := o.Criteria
	if !o.changed("criteria") {
		crits = []string{compare.Baseline, "dist"}
	}
	for _, c := range crits {
		if _, err := compare.ParseGuide(c); err != nil {
			return fmt.Errorf("--criteria: %w", err)
		}
	}

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var all []*compare.GoBench
	for _, pat := range o.GoPkgs {
		dir, p, err := gotransform.PatternDir(pat)
		if err != nil {
			return fmt.Errorf("--go %s: %w", pat, err)
		}
		bs, err := compare.LoadGoBenches(ctx, dir, []string{p})
		if err != nil {
			return fmt.Errorf("--go %s: %w", pat, err)
		}
		all = append(all, bs...)
	}
	if err := resolveGridLabelPkgs(ctx, all, o.LabelPkgs); err != nil {
		return err
	}
	benches, err := compare.SelectGoBenches(all, o.Benches)
	if err != nil {
		return err
	}
	var names []string
	for _, b := range benches {
		o.guard.Folder("the testdata of "+b.Info.Name, filepath.Join(b.Target.Dir, "testdata"))
		names = append(names, b.Info.Name)
	}
	g := compare.Grid{Benches: names, Criteria: crits, Runs: o.Runs, Budget: o.Budget, Seed: o.Seed, Kind: compare.KindGo,
		MinimizeTime: o.MinimizeTime, OnFixed: o.OnFixed}
	if err := g.Validate(); err != nil {
		return err
	}
	if err := o.checkOutputs(); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "labelcov-compare-go-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if o.OnFixed {
		// Each target against the versions with its bugs' fixes, in a
		// private go.mod of its own (targets of one module may list
		// different bugs).
		used := make([]bool, len(o.FixedAt))
		for _, b := range benches {
			u, err := b.PinFixed(ctx, filepath.Join(work, "fixed"), o.FixedAt, nil)
			if err != nil {
				return fmt.Errorf("--on-fixed: %w", err)
			}
			for i := range u {
				used[i] = used[i] || u[i]
			}
			fmt.Fprintf(stderr, "compare: %s on %s\n", b.Info.Name, strings.Join(b.Info.Fixed, ", "))
		}
		for i, f := range o.FixedAt {
			if !used[i] {
				return fmt.Errorf("--fixed-at %s: no target's truth.json names a fixed version of that module", f)
			}
		}
	}
	var infos []compare.BenchInfo
	for _, b := range benches {
		infos = append(infos, b.Info)
	}
	runner := compare.NewGoRunner(benches, compare.GoRunnerOptions{Work: work, KeepGoing: o.KeepGoing, MinimizeTime: o.MinimizeTime})
	// Annotating and building every (target, criterion) up front reports
	// what does not build before hours of campaigns.
	fmt.Fprintf(stderr, "compare: building %d fuzz target(s) × %d criteria\n", len(benches), len(crits))
	for _, b := range benches {
		for _, c := range crits {
			if err := runner.Prepare(ctx, b.Info.Name, c); err != nil {
				if ctx.Err() != nil {
					return subject.Interrupted("compare: interrupted while building the fuzz targets")
				}
				return err
			}
		}
	}
	if o.SlurmScript != "" {
		return writeSlurmScript(w, o, g)
	}
	n := len(shard.Cells(g))
	waves := (n + o.Workers - 1) / o.Workers
	fmt.Fprintf(stderr, "compare: %d go test -fuzz campaign(s) of at most %s (shard %s), %d in parallel: at most about %s\n",
		n, o.Budget, shard, o.Workers, (time.Duration(waves) * o.Budget).Round(time.Second))
	res, err := compare.Run(ctx, compare.Options{Grid: g, Shard: shard, Workers: o.Workers, Out: o.Out, Benches: infos,
		Runner: runner.Run, Command: o.Command, GridCommand: o.gridCommand(shard), Progress: stderr})
	if err != nil {
		return err
	}
	return finishCompare(w, o, res)
}

// slurmArray is the --slurm-array value N[%K]: N array tasks, at most K
// running at once (0: no limit).
type slurmArray struct{ tasks, throttle int }

func parseSlurmArray(s string) (slurmArray, error) {
	n, k, throttled := strings.Cut(s, "%")
	a := slurmArray{}
	var err error
	if a.tasks, err = strconv.Atoi(n); err != nil || a.tasks < 1 {
		return a, fmt.Errorf("--slurm-array %q: want N or N%%K, N array tasks (at least 1), at most K running at once", s)
	}
	if throttled {
		if a.throttle, err = strconv.Atoi(k); err != nil || a.throttle < 1 {
			return a, fmt.Errorf("--slurm-array %q: the K of N%%K (tasks running at once) must be at least 1", s)
		}
	}
	return a, nil
}

// slurmScript is what the script needs beyond the grid.
type slurmScript struct {
	Command    string // the compare command that wrote the script
	Grid       string // the grid in words
	Cells      int
	Tasks      int
	PerTask    int    // campaigns per task, at most
	Throttle   int    // tasks running at once, 0: no limit
	CPUs       int    // --cpus-per-task: campaigns a task runs at once
	Time       string // time limit of a task
	Budget     time.Duration
	Exe        string // the labelcov binary (quoted)
	Dir        string // the working directory of every command (quoted)
	Out        string // --out (quoted)
	Tail       string // the grid's flags, quoted
	MergeFlags string // --md, --note of the merge, quoted
}

// writeSlurmScript writes the job-array script of grid g (instead of running
// it): each of N array tasks runs its shard i/N into OUT/shards/i, with
// --cpus-per-task campaigns at a time, and a job that depends on the whole
// array (afterok) merges the shards into OUT.
func writeSlurmScript(w io.Writer, o *CompareOptions, g compare.Grid) error {
	if o.Shard != "" {
		return errors.New("--shard does not go with --slurm-script: every task of the array runs its own shard")
	}
	cells := len(g.Cells())
	arr := slurmArray{tasks: cells}
	if o.SlurmArray != "" {
		var err error
		if arr, err = parseSlurmArray(o.SlurmArray); err != nil {
			return err
		}
		if arr.tasks > cells {
			return fmt.Errorf("--slurm-array %s: the grid has %d campaign(s), so at most %d tasks", o.SlurmArray, cells, cells)
		}
	}
	cpus := 1
	if o.changed("workers") {
		cpus = o.Workers
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating the labelcov binary: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	perTask := (cells + arr.tasks - 1) / arr.tasks
	waves := (perTask + cpus - 1) / cpus
	s := slurmScript{
		Command: o.Command, Cells: cells, Tasks: arr.tasks, PerTask: perTask, Throttle: arr.throttle, CPUs: cpus,
		Time:   slurmTime(time.Duration(waves) * campaignLimit(g.Budget)),
		Budget: g.Budget, Exe: subject.ShellQuote(exe), Dir: subject.ShellQuote(wd), Out: subject.ShellQuote(o.Out),
		Tail: o.SlurmTail, MergeFlags: o.SlurmMerge,
		Grid: fmt.Sprintf("%s; criteria %s; %d run(s)", strings.Join(g.Benches, ","), strings.Join(g.Criteria, ","), g.Runs),
	}
	var b strings.Builder
	if err := slurmTemplate.Execute(&b, s); err != nil {
		return err
	}
	if err := o.guard.WriteFile("--slurm-script", o.SlurmScript, []byte(b.String()), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: %d campaign(s) in %d Slurm array task(s) of at most %d, then the merge into %s; submit with: bash %s\n",
		o.SlurmScript, cells, arr.tasks, perTask, o.Out, subject.ShellQuote(o.SlurmScript))
	return nil
}

// campaignLimit is the wall-clock time one campaign of budget b may take:
// the budget, then replaying the corpus on the yardstick and minimizing
// the findings, and starting up (a tenth of the budget and a minute).
func campaignLimit(b time.Duration) time.Duration {
	return b + b/10 + time.Minute
}

// slurmTime formats a task's time limit (plus 5 minutes for the report of
// the shard) as Slurm's D-HH:MM:SS, rounded up to the minute.
func slurmTime(d time.Duration) string {
	d += 5 * time.Minute
	m := int((d + time.Minute - 1) / time.Minute)
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), m/60%24, m%60)
}

var slurmTemplate = template.Must(template.New("slurm").Parse(`#!/bin/bash
# A labelcov comparison grid as a Slurm job array, written by
#   {{.Command}}
# {{.Cells}} campaign(s) of {{.Budget}} (benchmarks {{.Grid}})
# in {{.Tasks}} array task(s) of at most {{.PerTask}} campaign(s), {{.CPUs}} CPU(s) and as many campaigns
# at a time per task{{if .Throttle}}, at most {{.Throttle}} task(s) running at once{{end}}; then the report.
#
# Submit it with "bash THIS-SCRIPT" (not sbatch): that submits the array below
# and a merge job that starts once every task succeeded (afterok). Task i runs
# "compare --shard i/{{.Tasks}}" into OUT/shards/i, log OUT/slurm/labelcov-compare-ARRAYID_i.out;
# the merge job "compare --merge" into OUT. A task stopped by scancel or its
# time limit exits 3 and Slurm cancels the merge: submit the script again,
# finished campaigns are kept and unfinished ones rerun.
# Site options (partition, account, QOS): export SBATCH_PARTITION=... and
# SBATCH_ACCOUNT=... before submitting, or add #SBATCH lines below.
#
#SBATCH --job-name=labelcov-compare
#SBATCH --array=1-{{.Tasks}}{{if .Throttle}}%{{.Throttle}}{{end}}
#SBATCH --cpus-per-task={{.CPUs}}
#SBATCH --time={{.Time}}
set -euo pipefail

# The binary that wrote this script; set LABELCOV to use another one.
labelcov=${LABELCOV:-{{.Exe}}}
script=$(realpath -- "$0")
cd {{.Dir}}
out={{.Out}}

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  mkdir -p "$out/slurm"
  array=$(sbatch --parsable --output="$out/slurm/%x-%A_%a.out" "$script")
  array=${array%%;*}
  merge=$(sbatch --parsable --job-name=labelcov-merge --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --cpus-per-task=1 --time=0-01:00:00 --output="$out/slurm/%x-%j.out" <<'MERGE'
#!/bin/bash
set -euo pipefail
cd {{.Dir}}
exec "${LABELCOV:-{{.Exe}}}" compare --merge --out {{.Out}} {{with .MergeFlags}}{{.}} {{end}}{{.Out}}/shards/*
MERGE
  )
  echo "submitted job array $array ({{.Tasks}} task(s)) and merge job ${merge%%;*}; the report goes to $out"
  exit 0
fi

# Task i of the array: its shard of the grid. --workers defaults to
# SLURM_CPUS_PER_TASK.
exec "$labelcov" compare {{.Tail}} --shard "$SLURM_ARRAY_TASK_ID/{{.Tasks}}" --out "$out/shards/$SLURM_ARRAY_TASK_ID"
`))

// resolveGridLabelPkgs sets the labelled packages of every bench from
// --label-pkgs. When the benches come from one module, every pattern must
// name packages there (ResolveLabelPkgs). A grid over several modules
// (--go patterns in different modules, say one per vulnerable dependency)
// gives each module the patterns its build resolves, so one grid can label
// a different dependency in each; a pattern no module resolves, or a
// module that resolves none, is an error.
func resolveGridLabelPkgs(ctx context.Context, benches []*compare.GoBench, patterns []string) error {
	if len(patterns) == 0 {
		return nil
	}
	modules := map[string][]*compare.GoBench{}
	var order []string
	for _, b := range benches {
		if modules[b.Target.Module] == nil {
			order = append(order, b.Target.Module)
		}
		modules[b.Target.Module] = append(modules[b.Target.Module], b)
	}
	set := func(bs []*compare.GoBench, pkgs []string) {
		for _, b := range bs {
			b.Target.LabelPkgs = pkgs
			b.Info.LabelPkgs = pkgs
		}
	}
	if len(order) == 1 {
		pkgs, err := subject.ResolveLabelPkgs(ctx, order[0], patterns)
		if err != nil {
			return err
		}
		set(benches, pkgs)
		return nil
	}
	used := make([]bool, len(patterns))
	for _, m := range order {
		var pkgs []string
		var errs []string
		for i, p := range patterns {
			got, err := subject.ResolveLabelPkgs(ctx, m, []string{p})
			if err != nil {
				errs = append(errs, err.Error())
				continue
			}
			used[i] = true
			pkgs = append(pkgs, got...)
		}
		if len(pkgs) == 0 {
			return fmt.Errorf("--label-pkgs: no pattern names a package the module in %s builds:\n%s", m, strings.Join(errs, "\n"))
		}
		set(modules[m], pkgs)
	}
	for i, p := range patterns {
		if !used[i] {
			return fmt.Errorf("--label-pkgs %s: no package in the modules of --go", p)
		}
	}
	return nil
}
