package runner

import (
	"fmt"
	"io"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// Report is one run as `labelcov run --json` prints it; "version"
// versions its shape.
type Report struct {
	Version  int            `json:"version"`
	Plan     string         `json:"plan"`
	Outcome  string         `json:"outcome"`
	Result   *string        `json:"result"`
	Failure  *FailureReport `json:"failure"`
	Steps    int64          `json:"steps"`
	Coverage struct {
		Instructions labels.Fraction     `json:"instructions"`
		Branches     labels.Fraction     `json:"branches"`
		Actions      *sim.ActionCoverage `json:"actions,omitempty"`
	} `json:"coverage"`
	Output string `json:"output"`
	// Errors and CheckErrors are what a world-less plan's def-checks
	// reported (WorldReport always has both).
	Errors      []string         `json:"errors,omitempty"`
	CheckErrors []sim.CheckError `json:"check_errors,omitempty"`
}

// WorldReport is a run in a world: the plain report plus what the
// simulator and the checks saw.
type WorldReport struct {
	Report
	Errors      []string           `json:"errors"`
	CheckErrors []sim.CheckError   `json:"check_errors,omitempty"`
	Actions     []sim.ActionRecord `json:"actions"`
}

// FailureReport is an unhandled failure or a timeout of the plan.
type FailureReport struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Pos     string `json:"pos"`
}

// NewReport reports res, the last run of r, whose plan printed output: a
// *WorldReport with a world, else a *Report.
func (r *Runner) NewReport(res *Result, output string) any {
	vr := res.Sim.VM
	rep := Report{Version: 1, Plan: r.Plan().Name, Outcome: string(vr.Outcome), Steps: vr.Steps, Output: output}
	if vr.Outcome == vm.OutcomeOK {
		s := vr.Value.String()
		rep.Result = &s
	} else if vr.Failure != nil {
		rep.Failure = &FailureReport{Kind: vr.Failure.Kind, Message: vr.Failure.Message,
			Pos: fmt.Sprintf("%s:%s", vr.Failure.File, vr.Failure.Pos)}
	}
	cov := vm.Summarize(r.Program(), res.Counters)
	rep.Coverage.Instructions, rep.Coverage.Branches = cov.Instructions, cov.Branches
	w := r.World()
	if w == nil {
		rep.Errors, rep.CheckErrors = res.Sim.Errors, res.Sim.CheckErrors
		return &rep
	}
	wr := &WorldReport{Report: rep, Errors: append([]string{}, res.Sim.Errors...),
		CheckErrors: append([]sim.CheckError(nil), res.Sim.CheckErrors...),
		Actions:     append([]sim.ActionRecord{}, res.Sim.Actions...)}
	ac := w.Coverage(res.Sim.Hits)
	wr.Coverage.Actions = &ac
	return wr
}

// WriteOutcome prints the last line of a run for people: "=> VALUE", or
// "!! KIND at FILE:LINE:COL: MESSAGE".
func WriteOutcome(w io.Writer, r vm.Result) error {
	var err error
	switch r.Outcome {
	case vm.OutcomeOK:
		_, err = fmt.Fprintf(w, "=> %s\n", r.Value)
	default:
		_, err = fmt.Fprintf(w, "!! %s at %s:%s: %s\n", r.Failure.Kind, r.Failure.File, r.Failure.Pos, r.Failure.Message)
	}
	return err
}

// WriteText prints a run for people: with trace the actions one a line,
// then the checks' verdicts and, with a world, the action count and
// buckets covered (withChecks: a world-less run prints its checks'
// verdicts only when it has checks); the outcome comes last unless
// noOutcome.
func (r *Runner) WriteText(w io.Writer, res *Result, trace, withChecks, noOutcome bool) error {
	if trace && r.World() != nil {
		if err := sim.WriteTrace(w, res.Sim.Actions); err != nil {
			return err
		}
	}
	if r.World() != nil || withChecks {
		if err := sim.WriteErrors(w, res.Sim); err != nil {
			return err
		}
	}
	if wo := r.World(); wo != nil {
		cov := wo.Coverage(res.Sim.Hits)
		if _, err := fmt.Fprintf(w, "actions: %d performed, %d/%d buckets covered\n", len(res.Sim.Actions), cov.Covered, cov.Total); err != nil {
			return err
		}
	}
	if noOutcome {
		return nil
	}
	return WriteOutcome(w, res.Sim.VM)
}
