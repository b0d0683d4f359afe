package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/spf13/cobra"
)

func newDisasmCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "disasm FILE",
		Short: "Print the bytecode a plan file compiles to",
		Long: `Disasm compiles FILE and lists its bytecode, function by function, in the order
of the flat instruction array (so the pc column is also the index of each
instruction's coverage counter). Each line shows pc, source line:col, opcode,
operands, and a comment that names constants, variables, callees and branches:

  0003  2:7     JMPIFNOT   6 0       ; branch 0: if test at 2:7

A conditional jump's branch number b owns the two counters right after the
instruction counters: b's "test was true" and "test was false" hits.`,
		Example: `  labelcov disasm testdata/plans/fib.plan
  labelcov disasm warehouse.plan | grep JMPIF`,
		Args: argsNamed(1, 1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return planverbs.Disasm(cmd.InOrStdin(), cmd.OutOrStdout(), args[0])
		},
	}
}
