package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// TestGoCoverDist: `labelcov cover --criteria dist` on a Go package
// reports the dist ladders (per rung, in the table, JSON and LCOV), some
// covered by the package's tests and the near rungs not all.
func TestGoCoverDist(t *testing.T) {
	needGo(t)
	lcov := filepath.Join(t.TempDir(), "cover.lcov")
	stdout, _, err := runGoCmd(t, "cover", "./...", "-C", sampleDir(t), "--criteria", "dist", "--json", "--lcov", lcov)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Criteria map[string]struct{ Covered, Total int }
		Labels   []struct {
			Criterion, Operator string
			Covered             bool
		}
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	d := rep.Criteria["dist"]
	if d.Total == 0 || d.Covered == 0 || d.Covered == d.Total || len(rep.Criteria) != 1 {
		t.Fatalf("criteria %+v", rep.Criteria)
	}
	rungs := map[string][2]int{}
	for _, l := range rep.Labels {
		if l.Criterion != "dist" {
			t.Fatalf("label of %s", l.Criterion)
		}
		r := rungs[l.Operator]
		r[1]++
		if l.Covered {
			r[0]++
		}
		rungs[l.Operator] = r
	}
	// Every ladder ends in |a-b| < 1; those of 16 bits and more pass 2^16.
	far, near := rungs["|a-b| < 65536"], rungs["|a-b| < 1"]
	if len(rungs) < len(labels.DistRungs(labels.DistType{Bits: 64})) || far[1] == 0 || far[1] > near[1] || near[0] >= far[0] {
		t.Errorf("rungs (covered, total): %v", rungs)
	}
	b, err := os.ReadFile(lcov)
	if err != nil || strings.Count(string(b), "BRDA:") != d.Total {
		t.Errorf("LCOV: %v, %d branches for %d labels", err, strings.Count(string(b), "BRDA:"), d.Total)
	}
}
