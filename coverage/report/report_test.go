package report

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const suite = "../../testdata/tests/thermostat"

// thermostat measures the example suite with short file names, so the
// golden files do not depend on where the repository is.
func thermostat(t *testing.T) *measure.Report { return thermostatWith(t, "all") }

// thermostatWith measures the example suite's tests named only (all of
// them when none is named) under criteria.
func thermostatWith(t *testing.T, criteria string, only ...string) *measure.Report {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(suite, "thermostat.plan"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("thermostat.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria(criteria)
	m, err := measure.New(f, measure.Options{Labels: labels.Options{Criteria: c}})
	if err != nil {
		t.Fatal(err)
	}
	files, err := measure.ExpandPaths([]string{suite})
	if err != nil {
		t.Fatal(err)
	}
	var tests []*measure.Test
	for _, p := range files {
		if len(only) > 0 && !slices.Contains(only, filepath.Base(p)) {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		tc, err := m.ParseTest(filepath.Base(p), data)
		if err != nil {
			t.Fatal(err)
		}
		tests = append(tests, tc)
	}
	r, err := m.Run(context.Background(), tests)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", name, got)
	}
}

func render(t *testing.T, fn func(*bytes.Buffer, *measure.Report) error, r *measure.Report) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := fn(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestJSONGolden(t *testing.T) {
	golden(t, "thermostat.json", render(t, func(b *bytes.Buffer, r *measure.Report) error { return JSON(b, r) }, thermostat(t)))
}

func TestTextGolden(t *testing.T) {
	golden(t, "thermostat.txt", render(t, func(b *bytes.Buffer, r *measure.Report) error { return Text(b, r) }, thermostat(t)))
}

func TestLCOVGolden(t *testing.T) {
	golden(t, "thermostat.info", render(t, func(b *bytes.Buffer, r *measure.Report) error { return LCOV(b, r) }, thermostat(t)))
}

// TestLCOVConsistent checks the tracefile's own arithmetic: BRF/BRH,
// LF/LH and FNF/FNH agree with the records, and every record is one LCOV
// knows.
func TestLCOVConsistent(t *testing.T) {
	r := thermostat(t)
	out := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return LCOV(b, r) }, r))
	rec := regexp.MustCompile(`^(TN|SF|FN|FNDA|FNF|FNH|BRDA|BRF|BRH|DA|LF|LH):|^end_of_record$`)
	n := map[string]int{}
	hit := map[string]int{}
	sums := map[string]int{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if !rec.MatchString(line) {
			t.Fatalf("not an LCOV record: %q", line)
		}
		tag, val, _ := strings.Cut(line, ":")
		fields := strings.Split(val, ",")
		switch tag {
		case "BRDA":
			n[tag]++
			if fields[3] != "-" && fields[3] != "0" {
				hit[tag]++
			}
		case "DA":
			n[tag]++
			if fields[1] != "0" {
				hit[tag]++
			}
		case "FNDA":
			n[tag]++
			if fields[0] != "0" {
				hit[tag]++
			}
		case "BRF", "BRH", "LF", "LH", "FNF", "FNH":
			v, _ := strconv.Atoi(val)
			sums[tag] = v
		}
	}
	if sums["BRF"] != n["BRDA"] || sums["BRH"] != hit["BRDA"] || sums["LF"] != n["DA"] || sums["LH"] != hit["DA"] ||
		sums["FNF"] != n["FNDA"] || sums["FNH"] != hit["FNDA"] {
		t.Errorf("summaries %v disagree with records %v / hit %v", sums, n, hit)
	}
	if sums["BRF"] != r.All.Total || sums["BRH"] != r.All.Covered {
		t.Errorf("BRF/BRH %d/%d, report %d/%d", sums["BRF"], sums["BRH"], r.All.Total, r.All.Covered)
	}
	// Label 13 (mcc FF at 9:12) is reached but never true; label 10 (mcc
	// TT) is covered by one test.
	for _, want := range []string{"BRDA:9,0,13,0\n", "BRDA:9,0,10,1\n", "FN:4,width\n", "FN:7,main\n", "DA:9,"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q", want)
		}
	}
}

