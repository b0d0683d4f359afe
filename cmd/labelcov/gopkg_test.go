package main

import (
	"bytes"
	"context"
	"encoding/json"
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

// runGoCmd runs the hidden `go` command in-process.
func runGoCmd(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	cmd := newGoCmd()
	var out, errb bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&errb)
	cmd.SetContext(context.Background())
	err := cmd.Execute()
	return out.String(), errb.String(), err
}

func TestGoAnnotateOverlayPassesTests(t *testing.T) {
	needGo(t)
	dir := sampleDir(t)
	out := t.TempDir()
	stdout, _, err := runGoCmd(t, "annotate", "./...", "-C", dir, "--out", out)
	if err != nil {
		t.Fatal(err)
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
	stdout, _, err := runGoCmd(t, "cover", "./...", "-C", sampleDir(t), "--criteria", "cc,wm:ror", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Criteria  map[string]struct{ Covered, Total int }
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
	for _, u := range rep.Uncovered {
		if !strings.Contains(u.Pos, "sample.go:") {
			t.Errorf("uncovered label without file:line:col: %+v", u)
		}
	}
	t.Logf("cc %d/%d, ror %d/%d, %d uncovered", cc.Covered, cc.Total, rep.Criteria["wm-ror"].Covered, rep.Criteria["wm-ror"].Total, len(rep.Uncovered))
}
