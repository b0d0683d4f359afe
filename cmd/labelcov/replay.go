package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/spf13/cobra"
)

type replayOptions struct {
	planSetupFlags
	replay planverbs.ReplayOptions
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay PLAN [--world W] INPUT... [--trace] [--json]",
		Short: "Rerun fuzzer inputs and show what they did",
		Long: `replay reruns inputs exactly as labelcov fuzz and labelcov afl-target run them and
prints, for each, the findings the fuzzer records (with the keys of findings.json),
the plan's outcome (result, or failure kind, message and file:line:col), the
error categories of the checks, and the action count and coverage.

An INPUT is a raw byte file (a queue entry, a crashes/ file of either engine), with
--world a .env file (encoded as labelcov env encode does), or without --world a
.args file (the plan's integer arguments as plan literals, one per argument, as
the world-less benchmarks' reproducers are written). With --world the bytes
decode into an environment of that world; without, into the plan's parameters
(8 bytes per parameter, little-endian int64).

--criteria replays on the plan annotated in memory as a campaign guided by those
criteria ran it (same behaviour, same finding keys; default: the original plan).
--trace also prints the environment (or arguments) and the action trace. --json
prints one object: {"version": 1, "inputs": [...]}, one entry per input.

Exit status (README.md "Exit codes"): 0 when no input reproduces a finding,
1 when at least one does (as go test -run=FuzzX/HASH fails then), 2 for
unreadable inputs, plans or flags, 3 when interrupted.`,
		Example: `  labelcov replay testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world \
      out/labelcov/crashes/id:000000,cat:left-on-table,time:250,execs:812 --trace
  labelcov replay warehouse-sort.plan --world warehouse.world reproducers/*.env
  labelcov replay temperature.plan reproducers/heating-while-warm.args
  labelcov replay temperature.plan out/labelcov/crashes/* --json | jq '.inputs[].findings'`,
		Args: argsNamed(2, -1, "PLAN", "INPUT (a fuzzer input, .env or .args file)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.replay.SetupOptions = o.SetupOptions
			return planverbs.Replay(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], args[1:], o.replay)
		},
	}
	o.planSetupFlags.register(cmd, "none", false)
	f := cmd.Flags()
	f.BoolVar(&o.replay.Trace, "trace", false, "print the environment or arguments and the action trace")
	f.BoolVar(&o.replay.JSON, "json", false, `print one JSON object, {"version": 1, "inputs": [...]}`)
	return cmd
}
