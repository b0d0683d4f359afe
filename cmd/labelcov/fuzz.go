package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver"
	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/labels"
	"github.com/spf13/cobra"
)

// planSetupFlags are the flags fuzz, afl-target and replay share: which plan
// runs in which world, annotated how.
type planSetupFlags struct {
	world      string
	plan       string
	criteria   string
	measure    string
	maxAtoms   int
	pure       []string
	maxObjects int
	maxSteps   int64
	noRetire   bool // fuzz and afl-target only (registerNoRetire)
}

func (pf *planSetupFlags) register(cmd *cobra.Command, criteriaDefault string, measure bool) {
	f := cmd.Flags()
	f.StringVar(&pf.world, "world", "", "world file: inputs decode into its environments (without it, the input gives the plan's int parameters)")
	f.StringVar(&pf.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.StringVar(&pf.criteria, "criteria", criteriaDefault,
		"annotate the plan in memory with these labels before running it: none, or comma-separated mcc, cc, wm, wm:abs, wm:aor, wm:cor, wm:ror, all")
	if measure {
		f.StringVar(&pf.measure, "measure", "mcc,cc,wm", "criteria whose label coverage is measured by replaying kept inputs (the yardstick, whatever --criteria guide)")
	}
	f.IntVar(&pf.maxAtoms, "mcc-max-atoms", labels.DefaultMCCMaxAtoms, "decisions with more atoms get CC labels instead of MCC")
	f.StringSliceVar(&pf.pure, "pure", nil, "external functions known to have no effects, besides the simulator's queries")
	f.IntVar(&pf.maxObjects, "max-objects", sim.DefaultMaxObjects, "object slots read from an input (with --world)")
	f.Int64Var(&pf.maxSteps, "max-steps", fuzzdriver.DefaultMaxSteps, "step budget per run and per check; running out is a timeout finding")
}

// registerNoRetire adds --no-retire, for the commands that fuzz.
func (pf *planSetupFlags) registerNoRetire(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&pf.noRetire, "no-retire", false,
		"keep evaluating labels that have fired (by default a fuzzing process retires them: they cost nothing more); for research comparisons")
}

// parseCriteriaFlag reads --criteria; "none" and "" mean the original plan.
func parseCriteriaFlag(name, s string) (labels.Criteria, error) {
	if s == "" || strings.EqualFold(s, "none") {
		return 0, nil
	}
	c, err := labels.ParseCriteria(s)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", name, err)
	}
	return c, nil
}

// build reads the plan and world and compiles the setup.
func (pf *planSetupFlags) build(stdin io.Reader, planPath string) (*fuzzdriver.PlanFuzz, error) {
	if pf.maxSteps <= 0 {
		return nil, fmt.Errorf("--max-steps must be positive, got %d", pf.maxSteps)
	}
	if pf.maxObjects <= 0 {
		return nil, fmt.Errorf("--max-objects must be positive, got %d", pf.maxObjects)
	}
	if pf.maxAtoms < 1 {
		return nil, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", pf.maxAtoms)
	}
	guide, err := parseCriteriaFlag("criteria", pf.criteria)
	if err != nil {
		return nil, err
	}
	var meas labels.Criteria
	if pf.measure != "" {
		if meas, err = parseCriteriaFlag("measure", pf.measure); err != nil {
			return nil, err
		}
	}
	f, err := readPlan(stdin, planPath)
	if err != nil {
		return nil, err
	}
	s := fuzzdriver.PlanSetup{Plan: f, PlanName: pf.plan, Criteria: guide, Measure: meas, MCCMaxAtoms: pf.maxAtoms,
		PureFuncs: pf.pure, MaxObjects: pf.maxObjects, MaxSteps: pf.maxSteps, NoRetire: pf.noRetire}
	if pf.world != "" {
		if s.World, err = sim.LoadWorld(pf.world); err != nil {
			return nil, err
		}
	}
	return s.Build()
}

type fuzzOptions struct {
	planSetupFlags
	engine   string
	budget   time.Duration
	runs     int64
	workers  int
	seed     uint64
	corpus   string
	out      string
	instance string
	main     bool
	json     bool
	progress time.Duration
	aflArgs  []string
}

