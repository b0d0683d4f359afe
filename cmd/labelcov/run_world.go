package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// runInWorld runs fn in the simulator on --world, from --env, --bytes or an
// empty environment, and reports the run with the checks' verdicts.
func runInWorld(ctx context.Context, stdout io.Writer, p *compile.Program, fn *compile.Func, args []value.Value,
	planOut io.Writer, output *bytes.Buffer, o runOptions) error {
	w, err := sim.LoadWorld(o.world)
	if err != nil {
		return err
	}
	env, err := w.ReadEnv(o.envFile, o.bytesFile, o.maxObjects)
	if err != nil {
		return err
	}
	r, err := sim.NewRunner(p, w, sim.Options{Plan: fn.Name, Args: args, MaxSteps: o.maxSteps, Stdout: planOut})
	if err != nil {
		return err
	}
	res := r.Run(ctx, env)
	if o.json {
		rep := worldRunReport{runReport: newRunReport(fn, res.VM, vm.Summarize(p, r.Counters()), output.String())}
		sum := r.Summary(res)
		rep.Errors, rep.CheckErrors, rep.Actions = sum.Errors, sum.CheckErrors, sum.Actions
		rep.Coverage.Actions = &sum.Coverage
		return errors.Join(writeJSON(stdout, rep), runVerdict(res.VM, res))
	}
	if o.trace {
		if err := sim.WriteTrace(stdout, res.Actions); err != nil {
			return err
		}
	}
	if err := sim.WriteErrors(stdout, res); err != nil {
		return err
	}
	cov := w.Coverage(res.Hits)
	if _, err := fmt.Fprintf(stdout, "actions: %d performed, %d/%d buckets covered\n", len(res.Actions), cov.Covered, cov.Total); err != nil {
		return err
	}
	return errors.Join(writeOutcome(stdout, res.VM), runVerdict(res.VM, res))
}
