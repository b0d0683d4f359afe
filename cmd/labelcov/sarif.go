package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/report"
	"github.com/labelcov/labelcov/interp/syntax"
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
			plan := args[0]
			var g outputs.Guard
			g.Input("the plan", plan, world)
			g.Folder("the campaign", args[1:]...)
			if err := g.Check("-o", out); err != nil {
				return err
			}
			src, err := os.ReadFile(plan)
			if err != nil {
				return fmt.Errorf("reading plan: %w", err)
			}
			f, err := syntax.Parse(plan, src)
			if err != nil {
				return err
			}
			replay := "labelcov replay " + shellQuote(plan)
			if world != "" {
				replay += " --world " + shellQuote(world)
			}
			var recs []engine.FindingRecord
			for _, dir := range args[1:] {
				rs, err := engine.ReadFindings(dir)
				if err != nil {
					return err
				}
				recs = append(recs, rs...)
			}
			fs := report.CampaignFindings(f, recs, func(input string) string { return replay + " " + shellQuote(input) })
			var b bytes.Buffer
			if err := report.SARIF(&b, version(), fs); err != nil {
				return err
			}
			if out == "" {
				_, err := cmd.OutOrStdout().Write(b.Bytes())
				return err
			}
			if err := g.WriteFile("-o", out, b.Bytes(), 0o644); err != nil {
				return fmt.Errorf("writing SARIF: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&world, "world", "", "world file the campaign ran in (named in the replay commands)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the log to this file instead of stdout")
	return cmd
}
