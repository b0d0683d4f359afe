package main

import (
	"io"

	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

func newRunCmd() *cobra.Command {
	var o planverbs.RunOptions
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
			return planverbs.Run(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.PlanName, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.StringArrayVar(&o.Args, "arg", nil, "an argument for the plan, as a plan literal (repeatable)")
	f.Int64Var(&o.MaxSteps, "max-steps", subject.DefaultMaxSteps, "step budget: instructions before the run ends with outcome timeout")
	f.BoolVar(&o.JSON, "json", false, "print one JSON object instead of the human report")
	f.StringVar(&o.World, "world", "", "run in the simulator on this .world file")
	f.StringVar(&o.EnvFile, "env", "", "initial environment as a .env scenario (needs --world)")
	f.StringVar(&o.BytesFile, "bytes", "", "initial environment as raw fuzzer bytes (needs --world)")
	f.IntVar(&o.MaxObjects, "max-objects", subject.DefaultMaxObjects, "most objects decoded from --bytes")
	f.BoolVar(&o.Trace, "trace", false, "list the actions performed (needs --world)")
	f.DurationVar(&o.Timeout, "timeout", 0, "wall-clock limit of the run (as fuzz --timeout): over it the run is cancelled and ends with outcome timeout (0: none)")
	cmd.MarkFlagsMutuallyExclusive("env", "bytes")
	return cmd
}

// writeJSON writes v as indented JSON (subject.WriteJSON).
func writeJSON(w io.Writer, v any) error { return subject.WriteJSON(w, v) }
