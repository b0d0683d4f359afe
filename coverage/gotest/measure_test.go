package gotest

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

func needGo(t testing.TB) { t.Helper(); testenv.NeedGo(t) }

// goTest runs go test in dir with args and fails t when the tests fail.
func goTest(t testing.TB, dir string, args ...string) string {
	t.Helper()
	return testenv.GoTest(t, dir, args...)
}

// runGoTest runs go test -count=1 in dir with args.
func runGoTest(dir string, args ...string) (string, error) { return testenv.RunGoTest(dir, args...) }

// annotate annotates the packages of the module in dir with criteria.
func annotate(t testing.TB, dir, criteria string) *gotransform.Result {
	t.Helper()
	c, err := labels.ParseCriteria(criteria)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gotransform.Annotate(context.Background(), []string{"./..."}, gotransform.Options{Criteria: c, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func sampleDir(t testing.TB) string {
	d, err := filepath.Abs("../../testdata/go/sample")
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestCoverProfileGivesLabelsBlocks: go test -cover gives each empty body
// its own (0-statement) block, so Measure sees which labels were covered.
func TestMeasureSample(t *testing.T) {
	needGo(t)
	dir := sampleDir(t)
	res := annotate(t, dir, "cc")
	work := t.TempDir()
	m, err := Measure(context.Background(), res, Options{Dir: dir, Work: filepath.Join(work, "m")})
	if err != nil {
		t.Fatal(err)
	}
	cov, err := labels.Figures(res.Labels, res.Decisions, m.Hits)
	if err != nil {
		t.Fatal(err)
	}
	if cov["cc"].Total != res.Active() || cov["cc"].Covered == 0 || cov["cc"].Covered == cov["cc"].Total {
		t.Fatalf("cc coverage %+v of %d", cov["cc"], res.Active())
	}
	// Classify's `t < lo` is covered both ways by the tests.
	for _, l := range res.Labels {
		if l.Pos.Line == 25 && m.Hits[l.ID] == 0 {
			t.Errorf("label %d %s %s at line 25 not covered", l.ID, l.Criterion, l.Operator)
		}
	}
	if m.Statements == 0 || m.StatementsCovered != m.Statements {
		t.Errorf("statements %d/%d, want all", m.StatementsCovered, m.Statements)
	}
}

func TestEntryPattern(t *testing.T) {
	for entry, want := range map[string]string{
		"abc":    `^FuzzX$/^abc$`,
		"a b\tc": `^FuzzX$/^a(?s:.)b(?s:.)c$`,
		"x\x01":  `^FuzzX$/^x(?s:.)$`,
		"seed#0": `^FuzzX$/^seed#0$`,
		"a.b+c":  `^FuzzX$/^a\.b\+c$`,
	} {
		if got := EntryPattern("FuzzX", entry); got != want {
			t.Errorf("EntryPattern(%q) = %q, want %q", entry, got, want)
		}
	}
}
