package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	timeout    time.Duration
	noRetire   bool // fuzz and afl-target only (registerNoRetire)
}

func (pf *planSetupFlags) register(cmd *cobra.Command, criteriaDefault string, measure bool) {
	f := cmd.Flags()
	f.StringVar(&pf.world, "world", "", "world file: inputs decode into its environments (without it, the input gives the plan's int parameters)")
	f.StringVar(&pf.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.StringVar(&pf.criteria, "criteria", criteriaDefault,
		"annotate the plan in memory with these labels before running it: none, or comma-separated mcc, cc, wm, wm:abs, wm:aor, wm:cor, wm:ror, dist, all (all leaves out dist)")
	if measure {
		f.StringVar(&pf.measure, "measure", "mcc,cc,wm", "criteria whose label coverage is measured by replaying kept inputs (the yardstick, whatever --criteria guide); none: no label coverage")
	}
	f.IntVar(&pf.maxAtoms, "mcc-max-atoms", labels.DefaultMCCMaxAtoms, "decisions with more atoms get CC labels instead of MCC")
	f.StringSliceVar(&pf.pure, "pure", nil, "external functions known to have no effects, besides the simulator's queries")
	f.IntVar(&pf.maxObjects, "max-objects", runner.DefaultMaxObjects, "object slots read from an input (with --world)")
	f.Int64Var(&pf.maxSteps, "max-steps", campaign.DefaultMaxSteps, "step budget per run and per check; running out is a timeout finding")
	f.DurationVar(&pf.timeout, "timeout", engine.DefaultRunTimeout, "wall-clock limit of one run: a run exceeding it is cancelled and is a hang finding (afl: afl-fuzz -t)")
}

// registerNoRetire adds --no-retire, for the commands that fuzz.
func (pf *planSetupFlags) registerNoRetire(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&pf.noRetire, "no-retire", false,
		"keep evaluating labels that have fired (by default a fuzzing process retires them: their predicate is no longer evaluated); for research comparisons")
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

// worldForParams explains why a plan with parameters cannot run in a
// world: the input is either an environment (with --world) or the plan's
// parameters (without).
func worldForParams(f *syntax.File, fn *compile.Func) error {
	if fn.NumParams() == 0 {
		return nil
	}
	if runner.NeedsWorld(f) == nil {
		return fmt.Errorf("%s uses no world: its plan %s takes %d parameter(s) (%s), which the input gives without --world; drop --world",
			f.Name, fn.Name, fn.NumParams(), strings.Join(fn.Params, " "))
	}
	return fmt.Errorf("%s: plan %s takes %d parameter(s) (%s), but with --world the input is an environment and the plan runs without arguments; fuzz a plan without parameters (a def-plan that calls this one)",
		f.Name, fn.Name, fn.NumParams(), strings.Join(fn.Params, " "))
}

// build reads the plan and world and compiles the setup.
func (pf *planSetupFlags) build(stdin io.Reader, planPath string) (*campaign.Fuzzer, error) {
	if err := (runner.Limits{MaxSteps: pf.maxSteps, MaxObjects: pf.maxObjects}).Check(); err != nil {
		return nil, err
	}
	if pf.maxAtoms < 1 {
		return nil, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", pf.maxAtoms)
	}
	guide, err := parseCriteriaFlag("criteria", pf.criteria)
	if err != nil {
		return nil, err
	}
	var meas labels.Criteria
	// Commands without --measure (replay, afl-target) measure nothing.
	noMeasure := pf.measure == "" || strings.EqualFold(strings.TrimSpace(pf.measure), "none")
	if !noMeasure {
		if meas, err = parseCriteriaFlag("measure", pf.measure); err != nil {
			return nil, err
		}
	}
	f, err := parsePlan(stdin, planPath)
	if err != nil {
		return nil, err
	}
	s := campaign.Setup{Plan: f, PlanName: pf.plan, Criteria: guide, Measure: meas, NoMeasure: noMeasure, MCCMaxAtoms: pf.maxAtoms,
		PureFuncs: pf.pure, MaxObjects: pf.maxObjects, MaxSteps: pf.maxSteps, RunTimeout: pf.timeout, NoRetire: pf.noRetire}
	if pf.world != "" {
		if s.World, err = runner.LoadWorld(pf.world); err != nil {
			return nil, err
		}
	}
	built, err := s.Build()
	if err == nil && s.World != nil {
		// Say why a plan with parameters does not run in a world, rather
		// than that it got no arguments.
		err = worldForParams(f, built.Plan())
	}
	if err != nil {
		return nil, err
	}
	return built, nil
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
	// allowFindings exits 0 even when the campaign has findings.
	allowFindings bool
	// forceOut resumes in an --out of another plan, world or criteria.
	forceOut bool
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
annotates the plan in memory first, so that MCC, CC, weak-mutation or dist labels
reach the fuzzer as branch counters (none, the default, fuzzes the original plan);
labels the value analysis proves can never hold are not injected (labelcov labels
lists them). A label shows only when it fires (its predicate holds; one counter,
none for the predicate being false), and never in a run cut by a limit (steps,
--timeout, output, call depth, allocations). A label that has fired is retired
(unless --no-retire): its predicate is no longer evaluated; in the built-in
engine it costs nothing more and writes nothing, under afl it keeps writing the
counter it fired with, so that an input gives afl-fuzz the same map every run.

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
           small default; progress read live (execs counted by the fork
           server, crashes and hangs from afl-fuzz's directories); findings
           replayed, grouped by key and minimized like the built-in ones.

Progress goes to stderr every few seconds: elapsed time, execs and execs/s,
corpus, coverage of the original plan (instructions, branches, action buckets
and labels) and findings. Label coverage is measured by replaying kept inputs
on the plan annotated with --measure (all criteria by default), whatever
criteria guide the campaign, so campaigns guided differently compare on one
yardstick; --measure none measures the original plan only (no labels). Ctrl-C
stops cleanly with everything saved.

--out DIR holds the campaign in AFL++'s sync-directory layout (DIR/labelcov/queue,
DIR/labelcov/crashes with NAME.env beside each finding, findings.json, and
stats.json: a time series of execs, corpus and coverage; docs/fuzzing.md). Run
again on the same --out to resume. DIR/campaign.json records what the campaign
belongs to (the plan's digest and def-plan, the world, --criteria): an --out of
another campaign is refused, so that two campaigns' inputs and findings never
mix (--force-out resumes in it anyway). Without --out either engine uses a new
temporary directory, named on stderr at the start and in the summary.

Exit status: 1 when the campaign has findings, like go test -fuzz, with a
"labelcov replay ..." line per finding on stderr (--allow-findings exits 0);
3 when Ctrl-C or SIGTERM (scancel, a Slurm time limit) stopped it before
its --budget or --runs, after saving and printing the summary.
A run longer than --timeout is cancelled and saved as a hang finding. A plan
that acts on a world (perform, simulator queries) needs --world; without it
fuzz fails up front, as it does (like run) for a call to a function defined
nowhere, with file:line:col and a caret.

--engine afl keeps labelcov's files in DIR/labelcov-afl: afl-fuzz's output
(afl-fuzz-NAME.log), stats.json, summary.json and each finding's minimized
input (KEY, KEY.env).

--json prints one summary object at the end: execs, execs_per_sec, corpus,
coverage, labels_by_criterion, findings[] (key, category, time_s, input, ...),
stop and dir.`,
		Example: `  # one minute on the warehouse benchmark, original plan, one worker per CPU
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
		Args: argsNamed(1, 1, "PLAN"),
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
	f.DurationVar(&o.budget, "budget", time.Minute, "wall-clock budget of this session; 0: no time limit, the campaign runs until --runs or Ctrl-C (exit 3); none when only --runs is given")
	f.Int64Var(&o.runs, "runs", 0, "stop after this many runs (builtin: seeds and a resumed queue count; afl: afl-fuzz -E)")
	f.IntVar(&o.workers, "workers", usableCPUs(os.Getenv), "parallel workers (builtin: goroutines; afl: afl-fuzz instances)"+workersFlagHelp)
	f.Uint64Var(&o.seed, "seed", 1, "random seed")
	f.StringVar(&o.corpus, "corpus", "", "directory of seed inputs: raw bytes, or .env files with --world")
	f.StringVar(&o.out, "out", "", "campaign directory (AFL++ sync-directory layout); resumes when it exists (default: a new temporary directory)")
	f.StringVar(&o.instance, "instance", engine.DefaultInstance, "name of the built-in engine's directory inside --out")
	f.BoolVar(&o.main, "main", false, "builtin: mark the instance as AFL++'s main node, so that afl-fuzz -S secondaries import its queue")
	f.BoolVar(&o.json, "json", false, "print one JSON summary object at the end")
	f.DurationVar(&o.progress, "progress", engine.DefaultProgressInterval, "interval of progress lines on stderr (0: none)")
	f.BoolVar(&o.allowFindings, "allow-findings", false, "exit 0 even when the campaign has findings")
	f.BoolVar(&o.forceOut, "force-out", false, "resume in an --out that belongs to another plan, world or criteria (its inputs and findings are then mixed with this campaign's)")
	f.StringSliceVar(&o.aflArgs, "afl-arg", nil, "extra afl-fuzz argument (repeatable), e.g. --afl-arg=-t --afl-arg=500")
	return cmd
}

func runFuzz(cmd *cobra.Command, planPath string, o *fuzzOptions) error {
	if o.workers <= 0 {
		return fmt.Errorf("--workers must be positive, got %d", o.workers)
	}
	if o.budget < 0 || o.runs < 0 {
		return errors.New("--budget and --runs must not be negative")
	}
	if o.engine != campaign.EngineBuiltin && o.engine != campaign.EngineAFL {
		return fmt.Errorf("--engine must be builtin or afl, got %q", o.engine)
	}
	if o.budget == 0 && o.runs == 0 && o.engine == campaign.EngineAFL {
		return errors.New("--engine afl needs --budget or --runs")
	}
	if planPath == "-" {
		return errors.New("fuzz needs a plan file, not standard input (afl-target and the worker re-read it)")
	}
	g := subject.PlanGuard(planPath, o.world, nil)
	g.Folder("the --corpus folder", o.corpus)
	if err := g.CheckDir("--out", o.out, ""); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	if o.budget == 0 && o.runs == 0 {
		fmt.Fprintln(stderr, "fuzz: --budget 0 and no --runs: the campaign runs until Ctrl-C or SIGTERM (then saves, summarizes and exits 3)")
	}
	pf, err := o.build(cmd.InOrStdin(), planPath)
	if err != nil {
		return err
	}
	for _, w := range pf.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	// A missing world is the one error to show (Fuzz checks it too, but
	// after this point every world query would first print a warning).
	if err := pf.NeedsWorld(); err != nil {
		return err
	}
	// As run and replay do: a misspelled function is a mistake to show with
	// its caret now, not an undefined-function finding of every input.
	if err := checkCalls(stderr, pf.Setup.Plan, pf.Original, runner.Link{World: pf.Setup.World != nil}); err != nil {
		return err
	}
	if pf.Setup.World == nil && pf.Plan().NumParams() == 0 {
		fmt.Fprintf(stderr, "warning: plan %s takes no parameters and no --world is given: every input runs the same test\n", pf.Plan().Name)
	}
	var seeds [][]byte
	if o.corpus != "" {
		if seeds, err = pf.ReadCorpus(o.corpus); err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
	}
	co := campaign.Options{Engine: o.engine, Workers: o.workers, Seed: o.seed, Budget: o.budget, Runs: o.runs,
		Seeds: seeds, Out: o.out, Instance: o.instance, Main: o.main, ForceOut: o.forceOut}
	if o.progress > 0 {
		co.Progress, co.ProgressInterval = stderr, o.progress
	}
	if o.engine == campaign.EngineAFL {
		exe, err := aflTargetBinary()
		if err != nil {
			return fmt.Errorf("locating the labelcov binary: %w", err)
		}
		co.AFL = campaign.AFLOptions{Exe: exe, PlanPath: planPath, WorldPath: o.world, Args: o.aflArgs}
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := pf.Fuzz(ctx, co)
	if sum == nil {
		var om *engine.OwnerMismatchError
		if errors.As(err, &om) {
			return fmt.Errorf("%w\n(a campaign directory belongs to one plan, world and criteria: choose another --out, or --force-out to resume in it anyway)", err)
		}
		return err
	}
	if o.json {
		err = errors.Join(err, writeJSON(cmd.OutOrStdout(), sum))
	} else {
		err = errors.Join(err, writeFuzzSummary(cmd.OutOrStdout(), sum))
	}
	if err != nil {
		return err
	}
	if len(sum.Findings) > 0 {
		writeReplayLines(stderr, cmd, planPath, sum)
	}
	if sum.Stop == "canceled" && (o.budget > 0 || o.runs > 0) {
		// A signal (Ctrl-C, SIGTERM from scancel or a time limit) before
		// the budget: a scheduler must not record the task as done.
		// Without any budget a signal is the planned end.
		resume := "it is saved in " + o.out + ": run the same command again to resume"
		if o.out == "" {
			resume = "it is saved in the temporary directory named at the start: give it as --out to resume"
		}
		return interrupted("campaign interrupted after %.1fs, before its budget (%s), with %d finding(s); %s",
			sum.SessionS, fuzzBudget(o), len(sum.Findings), resume)
	}
	if len(sum.Findings) > 0 {
		if !o.allowFindings {
			// Like go test -fuzz: a campaign that found something fails.
			return found("the campaign has %d finding(s); rerun each with the replay lines above (--allow-findings exits 0)", len(sum.Findings))
		}
	}
	return nil
}

// fuzzBudget describes the budget of a campaign: its time, its runs or both.
func fuzzBudget(o *fuzzOptions) string {
	var parts []string
	if o.budget > 0 {
		parts = append(parts, o.budget.String())
	}
	if o.runs > 0 {
		parts = append(parts, fmt.Sprintf("%d runs", o.runs))
	}
	return strings.Join(parts, " or ")
}

// writeReplayLines prints, per finding, the command that reruns it.
func writeReplayLines(w io.Writer, cmd *cobra.Command, planPath string, sum *campaign.Summary) {
	flags := []string{"labelcov", "replay", shellQuote(planPath)}
	for _, name := range []string{"world", "plan", "criteria", "max-steps", "max-objects", "mcc-max-atoms", "pure", "timeout"} {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		v := f.Value.String()
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			v = strings.Join(sv.GetSlice(), ",") // String() would say [a,b]
		}
		flags = append(flags, "--"+name, shellQuote(v))
	}
	for _, f := range sum.Findings {
		if f.Input == "" {
			continue
		}
		fmt.Fprintf(w, "rerun %s: %s %s\n", f.Key, strings.Join(flags, " "), shellQuote(f.Input))
	}
}

// writeFuzzSummary prints the end of a campaign for a person.
func writeFuzzSummary(w io.Writer, s *campaign.Summary) error {
	var b strings.Builder
	rate := "this session"
	if s.Engine == "afl" {
		rate = "afl-fuzz's average"
	}
	if s.Stop == "canceled" {
		// A signal: the JSON says "canceled", a person reads this.
		fmt.Fprintf(&b, "%s campaign interrupted after %.1fs", s.Engine, s.SessionS)
	} else {
		fmt.Fprintf(&b, "%s campaign stopped (%s) after %.1fs", s.Engine, s.Stop, s.SessionS)
	}
	if s.ElapsedS > s.SessionS+0.05 {
		// A resumed campaign: this session's time first, as the budget.
		fmt.Fprintf(&b, " (%.1fs over all sessions)", s.ElapsedS)
	}
	fmt.Fprintf(&b, ": %d execs (%.0f/s, %s), corpus %d (%d new this session)\n",
		s.Execs, s.ExecsPerSec, rate, s.Corpus, s.NewInputs)
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

func pct(f engine.Figure) string {
	if f.Total == 0 {
		return f.String()
	}
	return fmt.Sprintf("%s (%.1f%%)", f, 100*float64(f.Covered)/float64(f.Total))
}
