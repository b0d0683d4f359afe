package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
)

// Headline says what was measured: the plan, its tests and traces (and
// world), or the Go packages and what ran (their tests, or a fuzz
// target over its corpus). Text and HTML open with it.
func Headline(r *measure.Report) string {
	if len(r.Packages) > 0 {
		what := "tests"
		if r.Fuzz != "" && r.Corpus != nil {
			what = fmt.Sprintf("fuzz target %s over %d seed and %d cached corpus entries", r.Fuzz, r.Corpus.Seeds, r.Corpus.Cached)
		}
		return fmt.Sprintf("%s: %s", strings.Join(r.Packages, " "), what)
	}
	traces := 0
	if r.Diversity != nil {
		traces = r.Diversity.Traces
	}
	s := fmt.Sprintf("%s: plan %s, %d test%s, %d distinct trace%s", r.File, r.Plan, len(r.Tests), plural(len(r.Tests)), traces, plural(traces))
	if r.World != "" {
		s += ", world " + r.World
	}
	return s
}

// foldMCC is KeyTable's foldMCC for r: Go packages' mcc rows fold their
// operators.
func foldMCC(r *measure.Report) bool { return len(r.Packages) > 0 }

// Text writes r for people, for every front end: the headline, a table of
// covered/total labels per criterion and operator (with Hill numbers
// where known), the code coverage its front end measured, the diversity,
// the resolution of the active labels, failing tests and crashing corpus
// entries, the MC/DC of each decision, then every uncovered label with its
// position, status and predicate, and why the unresolved ones are.
func Text(w io.Writer, r *measure.Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s\n\n", Headline(r))
	KeyTable(bw, r.Selected, r.Criteria, r.All, foldMCC(r))
	fmt.Fprintln(bw)
	ms := r.Coverage.Measures()
	for _, c := range ms {
		fmt.Fprintf(bw, "%-13s %d/%d (%s)\n", c.Name, c.Covered, c.Total, pct(c.Percent))
	}
	if len(ms) == 0 {
		fmt.Fprintln(bw, "code coverage: not measured (the labels' coverage was recorded by another tool)")
	}
	if d := r.Diversity; d != nil {
		fmt.Fprintf(bw, "diversity     D0 %s  D1 %s  D2 %s over %d distinct trace%s\n",
			count(d.D0), num(d.D1), num(d.D2), d.Traces, plural(d.Traces))
	}
	ResolutionText(bw, r)
	if len(r.Failing) > 0 {
		fmt.Fprintf(bw, "\nfailing tests (%d, skipped: the coverage is that of the others):\n", len(r.Failing))
		for _, f := range r.Failing {
			fmt.Fprintf(bw, "  %s\n", f)
		}
	}
	if r.Corpus != nil && len(r.Corpus.Crashing) > 0 {
		fmt.Fprintf(bw, "\ncrashing corpus entries (%d, not measured):\n", len(r.Corpus.Crashing))
		for _, c := range r.Corpus.Crashing {
			fmt.Fprintf(bw, "  %s\n", c)
		}
	}
	if r.MCDC != nil {
		MCDCText(bw, r.MCDC)
	}
	if len(r.Uncovered) == 0 {
		fmt.Fprintln(bw, "\nevery active label is covered")
	} else {
		fmt.Fprintf(bw, "\nuncovered labels (%d; reached: evaluated but never true, unreached: never evaluated;\n"+
			"expression: the source the label is about, predicate: what a test must make true there):\n", len(r.Uncovered))
		rows := [][]string{{"", "position", "id", "criterion", "operator", "status", "expression", "predicate"}}
		for _, l := range r.Uncovered {
			rows = append(rows, []string{"", l.Pos, fmt.Sprint(l.ID), string(l.Criterion), l.Operator, statusText(l),
				orDash(l.Source), shownPredicate(l.Expr, l.Predicate)})
		}
		table(bw, rows, "llrlllll")
	}
	reasonsText(bw, r)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing coverage report: %w", err)
	}
	return nil
}

