package report

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/coverage/measure"
)

// GoJSON writes r as indented JSON ("version": 1), predicates unescaped.
func GoJSON(w io.Writer, r *gotest.Report) error { return writeJSON(w, r) }

// goWhat says what ran: the tests, or a fuzz target over its corpus.
func goWhat(r *gotest.Report, tests string) string {
	if r.Fuzz == "" || r.Corpus == nil {
		return tests
	}
	return fmt.Sprintf("fuzz target %s over %d seed and %d cached corpus entries", r.Fuzz, r.Corpus.Seeds, r.Corpus.Cached)
}

// GoText writes r for people: a table of covered/total labels per
// criterion and operator (with Hill numbers after per-test runs), the
// statement and block coverage of the original code, then every uncovered
// label with its position and predicate.
func GoText(w io.Writer, r *gotest.Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s\n\n", strings.Join(r.Packages, " "), goWhat(r, "tests"))
	KeyTable(bw, r.Selected, r.Criteria, r.All, true)
	fmt.Fprintf(bw, "\nstatements    %d/%d (%s)\n", r.Coverage.Statements.Covered, r.Coverage.Statements.Total, pct(r.Coverage.Statements.Percent))
	fmt.Fprintf(bw, "blocks        %d/%d (%s)\n", r.Coverage.Blocks.Covered, r.Coverage.Blocks.Total, pct(r.Coverage.Blocks.Percent))
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
		fmt.Fprintf(bw, "\nuncovered labels (%d):\n", len(r.Uncovered))
		for _, l := range r.Uncovered {
			fmt.Fprintf(bw, "  %s  %4d  %-6s  %-14s  %s", l.Pos, l.ID, l.Criterion, l.Operator, shownPredicate(l.Expr, l.Predicate))
			if l.Source != "" {
				fmt.Fprintf(bw, "  (on %s)", l.Source)
			}
			bw.WriteString("\n")
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing coverage report: %w", err)
	}
	return nil
}

// goLabelsByFile groups r's labels by original file; files are sorted.
func goLabelsByFile(r *gotest.Report) ([]string, map[string][]*gotest.LabelResult) {
	byFile := map[string][]*gotest.LabelResult{}
	var files []string
	for _, l := range r.Labels {
		f := l.At.File
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], l)
	}
	sort.Strings(files)
	return files, byFile
}

// GoLCOV writes r as an LCOV tracefile: one record per file, each label a
// branch
//
//	BRDA:<line>,<block>,<branch>,<taken>
//
// with block = the criterion (CriterionBlock), branch = the label id and
// taken = 1 when covered, else 0.
func GoLCOV(w io.Writer, r *gotest.Report) error {
	files, byFile := goLabelsByFile(r)
	var recs []lcovRecord
	for _, f := range files {
		rec := lcovRecord{file: f}
		for _, l := range byFile[f] {
			taken := "0"
			if l.Covered {
				taken = "1"
			}
			rec.branches = append(rec.branches, lcovBranch{line: l.At.Line, crit: l.Criterion, id: l.ID, taken: taken, hit: l.Covered})
		}
		recs = append(recs, rec)
	}
	return writeLCOV(w, recs)
}

const goCSS = `
body{font-family:sans-serif;margin:1.5em}
` + sumCSS + `
pre{margin:0}
.src{border-collapse:collapse;font-family:monospace;font-size:13px}
.src td{padding:0 6px;vertical-align:top;white-space:pre}
.ln{color:#999;text-align:right}
tr.all td{background:#d6f5d6}tr.some td{background:#fff3c4}tr.none td{background:#f8d0d0}
.miss{color:#a00;font-size:12px}
.legend{color:#444;font-size:13px;max-width:60em}
table.list{border-collapse:collapse;font-size:13px}
table.list th,table.list td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
table.labels th{cursor:pointer;user-select:none}
tr.covered td.st{color:#1e5e1e}tr.uncovered td.st{color:#8a1c1c;font-weight:600}
.filters{margin:6px 0 8px;font-size:13px}.filters input{width:18em}
.src td.g{white-space:nowrap;font-family:sans-serif;font-size:12px}
` + gutterCSS + `
`