// TestGenhtml feeds the tracefile to genhtml when it is installed.
func TestGenhtml(t *testing.T) {
	genhtml, err := exec.LookPath("genhtml")
	if err != nil {
		t.Skip("genhtml not installed")
	}
	dir := t.TempDir()
	r := thermostat(t)
	r.File, _ = filepath.Abs(filepath.Join(suite, "thermostat.plan"))
	info := filepath.Join(dir, "cover.info")
	if err := os.WriteFile(info, render(t, func(b *bytes.Buffer, r *measure.Report) error { return LCOV(b, r) }, r), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(genhtml, "--branch-coverage", "-o", filepath.Join(dir, "html"), info).CombinedOutput()
	if err != nil {
		t.Fatalf("genhtml: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "branches...: 67.3% (33 of 49 branches)") {
		t.Errorf("genhtml summary:\n%s", out)
	}
}

func TestHTML(t *testing.T) {
	r := thermostat(t)
	page := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return HTML(b, r, nil) }, r))
	for _, want := range []string{
		"<!DOCTYPE html>",
		"<title>labelcov cover: thermostat.plan</title>",
		// line 9 holds the decision: amber (some of its labels covered),
		// gutter markers for its covered and uncovered labels.
		`<div class="row" id="L9"><span class="n full"><a href="#L9">9</a></span>`,
		`<b class="u" title="#13 mcc FF: (and (not (&lt; lo temp)) (not (&lt; temp hi)))&#10;    NOT covered (reached, never true)`,
		`<span class="lp" title="#10 mcc TT: (and (&lt; lo temp) (&lt; temp hi))&#10;    covered by 1 test (1 trace): inside.args`,
		// and which tests cover the labels of line 9.
		`<b class="t" title="the labels of this line are covered by 5 tests:&#10;above.args&#10;cold.bin&#10;far-above.args&#10;inside.args&#10;narrow.args">5t</b></span><span class="c">    (cond `,
		// the label table: the tests that cover a label, named on hover.
		`<td class="st">covered</td><td title="inside.args">1</td></tr>`,
		// the wm-aor labels of (- hi lo) are all covered: green.
		`<span class="lc" title="#1 wm-aor - -&gt; +: (/= lo 0)`,
		// the label table links to the line, shows the expression the
		// label is about, its predicate and status, and sorts positions
		// by line and column.
		`<tr class="reached" data-crit="mcc"><td class="m" data-s="00000009.000012" title="thermostat.plan:9:12"><a href="#L9">9:12</a></td><td>13</td><td>mcc</td><td class="m">FF</td><td class="m">(and (&lt; lo temp) (&lt; temp hi))</td><td class="m">(and (not (&lt; lo temp)) (not (&lt; temp hi)))</td><td class="st" title="no test covers it (reached: evaluated, never true) and the static analysis does not rule it out">reached, never true</td>`,
		`<h2 id="labels-h">Labels (49, 16 uncovered)</h2>`,
		`<select id="f-crit"><option value="">all</option><option>wm-aor</option>`,
		`<option value="uncovered">uncovered</option>`,
		`<input id="f-text" type="search"`,
		// the diversity columns are explained on the page, not only in tooltips.
		`<b>D0, D1, D2</b> measure the diversity of the suite (Hill numbers of order 0, 1 and 2)`,
		"<td class=\"k\">mcc</td><td></td><td>5</td><td>6</td>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	// Self-contained: the one script is inline.
	if strings.Count(page, "<script") != 1 || !strings.Contains(page, "<script>(function(){") {
		t.Errorf("want exactly one inline script")
	}
	for _, bad := range []string{"<script src", "http://", "https://", "<link", "fetch(", "XMLHttpRequest"} {
		if strings.Contains(page, bad) {
			t.Errorf("page is not self-contained: has %q", bad)
		}
	}
	if o, c := strings.Count(page, "<span"), strings.Count(page, "</span>"); o != c {
		t.Errorf("%d <span> but %d </span>", o, c)
	}
	if o, c := strings.Count(page, "<div"), strings.Count(page, "</div>"); o != c {
		t.Errorf("%d <div> but %d </div>", o, c)
	}
	// Every source line is a row, and the source text survives (escaped).
	if n := strings.Count(page, `<div class="row"`); n != 11 {
		t.Errorf("%d rows, want 11", n)
	}
	if !strings.Contains(page, "(t &#39;outside))))") {
		t.Error("source text missing")
	}
}

func TestTextNoUncovered(t *testing.T) {
	r := thermostat(t)
	r.Uncovered = nil
	out := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return Text(b, r) }, r))
	if !strings.Contains(out, "every active label is covered") {
		t.Error(out)
	}
}

// A label on a temporary shows the source expression (Expr), not %lcN; its
// operator and the expression it is about are printed too.
func TestUncoveredShowsSourceExpression(t *testing.T) {
	r := thermostat(t)
	l := r.Uncovered[0]
	l.Predicate, l.Expr, l.Source = "(eq %lc3 %lc4)", "(eq (board-level r) 3)", "(eq (board-level r) 3)"
	txt := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return Text(b, r) }, r))
	page := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return HTML(b, r, nil) }, r))
	for name, out := range map[string]string{"text": txt, "html": strings.ReplaceAll(page, "&#39;", "'")} {
		if strings.Contains(out, "%lc3") || !strings.Contains(out, "(eq (board-level r) 3)") || !strings.Contains(out, "x -&gt; (abs x)") && !strings.Contains(out, "x -> (abs x)") {
			t.Errorf("%s: temporaries shown or expression/operator missing", name)
		}
	}
	// Without Expr (a plan with no temporaries) the predicate is shown.
	l.Expr = ""
	txt = string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return Text(b, r) }, r))
	if !strings.Contains(txt, "(eq %lc3 %lc4)") {
		t.Errorf("predicate missing without Expr:\n%s", txt)
	}
}

// 0 of 0 is n/a (JSON null), never 100 %.
func TestEmptyDenominatorIsNA(t *testing.T) {
	r := thermostat(t)
	k := r.Criteria[labels.WMCOR]
	k.Covered, k.Total, k.Percent = 0, 0, nil
	for op := range k.Operators {
		k.Operators[op] = &measure.Count{}
	}
	txt := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return Text(b, r) }, r))
	if !regexp.MustCompile(`(?m)^wm-cor +0 +0 +n/a `).MatchString(txt) {
		t.Errorf("text: wm-cor 0/0 not n/a:\n%s", txt)
	}
	page := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return HTML(b, r, nil) }, r))
	if !strings.Contains(page, `<td class="k">wm-cor</td><td></td><td>0</td><td>0</td><td class="k"><span class="bar na"></span>n/a</td>`) {
		t.Errorf("html: wm-cor 0/0 not n/a")
	}
	js := string(render(t, func(b *bytes.Buffer, r *measure.Report) error { return JSON(b, r) }, r))
	if !strings.Contains(js, `"wm-cor": {
      "covered": 0,
      "total": 0,
      "percent": null,`) {
		t.Errorf("json: wm-cor percent not null")
	}
}
