package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

func TestCoberturaGolden(t *testing.T) {
	golden(t, "thermostat.cobertura.xml", render(t, func(b *bytes.Buffer, r *measure.Report) error { return Cobertura(b, r) }, thermostat(t)))
}

// TestCoberturaConsistent: the XML parses, and its lines and condition
// counts are the report's.
func TestCoberturaConsistent(t *testing.T) {
	r := thermostatWith(t, "mcc,cc", "inside.args")
	var b bytes.Buffer
	if err := Cobertura(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc cobCoverage
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	lines := doc.Packages[0].Classes[0].Lines
	if len(lines) != len(r.Lines) || doc.LinesValid != len(r.Lines) {
		t.Fatalf("%d lines, report has %d", len(lines), len(r.Lines))
	}
	labels := 0
	for i, ln := range lines {
		if ln.Number != r.Lines[i].Line || ln.Hits != r.Lines[i].Hits {
			t.Errorf("line %d: %+v, report %+v", i, ln, r.Lines[i])
		}
	}
	for _, l := range r.Labels {
		if l.Covered {
			labels++
		}
	}
	if doc.BranchesValid != len(r.Labels) || doc.BranchesCovered != labels {
		t.Errorf("branches %d/%d, report's labels %d/%d", doc.BranchesCovered, doc.BranchesValid, labels, len(r.Labels))
	}
}

// TestCoberturaDiffCover reads the Cobertura XML with diff-cover (Debian's
// diff-cover, a consumer CI pipelines use): the changed lines it calls
// missing are exactly the plan's lines no test ran.
func TestCoberturaDiffCover(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(suite, "thermostat.plan"))
	if err != nil {
		t.Fatal(err)
	}
	r := thermostatWith(t, "mcc", "inside.args")
	var missing []int
	for _, ln := range r.Lines {
		if ln.Hits == 0 {
			missing = append(missing, ln.Line)
		}
	}
	got, total := diffCover(t, "thermostat.plan", src, func(dir string) ([]byte, error) {
		r.File = filepath.Join(dir, "thermostat.plan")
		var b bytes.Buffer
		err := Cobertura(&b, r)
		return b.Bytes(), err
	})
	if len(missing) == 0 || !reflect.DeepEqual(got, missing) || total != len(r.Lines) {
		t.Errorf("diff-cover: missing lines %v of %d, want %v of %d", got, total, missing, len(r.Lines))
	}
}

// TestGoCoberturaDiffCover: diff-cover reads a Go report's Cobertura XML
// (absolute file names under the source "/") and calls missing exactly
// the labelled lines where no label is covered.
func TestGoCoberturaDiffCover(t *testing.T) {
	src := []byte("package p\n\nfunc F(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\tif x < -5 {\n\t\treturn 2\n\t}\n\treturn 0\n}\n")
	crit, err := labels.ParseCriteria("cc")
	if err != nil {
		t.Fatal(err)
	}
	got, total := diffCover(t, "p.go", src, func(dir string) ([]byte, error) {
		at := func(line int) labels.Position {
			return labels.Position{File: filepath.Join(dir, "p.go"), Line: line, Col: 5}
		}
		res := &gotransform.Result{Criteria: crit, Packages: []*gotransform.Package{{Path: "example.com/p"}}, Labels: []*labels.Label{
			{ID: 1, Criterion: labels.CC, Operator: "true", Predicate: "x > 0", Status: labels.Active, Pos: at(4)},
			{ID: 2, Criterion: labels.CC, Operator: "false", Predicate: "!(x > 0)", Status: labels.Active, Pos: at(4)},
			{ID: 3, Criterion: labels.CC, Operator: "true", Predicate: "x < -5", Status: labels.Active, Pos: at(7)},
			{ID: 4, Criterion: labels.CC, Operator: "false", Predicate: "!(x < -5)", Status: labels.Active, Pos: at(7)},
		}}
		r := gotest.NewReport(res, &gotest.Measurement{Hits: map[int]int{1: 1}}, "")
		var b bytes.Buffer
		err := Cobertura(&b, r)
		return b.Bytes(), err
	})
	if !reflect.DeepEqual(got, []int{7}) || total != 2 {
		t.Errorf("diff-cover: missing lines %v of %d, want [7] of 2", got, total)
	}
}

// diffCover commits the source file name in a new git repository, writes
// the Cobertura XML that cobertura makes for the repository's directory,
// runs diff-cover on the commit and returns the lines of name it calls
// missing and the number of lines it measured.
func diffCover(t *testing.T, name string, src []byte, cobertura func(dir string) ([]byte, error)) (missing []int, total int) {
	t.Helper()
	tools := testenv.Formats(t, "diff-cover", "git")
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		c := exec.Command(tools[1], append([]string{"-c", "user.email=ci@example.com", "-c", "user.name=ci"}, args...)...)
		c.Dir = dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", ".")
	git("commit", "-q", "--allow-empty", "-m", "base")
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "source")
	xml, err := cobertura(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cov.xml"), xml, 0o644); err != nil {
		t.Fatal(err)
	}
	c := exec.Command(tools[0], "cov.xml", "--compare-branch=HEAD~1", "--json-report", "out.json")
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("diff-cover: %v\n%s", err, out)
	}
	data, err := os.ReadFile(filepath.Join(dir, "out.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		SrcStats map[string]struct {
			ViolationLines []int `json:"violation_lines"`
		} `json:"src_stats"`
		TotalNumLines int `json:"total_num_lines"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if _, ok := rep.SrcStats[name]; !ok {
		t.Fatalf("diff-cover did not measure %s:\n%s\n%s", name, data, xml)
	}
	return rep.SrcStats[name].ViolationLines, rep.TotalNumLines
}
