package gotest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"time"
)

var (
	fuzzFail  = regexp.MustCompile(`--- FAIL: FuzzAlarm \(([0-9.]+)s\)`)
	fuzzExecs = regexp.MustCompile(`execs: (\d+) \((\d+)/sec\), new interesting: \d+ \(total: (\d+)\)`)
)

// TestFuzzExperiment runs `go test -fuzz FuzzAlarm` on testdata/go/fuzzexp,
// original and annotated, LABELCOV_FUZZ_RUNS times each
// (alternating), each run at most LABELCOV_FUZZ_TIME (default 20s) with one
// worker and a fresh corpus, and logs the time to crash. The annotation's
// criteria are LABELCOV_FUZZ_CRITERIA (default all; dist for the ladders).
// Off by default: it takes minutes.
func TestFuzzExperiment(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("LABELCOV_FUZZ_RUNS"))
	if runs <= 0 {
		t.Skip("set LABELCOV_FUZZ_RUNS=N to run the fuzz experiment")
	}
	needGo(t)
	criteria := os.Getenv("LABELCOV_FUZZ_CRITERIA")
	if criteria == "" {
		criteria = "all"
	}
	limit := os.Getenv("LABELCOV_FUZZ_TIME")
	if limit == "" {
		limit = "20s"
	}
	src, err := filepath.Abs("../../testdata/go/fuzzexp")
	if err != nil {
		t.Fatal(err)
	}
	// A private build cache: each run starts from an empty generated
	// corpus without touching the user's.
	env := append(os.Environ(), "GOCACHE="+t.TempDir())
	cache, err := FuzzCacheDir(context.Background(), src, env, "example.com/fuzzexp", "FuzzAlarm")
	if err != nil {
		t.Fatal(err)
	}
	type outcome struct {
		crashed bool
		secs    float64
		execs   int
		corpus  int
	}
	var results [2][]outcome
	for i := 0; i < runs; i++ {
		for v, annotated := range []bool{false, true} {
			// The module's files only, not a corpus a documented
			// go test -fuzz run left in testdata/fuzz.
			dir := t.TempDir()
			for _, name := range []string{"go.mod", "alarm.go", "alarm_test.go"} {
				b, err := os.ReadFile(filepath.Join(src, name))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"test", "-run", "^$", "-fuzz", "^FuzzAlarm$", "-fuzztime", limit, "-parallel", "1"}
			if annotated {
				res := annotate(t, dir, criteria)
				ov, err := res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
				if err != nil {
					t.Fatal(err)
				}
				args = append(args, "-overlay", ov)
			}
			if err := os.RemoveAll(cache); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("go", append(args, ".")...)
			cmd.Dir, cmd.Env = dir, env
			start := time.Now()
			out, _ := cmd.CombinedOutput()
			o := outcome{secs: time.Since(start).Seconds()}
			if m := fuzzFail.FindSubmatch(out); m != nil && strings.Contains(string(out), "integer divide by zero") {
				o.crashed = true
				o.secs, _ = strconv.ParseFloat(string(m[1]), 64)
			}
			if ms := fuzzExecs.FindAllSubmatch(out, -1); len(ms) > 0 {
				last := ms[len(ms)-1]
				o.execs, _ = strconv.Atoi(string(last[1]))
				o.corpus, _ = strconv.Atoi(string(last[3]))
			}
			results[v] = append(results[v], o)
			t.Logf("run %d %-9s crashed=%v time=%.2fs execs=%d corpus=%d", i+1, map[bool]string{false: "original", true: "annotated"}[annotated],
				o.crashed, o.secs, o.execs, o.corpus)
		}
	}
	for v, name := range []string{"original", "annotated"} {
		n, sum := 0, 0.0
		var times []string
		for _, o := range results[v] {
			if o.crashed {
				n++
				sum += o.secs
				times = append(times, fmt.Sprintf("%.1f", o.secs))
			} else {
				times = append(times, ">"+limit)
			}
		}
		t.Logf("%s: %d/%d runs crashed within %s; times %s", name, n, runs, limit, strings.Join(times, " "))
	}
}
