package main

import (
	"os"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// planSetupFlags are the flags fuzz, afl-target and replay share: which plan
// runs in which world, annotated how (subject.SetupOptions).
type planSetupFlags struct{ subject.SetupOptions }

func (pf *planSetupFlags) register(cmd *cobra.Command, criteriaDefault string, measure bool) {
	f := cmd.Flags()
	f.StringVar(&pf.World, "world", "", "world file: inputs decode into its environments (without it, the input gives the plan's int parameters)")
	f.StringVar(&pf.PlanName, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.StringVar(&pf.Criteria, "criteria", criteriaDefault,
		"annotate the plan in memory with these labels before running it: none, or comma-separated mcc, cc, wm, wm:abs, wm:aor, wm:cor, wm:ror, dist, all (all leaves out dist)")
	if measure {
		f.StringVar(&pf.Measure, "measure", "mcc,cc,wm", "criteria whose label coverage is measured by replaying kept inputs (the yardstick, whatever --criteria guide); none: no label coverage")
	}
	f.IntVar(&pf.MaxAtoms, "mcc-max-atoms", subject.DefaultMCCMaxAtoms, "decisions with more atoms get CC labels instead of MCC")
	f.StringSliceVar(&pf.Pure, "pure", nil, "external functions known to have no effects, besides the simulator's queries")
	f.IntVar(&pf.MaxObjects, "max-objects", subject.DefaultMaxObjects, "object slots read from an input (with --world)")
	f.Int64Var(&pf.MaxSteps, "max-steps", subject.DefaultCampaignMaxSteps, "step budget per run and per check; running out is a timeout finding")
	f.DurationVar(&pf.Timeout, "timeout", subject.DefaultRunTimeout, "wall-clock limit of one run: a run exceeding it is cancelled and is a hang finding (afl: afl-fuzz -t)")
}

// registerNoRetire adds --no-retire, for the commands that fuzz.
func (pf *planSetupFlags) registerNoRetire(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&pf.NoRetire, "no-retire", false,
		"keep evaluating labels that have fired (by default a fuzzing process retires them: their predicate is no longer evaluated); for research comparisons")
}

type fuzzOptions struct {
	planSetupFlags
	fuzz subject.FuzzOptions
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
				o.fuzz.Budget = 0
			}
			o.fuzz.SetupOptions, o.fuzz.AFLTarget = o.SetupOptions, aflTargetBinary
			o.fuzz.Replay = replayCommand(cmd, args[0])
			s, err := openSubject(cmd, args, &coverOptions{}, &goFuzzOptions{})
			if err != nil {
				return err
			}
			return s.Fuzz(cmd.Context(), cmd.OutOrStdout(), o.fuzz)
		},
	}
	o.planSetupFlags.register(cmd, "none", true)
	o.planSetupFlags.registerNoRetire(cmd)
	f := cmd.Flags()
	f.StringVar(&o.fuzz.Engine, "engine", "builtin", "fuzzer: builtin or afl")
	f.DurationVar(&o.fuzz.Budget, "budget", time.Minute, "wall-clock budget of this session; 0: no time limit, the campaign runs until --runs or Ctrl-C (exit 3); none when only --runs is given")
	f.Int64Var(&o.fuzz.Runs, "runs", 0, "stop after this many runs (builtin: seeds and a resumed queue count; afl: afl-fuzz -E)")
	f.IntVar(&o.fuzz.Workers, "workers", usableCPUs(os.Getenv), "parallel workers (builtin: goroutines; afl: afl-fuzz instances)"+workersFlagHelp)
	f.Uint64Var(&o.fuzz.Seed, "seed", 1, "random seed")
	f.StringVar(&o.fuzz.Corpus, "corpus", "", "directory of seed inputs: raw bytes, or .env files with --world")
	f.StringVar(&o.fuzz.Out, "out", "", "campaign directory (AFL++ sync-directory layout); resumes when it exists (default: a new temporary directory)")
	f.StringVar(&o.fuzz.Instance, "instance", subject.DefaultInstance, "name of the built-in engine's directory inside --out")
	f.BoolVar(&o.fuzz.Main, "main", false, "builtin: mark the instance as AFL++'s main node, so that afl-fuzz -S secondaries import its queue")
	f.BoolVar(&o.fuzz.JSON, "json", false, "print one JSON summary object at the end")
	f.DurationVar(&o.fuzz.Progress, "progress", subject.DefaultProgress, "interval of progress lines on stderr (0: none)")
	f.BoolVar(&o.fuzz.AllowFindings, "allow-findings", false, "exit 0 even when the campaign has findings")
	f.BoolVar(&o.fuzz.ForceOut, "force-out", false, "resume in an --out that belongs to another plan, world or criteria (its inputs and findings are then mixed with this campaign's)")
	f.StringSliceVar(&o.fuzz.AFLArgs, "afl-arg", nil, "extra afl-fuzz argument (repeatable), e.g. --afl-arg=-t --afl-arg=500")
	return cmd
}

// replayCommand is the command that reruns a finding of fuzz's campaign
// on plan, before the finding's input: the plan flags given, quoted.
func replayCommand(cmd *cobra.Command, planPath string) string {
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
	return strings.Join(flags, " ")
}