// goView is what the HTML report shows of a Go label; perTest says whether
// the measurement recorded which tests cover it.
func goView(l *gotest.LabelResult, perTest bool) labelView {
	v := rowView(l.LabelRow)
	v.Tests, v.TestsKnown = l.Tests, perTest
	return v
}

// goLabelTable writes every label in a table that labelScript sorts and
// filters, as the plan report's.
func goLabelTable(bw *bufio.Writer, r *gotest.Report, fileIDs map[string]int) {
	esc := html.EscapeString
	fmt.Fprintf(bw, "<h2>Labels (%d, %d uncovered)</h2>\n", len(r.Labels), len(r.Uncovered))
	if len(r.Labels) == 0 {
		bw.WriteString("<p>No active labels.</p>\n")
		return
	}
	bw.WriteString("<div class=\"filters\"><label>criterion <select id=\"f-crit\"><option value=\"\">all</option>")
	for _, k := range r.Selected {
		fmt.Fprintf(bw, "<option>%s</option>", esc(string(k)))
	}
	bw.WriteString("</select></label> <label>status <select id=\"f-status\"><option value=\"\">all</option>" +
		"<option value=\"uncovered\">uncovered</option><option value=\"covered\">covered</option></select></label> " +
		"<label>text <input id=\"f-text\" type=\"search\" placeholder=\"file, operator, predicate...\"></label> <span id=\"f-shown\"></span></div>\n")
	bw.WriteString("<table class=\"list labels\" id=\"labels\">\n<thead><tr><th>position</th><th>id</th><th>criterion</th><th>operator</th><th>predicate</th><th>status</th><th>tests</th></tr></thead>\n<tbody>\n")
	for _, l := range r.Labels {
		class := "uncovered"
		if l.Covered {
			class = "covered"
		}
		fmt.Fprintf(bw, "<tr class=\"%s\" data-crit=\"%s\"><td data-s=\"%s %s\"><a href=\"#%s\">%s</a></td><td>%d</td><td>%s</td><td>%s</td><td><code>%s</code></td><td class=\"st\">%s</td>%s</tr>\n",
			class, esc(string(l.Criterion)), esc(l.At.File), posKey(l.At), goLineID(fileIDs[l.At.File], l.At.Line), esc(l.Pos), l.ID, esc(string(l.Criterion)), esc(l.Operator),
			esc(shownPredicate(l.Expr, l.Predicate)), class, goView(l, r.Tests != nil).testsCell())
	}
	bw.WriteString("</tbody>\n</table>\n")
}

// goLineID is the anchor of line n of the fi-th file section.
func goLineID(fi, n int) string { return fmt.Sprintf("f%dL%d", fi, n) }

// goFileIndex writes the table of files with labels: per file the labels
// covered of its total, linked to the file's section, worst first so the
// files that need tests lead.
func goFileIndex(bw *bufio.Writer, files []string, byFile map[string][]*gotest.LabelResult) {
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
	fmt.Fprintf(bw, "<h2>Files (%d)</h2>\n<table class=\"sum\"><tr><th>file</th><th>covered</th><th>labels</th><th>percent</th></tr>\n", len(files))
	for _, rw := range rows {
		fmt.Fprintf(bw, "<tr><td><a href=\"#f%d\">%s</a></td><td>%d</td><td>%d</td><td>%s</td></tr>\n",
			rw.i+1, html.EscapeString(files[rw.i]), rw.cov, rw.total, pct(rw.pct))
	}
	bw.WriteString("</table>\n")
}

