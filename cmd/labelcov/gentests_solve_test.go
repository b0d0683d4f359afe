package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/internal/testenv"
)

// TestGentestsSolve: with --solve, gentests resolves every active label of
// a plan without a world as covered, infeasible or unresolved, writes the
// solved tests, and each written test covers the label it was solved for
// when cover measures it alone.
func TestGentestsSolve(t *testing.T) {
	testenv.SMT(t)
	plan := "../../testdata/bench/docking/docking.plan"
	gen := filepath.Join(t.TempDir(), "gen")
	code, stdout, errs := runCLI("gentests", plan, "--tests", "../../testdata/bench/docking/reproducers", "--out", gen,
		"--runs", "300", "--seed", "3", "--criteria", "all,mcdc", "--solve", "--json")
	if code != exitOK {
		t.Fatalf("gentests --solve: exit %d\n%s%s", code, stdout, errs)
	}
	var s subject.SolveSummary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(s.Tests) == 0 {
		t.Fatalf("no solved test: %s", stdout)
	}
	total := 0
	for _, c := range s.Criteria {
		total += c.Covered + c.Infeasible + c.Unresolved
	}
	if total != len(s.Labels) || total == 0 {
		t.Fatalf("criteria count %d labels, the list has %d", total, len(s.Labels))
	}
	solvedFor := map[string]int{}
	for _, l := range s.Labels {
		switch l.Status {
		case "covered":
			if strings.HasPrefix(l.Test, "gen-solved-") && strings.HasSuffix(l.Test, "_label-"+itoa(l.ID)+".args") {
				solvedFor[l.Test] = l.ID
			}
		case "infeasible", "unresolved":
			if l.Reason == "" {
				t.Errorf("label %d is %s without a reason", l.ID, l.Status)
			}
		default:
			t.Errorf("label %d has status %q", l.ID, l.Status)
		}
	}
	for _, name := range s.Tests {
		id, ok := solvedFor[name]
		if !ok {
			t.Errorf("%s: no label names it", name)
			continue
		}
		if _, err := os.Stat(filepath.Join(gen, name)); err != nil {
			t.Fatal(err)
		}
		code, out, errs := runCLI("cover", plan, "--criteria", "all,mcdc", "--json", "--tests", filepath.Join(gen, name))
		if code != exitOK {
			t.Fatalf("cover %s: exit %d\n%s", name, code, errs)
		}
		var r struct {
			Labels []struct {
				ID      int  `json:"id"`
				Covered bool `json:"covered"`
			} `json:"labels"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		covered := false
		for _, l := range r.Labels {
			covered = covered || l.ID == id && l.Covered
		}
		if !covered {
			t.Errorf("%s does not cover label %d", name, id)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// --solve on a plan with a world runs the environment search instead of
// z3 (the solver models arguments, not the environment's query results):
// with --runs it runs as many environments as the campaign; every active
// label ends covered, or unresolved saying what the search tried, never
// infeasible by it, and what it writes is a scenario.
func TestGentestsSolveWorld(t *testing.T) {
	code, stdout, errs := runCLI("gentests", "../../testdata/bench/fetch-deliver/fetch-deliver.plan", "--tests", "../../testdata/bench/fetch-deliver/reproducers",
		"--out", filepath.Join(t.TempDir(), "gen"), "--runs", "10", "--solve", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var s subject.SolveSummary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	covered, unresolved := 0, 0
	for _, l := range s.Labels {
		switch {
		case l.Status == measure.StatusCovered && l.Test != "":
			covered++
		case l.Status == measure.StatusUnresolved && strings.Contains(l.Reason, "by the environment search: 10 environment(s) run"):
			unresolved++
		default:
			t.Errorf("label %d: %+v", l.ID, l)
		}
	}
	if covered == 0 || unresolved == 0 {
		t.Errorf("%d covered, %d unresolved", covered, unresolved)
	}
	for _, n := range s.Tests {
		if !strings.HasSuffix(n, ".env") {
			t.Errorf("solved test %s: want a scenario (.env)", n)
		}
	}
}
