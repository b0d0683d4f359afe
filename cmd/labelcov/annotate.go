package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/labelcov/labelcov/transform"
	"github.com/spf13/cobra"
)

func newAnnotateCmd() *cobra.Command {
	var lf labelFlags
	var out, manifest string
	cmd := &cobra.Command{
		Use:   "annotate FILE",
		Short: "Inject coverage labels into a plan as empty conditionals",
		Long: `annotate writes the plan with each active label injected as an empty
conditional, so that any branch-coverage tool sees labels as branches:

  (if (progn (when (ignore-errors (< x 10))) ; label 3 cc true
             (when (ignore-errors (= x 10))) ; label 4 wm-ror < -> <=
             (< x 10))
      ...)

A label sits just before the expression it is about and runs exactly when
that expression does; MCC and CC labels sit before the whole decision, so
short-circuiting inside it does not skip them. Predicates are pure and
wrapped in ignore-errors: the annotated plan behaves exactly as the original
(run it with labelcov run). A label is covered when the test of its when was
true at least once. Side effects in conditions are first moved into let*
temporaries named %lc1, %lc2, ... (see labelcov labels).

Text outside the rewritten forms is kept byte for byte, comments included.
An already annotated plan is refused.

--manifest writes the label manifest (JSON, "version": 1): every label with
its original position and, for active labels, the position of its when in
the annotated plan.

` + criteriaHelp,
		Example: `  labelcov annotate warehouse.plan -o warehouse.ann.plan --manifest warehouse.labels.json
  labelcov annotate warehouse.plan --criteria mcc,wm | labelcov run -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			lo, no, err := lf.options()
			if err != nil {
				return err
			}
			f, err := readPlan(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			res, err := transform.Plan(f, transform.Options{Labels: lo, Normalize: no})
			if err != nil {
				return err
			}
			for _, w := range res.Labels.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), w)
			}
			if manifest != "" {
				var b bytes.Buffer
				if err := res.Manifest(out).Write(&b); err != nil {
					return err
				}
				if err := os.WriteFile(manifest, b.Bytes(), 0o644); err != nil {
					return fmt.Errorf("writing manifest: %w", err)
				}
			}
			if out == "" || out == "-" {
				_, err := cmd.OutOrStdout().Write(res.Source)
				return err
			}
			if err := os.WriteFile(out, res.Source, 0o644); err != nil {
				return fmt.Errorf("writing annotated plan: %w", err)
			}
			return nil
		},
	}
	lf.register(cmd)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the annotated plan to this file (default stdout)")
	cmd.Flags().StringVar(&manifest, "manifest", "", "write the label manifest (JSON) to this file")
	return cmd
}
