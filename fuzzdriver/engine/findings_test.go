package engine

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels/srcpos"
)

func TestReadFindings(t *testing.T) {
	out := t.TempDir()
	v := strconv.Itoa(StatsVersion)
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(out, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("b/findings.json", `{"version": `+v+`, "findings": [{"key": "k2", "category": "alarm", "input": "crashes/id:000001"},
		{"key": "fail@p.plan:3:7", "category": "fail", "pos": {"file": "p.plan", "line": 3, "col": 7, "offset": 30}}]}`)
	write("a/findings.json", `{"version": `+v+`, "findings": [{"key": "k1", "category": "timeout", "input": ""}]}`)
	write("a/stats.json", `{}`)

	// The sync directory: every instance, in path order, inputs resolved.
	recs, err := ReadFindings(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[0].Key != "k1" || recs[1].Key != "k2" || recs[2].Key != "fail@p.plan:3:7" {
		t.Fatalf("records %+v", recs)
	}
	// Positions are read as written, typed.
	if recs[1].Pos.IsValid() || recs[2].Pos != (srcpos.Pos{File: "p.plan", Line: 3, Col: 7, Offset: 30}) {
		t.Errorf("positions %+v, %+v", recs[1].Pos, recs[2].Pos)
	}
	if recs[0].Input != "" || recs[1].Input != filepath.Join(out, "b", "crashes", "id:000001") {
		t.Errorf("inputs %q, %q", recs[0].Input, recs[1].Input)
	}
	// One instance directory.
	if recs, err := ReadFindings(filepath.Join(out, "b")); err != nil || len(recs) != 2 || recs[0].Key != "k2" {
		t.Errorf("instance b: %+v, %v", recs, err)
	}
	// Another version, no findings.json, bad JSON: errors naming the file.
	write("c/findings.json", `{"version": 99, "findings": []}`)
	if _, err := ReadFindings(filepath.Join(out, "c")); err == nil || !strings.Contains(err.Error(), "version 99") {
		t.Errorf("version 99: %v", err)
	}
	// Version 1 wrote positions as text: a clear error, also on resuming.
	write("e/findings.json", `{"version": 1, "findings": [{"key": "fail@p.plan:3:7", "category": "fail", "pos": "p.plan:3:7"}]}`)
	if _, err := ReadFindings(filepath.Join(out, "e")); err == nil || !strings.Contains(err.Error(), "older labelcov") || !strings.Contains(err.Error(), "new directory") {
		t.Errorf("version 1: %v", err)
	}
	e := &engine{store: &store{dir: filepath.Join(out, "e")}}
	if err := e.loadState(); err == nil || !strings.Contains(err.Error(), "older labelcov") {
		t.Errorf("resuming version 1: %v", err)
	}
	if _, err := ReadFindings(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no findings.json") {
		t.Errorf("empty dir: %v", err)
	}
	write("d/findings.json", `{"version": `+v+`, "findings": [`)
	if _, err := ReadFindings(filepath.Join(out, "d")); err == nil || !strings.Contains(err.Error(), filepath.Join("d", "findings.json")) {
		t.Errorf("bad JSON: %v", err)
	}
}
