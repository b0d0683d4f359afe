package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
)

// filesCSS styles the source view of reports whose text the report does
// not hold (Go packages' files, htmlWriter.files).
const filesCSS = `
.srcf{border-collapse:collapse;font:13px/1.5 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace}
.srcf td{padding:0 6px;vertical-align:top;white-space:pre}
.srcf td.ln{color:#999;text-align:right}
.srcf tr.all td{background:#d6f5d6}.srcf tr.some td{background:#fff3c4}.srcf tr.none td{background:#f8d0d0}
.srcf td.g{white-space:nowrap;font-family:sans-serif;font-size:12px;text-align:left;border:0}
.miss{color:#a00;font-size:12px}
`

// lineID is the anchor of line n of the fi-th file section.
func lineID(fi, n int) string { return fmt.Sprintf("f%dL%d", fi, n) }

// fileIndex writes the table of files with labels: per file the labels
// covered of its total, linked to the file's section, worst first so the
// files that need tests lead.
func (h *htmlWriter) fileIndex(files []string, byFile map[string][]*measure.LabelResult) {
	type row struct {
		i, cov, total int
		pct           *float64
	}
	rows := make([]row, len(files))
	for i, f := range files {
		rows[i] = row{i: i, total: len(byFile[f])}
		for _, l := range byFile[f] {
			if l.Covered {
				rows[i].cov++
			}
		}
		rows[i].pct = measure.Percent(rows[i].cov, rows[i].total)
	}
	sort.SliceStable(rows, func(a, b int) bool {
		return rows[a].cov*rows[b].total < rows[b].cov*rows[a].total // lower covered fraction first
	})
	h.p("<h2>Files (%d)</h2>\n<table class=\"sum\"><tr><th class=\"k\">file</th><th>covered</th><th>labels</th><th>percent</th></tr>\n", len(files))
	for _, rw := range rows {
		h.p("<tr><td class=\"k\"><a href=\"#f%d\">%s</a></td><td>%d</td><td>%d</td><td>%s</td></tr>\n",
			rw.i+1, esc(files[rw.i]), rw.cov, rw.total, pct(rw.pct))
	}
	h.p("</table>\n")
}

// files renders the source of a report whose text it does not hold (Go
// packages): the index of the files with labels, then each file (read
// with h.readFile) line by line, coloured by its labels (green all
// covered, yellow some, red none), with the gutter markers of a plan's
// report and the uncovered labels listed under the line.
func (h *htmlWriter) files() error {
	r := h.r
	h.p("<p class=\"legend\">In each file, a line with labels is green when all are covered, yellow when some are, red when none is; " +
		"beside it <b>✓n</b> counts its covered labels and <b>✗n</b> its uncovered ones (hover: each label, with the tests that cover it), " +
		"<b>nt</b> the tests that cover them (hover: their names); the uncovered ones are listed under the line.")
	if r.PerTest == nil {
		h.p(" Which test covers what is measured with <code>--per-test</code> (each test, or each corpus entry of a fuzz target, run alone).")
	}
	h.p("</p>\n")
	files, byFile := labelsByFile(r)
	h.fileIndex(files, byFile)
	fileIDs := map[string]int{}
	for fi, f := range files {
		fileIDs[f] = fi + 1
	}
	h.anchor = func(l *measure.LabelResult) string { return lineID(fileIDs[l.At.File], l.At.Line) }
	if len(files) > 0 && h.readFile == nil {
		return fmt.Errorf("HTML report: no reader for the source files")
	}
	for fi, f := range files {
		src, err := h.readFile(f)
		if err != nil {
			return fmt.Errorf("HTML report: %w", err)
		}
		byLine := map[int][]labelView{}
		for _, l := range byFile[f] {
			byLine[l.At.Line] = append(byLine[l.At.Line], view(l))
		}
		h.p("<h2 id=\"f%d\">%s</h2>\n<table class=\"srcf\">\n", fi+1, esc(f))
		for i, line := range strings.Split(string(src), "\n") {
			vs := byLine[i+1]
			class, miss := "", ""
			if len(vs) > 0 {
				cov := 0
				var un []string
				for _, v := range vs {
					if v.Covered {
						cov++
					} else {
						un = append(un, fmt.Sprintf("%d %s %s: %s", v.ID, v.Criterion, v.Operator, v.Shown))
					}
				}
				// The line's class says how many of its labels are covered
				// (the gutter cell's class, g, is the plan report's).
				class = "all"
				if cov == 0 {
					class = "none"
				} else if cov < len(vs) {
					class = "some"
				}
				if len(un) > 0 {
					miss = "<div class=\"miss\">" + esc(strings.Join(un, "\n")) + "</div>"
				}
			}
			h.p("<tr class=\"%s\" id=\"%s\"><td class=\"ln\">%d</td><td class=\"g\">%s</td><td>%s%s</td></tr>\n",
				class, lineID(fi+1, i+1), i+1, gutterMarks(vs), esc(line), miss)
		}
		h.p("</table>\n")
	}
	return nil
}
