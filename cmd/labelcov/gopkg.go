package main

// Go packages: `labelcov annotate` and `labelcov cover` dispatch here when
// their argument is a Go package pattern (see isGoPackageArg) rather than
// a .plan file.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// isGoPackageArg reports whether a command argument names Go packages (a
// pattern such as ./pkg/..., a directory holding .go files, an import
// path) rather than a plan file.
func isGoPackageArg(arg string) bool {
	if arg == "-" || strings.HasSuffix(arg, ".plan") {
		return false
	}
	if strings.Contains(arg, "...") {
		return true
	}
	if st, err := os.Stat(arg); err == nil {
		if !st.IsDir() {
			return false
		}
		gos, _ := filepath.Glob(filepath.Join(arg, "*.go"))
		return len(gos) > 0
	}
	return !strings.Contains(filepath.Base(arg), ".") || strings.Contains(arg, "/")
}

// goAnnotateOptions are the options of annotating Go packages.
type goAnnotateOptions struct {
	Criteria    string // as --criteria ("" = all)
	MCCMaxAtoms int
	// Out is the directory for annotated files, overlay.json and
	// labels.json (required for annotate).
	Out string
	// Dir is the directory the go command runs in ("" = current).
	Dir  string
	Tags string
	// Copy, for annotate: also write a copy of the module with the
	// annotated files in place (go test -cover ignores -overlay,
	// golang/go#73802).
	Copy string
}

func (o goAnnotateOptions) transformOptions() (gotransform.Options, error) {
	crit := o.Criteria
	if crit == "" {
		crit = "all"
	}
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		return gotransform.Options{}, fmt.Errorf("--criteria: %w", err)
	}
	if o.MCCMaxAtoms < 0 {
		return gotransform.Options{}, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", o.MCCMaxAtoms)
	}
	to := gotransform.Options{Criteria: c, MCCMaxAtoms: o.MCCMaxAtoms, Dir: o.Dir}
	if o.Tags != "" {
		to.BuildFlags = []string{"-tags=" + o.Tags}
	}
	return to, nil
}

