package report

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// goSample is a report of three CC labels of two files and one trivial
// ROR label, built without the go command.
func goSample(t *testing.T) *gotest.Report { return goSampleWith(t, nil) }

// goSampleWith is goSample measured with per-test label sets traces.
func goSampleWith(t *testing.T, traces map[string][]int) *gotest.Report {
	t.Helper()
	crit, err := labels.ParseCriteria("cc,wm:ror")
	if err != nil {
		t.Fatal(err)
	}
	at := func(file string, line int) labels.Position { return labels.Position{File: file, Line: line, Col: 5} }
	res := &gotransform.Result{Criteria: crit, Packages: []*gotransform.Package{{Path: "example.com/p"}}, Labels: []*labels.Label{
		{ID: 1, Criterion: labels.CC, Operator: "true", Predicate: "x > 0", Status: labels.Active, Pos: at("/m/a.go", 3)},
		{ID: 2, Criterion: labels.CC, Operator: "false", Predicate: "!(x > 0)", Status: labels.Active, Pos: at("/m/a.go", 3)},
		{ID: 3, Criterion: labels.CC, Operator: "true", Predicate: "ok", Status: labels.Active, Pos: at("/m/b.go", 2)},
		{Criterion: labels.WMROR, Operator: "> -> !=", Predicate: "true", Status: labels.Trivial, Pos: at("/m/a.go", 3)},
	}}
	m := &gotest.Measurement{Hits: map[int]int{1: 1, 3: 1}, Statements: 4, StatementsCovered: 3, Blocks: 2, BlocksCovered: 1, Traces: traces}
	return gotest.NewReport(res, m, "")
}

func TestGoReport(t *testing.T) {
	r := goSample(t)
	cc := r.Criteria[labels.CC]
	if cc.Covered != 2 || cc.Total != 3 || cc.Percent == nil || *cc.Percent != 66.7 || strings.Join(cc.OperatorOrder, " ") != "true false" {
		t.Errorf("cc %+v", cc)
	}
	if ror := r.Criteria[labels.WMROR]; ror.Total != 0 || ror.Percent != nil || ror.Trivial != 1 {
		t.Errorf("ror %+v", ror)
	}
	if len(r.Uncovered) != 1 || r.Uncovered[0].Pos != "/m/a.go:3:5" || r.All.Covered != 2 || r.All.Trivial != 1 {
		t.Errorf("uncovered %+v, all %+v", r.Uncovered, r.All)
	}

	var lcov bytes.Buffer
	if err := GoLCOV(&lcov, r); err != nil {
		t.Fatal(err)
	}
	want := "TN:labelcov\nSF:/m/a.go\nBRDA:3,1,1,1\nBRDA:3,1,2,0\nBRF:2\nBRH:1\nend_of_record\n" +
		"TN:labelcov\nSF:/m/b.go\nBRDA:2,1,3,1\nBRF:1\nBRH:1\nend_of_record\n"
	if lcov.String() != want {
		t.Errorf("LCOV:\n%s\nwant:\n%s", lcov.String(), want)
	}

	var text bytes.Buffer
	if err := GoText(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"example.com/p: tests\n", "statements    3/4 (75.0%)", "uncovered labels (1):\n  /m/a.go:3:5     2  cc      false           !(x > 0)\n"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, text.String())
		}
	}

	src := map[string]string{"/m/a.go": "package p\n\nif x > 0 {\n", "/m/b.go": "package p\nif ok {\n"}
	var page bytes.Buffer
	read := func(path string) ([]byte, error) {
		if s, ok := src[path]; ok {
			return []byte(s), nil
		}
		return nil, errors.New("no such file")
	}
	if err := GoHTML(&page, r, read); err != nil {
		t.Fatal(err)
	}
	// Line 3 has a covered and an uncovered label; which tests cover the
	// covered one is not known without per-test runs.
	if !strings.Contains(page.String(), `<tr class="some" id="f1L3"><td class="ln">3</td><td class="g"><b class="c" title="#1 cc true: x &gt; 0&#10;    covered (--per-test names the tests)">✓1</b><b class="u" title="#2 cc false: !(x &gt; 0)&#10;    NOT covered">✗1</b></td>`) ||
		!strings.Contains(page.String(), "2 cc false: !(x &gt; 0)") || !strings.Contains(page.String(), "measured with <code>--per-test</code>") {
		t.Errorf("HTML:\n%s", page.String())
	}
	// The file index links each file's section, least covered first, and
	// 0 of 0 reads n/a.
	for _, want := range []string{
		`<h2>Files (2)</h2>`,
		`<h2 id="f1">/m/a.go</h2>`, `<h2 id="f2">/m/b.go</h2>`,
		`wm-ror</td><td></td><td>0</td><td>0</td><td class="k">` + bar(nil) + `n/a</td><td>1</td><td>0</td>`,
		// The margin and the columns explained, trivial and infeasible
		// shown, and the label table with the plan report's filters.
		`<b>✓n</b> counts its covered labels`, `<th title="labels whose predicate always holds: not injected, not counted">trivial</th>`,
		`<select id="f-crit">`, `<select id="f-status">`, `<input id="f-text"`, `<table class="list labels" id="labels">`,
		`<tr class="uncovered" data-crit="cc"><td data-s="/m/a.go 00000003.000005"><a href="#f1L3">/m/a.go:3:5</a></td>`,
		`<td title="--per-test names the tests">–</td>`,
	} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML lacks %s:\n%s", want, page.String())
		}
	}
	ia, ib := strings.Index(page.String(), `<a href="#f1">/m/a.go</a>`), strings.Index(page.String(), `<a href="#f2">/m/b.go</a>`)
	if ia < 0 || ib < 0 {
		t.Errorf("file index lacks links:\n%s", page.String())
	}
	delete(src, "/m/b.go")
	if err := GoHTML(&page, r, read); err == nil {
		t.Error("GoHTML without a source: no error")
	}
}

