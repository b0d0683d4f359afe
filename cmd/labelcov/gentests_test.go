package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGentests: from a weak suite of the temperature benchmark (one
// reproducer), gentests writes readable .args tests that raise the
// suite's label coverage, and each written test, measured on its own,
// covers a label the weak suite does not.
func TestGentests(t *testing.T) {
	plan := "../../testdata/bench/temperature/temperature.plan"
	weak := t.TempDir()
	src, err := os.ReadFile("../../testdata/bench/temperature/reproducers/heating-while-warm.args")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(weak, "heating-while-warm.args"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	gen := filepath.Join(t.TempDir(), "gen")
	code, stdout, errs := runCLI("gentests", plan, "--tests", weak, "--out", gen, "--runs", "20000", "--seed", "3")
	if code != exitOK {
		t.Fatalf("gentests: exit %d\n%s%s", code, stdout, errs)
	}
	type labelJSON struct {
		ID      int  `json:"id"`
		Covered bool `json:"covered"`
	}
	cover := func(tests ...string) (int, map[int]bool) {
		t.Helper()
		args := []string{"cover", plan, "--criteria", "all,mcdc", "--json"}
		for _, d := range tests {
			args = append(args, "--tests", d)
		}
		code, out, errs := runCLI(args...)
		if code != exitOK {
			t.Fatalf("cover %v: exit %d\n%s", tests, code, errs)
		}
		var r struct {
			All    struct{ Covered int } `json:"all"`
			Labels []labelJSON           `json:"labels"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		cov := map[int]bool{}
		for _, l := range r.Labels {
			if l.Covered {
				cov[l.ID] = true
			}
		}
		return r.All.Covered, cov
	}
	before, weakCov := cover(weak)
	after, _ := cover(weak, gen)
	files, _ := os.ReadDir(gen)
	if len(files) == 0 || after <= before {
		t.Fatalf("%d generated tests: labels %d -> %d\n%s", len(files), before, after, stdout)
	}
	for _, f := range files {
		if !strings.HasPrefix(f.Name(), "gen-") || !strings.HasSuffix(f.Name(), ".args") {
			t.Errorf("generated test %s: want gen-NN-....args", f.Name())
		}
		_, cov := cover(filepath.Join(gen, f.Name()))
		adds := 0
		for id := range cov {
			if !weakCov[id] {
				adds++
			}
		}
		if adds == 0 {
			t.Errorf("%s covers no label the weak suite misses", f.Name())
		}
	}
	// gentests ends with cover's resolution of the suite with the tests it
	// wrote: the same table cover prints for both folders.
	code, text, errs := runCLI("cover", plan, "--criteria", "all,mcdc", "--tests", weak, "--tests", gen)
	if code != exitOK {
		t.Fatalf("cover: exit %d\n%s", code, errs)
	}
	if want := resolutionBlock(text); want == "" || resolutionBlock(stdout) != want {
		t.Errorf("gentests' resolution:\n%s\nwant cover's:\n%s", resolutionBlock(stdout), want)
	}
	t.Logf("labels covered: weak suite %d, with %d generated tests %d", before, len(files), after)
}

// resolutionBlock is the resolution table of a text report: from its
// heading to the row of all criteria ("" when there is none).
func resolutionBlock(text string) string {
	i := strings.Index(text, "resolution of the active labels")
	if i < 0 {
		return ""
	}
	rest := text[i:]
	j := strings.Index(rest, "\n  all ")
	if j < 0 {
		return ""
	}
	k := strings.IndexByte(rest[j+1:], '\n')
	if k < 0 {
		return rest
	}
	return rest[:j+1+k]
}

// TestGentestsNothingKept: a campaign that keeps nothing (one run) writes
// no test, and gentests still ends with the suite's resolution (it used
// to fail reading back an empty folder).
func TestGentestsNothingKept(t *testing.T) {
	plan := filepath.Join("..", "..", "testdata", "bench", "temperature", "temperature.plan")
	repro := filepath.Join("..", "..", "testdata", "bench", "temperature", "reproducers")
	code, stdout, errs := runCLI("gentests", plan, "--tests", repro, "--out", filepath.Join(t.TempDir(), "gen"), "--runs", "1", "--seed", "1")
	if code != exitOK || !strings.Contains(stdout, "the suite with the 0 generated test(s)") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, errs)
	}
}
