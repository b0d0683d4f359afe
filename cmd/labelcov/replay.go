package main

import (
	"fmt"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/spf13/cobra"
)

type replayOptions struct {
	planSetupFlags
	trace bool
	json  bool
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
prints a JSON array with one object per input.`,
		Example: `  labelcov replay testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world \
      out/labelcov/crashes/id:000000,cat:left-on-table,time:250,execs:812 --trace
  labelcov replay warehouse-sort.plan --world warehouse.world reproducers/*.env
  labelcov replay temperature.plan reproducers/heating-while-warm.args
  labelcov replay temperature.plan out/labelcov/crashes/* --json | jq '.[].findings'`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd, args[0], args[1:], &o)
		},
	}
	o.planSetupFlags.register(cmd, "none", false)
	f := cmd.Flags()
	f.BoolVar(&o.trace, "trace", false, "print the environment or arguments and the action trace")
	f.BoolVar(&o.json, "json", false, "print a JSON array, one object per input")
	return cmd
}

func runReplay(cmd *cobra.Command, planPath string, inputs []string, o *replayOptions) error {
	pf, err := o.build(cmd.InOrStdin(), planPath)
	if err != nil {
		return err
	}
	if err := checkCalls(cmd.ErrOrStderr(), pf.Setup.Plan, pf.Original, runner.Link{World: pf.Setup.World != nil}); err != nil {
		return err
	}
	ctx := cmd.Context()
	var reps []*campaign.ReplayReport
	for _, in := range inputs {
		data, err := pf.ReadInput(in)
		if err != nil {
			return err
		}
		rp, err := pf.Replay(ctx, data)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		reps = append(reps, rp.Report(pf, in, data, o.trace))
	}
	if o.json {
		return writeJSON(cmd.OutOrStdout(), reps)
	}
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(cmd.OutOrStdout())
		}
		if err := r.WriteText(cmd.OutOrStdout(), o.trace); err != nil {
			return err
		}
	}
	return nil
}