// TestGoHTMLCoveredBy: after per-test runs the Go page says which tests
// cover each label, on hover in the source and in the label table, and
// which tests cover the labels of each line.
func TestGoHTMLCoveredBy(t *testing.T) {
	r := goSampleWith(t, map[string][]int{"example.com/p TestA": {1}, "example.com/p TestB": {1, 3}, "example.com/p TestC": {}})
	src := map[string]string{"/m/a.go": "package p\n\nif x > 0 {\n", "/m/b.go": "package p\nif ok {\n"}
	var page bytes.Buffer
	if err := GoHTML(&page, r, func(path string) ([]byte, error) { return []byte(src[path]), nil }); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// a.go line 3: label 1 covered by two tests, label 2 by none.
		`<td class="g"><b class="c" title="#1 cc true: x &gt; 0&#10;    covered by 2 tests: example.com/p TestA, example.com/p TestB">✓1</b>` +
			`<b class="u" title="#2 cc false: !(x &gt; 0)&#10;    NOT covered">✗1</b>` +
			`<b class="t" title="the labels of this line are covered by 2 tests:&#10;example.com/p TestA&#10;example.com/p TestB">2t</b></td>`,
		// b.go line 2: label 3 covered by TestB alone.
		`<b class="c" title="#3 cc true: ok&#10;    covered by 1 test: example.com/p TestB">✓1</b><b class="t" title="the labels of this line are covered by 1 test:&#10;example.com/p TestB">1t</b>`,
		// The label table: the number of covering tests, named on hover.
		`<td class="st">covered</td><td title="example.com/p TestA, example.com/p TestB">2</td></tr>`,
		`<td class="st">uncovered</td><td title="">0</td></tr>`,
	} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML lacks %s", want)
		}
	}
	if strings.Contains(page.String(), "--per-test") {
		t.Error("the page asks for --per-test although the tests were run alone")
	}
}

// TestGoHTMLSaysWhatTextSays: the Go HTML report shows what the Go text
// report shows — the all row, statements and blocks, D0/D1/D2 after
// per-test runs, failing tests and crashing corpus entries — and only
// lines with labels are coloured (the gutter cell is not a colour).
func TestGoHTMLSaysWhatTextSays(t *testing.T) {
	r := goSampleWith(t, map[string][]int{"p TestA": {1}, "p TestB": {1, 3}})
	r.Failing = []string{"example.com/p TestBroken"}
	r.Corpus = &gotest.Corpus{Seeds: 2, Crashing: []string{"/m/testdata/fuzz/FuzzX/bad1"}}
	var text, page bytes.Buffer
	if err := GoText(&text, r); err != nil {
		t.Fatal(err)
	}
	src := map[string]string{"/m/a.go": "package p\n\nif x > 0 {\n", "/m/b.go": "package p\nif ok {\n"}
	if err := GoHTML(&page, r, func(p string) ([]byte, error) { return []byte(src[p]), nil }); err != nil {
		t.Fatal(err)
	}
	h := page.String()
	d := r.All.Diversity
	if d == nil {
		t.Fatal("no diversity after per-test runs")
	}
	for _, s := range []string{"example.com/p TestBroken", "/m/testdata/fuzz/FuzzX/bad1"} {
		if !strings.Contains(text.String(), s) || !strings.Contains(h, s) {
			t.Errorf("text and HTML must both show %q", s)
		}
	}
	for _, s := range []string{
		fmt.Sprintf(`<tr class="tot"><td class="k">all labels</td><td></td><td>%d</td><td>%d</td>`, r.All.Covered, r.All.Total),
		fmt.Sprintf("<td>%s</td><td>%s</td><td>%s</td></tr>", count(d.D0), num(d.D1), num(d.D2)),
		`<tr><td class="k">blocks</td><td>1</td><td>2</td><td class="k">` + bar(r.Coverage.Blocks.Percent) + "50.0%</td>",
		`<tr><td class="k">statements</td><td>3</td><td>4</td><td class="k">` + bar(r.Coverage.Statements.Percent) + "75.0%</td>",
		`<th title="richness: covered labels">D0</th>`,
		"Failing tests (1", "Crashing corpus entries (1",
		`<tr class="" id="f1L1"><td class="ln">1</td><td class="g"></td>`,
	} {
		if !strings.Contains(h, s) {
			t.Errorf("HTML lacks %q", s)
		}
	}
	if strings.Contains(goCSS, ".g{background") {
		t.Error("the gutter class g is also the colour green")
	}
}
