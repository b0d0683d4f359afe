package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

func newSarifCmd() *cobra.Command {
	var world, out string
	cmd := &cobra.Command{
		Use:   "sarif PLAN CAMPAIGN_DIR... [--world W] [-o OUT]",
		Short: "Write a campaign's findings as a SARIF 2.1.0 log for code scanning",
		Long: `sarif reads the findings of fuzzing campaigns on PLAN (findings.json of each
CAMPAIGN_DIR, or of each instance directory inside it, as labelcov fuzz and the
AFL++ front write them) and writes them as one SARIF 2.1.0 log (stdout, or -o
OUT): one rule per category, one result per finding with its message, its
position in the plan (where the plan failed, or for a check's category where
the def-check returns it), the finding key as a fingerprint and the command that
replays its minimized input. GitHub code scanning and GitLab read it.`,
		Example: `  labelcov fuzz testdata/bench/temperature/temperature.plan --budget 10s --out camp
  labelcov sarif testdata/bench/temperature/temperature.plan camp -o findings.sarif`,
		Args: argsNamed(2, -1, "PLAN", "CAMPAIGN_DIR (a fuzz --out directory)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openSubject(cmd, args, &coverOptions{world: world}, &goFuzzOptions{})
			if err != nil {
				return err
			}
			return s.Sarif(cmd.Context(), cmd.OutOrStdout(), subject.SarifOptions{Out: out, Version: version()})
		},
	}
	cmd.Flags().StringVar(&world, "world", "", "world file the campaign ran in (named in the replay commands)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the log to this file instead of stdout")
	return cmd
}
