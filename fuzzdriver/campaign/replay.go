package campaign

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Replayed is what one input did, for `labelcov replay`.
type Replayed struct {
	// Findings are what the fuzzer records for the input (their keys are
	// the campaign's finding keys).
	Findings []engine.Finding
	// VM is the plan's result; FailureAt where its failure or timeout
	// happened in the original plan.
	VM        vm.Result
	FailureAt srcpos.Pos
	// Sim is the simulator's view of the run (trace, errors, action
	// hits); nil without a world.
	Sim *sim.Result
	// Env is the environment the input decodes into (nil without a world);
	// Args the plan's arguments (nil with a world).
	Env  *sim.Env
	Args []int64
}

// Replay runs one input as the fuzzer does (on the fuzzed plan, within the
// setup's limits, RunTimeout included) and returns its findings, with the
// campaign's keys, and the details of the run.
func (p *Fuzzer) Replay(ctx context.Context, input []byte) (*Replayed, error) {
	s := p.Setup
	r, err := runner.New(runner.Options{Program: p.Fuzzed, Plan: s.PlanName, World: s.World,
		Limits:    runner.Limits{MaxSteps: s.MaxSteps, MaxObjects: s.MaxObjects, Timeout: max(s.RunTimeout, 0)},
		Positions: p.positions(p.Fuzzed)})
	if err != nil {
		return nil, err
	}
	res, err := r.Run(ctx, runner.Input{Bytes: input})
	if err != nil {
		return nil, err
	}
	rp := &Replayed{Findings: res.Findings(nil), VM: res.Sim.VM, FailureAt: res.FailureAt()}
	if s.World != nil {
		rp.Env = s.World.DecodeEnv(input, s.MaxObjects)
		rp.Sim = res.Sim.Clone()
		for i := range rp.Sim.CheckErrors {
			rp.Sim.CheckErrors[i].Pos = res.At(rp.Sim.CheckErrors[i].Pos)
		}
		return rp, nil
	}
	rp.Args = sim.DecodeArgs(input, p.Plan().NumParams())
	return rp, nil
}

// ReplayReport is one replayed input for people and JSON (`labelcov
// replay`, one object per input of its --json array).
type ReplayReport struct {
	Input    string              `json:"input"`
	Bytes    int                 `json:"bytes"`
	Findings []ReplayFinding     `json:"findings"`
	Outcome  string              `json:"outcome"`
	Result   string              `json:"result,omitempty"`
	Failure  *ReplayFailure      `json:"failure,omitempty"`
	Steps    int64               `json:"steps"`
	Args     []int64             `json:"args,omitempty"`
	Objects  *int                `json:"objects,omitempty"`
	Env      string              `json:"env,omitempty"`
	Errors   []string            `json:"errors,omitempty"`
	Checks   []sim.CheckError    `json:"check_errors,omitempty"`
	Actions  *int                `json:"actions,omitempty"`
	Coverage *sim.ActionCoverage `json:"action_coverage,omitempty"`
	Trace    []sim.ActionRecord  `json:"trace,omitempty"`
	rp       *Replayed           `json:"-"`
}

type ReplayFinding struct {
	Key      string `json:"key"`
	Category string `json:"category"`
	Pos      string `json:"pos,omitempty"`
	Detail   string `json:"detail,omitempty"`
}

type ReplayFailure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Pos     string `json:"pos,omitempty"`
}

// Report is the report of rp, the replay of input in (data, its bytes) on
// pf; trace adds the environment and the action trace.
func (rp *Replayed) Report(pf *Fuzzer, in string, data []byte, trace bool) *ReplayReport {
	r := &ReplayReport{Input: in, Bytes: len(data), Findings: []ReplayFinding{}, Outcome: string(rp.VM.Outcome),
		Steps: rp.VM.Steps, Args: rp.Args, rp: rp}
	for _, f := range rp.Findings {
		rf := ReplayFinding{Key: f.Key(), Category: f.Category, Detail: f.Detail}
		if f.Pos.IsValid() {
			rf.Pos = f.Pos.String()
		}
		r.Findings = append(r.Findings, rf)
	}
	switch {
	case rp.VM.Outcome == vm.OutcomeOK:
		r.Result = rp.VM.Value.String()
	case rp.VM.Failure != nil:
		fl := rp.VM.Failure
		r.Failure = &ReplayFailure{Kind: fl.Kind, Message: fl.Message}
		if rp.FailureAt.IsValid() {
			r.Failure.Pos = rp.FailureAt.String()
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

// WriteText prints the report for people; trace adds the environment or
// the arguments and the action trace.
func (r *ReplayReport) WriteText(w io.Writer, trace bool) error {
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
	return runner.WriteOutcome(w, r.rp.VM)
}
