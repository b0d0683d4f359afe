package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/measure"
)

// MCDCText writes the MC/DC section of a report: per decision the
// executed test vectors (numbered as llvm-cov numbers them) and per
// condition its independence pair, or "not covered" with the vector(s) a
// test must execute to complete one.
func MCDCText(w io.Writer, mc *measure.MCDCReport) {
	fmt.Fprintf(w, "\nMC/DC: %d/%d conditions (%s) in %d decision%s\n", mc.Covered, mc.Total, pct(mc.Percent),
		len(mc.Decisions), plural(len(mc.Decisions)))
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

func testsText(ts []string) string {
	if len(ts) == 0 {
		return ""
	}
	const show = 3
	s := strings.Join(ts[:min(len(ts), show)], ", ")
	if len(ts) > show {
		s += fmt.Sprintf(", +%d", len(ts)-show)
	}
	return "  (" + s + ")"
}
