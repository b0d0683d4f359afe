package planverbs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/interp/compile"
)

// RunOptions are run's flags.
type RunOptions struct {
	PlanName   string   // --plan
	Args       []string // --arg: the plan's arguments, as plan literals
	MaxSteps   int64
	JSON       bool
	World      string
	EnvFile    string
	BytesFile  string
	MaxObjects int
	Trace      bool
	Timeout    time.Duration
}

// Run runs the plan file path ("-": stdin) once: with World, in the
// simulator from the environment EnvFile or BytesFile give (or the empty
// one); without, with Args as its arguments. It prints the outcome (text
// or JSON) and returns a *FoundError when a campaign would record the run
// as a finding.
func Run(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, path string, o RunOptions) error {
	if err := (runner.Limits{MaxSteps: o.MaxSteps, MaxObjects: o.MaxObjects}).Check(); err != nil {
		return err
	}
	// Before the plan's warnings: without a world they would be a storm
	// of world-query warnings ahead of the real mistake.
	if o.World == "" && (o.EnvFile != "" || o.BytesFile != "" || o.Trace) {
		return errors.New("--env, --bytes and --trace need --world (the world the environment is of)")
	}
	f, p, err := subject.LoadPlan(stdin, path, compile.Options{})
	if err != nil {
		return err
	}
	subject.PrintNotes(stderr, p)
	if err := subject.CheckCalls(stderr, f, p, runner.Link{World: o.World != ""}); err != nil {
		return err
	}
	var output bytes.Buffer
	planOut := stdout
	if o.JSON {
		planOut = &output
	}
	ro := runner.Options{Program: p, Plan: o.PlanName, Stdout: planOut,
		Limits: runner.Limits{MaxSteps: o.MaxSteps, Timeout: o.Timeout},
		// A world-less plan's def-checks judge its result as they do in a
		// campaign; the checks of a plan that needs a world could only
		// say no-world.
		NoChecks: o.World == "" && runner.NeedsWorld(f) != nil}
	var in runner.Input
	if o.World != "" {
		if ro.World, err = runner.LoadWorld(o.World); err != nil {
			return err
		}
		if in.Env, err = ro.World.ReadEnv(o.EnvFile, o.BytesFile, o.MaxObjects); err != nil {
			return err
		}
	}
	r, err := runner.New(ro)
	if err != nil {
		if errors.Is(err, runner.ErrSeveralPlans) {
			return fmt.Errorf("%w; choose one with --plan", err)
		}
		return err
	}
	fn := r.Plan()
	if in.Args, err = runner.ArgStrings(fn, o.Args); err != nil {
		return err
	}
	res, err := r.Run(ctx, in)
	if err != nil {
		return err
	}
	if o.JSON {
		return errors.Join(subject.WriteJSON(stdout, r.NewReport(res, output.String())), runVerdict(res))
	}
	return errors.Join(r.WriteText(stdout, res, o.Trace, !ro.NoChecks && len(p.Checks()) > 0, false), runVerdict(res))
}

// runVerdict is the exit status of a run that happened: found (1) when a
// campaign would record the run as a finding — the plan failed or ran out
// of steps or time, or a check reported an error — nil (0) otherwise.
func runVerdict(res *runner.Result) error {
	var what []string
	if kind := res.Ended(); kind != "" {
		what = append(what, "the plan ended with "+kind)
	}
	if n := len(res.Sim.Errors) + len(res.Sim.CheckErrors); n > 0 {
		what = append(what, fmt.Sprintf("the checks report %d error(s)", n))
	}
	if len(what) == 0 {
		return nil
	}
	return subject.Found("run: %s (exit status 1)", strings.Join(what, "; "))
}
