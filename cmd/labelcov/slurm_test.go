package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
)

// TestSlurmJobArray submits a small comparison grid to a real Slurm cluster
// with the script `compare --slurm-script` writes (2 array tasks of 2
// campaigns, one task at a time, the merge as a dependent job), waits for
// the merge, and checks that the merged report has the cells, seeds and
// finds of the same grid run unsharded here; and that each task ran its
// campaigns one at a time, as its one CPU (SLURM_CPUS_PER_TASK) says. Then
// a task signalled before its budget must end FAILED, with exit code 3.
func TestSlurmJobArray(t *testing.T) {
	conf := testenv.Slurm(t)
	bench, err := filepath.Abs(benchDir)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildLabelcov(t)
	dir := t.TempDir()
	grid := []string{"--bench-dir", bench, "--bench", "temperature", "--criteria", "none,mcc", "--runs", "2", "--budget", "1s", "--seed", "3"}

	write := exec.Command(bin, append([]string{"compare", "--out", "cmp", "--slurm-script", "grid.sh", "--slurm-array", "2%1"}, grid...)...)
	write.Dir = dir
	if out, err := write.CombinedOutput(); err != nil {
		t.Fatalf("compare --slurm-script: %v\n%s", err, out)
	}
	script, err := os.ReadFile(filepath.Join(dir, "grid.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=1-2%1\n", "#SBATCH --cpus-per-task=1\n", "--dependency=\"afterok:$array\"",
		`--shard "$SLURM_ARRAY_TASK_ID/2"`} {
		if !bytes.Contains(script, []byte(want)) {
			t.Errorf("the script has no %q:\n%s", want, script)
		}
	}

	// Submitted as a user would, from another directory.
	submit := exec.Command("bash", filepath.Join(dir, "grid.sh"))
	submit.Dir = t.TempDir()
	submit.Env = append(os.Environ(), "SLURM_CONF="+conf)
	out, err := submit.CombinedOutput()
	if err != nil {
		t.Fatalf("bash grid.sh: %v\n%s", err, out)
	}
	m := regexp.MustCompile(`submitted job array (\d+) \(2 task\(s\)\) and merge job (\d+)`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("bash grid.sh says:\n%s", out)
	}
	array, merge := string(m[1]), string(m[2])
	if info := scontrol(t, conf, array); !strings.Contains(info, "ArrayTaskThrottle=1") {
		t.Errorf("array job %s is not throttled to one task at a time:\n%s", array, info)
	}
	cmp := filepath.Join(dir, "cmp")
	if state := waitSlurmJob(t, conf, merge, 5*time.Minute); state != "COMPLETED" {
		logs, _ := filepath.Glob(filepath.Join(cmp, "slurm", "*.out"))
		var b strings.Builder
		for _, l := range logs {
			data, _ := os.ReadFile(l)
			fmt.Fprintf(&b, "--- %s\n%s", l, data)
		}
		t.Fatalf("merge job %s: %s\narray: %s\n%s", merge, state, scontrol(t, conf, array), b.String())
	}

	for i := 1; i <= 2; i++ {
		var meta struct {
			Shard   string `json:"shard"`
			Workers int    `json:"workers"`
		}
		readJSONFile(t, filepath.Join(cmp, "shards", fmt.Sprint(i), "compare.json"), &meta)
		if meta.Shard != fmt.Sprintf("%d/2", i) || meta.Workers != 1 {
			t.Errorf("task %d: shard %s, %d campaign(s) at a time; want %d/2 and 1 (its SLURM_CPUS_PER_TASK)", i, meta.Shard, meta.Workers, i)
		}
	}

	base := filepath.Join(t.TempDir(), "base")
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"compare", "--out", base, "--workers", "2"}, grid...), &stdout, &stderr); code != exitOK {
		t.Fatalf("unsharded compare: exit %d: %s", code, stderr.String())
	}
	merged, unsharded := reportCells(t, filepath.Join(cmp, "report.json")), reportCells(t, filepath.Join(base, "report.json"))
	if len(unsharded) != 4 {
		t.Fatalf("unsharded report: %d campaigns, want 4: %v", len(unsharded), unsharded)
	}
	for cell, want := range unsharded {
		if got, ok := merged[cell]; !ok {
			t.Errorf("%s: missing from the merged report", cell)
		} else if got != want {
			t.Errorf("%s: merged %s, unsharded %s", cell, got, want)
		}
	}
	if len(merged) != len(unsharded) {
		t.Errorf("merged report: %d campaigns, unsharded %d", len(merged), len(unsharded))
	}

	// A task that Slurm signals before its budget (scancel --signal=TERM,
	// as a time limit does first) ends FAILED with exit code 3, not
	// COMPLETED.
	long := filepath.Join(dir, "long")
	log := filepath.Join(dir, "long.out")
	sb := exec.Command("sbatch", "--parsable", "--job-name=labelcov-sigterm", "--output="+log, "--wrap",
		fmt.Sprintf("exec %s compare %s --budget 10m --runs 1 --criteria none --out %s", shellQuote(bin),
			strings.Join([]string{"--bench-dir", shellQuote(bench), "--bench", "temperature"}, " "), shellQuote(long)))
	sb.Env = append(os.Environ(), "SLURM_CONF="+conf)
	out, err = sb.CombinedOutput()
	if err != nil {
		t.Fatalf("sbatch: %v\n%s", err, out)
	}
	job := strings.TrimSpace(strings.Split(string(out), ";")[0])
	// Signal once the grid runs: its first line is printed after the
	// handler is installed.
	deadline := time.Now().Add(5 * time.Minute)
	for {
		data, _ := os.ReadFile(log)
		if bytes.Contains(data, []byte("compare: 1 campaign(s)")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s printed no progress in 5 minutes:\n%s\n%s", job, data, scontrol(t, conf, job))
		}
		time.Sleep(200 * time.Millisecond)
	}
	sc := exec.Command("scancel", "--signal=TERM", "--batch", job)
	sc.Env = append(os.Environ(), "SLURM_CONF="+conf)
	if out, err := sc.CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v\n%s", err, out)
	}
	if state := waitSlurmJob(t, conf, job, 2*time.Minute); state != "FAILED" {
		data, _ := os.ReadFile(log)
		t.Fatalf("job %s after SIGTERM: %s, want FAILED\n%s", job, state, data)
	}
	if info := scontrol(t, conf, job); !strings.Contains(info, "ExitCode=3:0") {
		t.Errorf("job %s after SIGTERM, want ExitCode=3:0:\n%s", job, info)
	}
}

