package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/vm"
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

// replayReport is one input in replay --json.
type replayReport struct {
	Input    string              `json:"input"`
	Bytes    int                 `json:"bytes"`
	Findings []replayFinding     `json:"findings"`
	Outcome  string              `json:"outcome"`
	Result   string              `json:"result,omitempty"`
	Failure  *replayFailure      `json:"failure,omitempty"`
	Steps    int64               `json:"steps"`
	Args     []int64             `json:"args,omitempty"`
	Objects  *int                `json:"objects,omitempty"`
	Env      string              `json:"env,omitempty"`
	Errors   []string            `json:"errors,omitempty"`
	Checks   []sim.CheckError    `json:"check_errors,omitempty"`
	Actions  *int                `json:"actions,omitempty"`
	Coverage *sim.ActionCoverage `json:"action_coverage,omitempty"`
	Trace    []sim.ActionRecord  `json:"trace,omitempty"`
	rp       *campaign.Replayed  `json:"-"`
}

type replayFinding struct {
	Key      string `json:"key"`
	Category string `json:"category"`
	Pos      string `json:"pos,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

type replayFailure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Pos     string `json:"pos,omitempty"`
}

func runReplay(cmd *cobra.Command, planPath string, inputs []string, o *replayOptions) error {
	if o.world == "" {
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
	if err := checkCalls(cmd.ErrOrStderr(), pf.Setup.Plan, pf.Original, sim.LinkOptions{World: pf.Setup.World != nil}); err != nil {
		return err
	}
	ctx := cmd.Context()
	var reps []*replayReport
	for _, in := range inputs {
		data, err := pf.ReadInput(in)
		if err != nil {
			return err
		}
		rp, err := pf.Replay(ctx, data)
		if err != nil {
			return fmt.Errorf("%s: %w", in, err)
		}
		reps = append(reps, newReplayReport(pf, in, data, rp, o.trace))
	}
	if o.json {
		return errors.Join(writeJSON(cmd.OutOrStdout(), replayJSON{Version: 1, Inputs: reps}), replayVerdict(reps))
	}
	for i, r := range reps {
		if i > 0 {
			fmt.Fprintln(cmd.OutOrStdout())
		}
		if err := writeReplay(cmd.OutOrStdout(), pf, r, o.trace); err != nil {
			return err
		}
	}
	return replayVerdict(reps)
}

// replayJSON is replay --json's output; "version" versions its shape.
type replayJSON struct {
	Version int             `json:"version"`
	Inputs  []*replayReport `json:"inputs"`
}

// replayVerdict is replay's exit status: found (1) when an input
// reproduces a finding, as go test -run=FuzzX/HASH fails then.
func replayVerdict(reps []*replayReport) error {
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

func newReplayReport(pf *campaign.Fuzzer, in string, data []byte, rp *campaign.Replayed, trace bool) *replayReport {
	r := &replayReport{Input: in, Bytes: len(data), Findings: []replayFinding{}, Outcome: string(rp.VM.Outcome),
		Steps: rp.VM.Steps, Args: rp.Args, rp: rp}
	for _, f := range rp.Findings {
		r.Findings = append(r.Findings, replayFinding{Key: f.Key(), Category: f.Category, Pos: f.Pos, Detail: f.Detail})
	}
	switch {
	case rp.VM.Outcome == vm.OutcomeOK:
		r.Result = rp.VM.Value.String()
	case rp.VM.Failure != nil:
		fl := rp.VM.Failure
		r.Failure = &replayFailure{Kind: fl.Kind, Message: fl.Message}
		if fl.Pos.IsValid() {
			r.Failure.Pos = fl.File + ":" + fl.Pos.String()
		}
	}
	if w := pf.Setup.World; w != nil && rp.Sim != nil {
		n, a := len(rp.Env.Objects), len(rp.Sim.Actions)
		r.Objects, r.Actions = &n, &a
		r.Errors, r.Checks = rp.Sim.Errors, rp.Sim.CheckErrors
		cov := w.Coverage(rp.Sim.Hits)
		cov.Buckets = nil
		r.Coverage = &cov
		if trace {
			r.Env = string(w.FormatEnv(rp.Env))
			r.Trace = rp.Sim.Actions
		}
	}
	return r
}

func writeReplay(w io.Writer, pf *campaign.Fuzzer, r *replayReport, trace bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%d bytes", r.Input, r.Bytes)
	if r.Objects != nil {
		fmt.Fprintf(&b, ", %d objects", *r.Objects)
	}
	b.WriteString(")\n")
	if trace {
		if r.Env != "" {
			b.WriteString("environment:\n")
			for _, line := range strings.Split(strings.TrimRight(r.Env, "\n"), "\n") {
				fmt.Fprintf(&b, "  %s\n", line)
			}
		}
		if r.Args != nil {
			fmt.Fprintf(&b, "arguments: %v\n", r.Args)
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	b.Reset()
	if trace && r.rp.Sim != nil {
		if err := sim.WriteTrace(w, r.rp.Sim.Actions); err != nil {
			return err
		}
	}
	if r.rp.Sim != nil {
		if err := sim.WriteErrors(w, r.rp.Sim); err != nil {
			return err
		}
		fmt.Fprintf(&b, "actions: %d performed, %d/%d buckets covered\n", *r.Actions, r.Coverage.Covered, r.Coverage.Total)
	}
	if len(r.Findings) == 0 {
		b.WriteString("findings: none\n")
	} else {
		b.WriteString("findings:\n")
		for _, f := range r.Findings {
			fmt.Fprintf(&b, "  %s", f.Key)
			if f.Detail != "" {
				fmt.Fprintf(&b, "  (%s)", f.Detail)
			}
			b.WriteByte('\n')
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	return writeOutcome(w, r.rp.VM)
}
