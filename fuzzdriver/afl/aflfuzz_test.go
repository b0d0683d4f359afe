package afl_test

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/afl/internal/synth"
	"github.com/labelcov/labelcov/internal/testenv"
)

// aflRun is what one afl-fuzz campaign left behind.
type aflRun struct {
	stats map[string]string // fuzzer_stats
	queue []string          // queue/ entry names
	log   string            // afl-fuzz's output, colours stripped
	dir   string            // out/default
}

// runAFL runs the real afl-fuzz on the synthetic target for secs seconds.
// aflArgs go before "--", targetArgs after the target.
func runAFL(t *testing.T, secs int, aflArgs, targetArgs []string, env ...string) aflRun {
	t.Helper()
	aflFuzz := testenv.AFL(t, "afl-fuzz")[0]
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in"), filepath.Join(dir, "out")
	if err := os.Mkdir(in, 0o755); err != nil {
		t.Fatal(err)
	}
	seeds := []string{"aaaa", "hello"}
	for i, s := range seeds {
		if err := os.WriteFile(filepath.Join(in, "seed"+strconv.Itoa(i)), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(secs+60)*time.Second)
	defer cancel()
	args := append([]string{"-i", in, "-o", out, "-V", strconv.Itoa(secs)}, aflArgs...)
	args = append(append(args, "--", targetPath), targetArgs...)
	cmd := exec.CommandContext(ctx, aflFuzz, args...)
	cmd.Env = append(os.Environ(),
		"AFL_SKIP_CPUFREQ=1", "AFL_NO_UI=1", "AFL_NO_AFFINITY=1",
		"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1")
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = nil // /dev/null: afl-fuzz must not wait for a terminal
	logb, err := cmd.CombinedOutput()
	log := stripANSI(string(logb))
	if err != nil {
		t.Fatalf("afl-fuzz: %v\n%s", err, tail(log, 40))
	}
	stats := map[string]string{}
	f, err := os.Open(filepath.Join(out, "default", "fuzzer_stats"))
	if err != nil {
		t.Fatalf("no fuzzer_stats: %v\n%s", err, tail(log, 40))
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok {
			stats[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	ents, err := os.ReadDir(filepath.Join(out, "default", "queue"))
	if err != nil {
		t.Fatal(err)
	}
	var queue []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "id:") {
			queue = append(queue, e.Name())
		}
	}
	if len(queue) <= len(seeds) {
		t.Errorf("queue has %d entries, want more than the %d seeds: %v", len(queue), len(seeds), queue)
	}
	return aflRun{stats: stats, queue: queue, log: log, dir: filepath.Join(out, "default")}
}

func statInt(t *testing.T, stats map[string]string, key string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(stats[key], 64)
	if err != nil {
		t.Fatalf("fuzzer_stats %s = %q: %v", key, stats[key], err)
	}
	return v
}

// TestAFLFuzz drives the synthetic target with the real, unmodified
// afl-fuzz through the fork-server front, without AFL_SKIP_BIN_CHECK: the
// binary check must pass and the map size be negotiated.
func TestAFLFuzz(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz for several seconds")
	}
	r := runAFL(t, 5, nil, nil)
	stats, queue, log := r.stats, r.queue, r.log
	if !strings.Contains(log, "Target map size: 64") {
		t.Errorf("afl-fuzz did not take the negotiated map size:\n%s", tail(log, 60))
	}
	execs := statInt(t, stats, "execs_done")
	// How many runs fit in 5 s depends on the machine's load: only
	// "afl-fuzz fuzzed" is asserted (runAFL checks the queue grew);
	// throughput is logged below.
	if execs == 0 {
		t.Errorf("execs_done = %v: afl-fuzz did not fuzz", execs)
	}
	if stats["stability"] != "100.00%" {
		t.Errorf("stability %s, want 100.00%% (the VM is deterministic)", stats["stability"])
	}
	inproc := inProcessRate(synth.MinCounters, 500*time.Millisecond)
	t.Logf("afl-fuzz: %v execs in 5 s, execs_per_sec %s, corpus %d (from 2 seeds), crashes %s; in-process loop: %.0f execs/s",
		execs, stats["execs_per_sec"], len(queue), stats["saved_crashes"], inproc)
}

// TestAFLFuzzLargeMapFileInput checks a target with more counters than
// AFL's default 64 KiB map, reading its input from AFL's @@ file.
func TestAFLFuzzLargeMapFileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz for several seconds")
	}
	r := runAFL(t, 2, nil, []string{"@@"}, countersEnv+"=100000")
	stats, log := r.stats, r.log
	if !strings.Contains(log, "Target map size: 100032") {
		t.Errorf("afl-fuzz did not take the 100032-byte map:\n%s", tail(log, 60))
	}
	if execs := statInt(t, stats, "execs_done"); execs == 0 {
		t.Errorf("execs_done = %v: afl-fuzz did not fuzz", execs)
	}
}

