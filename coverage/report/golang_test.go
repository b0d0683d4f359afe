package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/interp/syntax"
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
	if err := LCOV(&lcov, r); err != nil {
		t.Fatal(err)
	}
	want := "TN:labelcov\nSF:/m/a.go\nBRDA:3,1,1,1\nBRDA:3,1,2,0\nBRF:2\nBRH:1\nend_of_record\n" +
		"TN:labelcov\nSF:/m/b.go\nBRDA:2,1,3,1\nBRF:1\nBRH:1\nend_of_record\n"
	if lcov.String() != want {
		t.Errorf("LCOV:\n%s\nwant:\n%s", lcov.String(), want)
	}

	var text bytes.Buffer
	if err := Text(&text, r); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"example.com/p: tests\n", "statements    3/4 (75.0%)", "  /m/a.go:3:5   2  cc         false     uncovered  -           !(x > 0)\n"} {
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
	if err := HTML(&page, r, read); err != nil {
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
		`<tr class="uncovered" data-crit="cc"><td class="m" data-s="/m/a.go 00000003.000005" title="/m/a.go:3:5"><a href="#f1L3">/m/a.go:3:5</a></td>`,
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
	if err := HTML(&page, r, read); err == nil {
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
	if err := HTML(&page, r, func(path string) ([]byte, error) { return []byte(src[path]), nil }); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		// a.go line 3: label 1 covered by two tests, label 2 by none.
		`<td class="g"><b class="c" title="#1 cc true: x &gt; 0&#10;    covered by 2 tests (2 traces): example.com/p TestA, example.com/p TestB">✓1</b>` +
			`<b class="u" title="#2 cc false: !(x &gt; 0)&#10;    NOT covered">✗1</b>` +
			`<b class="t" title="the labels of this line are covered by 2 tests:&#10;example.com/p TestA&#10;example.com/p TestB">2t</b></td>`,
		// b.go line 2: label 3 covered by TestB alone.
		`<b class="c" title="#3 cc true: ok&#10;    covered by 1 test (1 trace): example.com/p TestB">✓1</b><b class="t" title="the labels of this line are covered by 1 test:&#10;example.com/p TestB">1t</b>`,
		// The label table: the number of covering tests, named on hover.
		`<td class="st">covered</td><td title="example.com/p TestA, example.com/p TestB">2</td></tr>`,
		`<td class="st" title="no test covers it and the static analysis does not rule it out">uncovered</td><td title="">0</td></tr>`,
	} {
		if !strings.Contains(page.String(), want) {
			t.Errorf("HTML lacks %s", want)
		}
	}
	if strings.Contains(page.String(), "--per-test") {
		t.Error("the page asks for --per-test although the tests were run alone")
	}
}

// TestGoHTMLColoursLabelledLines: in a Go page only lines with labels
// are coloured (the gutter cell's class is not a colour); what the text
// says, the page says too (TestEveryFormatSaysWhatTextSays).
func TestGoHTMLColoursLabelledLines(t *testing.T) {
	r := goSampleWith(t, map[string][]int{"p TestA": {1}, "p TestB": {1, 3}})
	src := map[string]string{"/m/a.go": "package p\n\nif x > 0 {\n", "/m/b.go": "package p\nif ok {\n"}
	var page bytes.Buffer
	if err := HTML(&page, r, func(p string) ([]byte, error) { return []byte(src[p]), nil }); err != nil {
		t.Fatal(err)
	}
	if s := `<tr class="" id="f1L1"><td class="ln">1</td><td class="g"></td>`; !strings.Contains(page.String(), s) {
		t.Errorf("HTML lacks %q", s)
	}
	if strings.Contains(css, ".g{background") {
		t.Error("the gutter class g is also the colour green")
	}
}

// TestEveryFormatSaysWhatTextSays: for every front end (a plan's report
// and a Go report with per-test runs, a failing test and a crashing corpus
// entry), whatever the text report says the HTML page and the JSON say
// too: each row with its figure (all included), each code measure, the
// Hill numbers, failing tests, crashing corpus entries and every
// uncovered label's position.
func TestEveryFormatSaysWhatTextSays(t *testing.T) {
	goRep := goSampleWith(t, map[string][]int{"p TestA": {1}, "p TestB": {1, 3}})
	goRep.Failing = []string{"example.com/p TestBroken"}
	goRep.Corpus = &measure.Corpus{Seeds: 2, Crashing: []string{"/m/testdata/fuzz/FuzzX/bad1"}}
	src := map[string]string{"/m/a.go": "package p\n\nif x > 0 {\n", "/m/b.go": "package p\nif ok {\n"}
	read := func(p string) ([]byte, error) { return []byte(src[p]), nil }
	for name, r := range map[string]*measure.Report{"plan": thermostat(t), "go": goRep, "sbcl": sbclSample(t)} {
		var text, page, js bytes.Buffer
		if err := Text(&text, r); err != nil {
			t.Fatal(err)
		}
		if err := HTML(&page, r, read); err != nil {
			t.Fatal(err)
		}
		if err := JSON(&js, r); err != nil {
			t.Fatal(err)
		}
		tx, h, j := text.String(), page.String(), js.String()
		says := func(what, inText, inHTML, inJSON string) {
			t.Helper()
			if !strings.Contains(tx, inText) {
				t.Errorf("%s: the text does not say %s (%q)", name, what, inText)
				return
			}
			if !strings.Contains(h, inHTML) {
				t.Errorf("%s: the text says %s, the HTML does not (%q)", name, what, inHTML)
			}
			if !strings.Contains(j, inJSON) {
				t.Errorf("%s: the text says %s, the JSON does not (%q)", name, what, inJSON)
			}
		}
		var parsed struct {
			Criteria map[string]struct{ Covered, Total int }
		}
		if err := json.Unmarshal(js.Bytes(), &parsed); err != nil {
			t.Fatal(err)
		}
		row := func(label string, k *measure.KeyReport) {
			says("row "+label, fmt.Sprintf("%s %d %d", label, k.Covered, k.Total),
				fmt.Sprintf(`<td class="k">%s</td><td></td><td>%d</td><td>%d</td>`, label, k.Covered, k.Total), `"criteria": {`)
			if got := parsed.Criteria[label]; got.Covered != k.Covered || got.Total != k.Total {
				t.Errorf("%s: the text says %s %d/%d, the JSON %d/%d", name, label, k.Covered, k.Total, got.Covered, got.Total)
			}
		}
		squeeze := regexp.MustCompile(` +`)
		tx = squeeze.ReplaceAllString(tx, " ")
		for _, k := range r.Selected {
			row(string(k), r.Criteria[k])
		}
		if len(r.Selected) > 1 {
			says("row all", fmt.Sprintf("all %d %d", r.All.Covered, r.All.Total),
				fmt.Sprintf(`<td class="k">all labels</td><td></td><td>%d</td><td>%d</td>`, r.All.Covered, r.All.Total), `"all": {`)
		}
		for _, c := range r.Coverage.Measures() {
			says("code measure "+c.Name, fmt.Sprintf("%s %d/%d", c.Name, c.Covered, c.Total),
				fmt.Sprintf("</td><td>%d</td><td>%d</td>", c.Covered, c.Total), fmt.Sprintf("%q: {", c.Name))
		}
		if len(r.Coverage.Measures()) == 0 {
			says("that code coverage is not measured", "code coverage: not measured", "Code coverage: not measured", `"coverage": {}`)
		}
		if d := r.All.Diversity; d != nil {
			says("Hill numbers", " D0 D1 D2", `<th title="richness: covered labels">D0</th>`, `"d0": `)
		}
		for _, f := range r.Failing {
			says("failing test "+f, f, f, fmt.Sprintf("%q", f))
		}
		if r.Corpus != nil {
			for _, c := range r.Corpus.Crashing {
				says("crashing entry "+c, c, c, fmt.Sprintf("%q", c))
			}
		}
		for _, l := range r.Uncovered {
			says("uncovered label "+l.Pos, l.Pos, esc(l.Pos), fmt.Sprintf("%q", l.Pos))
		}
	}
}

// sbclSample is the report of label coverage recorded outside the VM
// (as SBCL's sb-cover records it): the thermostat plan's manifest, with
// the labels the example suite covers recorded as one run.
func sbclSample(t *testing.T) *measure.Report {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(suite, "thermostat.plan"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("thermostat.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("all,mcdc")
	m, err := measure.New(f, measure.Options{Labels: labels.Options{Criteria: c}})
	if err != nil {
		t.Fatal(err)
	}
	covered, reached := map[int]bool{}, map[int]bool{}
	for _, l := range thermostatWith(t, "all,mcdc").Labels {
		covered[l.ID], reached[l.ID] = l.Covered, l.WasReached()
	}
	r, err := measure.FromLabels(m.Annotated().Transform.Manifest(""), f, "coverage.sexp", covered, reached)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Coverage.Measures()) != 0 || r.FrontEnd != measure.FrontSBCL {
		t.Fatalf("recorded coverage: %s front end, code coverage %v (none is measured)", r.FrontEnd, r.Coverage.Measures())
	}
	return r
}