// annotateGoPackages annotates the Go packages matching patterns into
// opts.Out (annotated files, overlay.json, labels.json) and prints a
// summary to w: label counts per criterion and how to use the overlay.
func annotateGoPackages(ctx context.Context, w io.Writer, patterns []string, opts goAnnotateOptions) error {
	if opts.Out == "" {
		return fmt.Errorf("annotating Go packages needs --out DIR (the user's files are never touched)")
	}
	to, err := opts.transformOptions()
	if err != nil {
		return err
	}
	res, err := gotransform.Annotate(ctx, patterns, to)
	if err != nil {
		return err
	}
	ov, err := res.WriteOverlay(opts.Out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, wr := range res.Warnings {
		fmt.Fprintln(bw, wr)
	}
	sum := labels.Summarize(res.Criteria, res.Labels)
	files := 0
	for _, p := range res.Packages {
		for _, f := range p.Files {
			if f.Source != nil {
				files++
			}
		}
		for _, s := range p.Skipped {
			fmt.Fprintf(bw, "note: %s\n", s)
		}
	}
	fmt.Fprintf(bw, "%d package(s), %d annotated file(s), %d active labels\n", len(res.Packages), files, res.Active())
	for _, k := range res.Criteria.Keys() {
		c := sum[k]
		fmt.Fprintf(bw, "  %-7s %5d active  %3d trivial  %3d infeasible\n", k, c.Active, c.Trivial, c.Infeasible)
	}
	fmt.Fprintf(bw, "overlay:  %s\nmanifest: %s\n", ov, filepath.Join(filepath.Dir(ov), "labels.json"))
	fmt.Fprintf(bw, "use:      go test -overlay %s [-fuzz FuzzX] %s\n", ov, strings.Join(patterns, " "))
	if opts.Copy != "" {
		if err := res.Materialize(opts.Copy); err != nil {
			return err
		}
		fmt.Fprintf(bw, "copy:     %s (the module with the annotated files in place, for go test -cover)\n", opts.Copy)
	} else {
		fmt.Fprintln(bw, "note:     go test -cover ignores -overlay (golang/go#73802): use labelcov cover, or --copy DIR")
	}
	return bw.Flush()
}

// goCoverOptions are the options of measuring Go packages.
type goCoverOptions struct {
	goAnnotateOptions
	// Fuzz measures this fuzz target's corpus instead of the tests.
	Fuzz string
	JSON bool
	LCOV string // write an LCOV tracefile here
	HTML string // write an HTML report here
	// PerTest runs each test alone too, for diversity numbers.
	PerTest bool
	// Verbose copies the go command's output to stderr.
	Verbose bool
	Stderr  io.Writer
}

// goCoverReport is the JSON of `labelcov cover` on Go packages
// ("version": 1); criteria.<key>.covered/total as for plans.
type goCoverReport struct {
	Version  int                      `json:"version"`
	Packages []string                 `json:"packages"`
	Fuzz     string                   `json:"fuzz,omitempty"`
	Selected []labels.Key             `json:"selected"`
	Criteria map[labels.Key]*goKeyRep `json:"criteria"`
	All      *goKeyRep                `json:"all"`
	Coverage goPlainCoverage          `json:"coverage"`
	Corpus   *goCorpus                `json:"corpus,omitempty"`
	// Tests (with --per-test) maps "package TestName" to the label ids the
	// test covers when run alone.
	Tests     map[string][]int `json:"tests,omitempty"`
	Uncovered []*goLabelResult `json:"uncovered"`
	Labels    []*goLabelResult `json:"labels"`
	Skipped   []string         `json:"skipped,omitempty"`
	Warnings  []string         `json:"warnings,omitempty"`
}

type goCount struct {
	Covered int     `json:"covered"`
	Total   int     `json:"total"`
	Percent float64 `json:"percent"`
}

func (c *goCount) add(covered bool) {
	c.Total++
	if covered {
		c.Covered++
	}
	c.Percent = pct100(c.Covered, c.Total)
}

func pct100(c, t int) float64 {
	if t == 0 {
		return 100
	}
	return float64(int(1000*float64(c)/float64(t)+0.5)) / 10
}

type goKeyRep struct {
	goCount
	// Diversity (with --per-test): Hill numbers over how many distinct
	// per-test label sets cover each label.
	Diversity     *labels.Hill        `json:"diversity,omitempty"`
	Trivial       int                 `json:"trivial"`
	Infeasible    int                 `json:"infeasible"`
	Operators     map[string]*goCount `json:"operators,omitempty"`
	OperatorOrder []string            `json:"operator_order,omitempty"`
}

type goPlainCoverage struct {
	// Statements is Go's statement coverage of the original code.
	Statements goCount `json:"statements"`
	// Blocks counts the original code's basic blocks that ran.
	Blocks goCount `json:"blocks"`
}

type goCorpus struct {
	Seeds  int `json:"seeds"`
	Cached int `json:"cached"`
}

type goLabelResult struct {
	ID        int        `json:"id"`
	Criterion labels.Key `json:"criterion"`
	Operator  string     `json:"operator"`
	Predicate string     `json:"predicate"`
	Guard     string     `json:"guard,omitempty"`
	Pos       string     `json:"pos"`
	Covered   bool       `json:"covered"`

	file string
	line int
}

// coverGoPackages annotates the packages matching patterns in a scratch
// directory (or opts.Out), runs their tests — or, with opts.Fuzz, one fuzz
// target over its seed and cached corpus — on the overlay and on the
// original, and reports label coverage per criterion and operator, plain
// statement and block coverage, and every uncovered label with its
// file:line:col.
func coverGoPackages(ctx context.Context, w io.Writer, patterns []string, opts goCoverOptions) error {
	to, err := opts.transformOptions()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "labelcov-go-")
	if err != nil {
		return fmt.Errorf("scratch directory: %w", err)
	}
	defer os.RemoveAll(work)
	out := opts.Out
	if out == "" {
		out = filepath.Join(work, "overlay")
	}
	res, err := gotransform.Annotate(ctx, patterns, to)
	if err != nil {
		return err
	}
	ov, err := res.WriteOverlay(out)
	if err != nil {
		return err
	}
	mo := gotransform.MeasureOptions{Dir: opts.Dir, Overlay: ov, Fuzz: opts.Fuzz, Work: filepath.Join(work, "measure"), PerTest: opts.PerTest}
	if opts.Verbose && opts.Stderr != nil {
		mo.Output = opts.Stderr
	}
	m, err := gotransform.Measure(ctx, res, mo)
	if err != nil {
		return err
	}
	rep := buildGoReport(res, m, opts.Fuzz)
	if opts.LCOV != "" {
		if err := writeGoLCOV(opts.LCOV, rep); err != nil {
			return err
		}
	}
	if opts.HTML != "" {
		if err := writeGoHTML(opts.HTML, rep); err != nil {
			return err
		}
	}
	if opts.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(rep); err != nil {
			return fmt.Errorf("writing coverage JSON: %w", err)
		}
		return nil
	}
	return writeGoText(w, rep)
}

