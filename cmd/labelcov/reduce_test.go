package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReduce: a fuzzing campaign's corpus of the temperature benchmark
// (deterministic: one worker, a seed, a run budget) shrinks to a subset
// that cover measures exactly as the whole corpus — same labels (mcc, mcdc,
// wm), branches, instructions — and the corpus is left as it was.
func TestReduce(t *testing.T) {
	plan := "../../testdata/bench/temperature/temperature.plan"
	camp := t.TempDir()
	if code, _, errs := runCLI("fuzz", plan, "--workers", "1", "--seed", "3", "--runs", "20000", "--criteria", "mcc,wm", "--out", camp); code != exitFound {
		t.Fatalf("fuzz: exit %d\n%s", code, errs)
	}
	queue := filepath.Join(camp, "labelcov", "queue")
	before, _ := os.ReadDir(queue)
	out := filepath.Join(t.TempDir(), "reduced")
	code, stdout, errs := runCLI("reduce", plan, "--tests", queue, "--out", out)
	if code != exitOK {
		t.Fatalf("reduce: exit %d\n%s", code, errs)
	}
	kept, _ := os.ReadDir(out)
	if after, _ := os.ReadDir(queue); len(after) != len(before) {
		t.Fatalf("the corpus changed: %d files, was %d", len(after), len(before))
	}
	if len(kept) == 0 || len(kept) >= len(before) || !strings.Contains(stdout, " -> ") {
		t.Fatalf("kept %d of %d inputs:\n%s", len(kept), len(before), stdout)
	}
	measure := func(dir string) map[string]any {
		code, out, errs := runCLI("cover", plan, "--criteria", "mcc,wm,mcdc", "--tests", dir, "--json")
		if code != exitOK {
			t.Fatalf("cover %s: exit %d\n%s", dir, code, errs)
		}
		var r struct {
			Criteria map[string]struct{ Covered, Total int } `json:"criteria"`
			Coverage map[string]any                          `json:"coverage"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return map[string]any{"criteria": r.Criteria, "coverage": r.Coverage}
	}
	whole, sub := measure(queue), measure(out)
	wj, _ := json.Marshal(whole)
	sj, _ := json.Marshal(sub)
	if string(wj) != string(sj) {
		t.Errorf("coverage of the reduced corpus differs:\nwhole   %s\nreduced %s", wj, sj)
	}
	// A second reduce into the same folder is refused: it is not empty.
	if code, _, errs := runCLI("reduce", plan, "--tests", queue, "--out", out); code != exitUsage || !strings.Contains(errs, "not empty") {
		t.Errorf("reduce into a full folder: exit %d, %q", code, errs)
	}
}
