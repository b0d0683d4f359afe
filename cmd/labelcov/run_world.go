package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/vm"
)

// writeWorldRun reports a run in the simulator with the checks' verdicts.
func writeWorldRun(stdout io.Writer, r *runner.Runner, res *runner.Result, output string, o runOptions) error {
	w := r.World()
	if o.json {
		rep := worldRunReport{runReport: newRunReport(r.Plan(), res.Sim.VM, vm.Summarize(r.Program(), res.Counters), output)}
		rep.Errors = append([]string{}, res.Sim.Errors...)
		rep.CheckErrors = append([]sim.CheckError(nil), res.Sim.CheckErrors...)
		rep.Actions = append([]sim.ActionRecord{}, res.Sim.Actions...)
		cov := w.Coverage(res.Sim.Hits)
		rep.Coverage.Actions = &cov
		return errors.Join(writeJSON(stdout, rep), runVerdict(res.Sim))
	}
	if o.trace {
		if err := sim.WriteTrace(stdout, res.Sim.Actions); err != nil {
			return err
		}
	}
	if err := sim.WriteErrors(stdout, res.Sim); err != nil {
		return err
	}
	cov := w.Coverage(res.Sim.Hits)
	if _, err := fmt.Fprintf(stdout, "actions: %d performed, %d/%d buckets covered\n", len(res.Sim.Actions), cov.Covered, cov.Total); err != nil {
		return err
	}
	return errors.Join(writeOutcome(stdout, res.Sim.VM), runVerdict(res.Sim))
}
