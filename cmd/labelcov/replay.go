package main

import (
	"errors"
	"fmt"
	"strings"

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
			return runReplay(cmd, args[0], args[1:], &o)
		},
	}
	o.planSetupFlags.register(cmd, "none", false)
	f := cmd.Flags()
	f.BoolVar(&o.trace, "trace", false, "print the environment or arguments and the action trace")
	f.BoolVar(&o.json, "json", false, `print one JSON object, {"version": 1, "inputs": [...]}`)
	return cmd
}

func runReplay(cmd *cobra.Command, planPath string, inputs []string, o *replayOptions) error {
	if o.World == "" {
		for _, in := range inputs {
			if strings.HasSuffix(in, ".env") {
				return fmt.Errorf("%s is a .env scenario: replaying it needs --world (the world it is an environment of)%s", in, worldHint(planPath))
			}
		}
	}
	pf, err := o.build(cmd.InOrStdin(), planPath)
	if err != nil {
		return err
	}
	// As fuzz: a plan that acts on a world replayed without one is one
	// error, not a warning per world query and a no-world run per input.
	if err := pf.NeedsWorld(); err != nil {
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
		return errors.Join(writeJSON(cmd.OutOrStdout(), replayJSON{Version: 1, Inputs: reps}), replayVerdict(reps))
	}
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(cmd.OutOrStdout())
		}
		if err := r.WriteText(cmd.OutOrStdout(), o.trace); err != nil {
			return err
		}
	}
	return replayVerdict(reps)
}

// replayJSON is replay --json's output; "version" versions its shape.
type replayJSON struct {
	Version int                      `json:"version"`
	Inputs  []*campaign.ReplayReport `json:"inputs"`
}

// replayVerdict is replay's exit status: found (1) when an input
// reproduces a finding, as go test -run=FuzzX/HASH fails then.
func replayVerdict(reps []*campaign.ReplayReport) error {
	n := 0
	for _, r := range reps {
		if len(r.Findings) > 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return found("replay: %d of %d input(s) reproduce a finding (exit status 1)", n, len(reps))
}
