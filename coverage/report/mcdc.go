package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
)

// MCDCText writes the MC/DC section of a report: per decision the
// executed test vectors (numbered as llvm-cov numbers them) and per
// condition its independence pair, or "not covered" with the vector(s) a
// test must execute to complete one.
func MCDCText(w io.Writer, mc *measure.MCDCReport) {
	fmt.Fprintf(w, "\nMC/DC: %d/%d conditions (%s) in %d decision%s; test vectors executed: %s\n", mc.Covered, mc.Total, pct(mc.Percent),
		len(mc.Decisions), plural(len(mc.Decisions)), mc.Vectors)
	for _, d := range mc.Decisions {
		fmt.Fprintf(w, "\ndecision %s %s: %d/%d conditions\n", d.Pos, d.Source, d.Covered, d.Total)
		if len(d.Executed) == 0 {
			fmt.Fprintln(w, "  no test vector executed")
		} else {
			fmt.Fprintln(w, "  executed test vectors:")
			for _, v := range d.Executed {
				fmt.Fprintf(w, "    %d  %s = %s%s\n", v.N, v.Values, tf(v.Outcome), testsText(v.Tests))
			}
		}
		for i, c := range d.Conditions {
			status := "not covered"
			if c.Covered {
				status = fmt.Sprintf("covered: (%d,%d)", c.Pair[0], c.Pair[1])
			}
			fmt.Fprintf(w, "  C%d %s  %s: %s", i+1, c.Pos, c.Source, status)
			if !c.Covered {
				fmt.Fprintf(w, "; %s", suggestText(c.Suggest))
			}
			fmt.Fprintln(w)
		}
	}
}

// suggestText says what a test must do to cover a condition.
func suggestText(vs []*measure.VectorReport) string {
	if len(vs) == 0 {
		return "no feasible independence pair"
	}
	var parts []string
	for _, v := range vs {
		parts = append(parts, v.Values+" = "+tf(v.Outcome))
	}
	return "needs " + strings.Join(parts, " and ")
}

func tf(b bool) string {
	if b {
		return "T"
	}
	return "F"
}

// testsText names (by base name) the first tests that executed a vector.
func testsText(ts []string) string {
	if len(ts) == 0 {
		return ""
	}
	const show = 3
	var names []string
	for _, t := range ts[:min(len(ts), show)] {
		names = append(names, filepath.Base(t))
	}
	s := strings.Join(names, ", ")
	if len(ts) > show {
		s += fmt.Sprintf(", +%d", len(ts)-show)
	}
	return "  (" + s + ")"
}

// mcdcHTML writes the MC/DC section of an HTML report: one expandable
// entry per decision (least covered first open), with its executed test
// vectors and its conditions' independence pairs or suggested vectors.
// links says whether positions link to the source's line anchors (#L12).
func mcdcHTML(w io.Writer, mc *measure.MCDCReport, links bool) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	at := func(pos labels.Position, text string) string {
		if !links {
			return esc(text)
		}
		return fmt.Sprintf("<a href=\"#L%d\">%s</a>", pos.Line, esc(text))
	}
	p("<h2 id=\"mcdc\">MC/DC: %d/%d conditions (%s) in %d decision%s; test vectors executed: %s</h2>\n", mc.Covered, mc.Total, pct(mc.Percent),
		len(mc.Decisions), plural(len(mc.Decisions)), mc.Vectors)
	p("<p class=\"meta\">As clang's llvm-cov measures it: a condition is covered by two executed test vectors whose outcomes differ and which differ in that condition alone among the conditions both evaluated (- : not evaluated).</p>\n")
	for _, d := range mc.Decisions {
		open := ""
		if d.Covered < d.Total {
			open = " open"
		}
		p("<details class=\"dec\"%s><summary>%s %s <code>%s</code> %d/%d conditions</summary>\n",
			open, bar(measure.Percent(d.Covered, d.Total)), at(d.At, d.Pos), esc(d.Source), d.Covered, d.Total)
		if len(d.Executed) == 0 {
			p("<p>No test vector executed.</p>\n")
		} else {
			p("<table class=\"list\"><tr><th>#</th><th>vector</th><th>outcome</th><th>executed by</th></tr>\n")
			for _, v := range d.Executed {
				p("<tr><td>%d</td><td class=\"m\">%s</td><td>%s</td><td title=\"%s\">%s</td></tr>\n", v.N, esc(v.Values), tf(v.Outcome),
					esc(strings.Join(v.Tests, "\n")), esc(shortList(v.Tests, 4)))
			}
			p("</table>\n")
		}
		p("<table class=\"list\"><tr><th>condition</th><th>position</th><th>expression</th><th>independence pair</th></tr>\n")
		for i, c := range d.Conditions {
			var st string
			if c.Covered {
				st = fmt.Sprintf("<span class=\"ok\">covered: (%d,%d)</span>", c.Pair[0], c.Pair[1])
			} else {
				st = "<span class=\"no\">not covered</span>; " + esc(suggestText(c.Suggest))
			}
			p("<tr><td>C%d</td><td class=\"m\">%s</td><td class=\"m\">%s</td><td>%s</td></tr>\n",
				i+1, at(c.At, c.Pos), esc(c.Source), st)
		}
		p("</table>\n</details>\n")
	}
}