func newFuzzCmd() *cobra.Command {
	var o fuzzOptions
	cmd := &cobra.Command{
		Use:   "fuzz PLAN [--world W] [--criteria mcc,wm|none] [--budget 60s] [--out DIR]",
		Short: "Fuzz a plan with the built-in coverage-guided engine or with AFL++",
		Long: `fuzz runs a coverage-guided campaign on PLAN. Every input is a byte string: with
--world it decodes into an initial environment of that world (docs/environment.md),
the plan runs in the simulator and the def-checks judge the final state; without
--world the plan's def-plan parameters come from the input, 8 bytes per parameter
(little-endian int64, missing bytes read as 0).

The fuzzer is a stock one: it keeps an input when the VM's branch counters reach a
new (counter, hit-count bucket) pair, and knows nothing of labels. --criteria
annotates the plan in memory first, so that MCC, CC or weak-mutation labels reach
the fuzzer as ordinary branches (none, the default, fuzzes the original plan).

Findings are grouped by key: a def-check's error category, or the failure kind
and position (file:line:col of the original plan) of an unhandled plan failure
or a step-budget timeout. The first input of each key is minimized (fewest
objects, then fewest bytes) and saved, with its readable .env beside it.

Engines:
  builtin  in-process, --workers goroutines sharing one corpus; with --workers 1
           the campaign is deterministic for a given --seed (and --runs).
  afl      the real afl-fuzz (AFL++, e.g. Debian's afl++ 4.04c) on
           "labelcov afl-target PLAN ...": one instance per worker (-M main,
           -S secN with several), -V for the budget, seeds from --corpus or a
           small default, AFL's execs/s read from fuzzer_stats.

Progress goes to stderr every few seconds: elapsed time, execs and execs/s,
corpus, coverage of the original plan (instructions, branches, action buckets
and labels) and findings. Label coverage is measured by replaying kept inputs
on the plan annotated with --measure (all criteria by default), whatever
criteria guide the campaign, so campaigns guided differently compare on one
yardstick. Ctrl-C stops cleanly with everything saved.

--out DIR holds the campaign in AFL++'s sync-directory layout (DIR/labelcov/queue,
DIR/labelcov/crashes with NAME.env beside each finding, findings.json, and
stats.json: a time series of execs, corpus and coverage; docs/fuzzing.md). Run
again on the same --out to resume. Without --out either engine uses a new
temporary directory, named on stderr at the start and in the summary.

--json prints one summary object at the end: execs, execs_per_sec, corpus,
coverage, labels_by_criterion, findings[] (key, category, time_s, input, ...),
stop and dir.`,
		Example: `  # one minute on the warehouse benchmark, original plan, all cores
  labelcov fuzz testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world --out /tmp/ws

  # guided by MCC and weak-mutation labels, deterministic, 5 minutes, summary as JSON
  labelcov fuzz warehouse-sort.plan --world warehouse.world --criteria mcc,wm \
      --workers 1 --seed 7 --budget 5m --out /tmp/ws-mccwm --json > /tmp/ws-mccwm.json

  # seeds from the benchmark's reproducers (.env files are encoded), a fixed number of runs
  labelcov fuzz warehouse-sort.plan --world warehouse.world --corpus reproducers --runs 20000

  # no world: fuzz the plan's integer parameters
  labelcov fuzz testdata/bench/temperature/temperature.plan --budget 30s

  # the same campaign under AFL++
  labelcov fuzz warehouse-sort.plan --world warehouse.world --engine afl --budget 2m --out /tmp/ws-afl

  # replay what was found
  labelcov replay warehouse-sort.plan --world warehouse.world /tmp/ws/labelcov/crashes/id:000000* --trace`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("budget") && cmd.Flags().Changed("runs") {
				o.budget = 0
			}
			return runFuzz(cmd, args[0], &o)
		},
	}
	o.planSetupFlags.register(cmd, "none", true)
	o.planSetupFlags.registerNoRetire(cmd)
	f := cmd.Flags()
	f.StringVar(&o.engine, "engine", "builtin", "fuzzer: builtin or afl")
	f.DurationVar(&o.budget, "budget", time.Minute, "wall-clock budget (none when only --runs is given)")
	f.Int64Var(&o.runs, "runs", 0, "stop after this many runs (builtin: seeds and a resumed queue count; afl: afl-fuzz -E)")
	f.IntVar(&o.workers, "workers", runtime.NumCPU(), "parallel workers (builtin: goroutines; afl: afl-fuzz instances)")
	f.Uint64Var(&o.seed, "seed", 1, "random seed")
	f.StringVar(&o.corpus, "corpus", "", "directory of seed inputs: raw bytes, or .env files with --world")
	f.StringVar(&o.out, "out", "", "campaign directory (AFL++ sync-directory layout); resumes when it exists (default: a new temporary directory)")
	f.StringVar(&o.instance, "instance", fuzzdriver.DefaultInstance, "name of the built-in engine's directory inside --out")
	f.BoolVar(&o.main, "main", false, "builtin: mark the instance as AFL++'s main node, so that afl-fuzz -S secondaries import its queue")
	f.BoolVar(&o.json, "json", false, "print one JSON summary object at the end")
	f.DurationVar(&o.progress, "progress", fuzzdriver.DefaultProgressInterval, "interval of progress lines on stderr (0: none)")
	f.StringSliceVar(&o.aflArgs, "afl-arg", nil, "extra afl-fuzz argument (repeatable), e.g. --afl-arg=-t --afl-arg=500")
	return cmd
}

