package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// A tiny real Go grid: the easy control of testdata/gobench, plain against
// dist, 2 runs each (a campaign ends at its first failure, so the budget is
// a ceiling), then the same command again finishes nothing new, and a
// shard pair of the same grid merges into a report with every run. It
// builds with the default build cache; every fuzz corpus is private to
// its campaign folder.
func TestCompareGoEndToEnd(t *testing.T) {
	testenv.Long(t) // minutes under load: .ci/run runs it
	if testing.Short() {
		t.Skip("builds test binaries and runs go test -fuzz")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	out := filepath.Join(t.TempDir(), "cmp")
	grid := []string{"compare", "--go", "../../testdata/gobench/...", "--bench", "easy.FuzzFields", "--criteria", "none,dist",
		"--runs", "2", "--budget", "1m", "--workers", "1", "--seed", "5", "--fuzzminimizetime", "0s"}
	var stdout, stderr bytes.Buffer
	if code := run(append(grid, "--out", out), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "4 campaign(s) finished") || !strings.Contains(stdout.String(), "easy.FuzzFields: dist against none:") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	for _, f := range []string{"report.md", "report.html", "report.json", "compare.json",
		"coverage-easy.FuzzFields-blocks.png", "coverage-easy.FuzzFields-labels.svg",
		"campaigns/easy.FuzzFields/dist/run-02/labelcov/stats.json", "campaigns/easy.FuzzFields/none/run-01/result.json",
		"campaigns/easy.FuzzFields/none/run-01/labelcov/go.log"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	type report struct {
		Kind    string `json:"kind"`
		Results []struct {
			Bench      string   `json:"bench"`
			Package    string   `json:"package"`
			Target     string   `json:"target"`
			Categories []string `json:"categories"`
			Runs       []struct {
				Criterion string `json:"criterion"`
				Final     map[string]struct {
					Covered, Total int
				} `json:"final"`
				Findings []struct {
					Key   string  `json:"key"`
					TimeS float64 `json:"time_s"`
				} `json:"findings"`
				ElapsedS float64 `json:"elapsed_s"`
			} `json:"runs"`
			TimeToFind []struct {
				Category  string `json:"category"`
				Criterion string `json:"criterion"`
				Found, N  int
			} `json:"time_to_find"`
		} `json:"results"`
	}
	read := func(dir string) report {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(dir, "report.json"))
		if err != nil {
			t.Fatal(err)
		}
		var r report
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if log, err := os.ReadFile(filepath.Join(out, "campaigns/easy.FuzzFields/dist/run-01/labelcov/go.log")); err != nil ||
		!strings.Contains(string(log), "-test.fuzzminimizetime=0s") || !strings.Contains(string(log), "-test.parallel=1") {
		t.Errorf("go.log does not show the grid's flags: %v\n%s", err, log)
	}
	r := read(out)
	if r.Kind != "go" || len(r.Results) != 1 {
		t.Fatalf("report: kind %q, %d results", r.Kind, len(r.Results))
	}
	br := r.Results[0]
	const truth = "panic@easy/easy.go:16"
	if br.Package != "example.com/gobench/easy" || br.Target != "FuzzFields" || len(br.Categories) != 1 || br.Categories[0] != truth {
		t.Errorf("bench %s: package %q target %q categories %v", br.Bench, br.Package, br.Target, br.Categories)
	}
	if len(br.Runs) != 4 {
		t.Fatalf("%d runs, want 4", len(br.Runs))
	}
	for _, rr := range br.Runs {
		// The control's bug is found by every run; the finding is named by
		// its site on the original code whatever guided the run.
		if len(rr.Findings) != 1 || rr.Findings[0].Key != truth || rr.Findings[0].TimeS > rr.ElapsedS {
			t.Errorf("%s run: findings %+v in %.2fs", rr.Criterion, rr.Findings, rr.ElapsedS)
		}
		if b := rr.Final["blocks"]; b.Total == 0 || b.Covered == 0 || b.Covered > b.Total {
			t.Errorf("%s run: blocks %+v", rr.Criterion, b)
		}
		if l := rr.Final["labels"]; l.Total == 0 || l.Covered == 0 {
			t.Errorf("%s run: labels %+v", rr.Criterion, l)
		}
	}
	for _, row := range br.TimeToFind {
		if row.Category == truth && (row.Found != 2 || row.N != 2) {
			t.Errorf("time to find %s under %s: %d/%d", row.Category, row.Criterion, row.Found, row.N)
		}
	}

	// Resuming: everything is finished, nothing runs again.
	stdout.Reset()
	stderr.Reset()
	if code := run(append(grid, "--out", out), &stdout, &stderr); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "4 campaign(s) already finished, 0 to run") {
		t.Errorf("rerun stderr:\n%s", stderr.String())
	}

	// Two shards and their merge: the same grid, every run present.
	var shards []string
	for _, s := range []string{"1/2", "2/2"} {
		dir := filepath.Join(t.TempDir(), "shard")
		shards = append(shards, dir)
		if code := run(append(grid, "--shard", s, "--out", dir), &stdout, &stderr); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", s, code, stderr.String())
		}
	}
	merged := filepath.Join(t.TempDir(), "merged")
	if code := run(append([]string{"compare", "--merge", "--out", merged}, shards...), &stdout, &stderr); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr.String())
	}
	if m := read(merged); m.Kind != "go" || len(m.Results) != 1 || len(m.Results[0].Runs) != 4 {
		t.Errorf("merged report: kind %q, %d results", m.Kind, len(m.Results))
	}
}

func TestCompareGoRefusesPlanFlags(t *testing.T) {
	var stdout, stderr bytes.Buffer
	for _, args := range [][]string{
		{"compare", "--go", "./x/...", "--engine", "afl"},
		{"compare", "--go", "./x/...", "--bench-dir", "testdata/bench"},
		{"compare", "--bench", "temperature", "--keep-going"},
		{"compare", "--bench", "temperature", "--fuzzminimizetime", "0s"},
	} {
		stderr.Reset()
		if code := run(args, &stdout, &stderr); code != exitUsage {
			t.Errorf("%v: exit %d, want %d: %s", args, code, exitUsage, stderr.String())
		}
	}
}
