package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/internal/testenv"
)

// buildLabelcov builds the labelcov binary: afl-fuzz and the fork-server
// worker need a real executable with the afl-target command.
func buildLabelcov(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "labelcov-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "labelcov")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is the labelcov binary the tests that exec it share: one build
// (and link) per test process, removed by TestMain.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// useAFL skips a test that runs the real afl-fuzz unless
// LABELCOV_AFL_TESTS=1, and points afl-fuzz at a built labelcov binary (the
// test binary has no afl-target command) for the rest of the test.
func useAFL(t *testing.T) {
	t.Helper()
	testenv.AFL(t, "afl-fuzz")
	bin := buildLabelcov(t)
	old := aflTargetBinary
	aflTargetBinary = func() (string, error) { return bin, nil }
	t.Cleanup(func() { aflTargetBinary = old })
}

// TestAFLTargetStandalone runs afl-target without afl-fuzz: an input with a
// finding ends the process by SIGABRT, a clean one exits 0. With afl-showmap
// opted in (LABELCOV_AFL_TESTS=1), the fork-server protocol is exercised
// through afl-showmap too.
func TestAFLTargetStandalone(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildLabelcov(t)
	dir := t.TempDir()
	// left-on-shelf: one object at the back of board 1 (from the reproducer).
	code, _, errs := execLabelcov("env", "encode", wsWorld, "../../testdata/bench/warehouse-sort/reproducers/left-on-shelf.env",
		"-o", filepath.Join(dir, "finding"))
	if code != exitOK {
		t.Fatalf("env encode: %s", errs)
	}
	clean := filepath.Join(dir, "clean")
	if err := os.WriteFile(clean, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(input string, extra ...string) error {
		args := append([]string{"afl-target", wsPlan, "--world", wsWorld}, extra...)
		cmd := exec.Command(bin, append(args, input)...)
		cmd.Env = append(os.Environ(), "__AFL_SHM_ID=") // never attach a stray map
		return cmd.Run()
	}
	if err := run(clean); err != nil {
		t.Errorf("clean input: %v", err)
	}
	for _, crit := range []string{"none", "mcc,wm"} {
		err := run(filepath.Join(dir, "finding"), "--criteria", crit)
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("finding with --criteria %s: %v, want death by SIGABRT", crit, err)
		}
		if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
			t.Errorf("finding with --criteria %s: %v, want death by SIGABRT", crit, err)
		}
	}

	testHostileBinary(t, bin)

	t.Run("afl-showmap", func(t *testing.T) {
		showmap := testenv.AFL(t, "afl-showmap")[0]
		aflShowmap(t, bin, showmap, dir, clean)
	})
}

func aflShowmap(t *testing.T, bin, showmap, dir, clean string) {
	out := filepath.Join(dir, "map")
	cmd := exec.Command(showmap, "-q", "-o", out, "--", bin, "afl-target", wsPlan, "--world", wsWorld, clean)
	cmd.Env = append(os.Environ(), "AFL_NO_AFFINITY=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("afl-showmap: %v\n%s", err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n < 50 {
		t.Errorf("afl-showmap saw %d tuples, want the plan's counters\n%s", n, data)
	}
}