// fuzzSummary is the --json object: the engine's summary and what the
// command adds.
type fuzzSummary struct {
	*fuzzdriver.Summary
	Engine     string                       `json:"engine"`
	Criteria   string                       `json:"criteria"`
	Measure    string                       `json:"measure"`
	Workers    int                          `json:"workers"`
	Seed       uint64                       `json:"seed"`
	ByCriteria map[string]fuzzdriver.Figure `json:"labels_by_criterion"`
	// AFL is what afl-fuzz's fuzzer_stats said (engine afl only).
	AFL []afl.InstanceStats `json:"afl,omitempty"`
}

func runFuzz(cmd *cobra.Command, planPath string, o *fuzzOptions) error {
	if o.workers <= 0 {
		return fmt.Errorf("--workers must be positive, got %d", o.workers)
	}
	if o.budget < 0 || o.runs < 0 {
		return errors.New("--budget and --runs must not be negative")
	}
	if o.engine != "builtin" && o.engine != "afl" {
		return fmt.Errorf("--engine must be builtin or afl, got %q", o.engine)
	}
	if o.budget == 0 && o.runs == 0 && o.engine == "afl" {
		return errors.New("--engine afl needs --budget or --runs")
	}
	if planPath == "-" {
		return errors.New("fuzz needs a plan file, not standard input (afl-target and the worker re-read it)")
	}
	stderr := cmd.ErrOrStderr()
	pf, err := o.build(cmd.InOrStdin(), planPath)
	if err != nil {
		return err
	}
	for _, w := range pf.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	if pf.Setup.World == nil && pf.Plan().NumParams() == 0 {
		fmt.Fprintf(stderr, "warning: plan %s takes no parameters and no --world is given: every input runs the same test\n", pf.Plan().Name)
	}
	seeds, err := readSeeds(pf, o.corpus)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var sum *fuzzSummary
	if o.engine == "afl" {
		sum, err = runAFLCampaign(ctx, cmd, planPath, pf, seeds, o)
	} else {
		sum, err = runBuiltinCampaign(ctx, stderr, pf, seeds, o)
	}
	if sum == nil {
		return err
	}
	if o.json {
		if jerr := writeJSON(cmd.OutOrStdout(), sum); jerr != nil {
			return errors.Join(err, jerr)
		}
		return err
	}
	return errors.Join(err, writeFuzzSummary(cmd.OutOrStdout(), sum))
}