// TestAFLFuzzCrashesAndTimeouts lets afl-fuzz meet findings (inputs starting
// with 'Y') and hangs (inputs starting with 'Z'): findings must be saved as
// SIGABRT crashes, hangs killed by AFL's timeout, and fuzzing must go on
// with restarted workers.
func TestAFLFuzzCrashesAndTimeouts(t *testing.T) {
	if testing.Short() {
		t.Skip("runs afl-fuzz for several seconds")
	}
	// A run budget (-E), with the seconds only as a backstop: what 3 s
	// of afl-fuzz meets depends on the machine's load, what 3,000 runs
	// meet does not (AFL's timeouts make hangs slow, so a loaded machine
	// ran fewer than 500 in 3 s).
	r := runAFL(t, 120, []string{"-t", "50", "-E", "3000", "-s", "1"}, nil, tricksEnv+"=2")
	stats, log := r.stats, r.log
	if statInt(t, stats, "saved_crashes") < 1 {
		t.Errorf("no crash saved:\n%s", tail(log, 30))
	}
	if statInt(t, stats, "saved_hangs") < 1 {
		t.Errorf("no hang saved:\n%s", tail(log, 30))
	}
	if execs := statInt(t, stats, "execs_done"); execs < 500 {
		t.Errorf("execs_done = %v: fuzzing did not go on after timeouts", execs)
	}
	crashes, err := filepath.Glob(filepath.Join(r.dir, "crashes", "id:*"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range crashes {
		// AFL names crashes after the signal in our status word.
		if !strings.Contains(filepath.Base(c), ",sig:06,") {
			t.Errorf("crash %s was not reported as SIGABRT", filepath.Base(c))
		}
	}
}

// inProcessRate measures the synthetic executor plus map writes in a plain
// loop: the ceiling the fork-server round trips are compared against.
func inProcessRate(n int, d time.Duration) float64 {
	ex := synth.New(n, false)
	cm, _ := afl.NewCoverageMap(make([]byte, afl.MapSizeFor(n)), n)
	r := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 16)
	ctx := context.Background()
	start := time.Now()
	execs := 0
	for time.Since(start) < d {
		for range 1000 {
			for i := range buf {
				buf[i] = byte(r.Uint32())
			}
			c, _, _ := ex.Exec(ctx, buf[:1+r.IntN(len(buf))])
			_ = cm.Write(c)
			execs++
		}
	}
	return float64(execs) / time.Since(start).Seconds()
}

func BenchmarkInProcess(b *testing.B) {
	ex := synth.New(synth.MinCounters, false)
	cm, _ := afl.NewCoverageMap(make([]byte, 64), synth.MinCounters)
	in := []byte("LaBxxxxx")
	ctx := context.Background()
	for b.Loop() {
		c, _, _ := ex.Exec(ctx, in)
		_ = cm.Write(c)
	}
}

func stripANSI(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b && i+1 < len(s) && s[i+1] == '[' {
			j := i + 2
			for j < len(s) && !(s[j] >= '@' && s[j] <= '~') {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func tail(s string, lines int) string {
	l := strings.Split(s, "\n")
	if len(l) > lines {
		l = l[len(l)-lines:]
	}
	return strings.Join(l, "\n")
}