func buildGoReport(res *gotransform.Result, m *gotransform.Measurement, fuzz string) *goCoverReport {
	rep := &goCoverReport{Version: 1, Fuzz: fuzz, Selected: res.Criteria.Keys(), Criteria: map[labels.Key]*goKeyRep{},
		Uncovered: []*goLabelResult{}, Labels: []*goLabelResult{}, Warnings: res.Warnings}
	for _, p := range res.Packages {
		rep.Packages = append(rep.Packages, p.Path)
		rep.Skipped = append(rep.Skipped, p.Skipped...)
	}
	for _, k := range rep.Selected {
		rep.Criteria[k] = &goKeyRep{Operators: map[string]*goCount{}}
	}
	all := &goKeyRep{}
	for _, l := range res.Labels {
		kr := rep.Criteria[l.Criterion]
		if kr == nil {
			continue
		}
		switch l.Status {
		case labels.Trivial:
			kr.Trivial++
			all.Trivial++
			continue
		case labels.Infeasible:
			kr.Infeasible++
			all.Infeasible++
			continue
		}
		covered := m.Hits[l.ID] > 0
		kr.add(covered)
		all.add(covered)
		op := kr.Operators[l.Operator]
		if op == nil {
			op = &goCount{}
			kr.Operators[l.Operator] = op
			kr.OperatorOrder = append(kr.OperatorOrder, l.Operator)
		}
		op.add(covered)
		lr := &goLabelResult{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator, Predicate: l.Predicate,
			Guard: l.Guard, Pos: l.Pos.String(), Covered: covered, file: l.Pos.File, line: l.Pos.Line}
		rep.Labels = append(rep.Labels, lr)
		if !covered {
			rep.Uncovered = append(rep.Uncovered, lr)
		}
	}
	for _, kr := range rep.Criteria {
		sort.SliceStable(kr.OperatorOrder, func(i, j int) bool {
			return opRank(kr.OperatorOrder[i]) < opRank(kr.OperatorOrder[j])
		})
		kr.Percent = pct100(kr.Covered, kr.Total)
	}
	all.Percent = pct100(all.Covered, all.Total)
	rep.All = all
	if m.Traces != nil {
		rep.Tests = m.Traces
		cov := labels.Coverage(res.Labels, m.Abundance())
		round := func(h labels.Hill) *labels.Hill {
			r := func(x float64) float64 { return math.Round(x*1e6) / 1e6 }
			return &labels.Hill{D0: r(h.D0), D1: r(h.D1), D2: r(h.D2)}
		}
		for k, kr := range rep.Criteria {
			if c := cov[k]; c != nil {
				kr.Diversity = round(c.Diversity)
			}
		}
		if c := cov["all"]; c != nil {
			all.Diversity = round(c.Diversity)
		}
	}
	sort.Slice(rep.Labels, func(i, j int) bool { return rep.Labels[i].ID < rep.Labels[j].ID })
	sort.Slice(rep.Uncovered, func(i, j int) bool { return rep.Uncovered[i].ID < rep.Uncovered[j].ID })
	rep.Coverage.Statements = goCount{Covered: m.StatementsCovered, Total: m.Statements, Percent: pct100(m.StatementsCovered, m.Statements)}
	rep.Coverage.Blocks = goCount{Covered: m.BlocksCovered, Total: m.Blocks, Percent: pct100(m.BlocksCovered, m.Blocks)}
	if fuzz != "" {
		rep.Corpus = &goCorpus{Seeds: m.SeedInputs, Cached: m.CachedInputs}
	}
	return rep
}