func runBuiltinCampaign(ctx context.Context, stderr io.Writer, pf *fuzzdriver.PlanFuzz, seeds []namedInput, o *fuzzOptions) (*fuzzSummary, error) {
	c, meter, err := pf.Campaign()
	if err != nil {
		return nil, err
	}
	c.Workers, c.Seed, c.Budget, c.Runs = o.workers, o.seed, o.budget, o.runs
	out := o.out
	if out == "" {
		// Findings are always saved: without --out they go to a fresh
		// temporary campaign directory, as with --engine afl.
		if out, err = os.MkdirTemp("", "labelcov-fuzz-"); err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "fuzz: campaign directory %s (use --out to choose one)\n", out)
	}
	c.Out, c.Instance, c.Main = out, o.instance, o.main
	if o.progress > 0 {
		c.Progress, c.ProgressInterval = stderr, o.progress
	}
	if seeds != nil {
		c.Seeds = make([][]byte, 0, len(seeds))
		for _, s := range seeds {
			c.Seeds = append(c.Seeds, s.data)
		}
	}
	s, err := c.Run(ctx)
	if s == nil {
		return nil, err
	}
	if merr := meter.Err(); merr != nil {
		err = errors.Join(err, fmt.Errorf("measuring coverage: %w", merr))
	}
	return &fuzzSummary{Summary: s, Engine: "builtin", Criteria: critName(pf.Setup.Criteria), Measure: critName(pf.Setup.Measure),
		Workers: o.workers, Seed: o.seed, ByCriteria: meter.ByCriterion()}, err
}

func critName(c labels.Criteria) string {
	if c == 0 {
		return "none"
	}
	return c.String()
}

type namedInput struct {
	name string
	data []byte
}

// readSeeds reads --corpus: every regular, non-hidden file in name order;
// with a world, .env files are encoded into the bytes they stand for. Nil
// without --corpus.
func readSeeds(pf *fuzzdriver.PlanFuzz, dir string) ([]namedInput, error) {
	if dir == "" {
		return nil, nil
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("--corpus: %w", err)
	}
	var out []namedInput
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
			continue
		}
		data, err := pf.ReadInput(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		out = append(out, namedInput{e.Name(), data})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--corpus %s holds no input files", dir)
	}
	return out, nil
}

// writeFuzzSummary prints the end of a campaign for a person.
func writeFuzzSummary(w io.Writer, s *fuzzSummary) error {
	var b strings.Builder
	rate := "this session"
	if s.Engine == "afl" {
		rate = "afl-fuzz's average"
	}
	fmt.Fprintf(&b, "%s campaign stopped (%s) after %.1fs: %d execs (%.0f/s, %s), corpus %d\n",
		s.Engine, s.Stop, s.ElapsedS, s.Execs, s.ExecsPerSec, rate, s.Corpus)
	keys := make([]string, 0, len(s.Coverage))
	for k := range s.Coverage {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-13s %s\n", k+":", pct(s.Coverage[k]))
	}
	ck := make([]string, 0, len(s.ByCriteria))
	for k := range s.ByCriteria {
		ck = append(ck, k)
	}
	sort.Strings(ck)
	for _, k := range ck {
		fmt.Fprintf(&b, "  %-13s %s\n", "labels "+k+":", pct(s.ByCriteria[k]))
	}
	fmt.Fprintf(&b, "%d finding(s)\n", len(s.Findings))
	for _, f := range s.Findings {
		state := "new"
		if !f.New {
			state = "known"
		}
		fmt.Fprintf(&b, "  %-40s %8.3fs  %s, %d bytes", f.Key, f.TimeS, state, f.Size.Bytes)
		if f.Size.Objects > 0 {
			fmt.Fprintf(&b, " (%d objects)", f.Size.Objects)
		}
		if f.Input != "" {
			fmt.Fprintf(&b, "  %s", f.Input)
		}
		b.WriteByte('\n')
	}
	if s.Dir != "" {
		fmt.Fprintf(&b, "campaign directory: %s\n", s.Dir)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(f fuzzdriver.Figure) string {
	if f.Total == 0 {
		return f.String()
	}
	return fmt.Sprintf("%s (%.1f%%)", f, 100*float64(f.Covered)/float64(f.Total))
}
