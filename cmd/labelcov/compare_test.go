package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const benchDir = "../../testdata/bench"

// A tiny real comparison: temperature (no world), 2 criteria × 2 runs × 2 s,
// two campaigns in parallel; then the same command again skips everything,
// and a shard pair merges into a report of the same grid.
func TestCompareEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs 8 s of campaigns")
	}
	out := filepath.Join(t.TempDir(), "cmp")
	md := filepath.Join(t.TempDir(), "docs", "results.md")
	args := []string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "none,mcc",
		"--runs", "2", "--budget", "2s", "--workers", "2", "--seed", "3", "--out", out, "--md", md}
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "4 campaign(s) finished") || !strings.Contains(stdout.String(), "temperature: mcc against none:") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	for _, f := range []string{"report.md", "report.html", "report.json", "compare.json",
		"coverage-temperature-branches.png", "coverage-temperature-labels-wm.svg",
		"campaigns/temperature/mcc/run-02/labelcov/stats.json", "campaigns/temperature/none/run-01/result.json"} {
		if st, err := os.Stat(filepath.Join(out, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	mdText, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mdText), "](results/coverage-temperature-branches.png)") ||
		!strings.Contains(string(mdText), "`labelcov compare --bench temperature") {
		t.Errorf("--md file:\n%s", mdText)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(md), "results", "coverage-temperature-labels.png")); err != nil {
		t.Error(err)
	}

	var rep struct {
		Version int `json:"version"`
		Results []struct {
			Runs []struct {
				Criterion string `json:"criterion"`
				Execs     int64  `json:"execs"`
				Final     map[string]struct {
					Covered, Total int
				} `json:"final"`
				Findings []struct{ Key string } `json:"findings"`
			} `json:"runs"`
			Throughput []struct {
				Criterion string   `json:"criterion"`
				Ratio     *float64 `json:"ratio_to_none"`
			} `json:"throughput"`
			Tests []struct {
				Kind string  `json:"kind"`
				P    float64 `json:"p"`
			} `json:"tests"`
		} `json:"results"`
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Version != 1 || len(rep.Results) != 1 || len(rep.Results[0].Runs) != 4 {
		t.Fatalf("report.json: %s", data[:min(len(data), 400)])
	}
	for _, r := range rep.Results[0].Runs {
		if r.Execs == 0 || len(r.Findings) == 0 {
			t.Errorf("run of %s: %d execs, %d findings", r.Criterion, r.Execs, len(r.Findings))
		}
		for _, m := range []string{"branches", "instructions", "labels", "labels:mcc", "labels:cc", "labels:wm"} {
			if r.Final[m].Total == 0 || r.Final[m].Covered == 0 {
				t.Errorf("run of %s: %s = %+v", r.Criterion, m, r.Final[m])
			}
		}
	}
	if tr := rep.Results[0].Throughput; len(tr) != 2 || tr[1].Ratio == nil || *tr[1].Ratio <= 0 {
		t.Errorf("throughput %+v", tr)
	}
	if len(rep.Results[0].Tests) == 0 {
		t.Error("no statistics")
	}

	// Again: nothing to run.
	stdout.Reset()
	stderr.Reset()
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "4 campaign(s) already finished, 0 to run") {
		t.Errorf("rerun stderr:\n%s", stderr.String())
	}

	// Two shards of a 1-run grid, merged.
	var dirs []string
	for _, sh := range []string{"1/2", "2/2"} {
		dir := filepath.Join(t.TempDir(), "shard")
		dirs = append(dirs, dir)
		a := []string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "none,mcc",
			"--runs", "1", "--budget", "1s", "--workers", "1", "--shard", sh, "--out", dir}
		stdout.Reset()
		if code := run(a, &stdout, &stderr); code != 0 {
			t.Fatalf("shard %s: exit %d: %s", sh, code, stderr.String())
		}
		// A shard that finished its share misses nothing.
		if !strings.HasPrefix(stdout.String(), "1 campaign(s) finished\n") {
			t.Errorf("shard %s stdout:\n%s", sh, stdout.String())
		}
	}
	merged := filepath.Join(t.TempDir(), "merged")
	stdout.Reset()
	if code := run(append([]string{"compare", "--merge", "--out", merged}, dirs...), &stdout, &stderr); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "2 campaign(s) finished\n") {
		t.Errorf("merge stdout:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(merged, "report.html")); err != nil {
		t.Error(err)
	}
	// The merged report regenerates the whole grid, not shard 1's share.
	mergedMD, err := os.ReadFile(filepath.Join(merged, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := "`labelcov compare --bench temperature --bench-dir " + benchDir + " --budget 1s --criteria none,mcc --runs 1 --workers 1`"
	if !strings.Contains(string(mergedMD), want) {
		t.Errorf("merged report.md lacks the whole grid's command %s:\n%s", want, mergedMD)
	}
}

func TestCompareErrors(t *testing.T) {
	out := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare"}, "--bench: give at least one benchmark"},
		{[]string{"compare", "--bench-dir", benchDir, "--bench", "nosuch"}, "benchmark nosuch"},
		{[]string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "none,bogus"}, "--criteria"},
		{[]string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--shard", "3/2"}, "--shard"},
		{[]string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--runs", "0"}, "runs must be at least 1"},
		{[]string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "action"}, "no criterion given"},
		{[]string{"compare", "--merge"}, "--merge needs the output directories"},
		{[]string{"compare", "--merge", "--runs", "3", out}, "--runs does not go with --merge"},
		{[]string{"compare", "--merge", out}, "not a compare output directory"},
		{[]string{"compare", "stray"}, "unexpected arguments"},
	} {
		var stdout, stderr bytes.Buffer
		if code := run(c.args, &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%q: exit %d, stderr %q, want %q", c.args, code, stderr.String(), c.want)
		}
	}
	// action is left out with a message, the rest runs.
	var stdout, stderr bytes.Buffer
	args := []string{"compare", "--bench-dir", benchDir, "--bench", "temperature", "--criteria", "none,action",
		"--runs", "1", "--budget", "300ms", "--workers", "1", "--out", filepath.Join(out, "a")}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), `leaving out guiding criterion "action" is not available`) {
		t.Errorf("stderr: %s", stderr.String())
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"warehouse-sort,kitchen": "warehouse-sort,kitchen",
		"/tmp/out":               "/tmp/out",
		"2m0s":                   "2m0s",
		"a note":                 "'a note'",
		"engineers' builds":      `'engineers'\'' builds'`,
		"":                       "''",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}
