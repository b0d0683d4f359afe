package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}

func sampleDir(t *testing.T) string {
	d, err := filepath.Abs("../../testdata/go/sample")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// runGoCmd runs `labelcov annotate|cover PACKAGES...` in-process.
func runGoCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetArgs(args)
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetContext(context.Background())
	err := root.Execute()
	return out.String(), errb.String(), err
}

func TestGoAnnotateOverlayPassesTests(t *testing.T) {
	needGo(t)
	dir := sampleDir(t)
	out := t.TempDir()
	cp := filepath.Join(t.TempDir(), "copy")
	stdout, _, err := runGoCmd(t, "annotate", "./...", "-C", dir, "--out", out, "--copy", cp)
	if err != nil {
		t.Fatal(err)
	}
	// The copy holds the annotated file and passes its tests with -cover.
	if b, err := os.ReadFile(filepath.Join(cp, "sample.go")); err != nil || !bytes.Contains(b, []byte("// label 1 ")) {
		t.Fatalf("copy: %v", err)
	}
	cov := exec.Command("go", "test", "-count=1", "-cover", "./...")
	cov.Dir = cp
	if b, err := cov.CombinedOutput(); err != nil {
		t.Fatalf("go test -cover in the copy: %v\n%s", err, b)
	}
	if !strings.Contains(stdout, "active labels") || !strings.Contains(stdout, "go test -overlay") {
		t.Fatalf("summary:\n%s", stdout)
	}
	orig, _ := os.ReadFile(filepath.Join(dir, "sample.go"))
	ann, err := os.ReadFile(filepath.Join(out, "example.com", "sample", "sample.go"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(orig, ann) || !bytes.Contains(ann, []byte("// label 1 ")) {
		t.Fatal("annotated file has no labels")
	}
	if !bytes.Contains(ann, []byte("// comments survive annotation")) {
		t.Error("a comment of the original was lost")
	}
	if _, err := os.Stat(filepath.Join(out, "labels.json")); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-count=1", "-overlay", filepath.Join(out, "overlay.json"), "./...")
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tests on the overlay: %v\n%s", err, b)
	}
}

func TestGoCoverJSON(t *testing.T) {
	needGo(t)
	page := filepath.Join(t.TempDir(), "cover.html")
	lcov := filepath.Join(t.TempDir(), "cover.lcov")
	stdout, _, err := runGoCmd(t, "cover", "./...", "-C", sampleDir(t), "--criteria", "cc,wm:ror,mcdc", "--json", "--html", page, "--lcov", lcov, "--per-test")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Covered, Total int
		Diversity      *struct{ D0, D1, D2 float64 }
	}
	var rep struct {
		Criteria map[string]row
		All      row
		MCDC     struct {
			Covered, Total int
			Vectors        struct{ Covered, Total int }
		}
		Tests     map[string][]int `json:"per_test"`
		Coverage  struct{ Statements struct{ Covered, Total int } }
		Uncovered []struct {
			Pos       string
			Predicate string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	cc := rep.Criteria["cc"]
	if cc.Total == 0 || cc.Covered == 0 || cc.Covered > cc.Total {
		t.Fatalf("cc coverage %+v", cc)
	}
	if rep.Criteria["wm-ror"].Total == 0 || rep.Coverage.Statements.Total == 0 {
		t.Fatalf("report %+v", rep)
	}
	if d := cc.Diversity; d == nil || d.D0 != float64(cc.Covered) || d.D1 <= 1 || d.D2 > d.D1 {
		t.Errorf("cc diversity %+v for %d covered labels", d, cc.Covered)
	}
	// One figure per criterion: MC/DC in conditions in its row, its
	// section and its Hill numbers; vectors apart; all the sum of the
	// rows; no D0 above its total.
	var sum row
	for k, r := range rep.Criteria {
		if r.Diversity == nil || r.Diversity.D0 != float64(r.Covered) || r.Covered > r.Total {
			t.Errorf("%s: %d/%d with diversity %+v", k, r.Covered, r.Total, r.Diversity)
		}
		sum.Covered += r.Covered
		sum.Total += r.Total
	}
	if mc := rep.Criteria["mcdc"]; mc.Covered != rep.MCDC.Covered || mc.Total != rep.MCDC.Total || mc.Total == 0 ||
		rep.MCDC.Vectors.Total == mc.Total {
		t.Errorf("mcdc row %d/%d, section %+v", mc.Covered, mc.Total, rep.MCDC)
	}
	if rep.All.Covered != sum.Covered || rep.All.Total != sum.Total || rep.All.Diversity == nil || rep.All.Diversity.D0 != float64(sum.Covered) {
		t.Errorf("all %+v, the rows sum to %d/%d", rep.All, sum.Covered, sum.Total)
	}
	if ids := rep.Tests["example.com/sample TestClassify"]; len(ids) == 0 {
		t.Errorf("per-test label sets: %v", rep.Tests)
	}
	for _, u := range rep.Uncovered {
		if !strings.Contains(u.Pos, "sample.go:") {
			t.Errorf("uncovered label without file:line:col: %+v", u)
		}
	}
	h, err := os.ReadFile(page)
	mcdcHead := fmt.Sprintf("MC/DC: %d/%d conditions", rep.MCDC.Covered, rep.MCDC.Total)
	if err != nil || !bytes.Contains(h, []byte(`<td class="ln">25</td>`)) || !bytes.Contains(h, []byte("class=\"miss\"")) ||
		!bytes.Contains(h, []byte("example.com/sample TestClassify")) || !bytes.Contains(h, []byte(mcdcHead)) {
		t.Errorf("HTML report: %v\n%.400s", err, h)
	}
	l, err := os.ReadFile(lcov)
	if err != nil || !bytes.Contains(l, []byte("SF:")) || !bytes.Contains(l, []byte("BRDA:25,1,")) {
		t.Errorf("LCOV: %v\n%.400s", err, l)
	}
	t.Logf("cc %d/%d, ror %d/%d, %d uncovered", cc.Covered, cc.Total, rep.Criteria["wm-ror"].Covered, rep.Criteria["wm-ror"].Total, len(rep.Uncovered))
}

// TestGoCoverFuzzCorpus measures what a fuzz target's corpus covers: a
// seed file in testdata/fuzz plus the f.Add seed, and an entry of the
// generated corpus in a private --fuzz-cache (never the user's GOCACHE);
// --per-test runs each entry alone and names the entry that covers each
// label, in JSON and in the HTML page.
func TestGoCoverFuzzCorpus(t *testing.T) {
	needGo(t)
	dir := fuzzexpWithEntry(t, "hot", "go test fuzz v1\nint32(510)\nint32(50)\nint32(10)\n")
	cache := t.TempDir()
	gen := filepath.Join(cache, "example.com", "fuzzexp", "FuzzAlarm")
	if err := os.MkdirAll(gen, 0o755); err != nil {
		t.Fatal(err)
	}
	humid := "go test fuzz v1\nint32(200)\nint32(90)\nint32(10)\n"
	if err := os.WriteFile(filepath.Join(gen, "0123abcd"), []byte(humid), 0o644); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "cover.html")
	stdout, _, err := runGoCmd(t, "cover", ".", "-C", dir, "--criteria", "mcc", "--fuzz", "FuzzAlarm", "--fuzz-cache", cache, "--json", "--per-test", "--html", page)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Corpus   struct{ Seeds, Cached int }
		Criteria map[string]struct{ Covered, Total int }
		Tests    map[string][]int `json:"per_test"`
		Labels   []struct {
			ID       int
			Operator string
			Pos      string
			Covered  bool
			Tests    []string
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Corpus.Seeds != 2 || rep.Corpus.Cached != 1 {
		t.Errorf("corpus %+v, want 2 seeds (f.Add and a file) and 1 generated entry", rep.Corpus)
	}
	covered := map[string]bool{}
	by := map[string][]string{}
	for _, l := range rep.Labels {
		if strings.Contains(l.Pos, "alarm.go:30:") && l.Covered {
			covered[l.Operator] = true
			by[l.Operator] = l.Tests
		}
	}
	// f.Add covers no range (FFF), the seed file the hot one (TFF), the
	// generated entry the humid one (FTF); the crash needs TTT.
	if !covered["FFF"] || !covered["TFF"] || !covered["FTF"] || len(covered) != 3 {
		t.Errorf("MCC outcomes of hot || humid || dusty covered: %v", covered)
	}
	// Each entry alone, named as go test names its subtest.
	const pkg = "example.com/fuzzexp FuzzAlarm/"
	for op, entry := range map[string]string{"FFF": "seed#0", "TFF": "hot", "FTF": "cache-0123abcd"} {
		if got := by[op]; len(got) != 1 || got[0] != pkg+entry {
			t.Errorf("%s covered by %v, want the entry %s alone", op, got, pkg+entry)
		}
	}
	if len(rep.Tests) != 3 {
		t.Errorf("per-entry label sets: %v, want the 3 entries", rep.Tests)
	}
	h, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(h, []byte("covered by 1 test (1 trace): "+pkg+"hot")) || !bytes.Contains(h, []byte(`3t</b>`)) {
		t.Errorf("HTML report does not name the entries covering line 30:\n%s", h)
	}
}

// TestGoCoverFuzzInPackageDir: cover --fuzz runs the target in its
// package directory (it reads testdata/words.txt), counts f.Add seeds,
// measures every package given, and with a crashing corpus entry still
// reports coverage, lists the entry and fails.
func TestGoCoverFuzzInPackageDir(t *testing.T) {
	needGo(t)
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod": "module example.com/w\n\ngo 1.22\n",
		"w.go": `package w

import "example.com/w/util"

// Classify says how a number relates to a list of words.
func Classify(n int, words []string) string {
	if n > 0 && n < len(words) {
		return words[n]
	}
	if n == 13 {
		panic("unlucky")
	}
	return util.Sign(n)
}
`,
		"util/util.go": `package util

// Sign names the sign of n.
func Sign(n int) string {
	if n < 0 {
		return "negative"
	}
	return "other"
}
`,
		"w_test.go": `package w

import (
	"os"
	"strings"
	"testing"
)

func FuzzClassify(f *testing.F) {
	b, err := os.ReadFile("testdata/words.txt")
	if err != nil {
		f.Fatal(err)
	}
	words := strings.Fields(string(b))
	f.Add(1)
	f.Add(-7)
	f.Fuzz(func(t *testing.T, n int) { Classify(n, words) })
}
`,
		"testdata/words.txt":           "zero one two three\n",
		"testdata/fuzz/FuzzClassify/c": "go test fuzz v1\nint(13)\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, err := runGoCmd(t, "cover", "./...", "-C", dir, "--criteria", "cc", "--fuzz", "FuzzClassify", "--fuzz-cache", t.TempDir(), "--json")
	if err == nil || !strings.Contains(err.Error(), "fails on 1 corpus entry") {
		t.Errorf("a crashing corpus entry: err = %v", err)
	}
	var rep struct {
		Corpus struct {
			Seeds, Cached int
			Crashing      []string
		}
		Criteria map[string]struct{ Covered, Total int }
		Labels   []struct {
			Pos     string
			Covered bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Corpus.Seeds != 3 || len(rep.Corpus.Crashing) != 1 || !strings.HasSuffix(rep.Corpus.Crashing[0], filepath.Join("testdata", "fuzz", "FuzzClassify", "c")) {
		t.Errorf("corpus %+v: want 3 seeds (2 f.Add, 1 file), the file crashing", rep.Corpus)
	}
	util := false
	for _, l := range rep.Labels {
		if strings.Contains(l.Pos, "util.go:") && l.Covered {
			util = true
		}
	}
	if cc := rep.Criteria["cc"]; cc.Covered == 0 || !util {
		t.Errorf("cc %+v; a label of package util covered: %v", cc, util)
	}
}

func TestGoAnnotateNeedsOut(t *testing.T) {
	if _, _, err := runGoCmd(t, "annotate", "./..."); err == nil || !strings.Contains(err.Error(), "--out") {
		t.Fatalf("err = %v", err)
	}
	if _, _, err := runGoCmd(t, "annotate", "./...", "--out", t.TempDir(), "--criteria", "bogus"); err == nil {
		t.Fatal("bad criteria accepted")
	}
}

// TestGoCoverFailingTests: after go test -fuzz saved a crasher in
// testdata/fuzz (docs/go.md's experiment), cover still reports what the
// other tests cover, lists the failing test and exits 1, as go test does.
func TestGoCoverFailingTests(t *testing.T) {
	needGo(t)
	// The crasher a documented run found: hot, humid and dusty at once.
	dir := fuzzexpWithEntry(t, "ef4464a76c527783", "go test fuzz v1\nrune('Ƕ')\nrune('W')\nrune('ċ')\n")
	stdout, _, err := runGoCmd(t, "cover", "./...", "-C", dir, "--criteria", "mcc", "--json")
	if err == nil || exitCodeOf(err) != exitFound || !strings.Contains(err.Error(), "FuzzAlarm") {
		t.Fatalf("err %v, want a finding naming FuzzAlarm", err)
	}
	var rep struct {
		Version  int
		Failing  []string
		Coverage struct{ Statements struct{ Covered, Total int } }
		Criteria map[string]struct{ Covered, Total int }
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if rep.Version != 2 || len(rep.Failing) != 1 || rep.Failing[0] != "FuzzAlarm" {
		t.Errorf("version %d, failing %v, want [FuzzAlarm]", rep.Version, rep.Failing)
	}
	// TestAlarm still ran: statements and labels are covered.
	if rep.Coverage.Statements.Covered == 0 || rep.Criteria["mcc"].Covered == 0 {
		t.Errorf("statements %+v, mcc %+v: the passing test was not measured", rep.Coverage.Statements, rep.Criteria["mcc"])
	}
}

// fuzzexpWithEntry copies testdata/go/fuzzexp into a temporary directory
// and returns it, with one entry of FuzzAlarm's corpus (name, contents) in
// its testdata/fuzz. Exactly the module's files: not what a documented go
// test -fuzz run saved in the repository's testdata/fuzz.
func fuzzexpWithEntry(t *testing.T, name, contents string) string {
	t.Helper()
	src, err := filepath.Abs("../../testdata/go/fuzzexp")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range []string{"go.mod", "alarm.go", "alarm_test.go"} {
		copyFile(t, filepath.Join(src, f), dir)
	}
	corpus := filepath.Join(dir, "testdata", "fuzz", "FuzzAlarm")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, name), []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestGoPathsFromRepositoryRoot: a package directory named by its path
// from the repository root, with or without ./, is the package in its own
// module, for annotate as for reduce and gentests; a package go cannot
// find gets a message that suggests -C.
func TestGoPathsFromRepositoryRoot(t *testing.T) {
	needGo(t)
	t.Chdir("../..")
	for _, p := range []string{"./testdata/go/sample", "testdata/go/fuzzexp"} {
		stdout, _, err := runGoCmd(t, "annotate", p, "--criteria", "cc", "-o", t.TempDir())
		if err != nil || !strings.Contains(stdout, "overlay:") {
			t.Errorf("annotate %s from the repository root: %v\n%s", p, err, stdout)
		}
	}
	_, _, err := runGoCmd(t, "annotate", "example.com/no/such/pkg", "-o", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "give -C DIR") {
		t.Errorf("a package go cannot find: %v", err)
	}
}
