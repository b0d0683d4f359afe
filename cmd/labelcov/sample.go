package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/fuzzdriver/sample"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

type sampleOptions struct {
	world      string
	plan       string
	n          int
	seed       uint64
	lenMin     int
	lenMax     int
	workers    int
	maxObjects int
	maxSteps   int64
	examples   string
	json       bool
}

// newSampleCmd is `labelcov sample`: uniformly random inputs, counted per
// error category. It measures how hard each category is to find by chance,
// the baseline a guided fuzzer must beat.
func newSampleCmd() *cobra.Command {
	var o sampleOptions
	cmd := &cobra.Command{
		Use:   "sample PLAN",
		Short: "Run uniformly random inputs and count how many trigger each error category",
		Long: `Sample runs --n uniformly random byte strings through PLAN and counts, per error
category, how many inputs triggered it. Categories are what the def-check oracles
return, "failure:KIND" for an unhandled failure of the plan, "timeout" for a run
that exhausted its step budget, and "check-failed:CHECK" for a check that did not
return normally.

With --world, every input decodes into an environment of that world (the byte
layout of docs/environment.md); input lengths are uniform in [--len-min, --len-max],
by default enough bytes for 1 to 6 objects. Without --world the plan's parameters
come from the input, 8 bytes per parameter read as little-endian int64 (a short
input leaves the last parameters 0); lengths default to exactly 8 bytes per
parameter.

Input i depends only on --seed and i, so the counts are the same for any number
of --workers. --examples DIR writes the first input of each category to
DIR/CATEGORY.bin (and, with a world, the environment as DIR/CATEGORY.env).`,
		Example: `  labelcov sample testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world
  labelcov sample testdata/bench/temperature/temperature.plan --n 1000000 --json
  labelcov sample kitchen.plan --world kitchen.world --len-min 4 --len-max 16 --examples /tmp/found`,
		Args: argsNamed(1, 1, "PLAN"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sampleFile(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.world, "world", "", "world file; without it the input gives the plan's int parameters")
	f.StringVar(&o.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.IntVar(&o.n, "n", 100000, "number of random inputs")
	f.Uint64Var(&o.seed, "seed", 1, "random seed; the same seed gives the same inputs and counts")
	f.IntVar(&o.lenMin, "len-min", 0, "shortest input in bytes (default: one object, or 8 bytes per parameter)")
	f.IntVar(&o.lenMax, "len-max", 0, "longest input in bytes (default: six objects, or 8 bytes per parameter)")
	f.IntVar(&o.workers, "workers", usableCPUs(os.Getenv), "parallel runners"+workersFlagHelp)
	f.IntVar(&o.maxObjects, "max-objects", runner.DefaultMaxObjects, "object slots read from an input (with --world)")
	f.Int64Var(&o.maxSteps, "max-steps", 1000000, "step budget per run (and per check)")
	f.StringVar(&o.examples, "examples", "", "directory to write the first input of each category to")
	f.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
	return cmd
}

func sampleFile(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, path string, o sampleOptions) error {
	if o.n <= 0 {
		return fmt.Errorf("--n must be positive, got %d", o.n)
	}
	if err := (runner.Limits{MaxSteps: o.maxSteps, MaxObjects: o.maxObjects}).Check(); err != nil {
		return err
	}
	if err := subject.PlanGuard(path, o.world, nil).CheckDir("--examples", o.examples, ""); err != nil {
		return err
	}
	f, p, err := loadPlan(stdin, path)
	if err != nil {
		return err
	}
	if err := checkCalls(stderr, f, p, runner.Link{World: o.world != ""}); err != nil {
		return err
	}
	so := sample.Options{Program: p, Plan: o.plan, N: o.n, Seed: o.seed, LenMin: o.lenMin, LenMax: o.lenMax,
		Workers: o.workers, MaxSteps: o.maxSteps, MaxObjects: o.maxObjects}
	if o.world != "" {
		if so.World, err = runner.LoadWorld(o.world); err != nil {
			return err
		}
	}
	rep, err := sample.Categories(ctx, so)
	if err != nil {
		return err
	}
	rep.Plan, rep.World = path, o.world
	if o.examples != "" {
		if err := sample.WriteExamples(o.examples, so.World, o.maxObjects, rep); err != nil {
			return err
		}
	}
	if o.json {
		return writeJSON(stdout, rep)
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
