package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

func newAnnotateCmd() *cobra.Command {
	var lf labelFlags
	var wf worldFlags
	var out, manifest, cp string
	var g goFuzzOptions
	cmd := &cobra.Command{
		Use:   "annotate FILE | PACKAGES...",
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

Go packages: given package patterns (./pkg/..., a directory of .go files, an
import path) instead of a plan, annotate loads them with types and writes
annotated copies of their files into -o DIR with an overlay.json for
go build/test -overlay and the manifest labels.json; labels are "if PRED {}"
statements with a "// label N key op" comment. The user's files are never
touched. See docs/go.md.

` + criteriaHelp,
		Example: `  labelcov annotate warehouse.plan -o warehouse.ann.plan --manifest warehouse.labels.json
  labelcov annotate warehouse.plan --criteria mcc,wm | labelcov run - --world warehouse.world
  labelcov annotate ./pkg/... --criteria mcc,wm -o /tmp/ann && \
      go test -overlay /tmp/ann/overlay.json -fuzz FuzzParse ./pkg/parse`,
		Args: argsNamed(1, -1, "FILE or PACKAGES"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openSubject(cmd, args, wf.options(lf), &g)
			if err != nil {
				return err
			}
			return s.Annotate(cmd.Context(), cmd.OutOrStdout(), subject.AnnotateOptions{Out: out, Manifest: manifest, Copy: cp})
		},
	}
	lf.register(cmd)
	wf.register(cmd)
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the annotated plan to this file (default stdout); for Go packages, the output directory")
	cmd.Flags().StringVar(&out, "out", "", "the same as --output")
	cmd.Flags().StringVar(&manifest, "manifest", "", "write the label manifest (JSON) to this file")
	cmd.Flags().StringVarP(&g.dir, "dir", "C", "", "Go packages: run the go command in this directory")
	cmd.Flags().StringVar(&g.tags, "tags", "", "Go packages: build tags")
	cmd.Flags().StringSliceVar(&g.labelPkgs, "label-pkgs", nil, labelPkgsUsage)
	cmd.Flags().StringVar(&cp, "copy", "", "Go packages: also write a copy of the module with the annotated files in place (go test -cover ignores -overlay)")
	return cmd
}