// reportCells reads a compare report.json: per campaign (bench, criterion,
// run), its seed and its finds (key and execs at the find; a one-worker
// campaign makes the same inputs in the same order, so these do not depend
// on the machine's speed).
func reportCells(t *testing.T, path string) map[string]string {
	t.Helper()
	var rep struct {
		Results []struct {
			Bench string `json:"bench"`
			Runs  []struct {
				Criterion string `json:"criterion"`
				Run       int    `json:"run"`
				Seed      uint64 `json:"seed"`
				Findings  []struct {
					Key   string `json:"key"`
					Execs int64  `json:"execs"`
				} `json:"findings"`
			} `json:"runs"`
		} `json:"results"`
	}
	readJSONFile(t, path, &rep)
	cells := map[string]string{}
	for _, b := range rep.Results {
		for _, r := range b.Runs {
			var finds []string
			for _, f := range r.Findings {
				finds = append(finds, fmt.Sprintf("%s@%d", f.Key, f.Execs))
			}
			cells[fmt.Sprintf("%s/%s/run-%d", b.Bench, r.Criterion, r.Run)] = fmt.Sprintf("seed %d, finds %v", r.Seed, finds)
		}
	}
	return cells
}

func readJSONFile(t *testing.T, path string, v any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// scontrol is `scontrol show job -o ID` on the cluster of conf.
func scontrol(t *testing.T, conf, id string) string {
	t.Helper()
	cmd := exec.Command("scontrol", "show", "job", "-o", id)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+conf)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Sprintf("scontrol show job %s: %v: %s", id, err, out)
	}
	return string(out)
}

// waitSlurmJob polls job id until it leaves the queue's pending and running
// states, for at most limit, and returns its last JobState.
func waitSlurmJob(t *testing.T, conf, id string, limit time.Duration) string {
	t.Helper()
	stateRe := regexp.MustCompile(`JobState=(\S+)`)
	deadline := time.Now().Add(limit)
	state := "unknown"
	for time.Now().Before(deadline) {
		if m := stateRe.FindStringSubmatch(scontrol(t, conf, id)); m != nil {
			state = m[1]
			switch state {
			case "PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED":
			default:
				return state
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	return fmt.Sprintf("still %s after %s", state, limit)
}