// KeyTable prints the rows of a report, for every front end alike: one
// per selected criterion key (covered, total, percent, trivial,
// infeasible; skipped when a row has any; D0, D1, D2 when the rows have
// Hill numbers), each followed by its operators, then all when more than
// one key is selected. foldMCC leaves out the operators of an mcc row
// that has more than 8 (one per outcome of every decision size is noise
// in a Go package's report).
func KeyTable(w io.Writer, selected []labels.Key, criteria map[labels.Key]*measure.KeyReport, all *measure.KeyReport, foldMCC bool) {
	skipped, diversity := false, false
	for _, k := range append([]*measure.KeyReport{all}, rowsOf(selected, criteria)...) {
		if k != nil {
			skipped = skipped || k.Skipped > 0
			diversity = diversity || k.Diversity != nil
		}
	}
	head := []string{"criterion", "operator", "covered", "total", "percent", "trivial", "infeasible"}
	align := "llrrrrr"
	if skipped {
		head, align = append(head, "skipped"), align+"r"
	}
	if diversity {
		head, align = append(head, "D0", "D1", "D2"), align+"rrr"
	}
	out := [][]string{head}
	row := func(name string, k *measure.KeyReport) {
		cells := []string{name, "", fmt.Sprint(k.Covered), fmt.Sprint(k.Total), pct(k.Percent),
			fmt.Sprint(k.Trivial), fmt.Sprint(k.Infeasible)}
		if skipped {
			cells = append(cells, fmt.Sprint(k.Skipped))
		}
		if d := k.Diversity; d != nil {
			cells = append(cells, count(d.D0), num(d.D1), num(d.D2))
		}
		out = append(out, cells)
	}
	for _, key := range selected {
		k := criteria[key]
		if k == nil {
			continue
		}
		row(string(key), k)
		if foldMCC && key == labels.MCC && len(k.OperatorOrder) > 8 {
			continue
		}
		for _, op := range k.OperatorOrder {
			c := k.Operators[op]
			out = append(out, []string{"", op, fmt.Sprint(c.Covered), fmt.Sprint(c.Total), pct(c.Percent)})
		}
	}
	if all != nil && len(selected) > 1 {
		row("all", all)
	}
	table(w, out, align)
}

// ResolutionText prints per criterion how many objectives are covered,
// proven infeasible and unresolved (cover's text report; gentests prints
// it for the suite with the tests it wrote).
func ResolutionText(w io.Writer, r *measure.Report) {
	if r.All == nil || r.All.Resolution == nil {
		return
	}
	fmt.Fprintln(w, "\nresolution of the active labels (mcdc: conditions): covered by a test, proven infeasible\n(with reasons), unresolved; justified = (covered + infeasible) / total:")
	rows := [][]string{{"", "criterion", "covered", "infeasible", "unresolved", "justified"}}
	row := func(name string, k *measure.KeyReport) {
		rs := k.Resolution
		rows = append(rows, []string{"", name, fmt.Sprint(rs.Covered), fmt.Sprint(rs.Infeasible),
			fmt.Sprint(rs.Unresolved), pct(measure.Percent(rs.Covered+rs.Infeasible, k.Total))})
	}
	for _, key := range r.Selected {
		if k := r.Criteria[key]; k != nil {
			row(string(key), k)
		}
	}
	if r.All != nil && len(r.Selected) > 1 {
		row("all", r.All)
	}
	table(w, rows, "llrrrr")
}

// reasonsText prints why each label proven infeasible cannot be covered
// and what was tried on each unresolved label beyond the suite, then the
// labels the static analysis proved infeasible (not active).
func reasonsText(w io.Writer, r *measure.Report) {
	var ls []*measure.LabelResult
	for _, l := range r.Uncovered {
		if l.Status == measure.StatusInfeasible || l.Reason != measure.Untried(l) {
			ls = append(ls, l)
		}
	}
	if len(ls) > 0 {
		fmt.Fprintf(w, "\nuncovered labels, why (%d):\n", len(ls))
		for _, l := range ls {
			fmt.Fprintf(w, "  %s  label %d (%s %s) %s: %s\n", l.Pos, l.ID, l.Criterion, l.Operator, l.Status, l.Reason)
		}
	}
	if len(r.Infeasible) > 0 {
		fmt.Fprintf(w, "\n%d label(s) infeasible by the static analysis: not injected, not counted (reasons: --json, --html, labelcov labels)\n", len(r.Infeasible))
	}
}

// statusText is an uncovered label's status column: infeasible, or
// whether an unresolved label was reached.
func statusText(l *measure.LabelResult) string {
	if l.Status == measure.StatusInfeasible {
		return "infeasible"
	}
	return reachedText(l)
}

func reachedText(l *measure.LabelResult) string {
	switch {
	case l.Reached == nil:
		return "uncovered"
	case *l.Reached:
		return "reached"
	}
	return "unreached"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// pct prints a percentage, or n/a when there was nothing to cover (0 of 0
// is neither 0 % nor 100 %).
func pct(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", *p)
}

// shownPredicate is the predicate a report prints for a label: Expr (its
// temporaries resolved back to the source expressions they hold) when the
// label has one, else Predicate.
func shownPredicate(expr, predicate string) string {
	if expr != "" {
		return expr
	}
	return predicate
}

// orDash prints an empty cell as "-".
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// num prints a Hill number of order 1 or 2 with two decimals.
func num(f float64) string { return fmt.Sprintf("%.2f", f) }

// count prints a Hill number of order 0 (a count of labels).
func count(f float64) string { return fmt.Sprintf("%.0f", f) }

// table writes rows with columns padded to their widest cell, aligned
// left or right as align says per column ('l' or 'r').
func table(w io.Writer, rows [][]string, align string) {
	var width []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(width) {
				width = append(width, 0)
			}
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i := range width {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i > 0 {
				b.WriteString("  ")
			}
			if i >= len(align) || align[i] == 'l' {
				b.WriteString(c + pad)
			} else {
				b.WriteString(pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
