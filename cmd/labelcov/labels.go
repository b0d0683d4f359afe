package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
)

// labelFlags are the flags shared by labels and annotate.
type labelFlags struct {
	criteria string
	maxAtoms int
	pure     []string
	noValues bool
}

func (lf *labelFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&lf.criteria, "criteria", "all",
		"criteria to label: comma-separated mcc, mcdc, cc, wm (= wm:abs,wm:aor,wm:cor,wm:ror), wm:abs, wm:aor, wm:cor, wm:ror, dist, all (= mcc, cc, wm)")
	cmd.Flags().IntVar(&lf.maxAtoms, "mcc-max-atoms", subject.DefaultMCCMaxAtoms,
		"decisions with more atoms than this get CC labels instead of MCC (with a warning)")
	cmd.Flags().StringSliceVar(&lf.pure, "pure", nil,
		"external functions known to have no effects, besides the simulator's queries; repeatable or comma-separated")
	cmd.Flags().BoolVar(&lf.noValues, "no-values", false,
		"keep active the labels the value and path analyses prove infeasible or trivial (ranges of the plan's arithmetic and the world's domains; every path of a loop-free run)")
}

// worldFlags are labels' and annotate's --world and --plan: the verdicts
// of a plan run in a world, as the verbs that run it judge its labels.
type worldFlags struct{ world, plan string }

func (wf *worldFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&wf.world, "world", "", "plans: judge the labels as a plan run in this world is judged (the verdicts of fuzz, cover and gentests with --world: its query ranges, the failures its actions signal, the regions each location sees)")
	cmd.Flags().StringVar(&wf.plan, "plan", "", "plans: the def-plan that runs, for the verdicts that follow the calls from it, as cover and gentests judge them (functions it never calls keep no label; with --world the default is main, or the only plan)")
}

// options are the suite options of a verb that only reads the plan.
func (wf *worldFlags) options(lf labelFlags) *coverOptions {
	return &coverOptions{labelFlags: lf, world: wf.world, plan: wf.plan}
}

const criteriaHelp = `Criteria (a label is a predicate at a program point; it is covered by a run
that reaches the point with the predicate true):
  cc       each atom c of each decision (tests of if/when/unless/while and
           cond clauses, and any and/or elsewhere; atoms are the maximal
           non-and/or/not parts): c, (not c)
  mcc      each decision with n atoms: the 2^n conjunctions of signed atoms
           (more than --mcc-max-atoms atoms: CC labels instead, with a warning)
  mcdc     each decision of two or more conditions: one label per
           short-circuit test vector; cover reports MC/DC as clang's llvm-cov
           does (independence pairs per condition) (not in all)
  wm:ror   each binary < <= > >= = /=: label "mutant with another relational
           operator differs", simplified, e.g. (< a b) vs <= gives (= a b)
  wm:aor   each binary + - * /: the other three operators; unary (- x): (/= x 0)
  wm:cor   each and/or: swapped with the other (their truthiness differs)
  wm:abs   each variable operand of an arithmetic or relational builtin:
           (< x 0), (> x 0), (= x 0)
  dist     each numeric relation: a ladder (< (abs (- a b)) 2^k) across the
           whole int64 width, k = 62, 60, 56, ..., 20 (every fourth bit) and
           16, 15, ..., 0 (every bit), 29 a relation; each string= or equal
           on strings: prefix stones "the first k characters agree"; stepping
           stones toward the exact relation (not in all)
Labels whose predicate is constant, or that the static analyses decide (ranges
of the plan's arithmetic and of the world's queries, failure handlers no reachable
action can enter, the path analysis of loop-free runs, and the other rules of
docs/labels.md), are listed as trivial (always true) or infeasible (never true,
with a reason) and are not injected; --no-values keeps them active. Verdicts
that need a world (its query ranges, which failures its actions signal, which
regions each location sees) need it: labels and annotate take --world (and
--plan, the def-plan that runs) to judge as fuzz, cover and gentests do; without
a world, --plan alone gives the verdicts that follow the calls from that
def-plan, as cover and gentests give them.`

func newLabelsCmd() *cobra.Command {
	var lf labelFlags
	var wf worldFlags
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "labels FILE",
		Short: "List the coverage labels (MCC, CC, weak mutation) of a plan",
		Long: `labels normalizes a plan (side effects leave the expressions that carry labels)
and lists every label: where it is (file:line:col of the original plan), its id
(active labels are numbered in source order), criterion, operator, predicate
and status, then a summary of active/trivial/infeasible labels per criterion.
Expressions and predicates longer than 60 characters are cut with "…" in the
table; --json has them whole.

` + criteriaHelp + `

--json prints the label manifest (the format annotate --manifest writes, minus
annotated positions): {"version": 1, "summary": {"mcc": {"active": ...}},
"labels": [...]}.`,
		Example: `  labelcov labels warehouse.plan                     # every criterion
  labelcov labels warehouse.plan --criteria mcc,wm:ror
  labelcov labels warehouse.plan --criteria cc --json | jq '.summary'
  labelcov labels testdata/bench/kitchen/kitchen.plan --world testdata/worlds/kitchen.world`,
		Args: argsNamed(1, 1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o := wf.options(lf)
			o.json = asJSON
			s, err := openSubject(cmd, args, o, &goFuzzOptions{})
			if err != nil {
				return err
			}
			return s.Labels(cmd.Context(), cmd.OutOrStdout())
		},
	}
	lf.register(cmd)
	wf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the label manifest as JSON")
	return cmd
}