// TestFuzzEngineAFL runs the real afl-fuzz through labelcov fuzz --engine afl
// for a few seconds: a run budget, not a wall-clock one, so that what it
// finds does not hang on the machine's load (500 runs find 4 to 6 of
// warehouse-sort's findings with seeds 1 to 6; it runs 10 times that).
func TestFuzzEngineAFL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz for seconds")
	}
	useAFL(t)
	out := filepath.Join(t.TempDir(), "out")
	code, stdout, errs := execLabelcov("fuzz", "--json", "--progress", "1s", wsPlan, "--world", wsWorld, "--engine", "afl", "--runs", "5000", "--seed", "1", "--workers", "1", "--out", out)
	if code != exitFound || !strings.Contains(errs, "finding(s)") {
		t.Fatalf("fuzz --engine afl with findings: exit %d, want %d\n%s", code, exitFound, errs)
	}
	var s jsonSummary
	if err := json.Unmarshal([]byte(stdout), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if s.Engine != "afl" || len(s.AFL) != 1 || s.Execs == 0 || s.ExecsPerSec <= 0 {
		t.Fatalf("summary %+v\n%s", s, errs)
	}
	if s.Corpus < 2 || s.AFL[0].CorpusCount != s.Corpus {
		t.Errorf("afl corpus: %d replayed, fuzzer_stats %d", s.Corpus, s.AFL[0].CorpusCount)
	}
	if s.Coverage["labels"].Covered == 0 || s.Coverage["branches"].Covered == 0 {
		t.Errorf("coverage %+v", s.Coverage)
	}
	if len(s.Findings) == 0 {
		t.Errorf("afl found nothing in 5000 runs on warehouse-sort")
	}
	dir := filepath.Join(out, afl.Dir)
	for _, f := range s.Findings {
		// The summary points at the minimized input, saved by key.
		if f.Category == "afl-crash" || f.Input != filepath.Join(dir, engine.Slug(f.Key)) || f.Original.Less(f.Size) {
			t.Errorf("finding %+v", f)
		}
		if _, err := os.Stat(f.Input + ".env"); err != nil {
			t.Errorf("finding %s: %v", f.Key, err)
		}
		if !strings.Contains(errs, "labelcov replay "+wsPlan+" --world "+wsWorld+" "+f.Input) {
			t.Errorf("no replay line for %s in:\n%s", f.Key, errs)
		}
	}
	for _, name := range []string{"summary.json", "stats.json", "afl-fuzz-default.log", campaign.WorkerFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(errs, "fuzz: elapsed: ") || !strings.Contains(errs, "labels: ") {
		t.Errorf("no progress lines with label coverage:\n%s", errs)
	}
	// afl-fuzz's own chatter goes to the log, not to stderr.
	if strings.Contains(errs, "afl-fuzz++") || strings.Contains(errs, "[*]") {
		t.Errorf("afl-fuzz output on stderr:\n%s", errs)
	}
}

// TestCompareEngineAFL runs a small compare grid on the real afl-fuzz: each
// campaign's stats.json and findings come from the AFL++ campaign library.
func TestCompareEngineAFL(t *testing.T) {
	useAFL(t)
	out := filepath.Join(t.TempDir(), "cmp")
	code, stdout, errs := execLabelcov("compare", "--engine", "afl", "--bench-dir", benchDir, "--bench", "temperature",
		"--criteria", "none,mcc", "--runs", "1", "--budget", "3s", "--workers", "2", "--out", out)
	if code != exitOK || !strings.Contains(stdout, "2 campaign(s) finished") {
		t.Fatalf("compare --engine afl: exit %d\n%s%s", code, stdout, errs)
	}
	stats := filepath.Join(out, "campaigns", "temperature", "mcc", "run-01", "labelcov", "stats.json")
	data, err := os.ReadFile(stats)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Samples []struct {
			Coverage map[string]struct{ Covered, Total int } `json:"coverage"`
		} `json:"samples"`
	}
	if err := json.Unmarshal(data, &st); err != nil || len(st.Samples) == 0 || st.Samples[len(st.Samples)-1].Coverage["labels:mcc"].Total == 0 {
		t.Errorf("stats.json of an AFL++ campaign: %v\n%s", err, data)
	}
}

// TestFuzzEngineAFLInterrupted: Ctrl-C in an AFL++ campaign triages and
// summarizes what afl-fuzz found, as the built-in engine does, and exits 3
// (no "context canceled"); the summary's paths are as given by --out.
func TestFuzzEngineAFLInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz for seconds")
	}
	useAFL(t)
	plan, _ := filepath.Abs(wsPlan)
	world, _ := filepath.Abs(wsWorld)
	t.Chdir(t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ctrl-C once afl-fuzz has saved a crash (not after a fixed time, which
	// a loaded machine may spend starting afl-fuzz): the triage then has
	// something to summarize whatever the load. The campaign's own budget
	// is the backstop.
	go func() {
		for ctx.Err() == nil {
			if crashes, _ := filepath.Glob(filepath.Join("out", "*", "crashes", "id:*")); len(crashes) > 0 {
				time.Sleep(500 * time.Millisecond) // let afl-fuzz write what it is writing
				cancel()
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	root := newRootCmd()
	var stdout, stderr bytes.Buffer
	root.SetArgs([]string{"fuzz", "--json", plan, "--world", world, "--engine", "afl", "--budget", "60s", "--workers", "1", "--out", "out"})
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	err := root.ExecuteContext(ctx)
	if exitCodeOf(err) != exitInterrupted || strings.Contains(fmt.Sprint(err)+stderr.String(), "context canceled") {
		t.Fatalf("err %v (exit %d), want an interruption\n%s", err, exitCodeOf(err), stderr.String())
	}
	var s jsonSummary
	if err := json.Unmarshal(stdout.Bytes(), &s); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	if s.Stop != "canceled" || len(s.Findings) == 0 {
		t.Fatalf("stop %s, %d findings: want the crashes afl-fuzz saved triaged", s.Stop, len(s.Findings))
	}
	for _, f := range s.Findings {
		if !strings.HasPrefix(f.Input, filepath.Join("out", afl.Dir)+string(filepath.Separator)) {
			t.Errorf("finding %s saved as %s, want a path under out/ as given", f.Key, f.Input)
		}
		if _, err := os.Stat(f.Input); err != nil {
			t.Error(err)
		}
	}
}
