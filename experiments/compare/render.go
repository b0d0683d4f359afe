package compare

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The report is built once as a list of blocks and rendered as Markdown or
// HTML. Rendering only formats: no clock, no files, no map order.

type block interface{}

type heading struct {
	level int
	text  string
}

type para struct{ text string } // `code` spans allowed

type bullets struct{ items []string }

type table struct {
	header []string
	rows   [][]string
	left   int // the first `left` columns are left-aligned, the rest right-aligned
}

type image struct{ alt, src string }

// JSON writes report.json.
func (r *Report) JSON(w io.Writer) error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// Markdown writes report.md; plots are linked as PREFIX + file name.
func (r *Report) Markdown(w io.Writer, plotPrefix string) error {
	var b strings.Builder
	for _, bl := range r.blocks(plotPrefix, "png") {
		switch x := bl.(type) {
		case heading:
			fmt.Fprintf(&b, "%s %s\n\n", strings.Repeat("#", x.level), x.text)
		case para:
			fmt.Fprintf(&b, "%s\n\n", x.text)
		case bullets:
			for _, it := range x.items {
				fmt.Fprintf(&b, "- %s\n", it)
			}
			b.WriteString("\n")
		case table:
			row := func(cells []string) {
				b.WriteString("|")
				for _, c := range cells {
					b.WriteString(" " + strings.ReplaceAll(c, "|", `\|`) + " |")
				}
				b.WriteString("\n")
			}
			row(x.header)
			b.WriteString("|")
			for i := range x.header {
				if i < x.left {
					b.WriteString(" --- |")
				} else {
					b.WriteString(" ---: |")
				}
			}
			b.WriteString("\n")
			for _, r := range x.rows {
				row(r)
			}
			b.WriteString("\n")
		case image:
			fmt.Fprintf(&b, "![%s](%s)\n\n", x.alt, x.src)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// HTML writes report.html, one page; plots are the SVG files beside it.
func (r *Report) HTML(w io.Writer, plotPrefix string) error {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>labelcov compare</title>
<style>
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:0 0 1.2rem}
th,td{border:1px solid #ccc;padding:.2rem .5rem;font-size:.9rem}
th{background:#f3f3f3}
td.r{text-align:right;font-variant-numeric:tabular-nums}
code{background:#f3f3f3;padding:0 .2rem}
img{max-width:100%;border:1px solid #eee;margin:.3rem 0}
</style></head><body>
`)
	for _, bl := range r.blocks(plotPrefix, "svg") {
		switch x := bl.(type) {
		case heading:
			fmt.Fprintf(&b, "<h%d>%s</h%d>\n", x.level, inlineHTML(x.text), x.level)
		case para:
			fmt.Fprintf(&b, "<p>%s</p>\n", inlineHTML(x.text))
		case bullets:
			b.WriteString("<ul>\n")
			for _, it := range x.items {
				fmt.Fprintf(&b, "<li>%s</li>\n", inlineHTML(it))
			}
			b.WriteString("</ul>\n")
		case table:
			b.WriteString("<table>\n<tr>")
			for _, h := range x.header {
				fmt.Fprintf(&b, "<th>%s</th>", inlineHTML(h))
			}
			b.WriteString("</tr>\n")
			for _, r := range x.rows {
				b.WriteString("<tr>")
				for i, c := range r {
					if i < x.left {
						fmt.Fprintf(&b, "<td>%s</td>", inlineHTML(c))
					} else {
						fmt.Fprintf(&b, `<td class="r">%s</td>`, inlineHTML(c))
					}
				}
				b.WriteString("</tr>\n")
			}
			b.WriteString("</table>\n")
		case image:
			fmt.Fprintf(&b, "<p><img src=\"%s\" alt=\"%s\"></p>\n", html.EscapeString(x.src), html.EscapeString(x.alt))
		}
	}
	b.WriteString("</body></html>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// inlineHTML escapes s and turns `code` spans and **bold** into tags.
func inlineHTML(s string) string {
	parts := strings.Split(s, "`")
	var b strings.Builder
	for i, p := range parts {
		if i%2 == 1 && i < len(parts)-1 {
			b.WriteString("<code>" + html.EscapeString(p) + "</code>")
			continue
		}
		if i%2 == 1 {
			b.WriteString("`")
		}
		bold := strings.Split(p, "**")
		for j, q := range bold {
			if j%2 == 1 && j < len(bold)-1 {
				b.WriteString("<b>" + html.EscapeString(q) + "</b>")
			} else {
				if j%2 == 1 {
					b.WriteString("**")
				}
				b.WriteString(html.EscapeString(q))
			}
		}
	}
	return b.String()
}

func (r *Report) blocks(plotPrefix, ext string) []block {
	var out []block
	add := func(b ...block) { out = append(out, b...) }
	add(heading{1, "Guiding criteria compared"})
	if r.Command != "" {
		add(para{"Regenerate with (from the repository root; `go run ./cmd/labelcov` for `labelcov`; campaigns " +
			"already finished in `--out` are reused, the others run):"}, para{"`" + r.Command + "`"})
	}
	if r.Kind == KindGo {
		add(para{fmt.Sprintf("%d run(s) of %s per (Go fuzz target, guiding criterion) on %s; guiding criteria %s; grid seed %d. "+
			"Every campaign is `go test -fuzz` with one fuzzing worker (`-parallel 1`) on the target's package annotated "+
			"with its guiding criterion through `-overlay` (`none`: the original code), from the seed corpus only, with "+
			"a private fuzz cache and Go's mutator seeded from the grid seed; it ends at its first failure, as `go test "+
			"-fuzz` does, or at the budget. Failures are named by their site on the original code (every failing input "+
			"is replayed there): the first stack frame in the target's package. Coverage is measured on one yardstick "+
			"whatever guided the campaign, by replaying the kept corpus: the coverage blocks of the original package "+
			"(`blocks`) and the labels of all criteria (per criterion `labels:mcc`, `labels:cc`, `labels:wm`, "+
			"`labels:mcdc` in conditions and `labels:dist`; `labels` is their sum, as cover's all). Execs to find are estimated from go test's progress "+
			"lines (printed every 3 s). %s",
			r.Runs, fmtDur(r.BudgetS), strings.Join(r.Benches, ", "), code(r.Criteria), r.Seed, minimizeNote(r.MinimizeTime)+fixedNote(r.OnFixed))})
	} else {
		add(para{fmt.Sprintf("%d run(s) of %s per (benchmark, guiding criterion) on %s; guiding criteria %s; grid seed %d. "+
			"Every campaign is the built-in engine with one worker, fuzzing the plan annotated with its guiding criterion "+
			"(`none`: the original plan), with a seed of its own derived from the grid seed. Coverage is measured on one "+
			"yardstick whatever guided the campaign: branches (both outcomes of each conditional), instructions and action "+
			"buckets of the original plan, and the labels of all criteria (per criterion `labels:mcc`, `labels:cc`, "+
			"`labels:wm` and `labels:mcdc` in conditions; `labels` is their sum, as cover's all), by replaying the kept inputs.",
			r.Runs, fmtDur(r.BudgetS), strings.Join(r.Benches, ", "), code(r.Criteria), r.Seed)})
	}
	if r.Note != "" {
		add(para{r.Note})
	}
	var mach []string
	for _, s := range r.Sources {
		m := s.Machine
		line := fmt.Sprintf("shard %s: %s, %d cores, %s, %s; %d campaign(s) in parallel",
			s.Shard, m.CPU, m.Cores, m.OS, m.Go, s.Workers)
		if m.Load != "" {
			line += "; load average " + m.Load + " when the grid started"
		}
		mach = append(mach, line)
	}
	if len(mach) > 0 {
		add(para{"Machine:"}, bullets{mach})
	}
	if len(r.Missing) > 0 {
		var ms []string
		for _, c := range r.Missing {
			ms = append(ms, c.String())
		}
		add(para{fmt.Sprintf("**%d campaign(s) missing** (not run or not finished; the tables use the runs present): %s",
			len(r.Missing), strings.Join(ms, ", "))})
	}
	var sum []string
	for _, br := range r.Results {
		for _, c := range r.Criteria {
			if v, ok := br.Verdicts[c]; ok {
				sum = append(sum, "**"+br.Bench+"**, "+v)
			}
		}
	}
	if len(sum) > 0 {
		add(heading{2, "Summary"}, bullets{sum})
		if sig := r.significant(true); len(sig) > 0 {
			add(para{"Significant differences (Holm-adjusted p < 0.05):"}, bullets{sig})
		}
		if sig := r.significant(false); len(sig) > 0 {
			add(para{"Significant only without correction (raw p < 0.05, Holm-adjusted p ≥ 0.05; " +
				"not evidence of a difference, listed so that nothing is hidden):"}, bullets{sig})
		}
	}
	for _, br := range r.Results {
		out = append(out, r.benchBlocks(br, plotPrefix, ext)...)
	}
	add(heading{2, "How to read this report"})
	add(bullets{[]string{
		"**Time to first find**: per error category (the benchmark's truth.json categories, then any other finding key) " +
			"and guiding criterion, the runs that found it out of N, and min/median/mean/max campaign seconds to the first " +
			"find over the runs that found it.",
		"**Final coverage**: covered items at the end of the campaign, min / mean / max over the runs, and the mean in percent.",
		"**Finds after saturation**: finds (run, category) made after the measuring criterion had reached its final value " +
			"in that run (coverage is sampled every second). A good adequacy criterion keeps growing while errors are still " +
			"being found; many finds after saturation mean the criterion stopped telling better test suites from worse.",
		"**Throughput**: executions per second (mean over runs, minimizing runs included), and its ratio to `none`.",
		"**Statistics**: two-sided Mann-Whitney U p-value (exact for small samples, conditional on ties) and Vargha-Delaney " +
			"Â12 of each criterion against `none`, following Klees et al. (2018). Â12 is the probability that a run guided by " +
			"the criterion does better than a run of `none` (finds sooner, or covers more), ties counting ½: 0.5 is no effect, " +
			"1 always better, 0 always worse; magnitude by Vargha and Delaney (negligible, small ≥ 0.56, medium ≥ 0.64, large ≥ 0.71). " +
			"For time to find, a run that never found the category counts at the budget.",
		"**Multiple comparisons**: at α = 0.05 about one uncorrected test in twenty is \"significant\" by chance when " +
			"nothing differs, and a benchmark has dozens of tests. So p-values are Holm-Bonferroni adjusted per benchmark, " +
			"over the family of every test on that benchmark (each guiding criterion against `none` on time and execs to " +
			"find per category and final coverage per measure); this holds the chance of even one false \"significant\" " +
			"per benchmark below 0.05, whatever the dependence between tests. Cells show the raw p and, as `adj`, the " +
			"adjusted one; **significant** (better, worse, and the counts of the summary) means adjusted p < 0.05. Tests " +
			"significant only without correction are listed apart under the summary.",
		"**Caveats**: Times to find below about a second mostly measure " +
			"how fast the first few hundred inputs run (annotated plans run slower, see throughput) rather than guidance; " +
			"compare execs to find there.",
	}})
	return out
}

// ratioCell is a ratio to none, or a dash.
func ratioCell(r *float64) string {
	if r == nil {
		return "–"
	}
	return fmtFloat(*r, 2)
}

// fixedNote says that a Go grid ran on the fixed module versions.
func fixedNote(on bool) string {
	if !on {
		return ""
	}
	return " **On the fixed versions** (`--on-fixed`): every target built against the module versions with the fixes " +
		"of its known bugs (`fixed` in its `truth.json`, through a private `-modfile`; listed under each target), so " +
		"campaigns run their whole budget unless they find an unknown bug, and execs/s measure the labels' cost " +
		"rather than when campaigns ended; finds here are not the benchmark's."
}

// minimizeNote says how a Go grid's campaigns minimized new inputs.
func minimizeNote(mt string) string {
	if mt == "" {
		return "New inputs were minimized as go test does by default (`-fuzzminimizetime 60s`)."
	}
	return "Every campaign ran with `-test.fuzzminimizetime " + mt + "`."
}

func (r *Report) benchBlocks(br BenchReport, prefix, ext string) []block {
	var out []block
	add := func(b ...block) { out = append(out, b...) }
	title := br.Bench
	add(heading{2, title})
	desc := "Plan `" + br.Plan + "`"
	switch {
	case br.Target != "":
		desc = "Fuzz target `" + br.Target + "` of package `" + br.Package + "`"
		if len(br.LabelPkgs) > 0 {
			desc += "; labels (and the yardstick) in `" + strings.Join(br.LabelPkgs, "`, `") + "`"
		}
		if len(br.Fixed) > 0 {
			desc += "; built against the fixed `" + strings.Join(br.Fixed, "`, `") + "`"
		}
		if br.Shape != "" {
			desc += "; bug: " + br.Shape
		}
	case br.World != "":
		desc += ", world `" + br.World + "`"
	default:
		desc += ", no world (inputs are the plan's integer parameters)"
	}
	add(para{desc + fmt.Sprintf("; %d finished campaign(s).", len(br.Runs))})
	if len(br.Verdicts) > 0 {
		var vs []string
		for _, c := range r.Criteria {
			if v, ok := br.Verdicts[c]; ok {
				vs = append(vs, v)
			}
		}
		add(bullets{vs})
	}

	add(heading{3, "Time to first find (s)"})
	t := table{header: []string{"category", "guided by", "found", "min", "median", "mean", "max", "median execs"}, left: 2}
	prev := ""
	for _, row := range br.TimeToFind {
		cat := row.Category
		if cat == prev {
			cat = ""
		}
		prev = row.Category
		t.rows = append(t.rows, []string{cat, row.Criterion, fmt.Sprintf("%d/%d", row.Found, row.N),
			optS(row.MinS), optS(row.MedianS), optS(row.MeanS), optS(row.MaxS), optN(row.MedianExecs)})
	}
	add(t)

	add(heading{3, "Final coverage (covered: min / mean / max, mean %)"})
	t = table{header: append([]string{"measure (total)"}, r.Criteria...), left: 1}
	for _, m := range br.Measures {
		row := []string{fmt.Sprintf("%s (%d)", m, br.Totals[m])}
		for _, cr := range br.Coverage {
			if cr.Measure != m {
				continue
			}
			if cr.N == 0 {
				row = append(row, "–")
				continue
			}
			pct := ""
			if cr.Total > 0 {
				pct = fmt.Sprintf(" (%.1f%%)", 100*cr.Mean/float64(cr.Total))
			}
			row = append(row, fmt.Sprintf("%s / %s / %s%s", fmtNum(cr.Min), fmtFloat(cr.Mean, 1), fmtNum(cr.Max), pct))
		}
		t.rows = append(t.rows, row)
	}
	add(t)

	add(heading{3, "Finds after saturation (finds made after the measure stopped growing, of all finds)"})
	t = table{header: append(append([]string{"measure"}, r.Criteria...), "all"), left: 1}
	for _, m := range br.Measures {
		row := []string{m}
		for _, sr := range br.Saturation {
			if sr.Measure == m {
				row = append(row, saturationCell(sr.After, sr.Finds, sr.RunsAfter, sr.N))
			}
		}
		t.rows = append(t.rows, row)
	}
	add(t)

	add(heading{3, "Throughput"})
	t = table{header: []string{"guided by", "runs", "execs/s", "ratio to none", "median s measured"}, left: 1}
	cpu := false
	for _, tr := range br.Throughput {
		cpu = cpu || tr.ExecsPerCPUS > 0
	}
	if cpu {
		t.header = append(t.header, "execs per CPU-s", "ratio to none")
	}
	var short []string
	for _, tr := range br.Throughput {
		row := []string{tr.Criterion, strconv.Itoa(tr.N), fmtFloat(tr.ExecsPerSec, 0), ratioCell(tr.Ratio), fmtFloat(tr.MeasuredS, 1)}
		if cpu {
			row = append(row, fmtFloat(tr.ExecsPerCPUS, 0), ratioCell(tr.CPURatio))
		}
		t.rows = append(t.rows, row)
		if tr.N > 0 && tr.MeasuredS < ShortRunS {
			short = append(short, "`"+tr.Criterion+"`")
		}
	}
	add(t)
	if cpu {
		add(para{"Execs per CPU-s: all the campaigns' execs over all their CPU seconds (the test process and its fuzzing " +
			"worker, start-up included): the cost per execution, which other work on the machine changes far less than the " +
			"wall-clock rate."})
	}
	if len(short) > 0 {
		add(para{fmt.Sprintf("The campaigns guided by %s ended within a median of under %.0f s: their rate is mostly their first seconds, "+
			"the slowest for any criterion, so the ratio says more about when they ended than about what a label costs; compare the criteria where "+
			"campaigns run their whole budget (for example on the version with the fix).", strings.Join(short, ", "), ShortRunS)})
	}

	var others []string
	for _, c := range r.Criteria {
		if c != Baseline {
			others = append(others, c)
		}
	}
	if len(br.Tests) > 0 {
		add(heading{3, "Against none: Â12 (magnitude), p, Holm-adjusted p"})
		for _, kind := range []struct{ kind, first, note string }{
			{"time_to_find", "time to find", "sooner is better; never found counts at the budget"},
			{"execs_to_find", "execs to find", "the same in campaign execs, which machine load does not change; never found counts at the largest execs of the runs compared"},
			{"coverage", "final coverage", "more is better"},
		} {
			t = table{header: append([]string{kind.first}, others...), left: 1}
			var subjects []string
			seen := map[string]bool{}
			cell := map[string]string{}
			for _, tr := range br.Tests {
				if tr.Kind != kind.kind {
					continue
				}
				if !seen[tr.Subject] {
					seen[tr.Subject] = true
					subjects = append(subjects, tr.Subject)
				}
				cell[tr.Subject+"\x00"+tr.Criterion] = testCell(tr)
			}
			for _, s := range subjects {
				row := []string{s}
				for _, c := range others {
					v, ok := cell[s+"\x00"+c]
					if !ok {
						v = "–"
					}
					row = append(row, v)
				}
				t.rows = append(t.rows, row)
			}
			add(para{"**" + capitalize(kind.first) + "** (" + kind.note + "):"}, t)
		}
	}

	add(heading{3, "Coverage over time"})
	add(para{"Median over runs per guiding criterion, band from min to max, time on a logarithmic axis; coverage is sampled every second, so the curves " +
		"start at the first sample; the ticks at " +
		"the bottom mark first finds (one lane per guiding criterion, one tick per run and category; finds in the first " +
		"10 ms are drawn at 10 ms)."})
	for _, m := range br.Measures {
		add(image{alt: br.Bench + " " + m + " coverage over time", src: prefix + plotName(br.Bench, m) + "." + ext})
	}
	return out
}

// significant lists, one line each, the tests significant after correction
// (corrected) or significant only without it (!corrected).
func (r *Report) significant(corrected bool) []string {
	var out []string
	for _, br := range r.Results {
		for _, t := range br.Tests {
			outcome := t.Outcome
			if !corrected {
				if t.Significant {
					continue
				}
				outcome = uncorrectedOutcome(t)
			}
			if outcome != "better" && outcome != "worse" {
				continue
			}
			what := "final " + t.Subject + " coverage"
			switch t.Kind {
			case "time_to_find":
				what = "time to find " + t.Subject
			case "execs_to_find":
				what = "execs to find " + t.Subject
			}
			out = append(out, fmt.Sprintf("%s, %s, %s: %s than none (Â12 %s, %s; p %s, adj %s)",
				br.Bench, t.Criterion, what, outcome, fmtFloat(t.A12, 2), t.Magnitude, fmtP(t.P), fmtP(t.PAdj)))
		}
	}
	return out
}

func testCell(t TestRow) string {
	if t.Outcome == "identical" {
		return "identical"
	}
	s := fmt.Sprintf("%s (%s), p %s, adj %s", fmtFloat(t.A12, 2), t.Magnitude, fmtP(t.P), fmtP(t.PAdj))
	switch t.Outcome {
	case "better":
		s += " **better**"
	case "worse":
		s += " **worse**"
	default:
		s += " n.s."
	}
	return s
}

func fmtP(p float64) string {
	if p < 0.001 {
		return "<0.001"
	}
	return fmtFloat(p, 3)
}

// plotName is the base name of a plot file.
func plotName(bench, measure string) string {
	return "coverage-" + bench + "-" + strings.ReplaceAll(measure, ":", "-")
}

func optS(p *float64) string {
	if p == nil {
		return "–"
	}
	if *p < 10 {
		return fmtFloat(*p, 2)
	}
	return fmtFloat(*p, 1)
}

func optN(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmtNum(math.Round(*p))
}

func fmtNum(f float64) string {
	if f == math.Trunc(f) {
		return strconv.FormatFloat(f, 'f', 0, 64)
	}
	return fmtFloat(f, 1)
}

func fmtFloat(f float64, prec int) string { return strconv.FormatFloat(f, 'f', prec, 64) }

func fmtDur(s float64) string {
	switch {
	case s >= 3600 && math.Mod(s, 3600) == 0:
		return fmt.Sprintf("%.0f h", s/3600)
	case s >= 60 && math.Mod(s, 60) == 0:
		return fmt.Sprintf("%.0f min", s/60)
	}
	return fmt.Sprintf("%s s", fmtNum(s))
}

func code(xs []string) string {
	var out []string
	for _, x := range xs {
		out = append(out, "`"+x+"`")
	}
	return strings.Join(out, ", ")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func itoa(n int) string { return strconv.Itoa(n) }

// Write writes report.json, report.md, report.html and the plots (PNG and
// SVG) into dir, and returns the files written.
func (r *Report) Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, f := range []struct {
		name   string
		render func(io.Writer) error
	}{
		{"report.json", r.JSON},
		{"report.md", func(w io.Writer) error { return r.Markdown(w, "") }},
		{"report.html", func(w io.Writer) error { return r.HTML(w, "") }},
	} {
		var b bytes.Buffer
		if err := f.render(&b); err != nil {
			return files, err
		}
		path := filepath.Join(dir, f.name)
		if err := writeFile(path, b.Bytes()); err != nil {
			return files, err
		}
		files = append(files, path)
	}
	plots, err := r.Plots(dir, "png", "svg")
	return append(files, plots...), err
}

// WriteMarkdownAt writes the Markdown report to path with its plots in a
// folder named after it (docs/results.md: docs/results/*.png), linked
// relatively — for keeping a report in a repository's docs.
func (r *Report) WriteMarkdownAt(path string) ([]string, error) {
	dir := MarkdownPlotDir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	plots, err := r.Plots(dir, "png")
	if err != nil {
		return plots, err
	}
	var b bytes.Buffer
	if err := r.Markdown(&b, filepath.Base(dir)+"/"); err != nil {
		return plots, err
	}
	return append(plots, path), writeFile(path, b.Bytes())
}

// MarkdownPlotDir is the folder WriteMarkdownAt writes path's plots to:
// path without its extension.
func MarkdownPlotDir(path string) string {
	return strings.TrimSuffix(path, filepath.Ext(path))
}

// saturationCell says in words how many of a criterion's finds came after
// the measure saturated, and in how many runs: "none of 6 finds",
// "2 of 6 finds, in 1 of 2 runs", "no finds".
func saturationCell(after, finds, runsAfter, runs int) string {
	switch {
	case finds == 0:
		return "no finds"
	case after == 0:
		return "none of " + plural(finds, "find")
	}
	return fmt.Sprintf("%d of %s, in %d of %s", after, plural(finds, "find"), runsAfter, plural(runs, "run"))
}
