package subject

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// Labels lists the plan's labels (a table and a summary per criterion,
// or with JSON the label manifest).
func (s *planSubject) Labels(_ context.Context, w io.Writer) error {
	f, p, to, err := PlanToLabel(s.o, s.file())
	if err != nil {
		return err
	}
	// As annotate: the labels of an annotated plan are labels of
	// labels, nobody's test objectives.
	if err := transform.CheckNotAnnotated(f); err != nil {
		return err
	}
	stderr := s.stderr()
	notes := PrintNotes(stderr, p)
	if err := CheckCalls(stderr, f, p, LaterLink); err != nil {
		return err
	}
	set, err := transform.Enumerate(f, to)
	if err != nil {
		return err
	}
	PrintWarnings(stderr, set.Warnings, notes)
	if s.o.JSON {
		return set.Manifest().Write(w)
	}
	return printLabels(w, set)
}

// Labels: labelcov annotate and cover label Go packages.
func (s *goSubject) Labels(context.Context, io.Writer) error {
	return fmt.Errorf("%s is not a plan file: this command reads .plan files; for Go packages use labelcov annotate or labelcov cover", s.o.Args[0])
}

// Labels: sb-cover's records are read by cover only.
func (s *sbclSubject) Labels(context.Context, io.Writer) error {
	return fmt.Errorf("--from-sbcl: SBCL's coverage record is reported by cover only")
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

// MaxCell is the widest ON or PREDICATE cell of the labels table; longer
// ones are cut with "…" (--json has them whole).
const MaxCell = 60

// clip cuts s to MaxCell runes.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= MaxCell {
		return s
	}
	r := []rune(s)
	return string(r[:MaxCell-1]) + "…"
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