// opRank orders CC true/false first, MCC outcomes as binary numbers (TT,
// TF, FT, FF), the rest in first-seen order.
func opRank(op string) int {
	switch op {
	case "true":
		return 0
	case "false":
		return 1
	}
	if op != "" && strings.Trim(op, "TF") == "" && len(op) < 20 {
		r := 0
		for _, c := range op {
			r <<= 1
			if c == 'F' {
				r |= 1
			}
		}
		return r + len(op)<<20
	}
	return 1 << 30
}

func writeGoText(w io.Writer, rep *goCoverReport) error {
	bw := bufio.NewWriter(w)
	what := "tests"
	if rep.Fuzz != "" {
		what = fmt.Sprintf("fuzz target %s over %d seed and %d cached corpus entries", rep.Fuzz, rep.Corpus.Seeds, rep.Corpus.Cached)
	}
	fmt.Fprintf(bw, "%s: %s\n\n", strings.Join(rep.Packages, " "), what)
	div := func(h *labels.Hill) string {
		if h == nil {
			return ""
		}
		return fmt.Sprintf("  %7.2f %7.2f %7.2f", h.D0, h.D1, h.D2)
	}
	header := ""
	if rep.Tests != nil {
		header = fmt.Sprintf("  %7s %7s %7s", "D0", "D1", "D2")
	}
	fmt.Fprintf(bw, "%-9s %-16s %8s %6s %8s %8s %11s%s\n", "criterion", "operator", "covered", "total", "percent", "trivial", "infeasible", header)
	for _, k := range rep.Selected {
		kr := rep.Criteria[k]
		fmt.Fprintf(bw, "%-9s %-16s %8d %6d %7.1f%% %8d %11d%s\n", k, "", kr.Covered, kr.Total, kr.Percent, kr.Trivial, kr.Infeasible, div(kr.Diversity))
		if k == labels.MCC && len(kr.OperatorOrder) > 8 {
			continue // one line per outcome of every decision size is noise
		}
		for _, op := range kr.OperatorOrder {
			c := kr.Operators[op]
			fmt.Fprintf(bw, "%-9s %-16s %8d %6d %7.1f%%\n", "", op, c.Covered, c.Total, c.Percent)
		}
	}
	if len(rep.Selected) > 1 {
		fmt.Fprintf(bw, "%-9s %-16s %8d %6d %7.1f%% %8d %11d%s\n", "all", "", rep.All.Covered, rep.All.Total, rep.All.Percent, rep.All.Trivial, rep.All.Infeasible, div(rep.All.Diversity))
	}
	fmt.Fprintf(bw, "\nstatements    %d/%d (%.1f%%)\n", rep.Coverage.Statements.Covered, rep.Coverage.Statements.Total, rep.Coverage.Statements.Percent)
	fmt.Fprintf(bw, "blocks        %d/%d (%.1f%%)\n", rep.Coverage.Blocks.Covered, rep.Coverage.Blocks.Total, rep.Coverage.Blocks.Percent)
	if len(rep.Uncovered) == 0 {
		fmt.Fprintln(bw, "\nevery active label is covered")
	} else {
		fmt.Fprintf(bw, "\nuncovered labels (%d):\n", len(rep.Uncovered))
		for _, l := range rep.Uncovered {
			fmt.Fprintf(bw, "  %s  %4d  %-6s  %-14s  %s\n", l.Pos, l.ID, l.Criterion, l.Operator, l.Predicate)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing coverage report: %w", err)
	}
	return nil
}

// writeGoLCOV writes one LCOV record per file, each label a branch
// (BRDA:line,criterion block,label id,taken).
func writeGoLCOV(path string, rep *goCoverReport) error {
	byFile := map[string][]*goLabelResult{}
	var files []string
	for _, l := range rep.Labels {
		f := l.Pos
		if i := strings.LastIndex(f, ":"); i > 0 {
			f = f[:i]
			if j := strings.LastIndex(f, ":"); j > 0 {
				f = f[:j]
			}
		}
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], l)
	}
	sort.Strings(files)
	var b strings.Builder
	for _, f := range files {
		fmt.Fprintf(&b, "TN:labelcov\nSF:%s\n", f)
		hit := 0
		for _, l := range byFile[f] {
			line := 0
			if parts := strings.Split(strings.TrimPrefix(l.Pos, f+":"), ":"); len(parts) > 0 {
				fmt.Sscan(parts[0], &line)
			}
			taken := "0"
			if l.Covered {
				taken = "1"
				hit++
			}
			block := 0
			for i, k := range labels.AllKeys() {
				if k == l.Criterion {
					block = i
				}
			}
			fmt.Fprintf(&b, "BRDA:%d,%d,%d,%s\n", line, block, l.ID, taken)
		}
		fmt.Fprintf(&b, "BRF:%d\nBRH:%d\nend_of_record\n", len(byFile[f]), hit)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing LCOV: %w", err)
	}
	return nil
}

