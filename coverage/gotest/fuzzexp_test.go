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

	gotransform "github.com/labelcov/labelcov/transform/golang"
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

// ladderTargets are testdata/go/ladder's fuzz targets with the marker
// comment on the line each one's bug panics at.
var ladderTargets = []struct{ name, marker string }{
	{"FuzzBalance", "ladder: balance relation"},
	{"FuzzHeader", "ladder: header length trusted"},
	{"FuzzBucket", "ladder: bucket index"},
	{"FuzzCommand", "ladder: calibrate count"},
	{"FuzzReading", "ladder: sensor table is nil"},
	{"FuzzEasy", "ladder: easy control"},
}

// TestLadderExperiment fuzzes testdata/go/ladder's targets (or those named
// in LABELCOV_LADDER_TARGETS, comma-separated) plain and annotated with
// LABELCOV_LADDER_CRITERIA (default dist), LABELCOV_LADDER_RUNS times each
// (alternating), each run at most LABELCOV_LADDER_TIME (default 60s) with
// one worker, from the seed corpus only (a fresh directory, a private fuzz
// cache), and logs for each run whether the target's own bug was found
// (a panic at its line of ladder.go: the overlay's line directives name
// the original lines), the time to it and the executions. Test binaries
// are built once per variant. LABELCOV_LADDER_FLAGS adds test binary
// flags to every run (e.g. -test.fuzzminimizetime=0s); LABELCOV_LADDER_PLAIN=0
// runs the annotated variant only. Off by default: it takes minutes.
func TestLadderExperiment(t *testing.T) {
	runs, _ := strconv.Atoi(os.Getenv("LABELCOV_LADDER_RUNS"))
	if runs <= 0 {
		t.Skip("set LABELCOV_LADDER_RUNS=N to run the ladder experiment")
	}
	needGo(t)
	criteria := os.Getenv("LABELCOV_LADDER_CRITERIA")
	if criteria == "" {
		criteria = "dist"
	}
	limit := os.Getenv("LABELCOV_LADDER_TIME")
	if limit == "" {
		limit = "60s"
	}
	want := map[string]bool{}
	for _, n := range strings.Split(os.Getenv("LABELCOV_LADDER_TARGETS"), ",") {
		if n != "" {
			want[n] = true
		}
	}
	variants := []string{"none", criteria}
	if os.Getenv("LABELCOV_LADDER_PLAIN") == "0" {
		variants = variants[1:]
	}
	extra := strings.Fields(os.Getenv("LABELCOV_LADDER_FLAGS"))
	dir := ladderModule(t)
	orig, err := os.ReadFile(filepath.Join(dir, "ladder.go"))
	if err != nil {
		t.Fatal(err)
	}
	// The build cache is the user's; the fuzz cache of each run is its own.
	env := os.Environ()
	bins := map[string]string{}
	for _, v := range variants {
		args := []string{"test", "-c", "-fuzz=.", "-o", filepath.Join(t.TempDir(), "ladder.test")}
		if v != "none" {
			ov, err := annotate(t, dir, v).WriteOverlay(filepath.Join(t.TempDir(), "ov"))
			if err != nil {
				t.Fatal(err)
			}
			args = append(args, "-overlay", ov)
		}
		cmd := exec.Command("go", append(args, ".")...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", v, err, out)
		}
		bins[v] = args[4]
	}
	for _, tg := range ladderTargets {
		if len(want) > 0 && !want[tg.name] {
			continue
		}
		// A frame ends in " +0x..." or, inlined, at the line's end.
		at := regexp.MustCompile(regexp.QuoteMeta(filepath.Join(dir, "ladder.go")+":"+strconv.Itoa(lineOf(t, string(orig), tg.marker))) + `(\s|$)`)
		fail := regexp.MustCompile(`--- FAIL: ` + tg.name + ` \(([0-9.]+)s\)`)
		summary := map[string][]string{}
		for i := 0; i < runs; i++ {
			for _, v := range variants {
				work := t.TempDir()
				cmd := exec.Command(bins[v], append([]string{"-test.run=^$", "-test.fuzz=^" + tg.name + "$", "-test.fuzztime=" + limit,
					"-test.parallel=1", "-test.fuzzcachedir=" + filepath.Join(work, "cache")}, extra...)...)
				cmd.Dir, cmd.Env = work, env
				start := time.Now()
				out, _ := cmd.CombinedOutput()
				secs := time.Since(start).Seconds()
				found := at.Match(out)
				if m := fail.FindSubmatch(out); found && m != nil {
					secs, _ = strconv.ParseFloat(string(m[1]), 64)
				}
				execs := 0
				if ms := fuzzExecs.FindAllSubmatch(out, -1); len(ms) > 0 {
					execs, _ = strconv.Atoi(string(ms[len(ms)-1][1]))
				}
				res := ">" + limit
				if found {
					res = fmt.Sprintf("%.2fs", secs)
				}
				summary[v] = append(summary[v], res)
				t.Logf("%s run %d %-5s found=%v time=%.2fs execs=%d", tg.name, i+1, v, found, secs, execs)
			}
		}
		for _, v := range variants {
			n := 0
			for _, r := range summary[v] {
				if !strings.HasPrefix(r, ">") {
					n++
				}
			}
			t.Logf("SUMMARY %s %s: %d/%d found: %s", tg.name, v, n, runs, strings.Join(summary[v], " "))
		}
	}
}

// ladderModule copies testdata/go/ladder into a temporary directory.
func ladderModule(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../testdata/go/ladder")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := gotransform.CopyModule(src, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lineOf is the 1-based line of the first line of src containing marker.
func lineOf(t *testing.T, src, marker string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("no line with %q", marker)
	return 0
}
