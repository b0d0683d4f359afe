package campaign

import (
	"context"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/vm"
)

// Replayed is what one input did, for `labelcov replay`.
type Replayed struct {
	// Findings are what the fuzzer records for the input (their keys are
	// the campaign's finding keys).
	Findings []engine.Finding
	// VM is the plan's result.
	VM vm.Result
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
		Limits: runner.Limits{MaxSteps: s.MaxSteps, MaxObjects: s.MaxObjects, Timeout: max(s.RunTimeout, 0)}})
	if err != nil {
		return nil, err
	}
	res, err := r.Run(ctx, runner.Input{Bytes: input})
	if err != nil {
		return nil, err
	}
	rp := &Replayed{Findings: res.Findings(nil), VM: res.Sim.VM}
	if p.Fuzzed != p.Original && !res.Hang {
		rm := remapper{p: p}
		if rp.Findings, err = rm.remap(ctx, input, rp.Findings); err != nil {
			return nil, err
		}
	}
	if s.World != nil {
		rp.Env = s.World.DecodeEnv(input, s.MaxObjects)
		rp.Sim = res.Sim.Clone()
		return rp, nil
	}
	rp.Args = sim.DecodeArgs(input, p.Plan().NumParams())
	return rp, nil
}
