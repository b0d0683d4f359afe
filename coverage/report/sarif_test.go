package report

import (
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels/srcpos"
)

func TestSarifURI(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plan.plan", "plan.plan"},
		{"./testdata/bench/t.plan", "testdata/bench/t.plan"},
		{"../../testdata/t.plan", "../../testdata/t.plan"},
		{"/work/my plans/t.plan", "file:///work/my%20plans/t.plan"},
		{`C:\plans\t.plan`, "file:///C:/plans/t.plan"},
		{"a:b/t.plan", "./a:b/t.plan"},
		{"dir/100%.plan", "dir/100%25.plan"},
	} {
		if got := sarifURI(c.in); got != c.want {
			t.Errorf("sarifURI(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSarifToolVersion(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"v1.2.3 abcdef123456 go1.26.8", "1.2.3"},
		{"v0.0.0-20260101000000-abcdef123456 go1.26.8", "0.0.0-20260101000000-abcdef123456"},
		{"(devel) go1.26.8", "0.0.0-devel"},
		{"", "0.0.0-devel"},
	} {
		if got := sarifToolVersion(c.in); got != c.want {
			t.Errorf("sarifToolVersion(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestSarifColumn(t *testing.T) {
	src := []byte("(a)\n; \u00e9\U0001F600 x\n(b)")
	for _, c := range []struct{ line, col, want int }{
		{1, 2, 2},   // ASCII: bytes are code units
		{2, 3, 3},   // before the e-acute
		{2, 5, 4},   // after it (2 bytes, 1 unit)
		{2, 10, 7},  // x, after the emoji (4 bytes, 2 units) and a blank
		{3, 2, 2},   // the last line
		{4, 1, 1},   // no such line: unchanged
		{1, 99, 99}, // past the end: unchanged
	} {
		if got := SARIFColumn(src, c.line, c.col); got != c.want {
			t.Errorf("SARIFColumn(%d:%d) = %d, want %d", c.line, c.col, got, c.want)
		}
	}
}

// TestCampaignFindings: a failure at its position (column in UTF-16
// units), a check's category where the def-check returns it, anything
// else at line 1; sorted by category; replay commands from the input.
func TestCampaignFindings(t *testing.T) {
	src := "(def-plan main (x)\n  (list \"é\" (car x)))\n(def-check hot () (when t 'too-hot))\n"
	f, err := syntax.Parse("p.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	recs := []engine.FindingRecord{
		{Key: "k-fail", Category: "failure type-error", Pos: srcpos.Pos{File: "p.plan", Line: 2, Col: 14}, Detail: "car of 1", Input: "/c/id:000001"},
		{Key: "k-check", Category: "too-hot"},
		{Key: "k-other", Category: "timeout"},
	}
	fs := CampaignFindings(f, recs, func(in string) string { return "replay " + in })
	if len(fs) != 3 || fs[0].Key != "k-fail" || fs[1].Key != "k-other" || fs[2].Key != "k-check" {
		t.Fatalf("findings %+v", fs)
	}
	if p := fs[0].Pos; p.File != "p.plan" || p.Line != 2 || p.Col != 13 || fs[0].Replay != "replay /c/id:000001" || fs[0].Input != "/c/id:000001" {
		t.Errorf("failure at %+v, replay %q", p, fs[0].Replay)
	}
	if p := fs[1].Pos; p.File != "p.plan" || p.Line != 1 || fs[1].Replay != "" {
		t.Errorf("timeout at %+v, replay %q", p, fs[1].Replay)
	}
	if p := fs[2].Pos; p.Line != 3 || fs[2].Detail != "a def-check returned this category" {
		t.Errorf("check category at %+v, %q", p, fs[2].Detail)
	}
}
