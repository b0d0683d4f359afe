package planverbs

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/fuzzdriver/sample"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/interp/compile"
)

// SampleOptions are the flags of the verb.
type SampleOptions struct {
	World      string
	PlanName   string
	N          int
	Seed       uint64
	LenMin     int
	LenMax     int
	Workers    int
	MaxObjects int
	MaxSteps   int64
	Examples   string
	JSON       bool
}

// Sample runs the plan file path on N uniformly random inputs and counts
// them per error category (table or JSON on stdout).
func Sample(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, path string, o SampleOptions) error {
	if o.N <= 0 {
		return fmt.Errorf("--n must be positive, got %d", o.N)
	}
	if err := (runner.Limits{MaxSteps: o.MaxSteps, MaxObjects: o.MaxObjects}).Check(); err != nil {
		return err
	}
	if err := subject.PlanGuard(path, o.World, nil).CheckDir("--examples", o.Examples, ""); err != nil {
		return err
	}
	f, p, err := subject.LoadPlan(stdin, path, compile.Options{})
	if err != nil {
		return err
	}
	if err := subject.CheckCalls(stderr, f, p, runner.Link{World: o.World != ""}); err != nil {
		return err
	}
	so := sample.Options{Program: p, Plan: o.PlanName, N: o.N, Seed: o.Seed, LenMin: o.LenMin, LenMax: o.LenMax,
		Workers: o.Workers, MaxSteps: o.MaxSteps, MaxObjects: o.MaxObjects}
	if o.World != "" {
		if so.World, err = runner.LoadWorld(o.World); err != nil {
			return err
		}
	}
	rep, err := sample.Categories(ctx, so)
	if err != nil {
		return err
	}
	rep.Plan, rep.World = path, o.World
	if o.Examples != "" {
		if err := sample.WriteExamples(o.Examples, so.World, o.MaxObjects, rep); err != nil {
			return err
		}
	}
	if o.JSON {
		return subject.WriteJSON(stdout, rep)
	}
	return writeSampleTable(stdout, rep)
}

func writeSampleTable(wr io.Writer, rep *sample.Report) error {
	src := rep.Plan
	if rep.World != "" {
		src += " on " + rep.World
	}
	fmt.Fprintf(wr, "%s: %d random inputs of %d..%d bytes, seed %d\n", src, rep.N, rep.LenMin, rep.LenMax, rep.Seed)
	width := len("category")
	for _, c := range rep.Categories {
		width = max(width, len(c.Category))
	}
	fmt.Fprintf(wr, "%-*s  %9s  %8s  %s\n", width, "category", "inputs", "percent", "first")
	for _, c := range rep.Categories {
		fmt.Fprintf(wr, "%-*s  %9d  %7.3f%%  %d\n", width, c.Category, c.Inputs, c.Percent, c.First)
	}
	fmt.Fprintf(wr, "%-*s  %9d  %7.3f%%\n", width, "(no category)", rep.Clean, 100*float64(rep.Clean)/float64(rep.N))
	_, err := fmt.Fprintf(wr, "%s runs in %.2fs: %s runs/s\n", strconv.Itoa(rep.N), rep.Seconds, strconv.FormatFloat(rep.RunsPerSec, 'f', 0, 64))
	return err
}