// writeGoHTML writes a self-contained page: the summary table, then each
// file with labels, line by line, with a gutter saying how many of the
// line's labels are covered (green all, yellow some, red none) and the
// uncovered ones listed under the line.
func writeGoHTML(path string, rep *goCoverReport) error {
	var b strings.Builder
	esc := html.EscapeString
	b.WriteString(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>labelcov: ` + esc(strings.Join(rep.Packages, " ")) + `</title>
<style>
body{font-family:sans-serif;margin:1.5em}
table.sum td,table.sum th{padding:2px 10px;text-align:right}
table.sum td:first-child,table.sum th:first-child{text-align:left}
pre{margin:0}
.src{border-collapse:collapse;font-family:monospace;font-size:13px}
.src td{padding:0 6px;vertical-align:top;white-space:pre}
.ln{color:#999;text-align:right}
.g{background:#d6f5d6}.y{background:#fff3c4}.r{background:#f8d0d0}
.miss{color:#a00;font-size:12px}
</style></head><body>
`)
	fmt.Fprintf(&b, "<h1>labelcov: %s</h1>\n<p>%s</p>\n", esc(strings.Join(rep.Packages, " ")), esc(func() string {
		if rep.Fuzz != "" {
			return fmt.Sprintf("fuzz target %s over %d seed and %d cached corpus entries", rep.Fuzz, rep.Corpus.Seeds, rep.Corpus.Cached)
		}
		return "the packages' tests"
	}()))
	b.WriteString("<table class=\"sum\"><tr><th>criterion</th><th>covered</th><th>total</th><th>percent</th></tr>\n")
	for _, k := range rep.Selected {
		kr := rep.Criteria[k]
		fmt.Fprintf(&b, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%.1f%%</td></tr>\n", k, kr.Covered, kr.Total, kr.Percent)
	}
	fmt.Fprintf(&b, "<tr><td>statements</td><td>%d</td><td>%d</td><td>%.1f%%</td></tr>\n", rep.Coverage.Statements.Covered,
		rep.Coverage.Statements.Total, rep.Coverage.Statements.Percent)
	b.WriteString("</table>\n")
	byFile := map[string]map[int][]*goLabelResult{}
	var files []string
	for _, l := range rep.Labels {
		if byFile[l.file] == nil {
			byFile[l.file] = map[int][]*goLabelResult{}
			files = append(files, l.file)
		}
		byFile[l.file][l.line] = append(byFile[l.file][l.line], l)
	}
	sort.Strings(files)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			return fmt.Errorf("HTML report: %w", err)
		}
		fmt.Fprintf(&b, "<h2>%s</h2>\n<table class=\"src\">\n", esc(f))
		for i, line := range strings.Split(string(src), "\n") {
			ls := byFile[f][i+1]
			class, gutter, miss := "", "", ""
			if len(ls) > 0 {
				cov := 0
				var un []string
				for _, l := range ls {
					if l.Covered {
						cov++
					} else {
						un = append(un, fmt.Sprintf("%d %s %s: %s", l.ID, l.Criterion, l.Operator, l.Predicate))
					}
				}
				class = "g"
				if cov == 0 {
					class = "r"
				} else if cov < len(ls) {
					class = "y"
				}
				gutter = fmt.Sprintf("%d/%d", cov, len(ls))
				if len(un) > 0 {
					miss = "<div class=\"miss\">" + esc(strings.Join(un, "\n")) + "</div>"
				}
			}
			fmt.Fprintf(&b, "<tr class=\"%s\"><td class=\"ln\">%d</td><td>%s</td><td>%s%s</td></tr>\n", class, i+1, gutter, esc(line), miss)
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</body></html>\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("writing HTML report: %w", err)
	}
	return nil
}
