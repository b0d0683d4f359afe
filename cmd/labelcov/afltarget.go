package main

import (
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/spf13/cobra"
)

func newAFLTargetCmd() *cobra.Command {
	var o planSetupFlags
	var setup string
	cmd := &cobra.Command{
		Use:   "afl-target (PLAN [--world W] [--criteria C] | --setup FILE) [@@|INPUT]",
		Short: "Run a plan as a target of a stock afl-fuzz (AFL++ fork server)",
		Long: `afl-target is the target afl-fuzz runs as it is:

  afl-fuzz -i seeds -o out -- labelcov afl-target PLAN --world W [--criteria mcc,wm]

It speaks AFL++'s fork-server protocol (the hello of AFL++ 4.04c, with the map
size the plan needs) and writes the VM's counters into AFL's shared-memory map:
one byte per instruction, then two per conditional jump (test true, test false).
A Go process cannot fork, so the process afl-fuzz starts answers the fork server
and runs inputs in a long-lived worker (this same command, re-executed); the
worker is restarted when AFL kills it on a timeout. See docs/afl.md.

Each input is read from standard input (AFL's default) or from the file given as
the last argument (write @@ there and afl-fuzz substitutes its input file). It
decodes into an environment of --world, or without --world into the plan's
parameters (8 bytes each, little-endian int64), exactly as labelcov fuzz does.

A finding — a def-check's error category, a policy violation, an unhandled plan
failure, a step-budget timeout — is a crash (SIGABRT, sig:06 in crashes/). An
error of labelcov itself is reported as SIGSEGV (sig:11). Replay crashes with
labelcov replay to see their category.

Without afl-fuzz (no fork-server fds) the input runs once: exit status 0 when
it found nothing, death by SIGABRT when it did. labelcov fuzz --engine afl runs
afl-fuzz on this command for you, as "afl-target --setup DIR/labelcov-afl/worker.json":
the campaign's setup (plan and its SHA-256, world, criteria, limits) written as a
versioned JSON description, which replaces PLAN and the other flags.`,
		Example: `  mkdir seeds && printf '\0\0\0\0' > seeds/zero
  AFL_NO_UI=1 afl-fuzz -i seeds -o out -V 60 -- \
      labelcov afl-target testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world
  afl-fuzz -i seeds -o out -- labelcov afl-target temperature.plan --criteria mcc,wm @@
  afl-showmap -o map.txt -- labelcov afl-target plan.plan --world w.world < input
  labelcov afl-target plan.plan --world w.world out/default/crashes/id:000000*; echo $?   # 134: a finding`,
		Args: argsNamed(0, 2, "PLAN", "INPUT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return planverbs.AFLTarget(cmd.Context(), cmd.ErrOrStderr(), setup, args, o.SetupOptions)
		},
	}
	o.register(cmd, "none", false)
	o.registerNoRetire(cmd)
	cmd.Flags().StringVar(&setup, "setup", "", "the worker description labelcov fuzz --engine afl writes (DIR/labelcov-afl/worker.json) instead of PLAN and flags")
	return cmd
}

// aflTargetBinary is the labelcov binary afl-fuzz runs (tests point it at a
// built binary: the test binary has no afl-target command).
var aflTargetBinary = os.Executable
