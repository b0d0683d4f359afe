package report

import (
	"bufio"
	"cmp"
	"fmt"
	"html"
	"io"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
)

// HTML writes r as one self-contained HTML page (inline CSS and script,
// no external resources), for every front end. It says what the text
// report says, in the same order: the headline, the summary table (rows,
// operators, Hill numbers where known, resolution, all), the code
// coverage its front end measured, failing tests and crashing corpus
// entries, the MC/DC of each decision; then the source:
//   - a plan's (its text is in the report): a gutter per line with the
//     line number (coloured by instruction coverage), execution count, and
//     label markers "✓n" (covered), "✗n" (uncovered) and "nt" (the tests
//     covering them), whose tooltips list them; every labelled expression
//     highlighted: green when all its labels are covered, red when none
//     is, amber when some are;
//   - Go packages' files (readFile returns an original file's text,
//     os.ReadFile, say; the renderer itself reads nothing): an index of the
//     files, worst covered first, then each file line by line, coloured by
//     its labels, with the same gutter markers and the uncovered labels
//     listed under the line;
//
// then a table of every label (linked to its line) that sorts by any
// column (click its header) and filters by criterion, status and text, and
// the tests. Without JavaScript the table is complete, only static.
func HTML(w io.Writer, r *measure.Report, readFile func(path string) ([]byte, error)) error {
	bw := bufio.NewWriter(w)
	h := &htmlWriter{w: bw, r: r, readFile: readFile}
	if err := h.page(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return nil
}

type htmlWriter struct {
	w        *bufio.Writer
	r        *measure.Report
	readFile func(path string) ([]byte, error)
	// anchor is the id of a label's source line ("L12"; Go: "f2L12").
	anchor func(l *measure.LabelResult) string
}

func (h *htmlWriter) p(format string, args ...any) { fmt.Fprintf(h.w, format, args...) }

// esc escapes text for HTML content and attribute values; newlines in
// attributes become line breaks in tooltips.
func esc(s string) string { return strings.ReplaceAll(html.EscapeString(s), "\n", "&#10;") }

// sumCSS styles the summary tables of every report (keyTableHTML).
const sumCSS = `table.sum{border-collapse:collapse;margin-bottom:8px}
table.sum th,table.sum td{padding:3px 10px;border-bottom:1px solid #e3e3e3;text-align:right;white-space:nowrap}
table.sum th{background:#f4f4f6;font-weight:600}
table.sum td.k,table.sum th.k{text-align:left}
table.sum tr.op td{color:#555;font-size:12px}
table.sum tr.op td.k{padding-left:28px}
table.sum tr.tot td{font-weight:600;border-top:2px solid #999}
.bar{display:inline-block;width:90px;height:9px;background:#f2c4c4;border-radius:2px;vertical-align:middle;margin-right:6px;overflow:hidden}
.bar i{display:block;height:100%;background:#3a9d3a}`

const css = `
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px;color:#1d1d1f;background:#fff}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:24px 0 8px}
.meta{color:#555;margin:0 0 16px}
` + sumCSS + `
.legend{margin:10px 0;font-size:12px;color:#333}
.legend span{padding:1px 6px;margin-right:8px;border-radius:3px}
.src{font:13px/1.5 ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;border:1px solid #ddd;border-radius:4px;overflow-x:auto}
.row{display:grid;grid-template-columns:4.2em 4.5em 9.5em 1fr;min-height:1.5em}
.row:target{outline:2px solid #3b7dd8}
.n,.x,.g{text-align:right;padding-right:8px;color:#888;user-select:none;border-right:1px solid #eee}
.n a{color:inherit;text-decoration:none}
.n.full{background:#dff3df;color:#2d6a2d}.n.none{background:#f8dada;color:#8a2020}.n.part{background:#fbefc9;color:#7a5a00}
.x{font-size:11px}
.g{text-align:left;padding-left:6px;font-size:12px;white-space:nowrap}
` + gutterCSS + `
.c{white-space:pre;tab-size:8;padding-left:10px}
.lc{background:rgba(40,170,40,.18);border-bottom:2px solid rgba(40,150,40,.7);cursor:help}
.lu{background:rgba(220,40,40,.18);border-bottom:2px solid rgba(200,30,30,.8);cursor:help}
.lp{background:rgba(235,170,0,.22);border-bottom:2px solid rgba(200,140,0,.85);cursor:help}
table.list{border-collapse:collapse;font-size:13px}
table.list th,table.list td{padding:2px 10px;border-bottom:1px solid #eee;text-align:left;vertical-align:top}
table.list th{background:#f4f4f6}
table.list td.m{font-family:ui-monospace,"DejaVu Sans Mono",monospace}
table.labels th{cursor:pointer;user-select:none;white-space:nowrap}
table.labels th:after{content:" \2195";color:#aaa;font-size:11px}
table.labels th.asc:after{content:" \25B2";color:#333}table.labels th.desc:after{content:" \25BC";color:#333}
table.labels td:first-child,table.labels td.st{white-space:nowrap}
table.labels tr.covered td.st{color:#1e5e1e}table.labels tr.reached td.st,table.labels tr.unreached td.st{color:#8a1c1c;font-weight:600}table.labels tr.infeasible td.st{color:#555;font-style:italic}
.filters{margin:6px 0 8px;font-size:13px}.filters label{margin-right:14px}
.filters input{width:18em}
.bar.na{background:#e6e6e6}
details.dec{margin:4px 0 10px}details.dec summary{cursor:pointer}details.dec table{margin:6px 0 6px 22px}
.ok{color:#1e5e1e}.no{color:#8a1c1c;font-weight:600}
` + filesCSS

// gutterCSS styles the label markers of a source line (gutterMarks), in
// the plan and the Go reports.
const gutterCSS = `.g b{font-weight:600;border-radius:3px;padding:0 3px;margin-right:3px;cursor:help}
.g b.c{background:#cfeccf;color:#1e5e1e}.g b.u{background:#f6c9c9;color:#8a1c1c}.g b.t{background:#e4e9f5;color:#24407a}`

// labelScript sorts and filters the label table (table.labels): a click on
// a header sorts by that column (again: reversed), by each cell's data-s
// when it has one (positions, numbers), else its text; the filters hide
// rows whose criterion, status or text do not match.
const labelScript = `(function(){
var t=document.getElementById("labels");if(!t)return;
var body=t.tBodies[0],heads=t.tHead.rows[0].cells;
var fc=document.getElementById("f-crit"),fs=document.getElementById("f-status"),ft=document.getElementById("f-text"),shown=document.getElementById("f-shown");
function key(td){var s=td.getAttribute("data-s");return s!==null?s:td.textContent;}
function cmp(a,b){var x=parseFloat(a),y=parseFloat(b);if(!isNaN(x)&&!isNaN(y)&&String(x)===a&&String(y)===b)return x-y;return a<b?-1:a>b?1:0;}
Array.prototype.forEach.call(heads,function(th,i){th.addEventListener("click",function(){
var dir=th.classList.contains("asc")?-1:1;
Array.prototype.forEach.call(heads,function(h){h.classList.remove("asc","desc");});
th.classList.add(dir>0?"asc":"desc");
var rows=Array.prototype.slice.call(body.rows);
rows.sort(function(r1,r2){return dir*cmp(key(r1.cells[i]),key(r2.cells[i]));});
rows.forEach(function(r){body.appendChild(r);});});});
function filter(){var c=fc.value,s=fs.value,q=ft.value.toLowerCase(),n=0;
Array.prototype.forEach.call(body.rows,function(r){
var ok=(!c||r.getAttribute("data-crit")===c)&&(!s||(s==="uncovered"?r.className!=="covered":r.className===s))&&(!q||r.textContent.toLowerCase().indexOf(q)>=0);
r.style.display=ok?"":"none";if(ok)n++;});
shown.textContent=n+" of "+body.rows.length+" labels shown";}
[fc,fs].forEach(function(e){e.addEventListener("change",filter);});ft.addEventListener("input",filter);filter();
})();`

func (h *htmlWriter) page() error {
	r := h.r
	title := r.File
	if len(r.Packages) > 0 {
		title = strings.Join(r.Packages, " ")
	}
	h.p("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>labelcov cover: %s</title>\n<style>%s</style>\n</head>\n<body>\n", esc(title), css)
	h.p("<h1>labelcov cover: %s</h1>\n", esc(title))
	var crit []string
	for _, k := range r.Selected {
		crit = append(crit, string(k))
	}
	h.p("<p class=\"meta\">%s · criteria %s</p>\n", esc(Headline(r)), esc(strings.Join(crit, ", ")))
	h.summary()
	if r.MCDC != nil {
		mcdcHTML(h.w, r.MCDC, r.Source != nil)
	}
	h.anchor = func(l *measure.LabelResult) string { return fmt.Sprintf("L%d", l.At.Line) }
	if r.Source != nil {
		h.source()
	} else if err := h.files(); err != nil {
		return err
	}
	h.labels()
	if len(r.Tests) > 0 {
		h.tests()
	}
	h.p("<script>%s</script>\n</body>\n</html>\n", labelScript)
	return nil
}

func bar(p *float64) string {
	if p == nil {
		return "<span class=\"bar na\"></span>"
	}
	return fmt.Sprintf("<span class=\"bar\"><i style=\"width:%.1f%%\"></i></span>", *p)
}

// keyTableHTML writes the rows of a report as the summary table of every
// front end's HTML page, with the columns KeyTable prints in text (bars
// beside the percentages; proven infeasible and unresolved when the rows
// are resolved): one row per selected key followed by its operators
// (foldMCC as in KeyTable), then all.
func keyTableHTML(w io.Writer, selected []labels.Key, criteria map[labels.Key]*measure.KeyReport, all *measure.KeyReport, foldMCC bool) {
	skipped, resolved, diversity := false, false, false
	for _, k := range append([]*measure.KeyReport{all}, rowsOf(selected, criteria)...) {
		if k != nil {
			skipped = skipped || k.Skipped > 0
			resolved = resolved || k.Resolution != nil
			diversity = diversity || k.Diversity != nil
		}
	}
	head := `<table class="sum">` + "\n" + `<tr><th class="k">criterion</th><th class="k">operator</th><th>covered</th><th>total</th><th class="k">coverage</th><th title="labels whose predicate always holds: not injected, not counted">trivial</th><th title="labels no input can cover, by the static analysis (the reason is in labelcov labels): not injected, not counted">infeasible</th>`
	extra := 0
	if skipped {
		head += `<th title="listed but not injected (the reason is in the manifest): not counted">skipped</th>`
		extra++
	}
	if resolved {
		head += `<th title="active labels (mcdc: conditions) proven infeasible, with a reason">proven infeasible</th><th title="active labels (mcdc: conditions) neither covered nor proven infeasible">unresolved</th>`
		extra += 2
	}
	if diversity {
		head += `<th title="richness: covered labels">D0</th><th title="exp(Shannon entropy) of distinct traces per label">D1</th><th title="inverse Simpson">D2</th>`
		extra += 3
	}
	fmt.Fprint(w, head+"</tr>\n")
	row := func(name, class string, k *measure.KeyReport) {
		fmt.Fprintf(w, "<tr%s><td class=\"k\">%s</td><td></td><td>%d</td><td>%d</td><td class=\"k\">%s%s</td><td>%d</td><td>%d</td>",
			class, esc(name), k.Covered, k.Total, bar(k.Percent), pct(k.Percent), k.Trivial, k.Infeasible)
		if skipped {
			fmt.Fprintf(w, "<td>%d</td>", k.Skipped)
		}
		if resolved {
			if rs := k.Resolution; rs != nil {
				fmt.Fprintf(w, "<td>%d</td><td>%d</td>", rs.Infeasible, rs.Unresolved)
			} else {
				fmt.Fprint(w, "<td></td><td></td>")
			}
		}
		if diversity {
			if d := k.Diversity; d != nil {
				fmt.Fprintf(w, "<td>%s</td><td>%s</td><td>%s</td>", count(d.D0), num(d.D1), num(d.D2))
			} else {
				fmt.Fprint(w, "<td></td><td></td><td></td>")
			}
		}
		fmt.Fprint(w, "</tr>\n")
	}
	for _, kk := range selected {
		k := criteria[kk]
		if k == nil {
			continue
		}
		row(string(kk), "", k)
		if foldMCC && kk == labels.MCC && len(k.OperatorOrder) > 8 {
			continue
		}
		for _, op := range k.OperatorOrder {
			c := k.Operators[op]
			fmt.Fprintf(w, "<tr class=\"op\"><td class=\"k\"></td><td class=\"k\">%s</td><td>%d</td><td>%d</td><td class=\"k\">%s%s</td><td></td><td></td>%s</tr>\n",
				esc(op), c.Covered, c.Total, bar(c.Percent), pct(c.Percent), strings.Repeat("<td></td>", extra))
		}
	}
	if all != nil {
		row("all labels", ` class="tot"`, all)
	}
	fmt.Fprint(w, "</table>\n")
}

// rowsOf are the rows of the selected keys (nil for a key without one).
func rowsOf(selected []labels.Key, criteria map[labels.Key]*measure.KeyReport) []*measure.KeyReport {
	out := make([]*measure.KeyReport, 0, len(selected))
	for _, k := range selected {
		out = append(out, criteria[k])
	}
	return out
}

func (h *htmlWriter) summary() {
	r := h.r
	keyTableHTML(h.w, r.Selected, r.Criteria, r.All, foldMCC(r))
	if r.All != nil && r.All.Diversity != nil {
		h.p("<p class=\"legend\"><b>D0, D1, D2</b> measure the diversity of the suite (Hill numbers of order 0, 1 and 2): " +
			"each covered label counts the distinct traces (outcome, checks, actions) of the tests that cover it; D0 is the number of " +
			"covered labels, D1 the exponential of the Shannon entropy and D2 the inverse Simpson index of those counts. " +
			"D1 and D2 near D0 mean the labels are covered by varied tests; far below D0, by a few tests that repeat one another " +
			"(docs/cover.md, \"Traces and diversity\").</p>\n")
	}
	if ms := r.Coverage.Measures(); len(ms) > 0 {
		names := map[string]string{"branches": "branch outcomes", "actions": "action buckets"}
		h.p("<table class=\"sum\">\n<tr><th class=\"k\">original code</th><th>covered</th><th>total</th><th class=\"k\">coverage</th></tr>\n")
		for _, c := range ms {
			name := cmp.Or(names[c.Name], c.Name)
			h.p("<tr><td class=\"k\">%s</td><td>%d</td><td>%d</td><td class=\"k\">%s%s</td></tr>\n", name, c.Covered, c.Total, bar(c.Percent), pct(c.Percent))
		}
		h.p("</table>\n")
	} else {
		h.p("<p class=\"meta\">Code coverage: not measured (the labels' coverage was recorded by another tool).</p>\n")
	}
	if len(r.Failing) > 0 {
		h.p("<h2 id=\"failing\">Failing tests (%d, skipped: the coverage is that of the others)</h2>\n<ul>\n", len(r.Failing))
		for _, f := range r.Failing {
			h.p("<li><code>%s</code></li>\n", esc(f))
		}
		h.p("</ul>\n")
	}
	if r.Corpus != nil && len(r.Corpus.Crashing) > 0 {
		h.p("<h2 id=\"crashing\">Crashing corpus entries (%d, not measured)</h2>\n<ul>\n", len(r.Corpus.Crashing))
		for _, c := range r.Corpus.Crashing {
			h.p("<li><code>%s</code></li>\n", esc(c))
		}
		h.p("</ul>\n")
	}
}

// group is the labels about one expression of the source.
type group struct {
	start, end int
	labels     []*measure.LabelResult
}

func (g *group) class() string {
	cov := 0
	for _, l := range g.labels {
		if l.Covered {
			cov++
		}
	}
	switch cov {
	case len(g.labels):
		return "lc"
	case 0:
		return "lu"
	}
	return "lp"
}

// labelView is what the HTML report shows of one label in tooltips and
// cells, whatever its front end.
type labelView struct {
	ID        int
	Criterion labels.Key
	Operator  string
	// Shown is the predicate with temporaries resolved.
	Shown   string
	Covered bool
	// Reach says why an uncovered label is: "reached" (evaluated, never
	// true), "unreached", or "" when not known (Go).
	Reach string
	// Tests names the tests covering the label, Traces counts their
	// distinct traces (0: not counted); TestsKnown is false when the
	// measurement did not record which test covers what (Go cover without
	// --per-test).
	Tests      []string
	Traces     int
	TestsKnown bool
}

// view is what the HTML report shows of a label of any front end.
func view(l *measure.LabelResult) labelView {
	v := labelView{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator, Shown: shownPredicate(l.Expr, l.Predicate), Covered: l.Covered,
		Tests: l.Tests, Traces: l.TraceCount(), TestsKnown: l.Tests != nil}
	if l.Reached != nil {
		v.Reach = "unreached"
		if *l.Reached {
			v.Reach = "reached"
		}
	}
	return v
}

// line describes the label for a tooltip: id, criterion, operator and
// predicate, then the tests that cover it or why it is not covered.
func (v labelView) line() string {
	s := fmt.Sprintf("#%d %s %s: %s", v.ID, v.Criterion, v.Operator, v.Shown)
	switch {
	case v.Covered && !v.TestsKnown:
		s += "\n    covered (--per-test names the tests)"
	case v.Covered && v.Traces > 0:
		s += fmt.Sprintf("\n    covered by %d test%s (%d trace%s): %s", len(v.Tests), plural(len(v.Tests)),
			v.Traces, plural(v.Traces), shortList(v.Tests, 6))
	case v.Covered:
		s += fmt.Sprintf("\n    covered by %d test%s: %s", len(v.Tests), plural(len(v.Tests)), shortList(v.Tests, 6))
	case v.Reach == "reached":
		s += "\n    NOT covered (reached, never true)"
	case v.Reach == "unreached":
		s += "\n    NOT covered (never reached)"
	default:
		s += "\n    NOT covered"
	}
	return s
}

// testsCell is a label table cell: the number of tests covering the label,
// their names on hover.
func (v labelView) testsCell() string {
	if !v.TestsKnown {
		return "<td title=\"--per-test names the tests\">–</td>"
	}
	return fmt.Sprintf("<td title=\"%s\">%d</td>", esc(shortList(v.Tests, 6)), len(v.Tests))
}

func shortList(xs []string, n int) string {
	if len(xs) <= n {
		return strings.Join(xs, ", ")
	}
	return strings.Join(xs[:n], ", ") + fmt.Sprintf(", and %d more", len(xs)-n)
}

func (g *group) title() string {
	var b strings.Builder
	for i, l := range g.labels {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(view(l).line())
	}
	return b.String()
}

// source renders the plan: one row per line, labelled expressions as
// nested spans (closed at each line end and reopened on the next line).
func (h *htmlWriter) source() {
	r := h.r
	src := r.Source
	byStart := map[[2]int]*group{}
	var groups []*group
	perLine := map[int][]labelView{}
	for _, l := range r.Labels {
		perLine[l.At.Line] = append(perLine[l.At.Line], view(l))
		s, e := l.At.Offset, l.End
		if s < 0 || s >= len(src) || e <= s || e > len(src) {
			continue
		}
		k := [2]int{s, e}
		g := byStart[k]
		if g == nil {
			g = &group{start: s, end: e}
			byStart[k] = g
			groups = append(groups, g)
		}
		g.labels = append(g.labels, l)
	}
	// Outer spans open first; expressions nest, so a stack suffices.
	sort.SliceStable(groups, func(i, j int) bool {
		if groups[i].start != groups[j].start {
			return groups[i].start < groups[j].start
		}
		return groups[i].end > groups[j].end
	})
	opens := map[int][]*group{}
	for _, g := range groups {
		opens[g.start] = append(opens[g.start], g)
	}
	lines := map[int]measure.LineCoverage{}
	for _, lc := range r.Lines {
		lines[lc.Line] = lc
	}

	h.p("<h2>Source</h2>\n<div class=\"legend\"><span class=\"lc\">all labels covered</span><span class=\"lp\">some labels covered</span><span class=\"lu\">no label covered</span> · gutter: line (green: every instruction ran, red: none, amber: some), execution count, <b>✓</b> covered and <b>✗</b> uncovered labels of the line, <b>t</b> the tests that cover them (hover for details)</div>\n<div class=\"src\">\n")
	var stack []*group
	var text strings.Builder
	flush := func() {
		h.w.WriteString(esc(text.String()))
		text.Reset()
	}
	line := 1
	pending := false // spans of stack not yet reopened on this row
	openSpan := func(g *group) { h.p("<span class=\"%s\" title=\"%s\">", g.class(), esc(g.title())) }
	startRow := func() {
		lc, has := lines[line]
		cls := ""
		hits := ""
		if has {
			switch {
			case lc.Covered == lc.Instructions:
				cls = " full"
			case lc.Covered == 0:
				cls = " none"
			default:
				cls = " part"
			}
			hits = fmt.Sprint(lc.Hits)
		}
		h.p("<div class=\"row\" id=\"L%d\"><span class=\"n%s\"><a href=\"#L%d\">%d</a></span><span class=\"x\">%s</span><span class=\"g\">%s</span><span class=\"c\">",
			line, cls, line, line, hits, gutterMarks(perLine[line]))
		// Spans continuing from the line above reopen at the first
		// non-blank byte, so indentation is not highlighted.
		pending = len(stack) > 0
	}
	endRow := func() {
		flush()
		if !pending {
			for range stack {
				h.p("</span>")
			}
		}
		pending = false
		h.p("</span></div>\n")
	}
	startRow()
	for i := 0; i <= len(src); i++ {
		if pending && i < len(src) && src[i] != ' ' && src[i] != '\t' && src[i] != '\n' && src[i] != '\r' {
			flush()
			for _, g := range stack {
				openSpan(g)
			}
			pending = false
		}
		for len(stack) > 0 && stack[len(stack)-1].end == i {
			flush()
			h.p("</span>")
			stack = stack[:len(stack)-1]
		}
		if i == len(src) {
			break
		}
		for _, g := range opens[i] {
			flush()
			openSpan(g)
			stack = append(stack, g)
		}
		if src[i] == '\n' {
			endRow()
			line++
			if i+1 < len(src) {
				startRow()
			}
			continue
		}
		text.WriteByte(src[i])
	}
	if len(src) == 0 || src[len(src)-1] != '\n' {
		endRow()
	}
	h.p("</div>\n")
}

// gutterMarks renders the label markers of one source line: ✓n for its
// covered labels, ✗n for its uncovered ones (each tooltip lists them, with
// the tests that cover each), and nt for the tests that cover any of them
// (the tooltip names them).
func gutterMarks(vs []labelView) string {
	var cov, unc []string
	var tests []string
	seen := map[string]bool{}
	known := true
	for _, v := range vs {
		if !v.Covered {
			unc = append(unc, v.line())
			continue
		}
		cov = append(cov, v.line())
		known = known && v.TestsKnown
		for _, t := range v.Tests {
			if !seen[t] {
				seen[t] = true
				tests = append(tests, t)
			}
		}
	}
	var b strings.Builder
	if len(cov) > 0 {
		fmt.Fprintf(&b, "<b class=\"c\" title=\"%s\">✓%d</b>", esc(strings.Join(cov, "\n")), len(cov))
	}
	if len(unc) > 0 {
		fmt.Fprintf(&b, "<b class=\"u\" title=\"%s\">✗%d</b>", esc(strings.Join(unc, "\n")), len(unc))
	}
	if len(cov) > 0 && known {
		sort.Strings(tests)
		fmt.Fprintf(&b, "<b class=\"t\" title=\"%s\">%dt</b>", esc(fmt.Sprintf("the labels of this line are covered by %d test%s:\n", len(tests), plural(len(tests)))+
			strings.Join(tests, "\n")), len(tests))
	}
	return b.String()
}

// labels writes the table of every active label: position (linked to its
// line), id, criterion, operator, the source expression, the predicate
// (temporaries resolved), status and covering tests; labelScript sorts and
// filters it.
func (h *htmlWriter) labels() {
	r := h.r
	h.p("<h2 id=\"labels-h\">Labels (%d, %d uncovered)</h2>\n", len(r.Labels), len(r.Uncovered))
	if len(r.Labels) == 0 {
		h.p("<p>No active labels.</p>\n")
		return
	}
	if len(r.Uncovered) == 0 {
		h.p("<p>Every active label is covered.</p>\n")
	}
	h.p("<div class=\"filters\"><label>criterion <select id=\"f-crit\"><option value=\"\">all</option>")
	seen := map[string]bool{}
	for _, l := range r.Labels {
		if c := string(l.Criterion); !seen[c] {
			seen[c] = true
			h.p("<option>%s</option>", esc(c))
		}
	}
	h.p("</select></label><label>status <select id=\"f-status\"><option value=\"\">all</option><option value=\"uncovered\">uncovered</option>" +
		"<option value=\"reached\">reached, never true</option><option value=\"unreached\">never reached</option><option value=\"infeasible\">proven infeasible</option><option value=\"covered\">covered</option></select></label>" +
		"<label>text <input id=\"f-text\" type=\"search\" placeholder=\"position, operator, expression...\"></label><span id=\"f-shown\"></span></div>\n")
	posHead := "line:col"
	if r.Source == nil {
		posHead = "position"
	}
	h.p("<table class=\"list labels\" id=\"labels\">\n<thead><tr><th>%s</th><th>id</th><th>criterion</th><th>operator</th><th>expression</th><th>predicate</th><th>status</th><th>tests</th></tr></thead>\n<tbody>\n", posHead)
	for _, l := range r.Labels {
		class, status := "covered", "covered"
		switch {
		case l.Covered:
		case l.Status == measure.StatusInfeasible:
			class, status = "infeasible", "proven infeasible"
		case l.Reached == nil:
			class, status = "uncovered", "uncovered"
		case *l.Reached:
			class, status = "reached", "reached, never true"
		default:
			class, status = "unreached", "never reached"
		}
		pos, key := fmt.Sprintf("%d:%d", l.At.Line, l.At.Col), posKey(l.At)
		if r.Source == nil {
			pos, key = l.Pos, l.At.File+" "+key
		}
		h.p("<tr class=\"%s\" data-crit=\"%s\"><td class=\"m\" data-s=\"%s\" title=\"%s\"><a href=\"#%s\">%s</a></td><td>%d</td><td>%s</td><td class=\"m\">%s</td><td class=\"m\">%s</td><td class=\"m\">%s</td><td class=\"st\"%s>%s</td>%s</tr>\n",
			class, esc(string(l.Criterion)), esc(key), esc(l.Pos), h.anchor(l), esc(pos), l.ID, esc(string(l.Criterion)), esc(l.Operator),
			esc(orDash(l.Source)), esc(shownPredicate(l.Expr, l.Predicate)), titleAttr(l.Reason), status, view(l).testsCell())
	}
	h.p("</tbody>\n</table>\n")
	if len(r.Infeasible) > 0 {
		h.p("<details><summary>%d label(s) infeasible by the static analysis (not injected, not counted)</summary>\n<table class=\"list\">\n<tr><th>position</th><th>criterion</th><th>operator</th><th>predicate</th><th>reason</th></tr>\n", len(r.Infeasible))
		for _, l := range r.Infeasible {
			h.p("<tr><td class=\"m\">%s</td><td>%s</td><td class=\"m\">%s</td><td class=\"m\">%s</td><td>%s</td></tr>\n",
				esc(l.Pos), esc(string(l.Criterion)), esc(l.Operator), esc(shownPredicate(l.Expr, l.Predicate)), esc(strings.TrimPrefix(l.Reason, "static analysis: ")))
		}
		h.p("</table></details>\n")
	}
}

// titleAttr is a title attribute holding s, or nothing when s is empty.
func titleAttr(s string) string {
	if s == "" {
		return ""
	}
	return " title=\"" + esc(s) + "\""
}

// posKey sorts positions by line, then column, as text.
func posKey(p labels.Position) string { return fmt.Sprintf("%08d.%06d", p.Line, p.Col) }

func (h *htmlWriter) tests() {
	r := h.r
	h.p("<h2>Tests (%d)</h2>\n<table class=\"list\">\n<tr><th>test</th><th>kind</th><th>outcome</th><th>result / failure</th><th>errors</th><th>actions</th><th>trace</th><th>labels covered</th></tr>\n", len(r.Tests))
	for _, t := range r.Tests {
		res := t.Result
		if t.Failure != "" {
			res = t.Failure
		}
		h.p("<tr><td class=\"m\">%s</td><td>%s</td><td>%s</td><td class=\"m\">%s</td><td>%s</td><td>%d</td><td class=\"m\">%s</td><td>%d</td></tr>\n",
			esc(t.Name), t.Kind, esc(t.Outcome), esc(res), esc(strings.Join(t.Errors, ", ")), t.Actions, esc(t.Trace), len(t.Labels))
	}
	h.p("</table>\n")
}
