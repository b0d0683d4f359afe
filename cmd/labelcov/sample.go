package main

import (
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

// newSampleCmd is `labelcov sample`: uniformly random inputs, counted per
// error category. It measures how hard each category is to find by chance,
// the baseline a guided fuzzer must beat.
func newSampleCmd() *cobra.Command {
	var o planverbs.SampleOptions
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
			return planverbs.Sample(cmd.Context(), cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.World, "world", "", "world file; without it the input gives the plan's int parameters")
	f.StringVar(&o.PlanName, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.IntVar(&o.N, "n", 100000, "number of random inputs")
	f.Uint64Var(&o.Seed, "seed", 1, "random seed; the same seed gives the same inputs and counts")
	f.IntVar(&o.LenMin, "len-min", 0, "shortest input in bytes (default: one object, or 8 bytes per parameter)")
	f.IntVar(&o.LenMax, "len-max", 0, "longest input in bytes (default: six objects, or 8 bytes per parameter)")
	f.IntVar(&o.Workers, "workers", usableCPUs(os.Getenv), "parallel runners"+workersFlagHelp)
	f.IntVar(&o.MaxObjects, "max-objects", subject.DefaultMaxObjects, "object slots read from an input (with --world)")
	f.Int64Var(&o.MaxSteps, "max-steps", 1000000, "step budget per run (and per check)")
	f.StringVar(&o.Examples, "examples", "", "directory to write the first input of each category to")
	f.BoolVar(&o.JSON, "json", false, "print one JSON object instead of the table")
	return cmd
}
