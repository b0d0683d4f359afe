package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/planverbs"
	"github.com/spf13/cobra"
)

func newFmtCmd() *cobra.Command {
	var write, check bool
	cmd := &cobra.Command{
		Use:   "fmt FILE...",
		Short: "Print plans in canonical layout, keeping every comment",
		Long: `fmt prints each plan file in the canonical layout: a form written on one
line that fits in 100 columns stays on one line, and a form the author broke
over lines stays broken; otherwise the head and its distinguished arguments
(defun name and parameters, let bindings, when/if tests, dolist specs) stay on
the first line and the body is indented by 2. Comments stay where they were
relative to the code, and literals keep their spelling (1.50 stays 1.50).

With no flag the result goes to stdout. -w rewrites files in place; --check
changes nothing, lists the files whose layout differs and exits with status 1
if there are any (2 for a file that does not parse). A FILE of "-" reads
standard input.`,
		Example: `  labelcov fmt warehouse.plan            # print the formatted plan
  labelcov fmt -w plans/*.plan            # rewrite files in place
  labelcov fmt --check plans/*.plan       # CI: fail if any file is not formatted`,
		Args: argsNamed(1, -1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return planverbs.Format(cmd.InOrStdin(), cmd.OutOrStdout(), args, write, check)
		},
	}
	cmd.Flags().BoolVarP(&write, "write", "w", false, "rewrite files in place instead of printing them")
	cmd.Flags().BoolVar(&check, "check", false, "list files that would change and exit 1 if any would")
	return cmd
}
