package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/gotest"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// goSample is a report of three CC labels of two files and one trivial
// ROR label, built without the go command.
func goSample(t *testing.T) *gotest.Report {
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
	m := &gotest.Measurement{Hits: map[int]int{1: 1, 3: 1}, Statements: 4, StatementsCovered: 3, Blocks: 2, BlocksCovered: 1}
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
	if !strings.Contains(page.String(), `<tr class="y"><td class="ln">3</td><td><span title="1 of the 2 labels on this line covered">1/2</span></td>`) || !strings.Contains(page.String(), "2 cc false: !(x &gt; 0)") {
		t.Errorf("HTML:\n%s", page.String())
	}
	// The file index links each file's section, least covered first, and
	// 0 of 0 reads n/a.
	for _, want := range []string{
		`<h2>Files (2)</h2>`,
		`<h2 id="f1">/m/a.go</h2>`, `<h2 id="f2">/m/b.go</h2>`,
		`wm-ror</td><td>0</td><td>0</td><td>n/a</td><td>1</td><td>0</td>`,
		// The margin and the columns explained, trivial and infeasible
		// shown, and the label table with the plan report's filters.
		`<b>covered/total</b> labels on that line`, `<th title="labels whose predicate always holds: not injected, not counted">trivial</th>`,
		`<select id="f-crit">`, `<select id="f-status">`, `<input id="f-text"`, `<table class="list labels" id="labels">`,
		`<tr class="uncovered" data-crit="cc">`,
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
