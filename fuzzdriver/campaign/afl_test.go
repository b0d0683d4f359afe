package campaign

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/interp/sim"
)

// The AFL++ worker rebuilds the campaign's setup from worker.json: the
// same plan (checked by digest), world, criteria and limits, so it runs
// the program the campaign fuzzes; a plan edited since, or another
// version of the description, is refused.
func TestWorkerDescription(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "sort.plan")
	src, err := os.ReadFile("testdata/sort.plan")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plan, src, 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := sim.LoadWorld(warehouseWorld)
	if err != nil {
		t.Fatal(err)
	}
	s := Setup{Plan: readPlanFile(t, plan), World: w, Criteria: mustCriteria("mcc,wm"), MaxObjects: 5,
		MaxSteps: 12345, MCCMaxAtoms: 3, PureFuncs: []string{"helper"}, NoRetire: true}
	pf, err := s.Build()
	if err != nil {
		t.Fatal(err)
	}
	desc, err := pf.Worker(plan, warehouseWorld)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, WorkerFile)
	if err := afl.WriteJSONFile(path, desc); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, want := range []string{`"version": 1`, `"plan_sha256": "`, `"max_steps": 12345`, `"no_retire": true`, `"world": "/`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("worker.json lacks %s:\n%s", want, data)
		}
	}
	back, err := LoadWorker(path)
	if err != nil {
		t.Fatal(err)
	}
	if back.Criteria != s.Criteria || back.MaxSteps != s.MaxSteps || back.MaxObjects != s.MaxObjects ||
		back.MCCMaxAtoms != s.MCCMaxAtoms || back.NoRetire != s.NoRetire || back.World == nil ||
		len(back.PureFuncs) != 1 || !back.NoMeasure {
		t.Fatalf("setup read back %+v, want %+v without a yardstick", back, s)
	}
	wpf, err := back.Build()
	if err != nil {
		t.Fatal(err)
	}
	if wpf.Fuzzed.NumCounters() != pf.Fuzzed.NumCounters() || wpf.GuideLabels != pf.GuideLabels {
		t.Errorf("the worker fuzzes %d counters, %d labels; the campaign %d, %d",
			wpf.Fuzzed.NumCounters(), wpf.GuideLabels, pf.Fuzzed.NumCounters(), pf.GuideLabels)
	}

	if err := os.WriteFile(plan, append(src, ' '), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWorker(path); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("edited plan: %v", err)
	}
	desc.Version = 2
	if err := afl.WriteJSONFile(path, desc); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadWorker(path); err == nil || !strings.Contains(err.Error(), "version 2") {
		t.Errorf("version 2: %v", err)
	}
}