// GoHTML writes r as one self-contained page: the summary table, an index
// of the files with labels (coverage per file, linked), then each file,
// line by line, coloured by its labels (green all covered, yellow some, red
// none), with the plan report's gutter markers (✓n covered and ✗n
// uncovered labels, each listed on hover with the tests that cover it, and
// nt the tests that cover the line's labels) and the uncovered labels
// listed under the line; then the label table, with the tests covering each
// label. Which test covers what is known after per-test runs (--per-test:
// each test, or each corpus entry of a fuzz target, run alone). readFile
// returns the source of an original file (os.ReadFile, say); the renderer
// itself reads nothing.
func GoHTML(w io.Writer, r *gotest.Report, readFile func(path string) ([]byte, error)) error {
	bw := bufio.NewWriter(w)
	esc := html.EscapeString
	pkgs := esc(strings.Join(r.Packages, " "))
	fmt.Fprintf(bw, "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>labelcov: %s</title>\n<style>%s</style></head><body>\n", pkgs, goCSS)
	fmt.Fprintf(bw, "<h1>labelcov: %s</h1>\n<p>%s</p>\n", pkgs, esc(goWhat(r, "the packages' tests")))
	// What the text report says, in the same order: the rows in the table
	// of every front end (operators, Hill numbers after per-test runs,
	// all), statements and blocks, the failing tests and crashing corpus
	// entries.
	keyTableHTML(bw, r.Selected, r.Criteria, r.All, true)
	bw.WriteString("<table class=\"sum\">\n<tr><th class=\"k\">original code</th><th>covered</th><th>total</th><th class=\"k\">coverage</th></tr>\n")
	for _, c := range []struct {
		name string
		c    measure.Count
	}{{"statements", r.Coverage.Statements}, {"blocks", r.Coverage.Blocks}} {
		fmt.Fprintf(bw, "<tr><td class=\"k\">%s</td><td>%d</td><td>%d</td><td class=\"k\">%s%s</td></tr>\n", c.name, c.c.Covered, c.c.Total, bar(c.c.Percent), pct(c.c.Percent))
	}
	bw.WriteString("</table>\n")
	if len(r.Failing) > 0 {
		fmt.Fprintf(bw, "<h2 id=\"failing\">Failing tests (%d, skipped: the coverage is that of the others)</h2>\n<ul>\n", len(r.Failing))
		for _, f := range r.Failing {
			fmt.Fprintf(bw, "<li><code>%s</code></li>\n", esc(f))
		}
		bw.WriteString("</ul>\n")
	}
	if r.Corpus != nil && len(r.Corpus.Crashing) > 0 {
		fmt.Fprintf(bw, "<h2 id=\"crashing\">Crashing corpus entries (%d, not measured)</h2>\n<ul>\n", len(r.Corpus.Crashing))
		for _, c := range r.Corpus.Crashing {
			fmt.Fprintf(bw, "<li><code>%s</code></li>\n", esc(c))
		}
		bw.WriteString("</ul>\n")
	}
	bw.WriteString("<p class=\"legend\">Covered and total count active labels; trivial and infeasible ones are listed by " +
		"<code>labelcov labels</code> and never counted. In each file, a line with labels is green when all are covered, " +
		"yellow when some are, red when none is; beside it <b>✓n</b> counts its covered labels and <b>✗n</b> its uncovered ones " +
		"(hover: each label, with the tests that cover it), <b>nt</b> the tests that cover them (hover: their names); " +
		"the uncovered ones are listed under the line. The table at the end lists every label with the number of tests " +
		"covering it and filters by criterion, status and text.")
	if r.Tests == nil {
		bw.WriteString(" Which test covers what is measured with <code>--per-test</code> (each test, or each corpus entry of a fuzz target, run alone).")
	}
	bw.WriteString("</p>\n")
	if r.MCDC != nil {
		mcdcHTML(bw, r.MCDC, false)
	}
	files, byFile := goLabelsByFile(r)
	goFileIndex(bw, files, byFile)
	fileIDs := map[string]int{}
	for fi, f := range files {
		fileIDs[f] = fi + 1
	}
	for fi, f := range files {
		src, err := readFile(f)
		if err != nil {
			return fmt.Errorf("HTML report: %w", err)
		}
		byLine := map[int][]labelView{}
		for _, l := range byFile[f] {
			byLine[l.At.Line] = append(byLine[l.At.Line], goView(l, r.Tests != nil))
		}
		fmt.Fprintf(bw, "<h2 id=\"f%d\">%s</h2>\n<table class=\"src\">\n", fi+1, esc(f))
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
			fmt.Fprintf(bw, "<tr class=\"%s\" id=\"%s\"><td class=\"ln\">%d</td><td class=\"g\">%s</td><td>%s%s</td></tr>\n",
				class, goLineID(fi+1, i+1), i+1, gutterMarks(vs), esc(line), miss)
		}
		bw.WriteString("</table>\n")
	}
	goLabelTable(bw, r, fileIDs)
	fmt.Fprintf(bw, "<script>%s</script>\n</body></html>\n", labelScript)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return nil
}
