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

	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/internal/testenv"
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
	src, err := os.ReadFile(filepath.Join(suite, "thermostat.plan"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "thermostat.plan"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", ".")
	git("commit", "-q", "-m", "plan")

	r := thermostatWith(t, "mcc", "inside.args")
	r.File = filepath.Join(dir, "thermostat.plan")
	var b bytes.Buffer
	if err := Cobertura(&b, r); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cov.xml"), b.Bytes(), 0o644); err != nil {
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
	var missing []int
	for _, ln := range r.Lines {
		if ln.Hits == 0 {
			missing = append(missing, ln.Line)
		}
	}
	got := rep.SrcStats["thermostat.plan"].ViolationLines
	if len(missing) == 0 || !reflect.DeepEqual(got, missing) || rep.TotalNumLines != len(r.Lines) {
		t.Errorf("diff-cover: missing lines %v of %d, want %v of %d\n%s", got, rep.TotalNumLines, missing, len(r.Lines), data)
	}
}
