package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/spf13/cobra"
)

type runOptions struct {
	plan       string
	args       []string
	maxSteps   int64
	json       bool
	world      string
	envFile    string
	bytesFile  string
	maxObjects int
	trace      bool
	timeout    time.Duration
}

func newRunCmd() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run FILE",
		Short: "Run a plan and print what it printed and its result",
		Long: `Run compiles FILE and runs one of its plans: the one named by --plan, else the
plan called main, else the file's only def-plan. Each --arg is read as a plan
literal (42, 2.5, "text", :key, sym, (1 2 3)) and passed as the next argument.

What the plan prints appears as it happens; the last line is "=> VALUE" when the
plan returns, or "!! KIND at FILE:LINE:COL: MESSAGE" when an unhandled failure
or the step budget (--max-steps) ends it. With --json, one JSON object reports
outcome (ok, failure, timeout), result, failure {kind, message, pos}, steps,
coverage {instructions, branches} {covered, total} and output instead.

With --world, the plan runs in the simulator on that world, starting from the
environment in --env (a .env scenario) or --bytes (raw fuzzer bytes, decoded as
docs/environment.md describes), or from an empty environment. After the plan,
the file's def-check oracles judge the final state: the error categories they
report are printed (and in JSON: errors), --trace lists every action performed,
and JSON adds actions and coverage.actions (action-coverage buckets).

Without --world, the def-checks of a world-less plan (one that neither performs
actions nor queries the world) still run after it, as in a campaign of such a
plan, and the categories they return are printed (JSON: errors, check_errors).

Calls to functions defined nowhere (no defun, builtin or world query) are
reported before anything runs, with file:line:col and a caret, and exit 2;
calls to world queries without --world are warnings. FILE "-" reads the plan
from standard input.

Exit status (as every verb, README.md "Exit codes"): 0 when the plan returned
and no check reported an error; 1 when it ran and a campaign would record it
as a finding (an unhandled failure, a timeout, an error category of a check),
after the full report; 2 when FILE, the flags or the arguments are wrong;
3 when interrupted.`,
		Example: `  labelcov run testdata/plans/fib.plan --arg 20
  labelcov run warehouse.plan --plan fetch --arg :left --arg '(cup bowl)'
  labelcov run loop.plan --max-steps 1000 --json
  labelcov run testdata/bench/warehouse-sort/warehouse-sort.plan \
      --world testdata/worlds/warehouse.world --env testdata/envs/warehouse-three.env --trace`,
		Args: argsNamed(1, 1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFile(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.StringArrayVar(&o.args, "arg", nil, "an argument for the plan, as a plan literal (repeatable)")
	f.Int64Var(&o.maxSteps, "max-steps", runner.DefaultMaxSteps, "step budget: instructions before the run ends with outcome timeout")
	f.BoolVar(&o.json, "json", false, "print one JSON object instead of the human report")
	f.StringVar(&o.world, "world", "", "run in the simulator on this .world file")
	f.StringVar(&o.envFile, "env", "", "initial environment as a .env scenario (needs --world)")
	f.StringVar(&o.bytesFile, "bytes", "", "initial environment as raw fuzzer bytes (needs --world)")
	f.IntVar(&o.maxObjects, "max-objects", runner.DefaultMaxObjects, "most objects decoded from --bytes")
	f.BoolVar(&o.trace, "trace", false, "list the actions performed (needs --world)")
	f.DurationVar(&o.timeout, "timeout", 0, "wall-clock limit of the run (as fuzz --timeout): over it the run is cancelled and ends with outcome timeout (0: none)")
	cmd.MarkFlagsMutuallyExclusive("env", "bytes")
	return cmd
}

func runFile(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, path string, o runOptions) error {
	if err := (runner.Limits{MaxSteps: o.maxSteps, MaxObjects: o.maxObjects}).Check(); err != nil {
		return err
	}
	// Before the plan's warnings: without a world they would be a storm
	// of world-query warnings ahead of the real mistake.
	if o.world == "" && (o.envFile != "" || o.bytesFile != "" || o.trace) {
		return errors.New("--env, --bytes and --trace need --world (the world the environment is of)")
	}
	f, p, err := loadPlan(stdin, path)
	if err != nil {
		return err
	}
	printNotes(stderr, p)
	if err := checkCalls(stderr, f, p, runner.Link{World: o.world != ""}); err != nil {
		return err
	}
	var output bytes.Buffer
	planOut := stdout
	if o.json {
		planOut = &output
	}
	ro := runner.Options{Program: p, Plan: o.plan, Stdout: planOut,
		Limits: runner.Limits{MaxSteps: o.maxSteps, Timeout: o.timeout},
		// A world-less plan's def-checks judge its result as they do in a
		// campaign; the checks of a plan that needs a world could only
		// say no-world.
		NoChecks: o.world == "" && runner.NeedsWorld(f) != nil}
	var in runner.Input
	if o.world != "" {
		if ro.World, err = runner.LoadWorld(o.world); err != nil {
			return err
		}
		if in.Env, err = ro.World.ReadEnv(o.envFile, o.bytesFile, o.maxObjects); err != nil {
			return err
		}
	}
	r, err := runner.New(ro)
	if err != nil {
		if errors.Is(err, runner.ErrSeveralPlans) {
			return fmt.Errorf("%w; choose one with --plan", err)
		}
		return err
	}
	fn := r.Plan()
	if in.Args, err = runner.ArgStrings(fn, o.args); err != nil {
		return err
	}
	res, err := r.Run(ctx, in)
	if err != nil {
		return err
	}
	if o.json {
		return errors.Join(writeJSON(stdout, r.NewReport(res, output.String())), runVerdict(res))
	}
	return errors.Join(r.WriteText(stdout, res, o.trace, !ro.NoChecks && len(p.Checks()) > 0, false), runVerdict(res))
}

// runVerdict is the exit status of a run that happened: found (1) when a
// campaign would record the run as a finding — the plan failed or ran out
// of steps or time, or a check reported an error — nil (0) otherwise.
func runVerdict(res *runner.Result) error {
	var what []string
	if kind := res.Ended(); kind != "" {
		what = append(what, "the plan ended with "+kind)
	}
	if n := len(res.Sim.Errors) + len(res.Sim.CheckErrors); n > 0 {
		what = append(what, fmt.Sprintf("the checks report %d error(s)", n))
	}
	if len(what) == 0 {
		return nil
	}
	return found("run: %s (exit status 1)", strings.Join(what, "; "))
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
