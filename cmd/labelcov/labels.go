package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
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
	cmd.Flags().IntVar(&lf.maxAtoms, "mcc-max-atoms", labels.DefaultMCCMaxAtoms,
		"decisions with more atoms than this get CC labels instead of MCC (with a warning)")
	cmd.Flags().StringSliceVar(&lf.pure, "pure", nil,
		"external functions known to have no effects, besides the simulator's queries; repeatable or comma-separated")
	cmd.Flags().BoolVar(&lf.noValues, "no-values", false,
		"keep active the labels the value and path analyses prove infeasible or trivial (ranges of the plan's arithmetic and the world's domains; every path of a loop-free run)")
}

// options are the labelling options the flags select.
func (lf *labelFlags) options() (transform.Options, error) {
	return subject.LabelOptions(lf.criteria, lf.maxAtoms, lf.pure, lf.noValues)
}

// readPlanToLabel reads the plan for labels and annotate
// (subject.PlanToLabel: definitions that do not compile pass through).
func (lf *labelFlags) readPlanToLabel(stdin io.Reader, name string) (*syntax.File, *compile.Program, transform.Options, error) {
	return subject.PlanToLabel(subject.Options{Stdin: stdin, Criteria: lf.criteria, MCCMaxAtoms: lf.maxAtoms, Pure: lf.pure, NoValues: lf.noValues}, name)
}

// laterLink is what labels and annotate assume about linking
// (subject.LaterLink).
var laterLink = subject.LaterLink

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
Labels whose predicate is constant, or that the value analysis (ranges of the
plan's arithmetic, the world's domains) or the path analysis (every path of a
loop-free run, docs/labels.md "Paths") decides, are listed as trivial (always
true) or infeasible (never true, with a reason) and are not injected;
--no-values keeps them active.`

func newLabelsCmd() *cobra.Command {
	var lf labelFlags
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
  labelcov labels warehouse.plan --criteria cc --json | jq '.summary'`,
		Args: argsNamed(1, 1, "FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, p, to, err := lf.readPlanToLabel(cmd.InOrStdin(), args[0])
			if err != nil {
				return err
			}
			// As annotate: the labels of an annotated plan are labels of
			// labels, nobody's test objectives.
			if err := transform.CheckNotAnnotated(f); err != nil {
				return err
			}
			notes := printNotes(cmd.ErrOrStderr(), p)
			if err := checkCalls(cmd.ErrOrStderr(), f, p, laterLink); err != nil {
				return err
			}
			set, err := transform.Enumerate(f, to)
			if err != nil {
				return err
			}
			printWarnings(cmd.ErrOrStderr(), set.Warnings, notes)
			if asJSON {
				return set.Manifest().Write(cmd.OutOrStdout())
			}
			return printLabels(cmd.OutOrStdout(), set)
		},
	}
	lf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the label manifest as JSON")
	return cmd
}

// labelHeader names the columns of printLabels' table.
var labelHeader = [...]string{"POSITION", "ID", "CRITERION", "OPERATOR", "ON", "PREDICATE", "STATUS"}

// labelRow is the table row of l.
func labelRow(l *labels.Label) [len(labelHeader)]string {
	id := "-"
	if l.Status == labels.Active {
		id = strconv.Itoa(l.ID)
	}
	status := string(l.Status)
	if l.Reason != "" {
		status += " (" + l.Reason + ")"
	}
	return [...]string{l.Pos.String(), id, string(l.Criterion), l.Operator, clip(oneLine(l.Source)), clip(oneLine(l.Predicate)), status}
}

// maxCell is the widest ON or PREDICATE cell of the labels table; longer
// ones are cut with "…" (--json has them whole).
const maxCell = 60

// clip cuts s to maxCell runes.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxCell {
		return s
	}
	r := []rune(s)
	return string(r[:maxCell-1]) + "…"
}

func printLabels(w io.Writer, set *labels.Set) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if !printLabelTable(bw, set) {
		// A cell tabwriter would read as markup: let it lay the table out.
		tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(labelHeader[:], "\t"))
		for _, l := range set.Labels {
			r := labelRow(l)
			fmt.Fprintln(tw, strings.Join(r[:], "\t"))
		}
		if err := tw.Flush(); err != nil {
			return fmt.Errorf("writing labels: %w", err)
		}
	}
	tw := tabwriter.NewWriter(bw, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "CRITERION\tACTIVE\tTRIVIAL\tINFEASIBLE\t\t\t")
	sum := set.StatusCounts()
	for _, k := range set.Criteria.Keys() {
		c := sum[k]
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\t\t\n", k, c.Active, c.Trivial, c.Infeasible)
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("writing labels: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing labels: %w", err)
	}
	return nil
}

// printLabelTable writes the label table exactly as tabwriter (minwidth
// 0, padding 2, ' ') would, in two passes over the labels, without
// holding the table: tabwriter keeps every cell of a block until it ends,
// some hundred MB for a plan with a million labels. It writes nothing and
// returns false when a cell holds a byte tabwriter treats as markup.
func printLabelTable(w *bufio.Writer, set *labels.Set) bool {
	var widths [len(labelHeader) - 1]int
	measure := func(r [len(labelHeader)]string) bool {
		for j, c := range r {
			if strings.ContainsAny(c, "\t\v\f\n\xff") {
				return false
			}
			if j < len(widths) {
				widths[j] = max(widths[j], utf8.RuneCountInString(c)+2)
			}
		}
		return true
	}
	if !measure(labelHeader) {
		return false
	}
	for _, l := range set.Labels {
		if !measure(labelRow(l)) {
			return false
		}
	}
	write := func(r [len(labelHeader)]string) {
		for j, c := range r {
			w.WriteString(c)
			if j < len(widths) {
				for n := widths[j] - utf8.RuneCountInString(c); n > 0; n-- {
					w.WriteByte(' ')
				}
			}
		}
		w.WriteByte('\n')
	}
	write(labelHeader)
	for _, l := range set.Labels {
		write(labelRow(l))
	}
	return true
}

// oneLine keeps a predicate on one table row.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", `\n`) }
