package engine

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labelcov/labelcov/labels/srcpos"
)

func mazeCampaign(magic string, xs int, seed uint64, runs int64) Campaign {
	return Campaign{
		NewTarget: func() (Target, error) { return newMaze(magic, xs), nil },
		Seed:      seed,
		Runs:      runs,
		MaxLen:    64,
	}
}

func findingKeys(s *Summary) map[string]FindingRecord {
	m := map[string]FindingRecord{}
	for _, f := range s.Findings {
		m[f.Key] = f
	}
	return m
}

// The engine passes a 6-byte magic maze (2^-48 per random input) within a
// bounded number of runs; uniform random inputs of the same budget do not.
func TestEngineSolvesMaze(t *testing.T) {
	const magic, runs = "LABEL!", 200_000
	sum, err := mazeCampaign(magic, 0, 1, runs).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f, ok := findingKeys(sum)["maze"]
	if !ok {
		t.Fatalf("maze not solved in %d runs; corpus %d, features %d", runs, sum.Corpus, sum.Features)
	}
	if !bytes.Equal(f.Data, []byte(magic)) {
		t.Errorf("minimized finding %q, want exactly %q", f.Data, magic)
	}
	if sum.Stop != "runs" {
		t.Errorf("stop = %q, want runs", sum.Stop)
	}
	t.Logf("maze found after %d execs; corpus %d", f.Execs, sum.Corpus)

	// Baseline: the same number of uniformly random inputs.
	r := rand.New(rand.NewPCG(1, 2))
	tgt := newMaze(magic, 0)
	buf := make([]byte, 8)
	for i := 0; i < runs; i++ {
		for j := range buf {
			buf[j] = byte(r.IntN(256))
		}
		out, _ := tgt.Run(context.Background(), buf)
		if len(out.Findings) > 0 {
			t.Fatalf("random sampling solved the maze too; the test proves nothing")
		}
	}
}

// Only hit-count buckets lead to this bug: one counter whose value is the
// number of 'x' bytes. Without buckets every input would look the same.
func TestEngineClimbsHitCounts(t *testing.T) {
	sum, err := mazeCampaign("\x00\x00", 40, 5, 300_000).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f, ok := findingKeys(sum)["many-x@synth.plan:3:7"]
	if !ok {
		t.Fatalf("hit-count finding not reached; corpus %d features %d", sum.Corpus, sum.Features)
	}
	if f.Category != "many-x" || f.Pos != (srcpos.Pos{File: "synth.plan", Line: 3, Col: 7}) {
		t.Errorf("record %+v", f)
	}
	if f.Size.Bytes != 40 || !bytes.Equal(f.Data, bytes.Repeat([]byte("x"), 40)) {
		t.Errorf("minimized to %q, want 40 x", f.Data)
	}
}

func TestDeterministicWithOneWorker(t *testing.T) {
	run := func() *Summary {
		sum, err := mazeCampaign("MAZE", 20, 7, 30_000).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return sum
	}
	a, b := run(), run()
	if a.Execs != b.Execs || len(a.Inputs) != len(b.Inputs) {
		t.Fatalf("execs %d/%d corpus %d/%d differ", a.Execs, b.Execs, len(a.Inputs), len(b.Inputs))
	}
	for i := range a.Inputs {
		if !bytes.Equal(a.Inputs[i], b.Inputs[i]) {
			t.Fatalf("corpus entry %d differs: %x vs %x", i, a.Inputs[i], b.Inputs[i])
		}
	}
	if len(a.Findings) != len(b.Findings) {
		t.Fatalf("findings %d vs %d", len(a.Findings), len(b.Findings))
	}
	for i := range a.Findings {
		fa, fb := a.Findings[i], b.Findings[i]
		if fa.Key != fb.Key || fa.Execs != fb.Execs || !bytes.Equal(fa.Data, fb.Data) {
			t.Fatalf("finding %d differs: %+v vs %+v", i, fa, fb)
		}
	}
	// A different seed takes a different path.
	c, err := mazeCampaign("MAZE", 20, 8, 30_000).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	same := len(c.Inputs) == len(a.Inputs)
	for i := 0; same && i < len(c.Inputs); i++ {
		same = bytes.Equal(c.Inputs[i], a.Inputs[i])
	}
	if same {
		t.Fatal("seeds 7 and 8 produced the same corpus")
	}
}

// Every kept input after the first reaches a (counter, bucket) pair that no
// earlier one did; seeds that add nothing are not kept.
func TestCorpusMinimality(t *testing.T) {
	c := mazeCampaign("ABCD", 10, 3, 20_000)
	c.Seeds = [][]byte{[]byte("AB"), []byte("AB"), []byte("AC"), []byte("ZZ")}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sum.Inputs[0], []byte("AB")) {
		t.Fatalf("first entry %q, want the first seed", sum.Inputs[0])
	}
	if n := countEqual(sum.Inputs, []byte("AB")); n != 1 {
		t.Fatalf("duplicate seed kept %d times", n)
	}
	// "AC" fails at the second byte: new pair, kept. "ZZ" fails at the
	// first byte, which the empty... no: nothing before it did, so it is new.
	if countEqual(sum.Inputs, []byte("AC")) != 1 || countEqual(sum.Inputs, []byte("ZZ")) != 1 {
		t.Fatalf("seeds with new pairs not kept: %q", sum.Inputs[:4])
	}
	var cov Coverage
	tgt := newMaze("ABCD", 10)
	for i, in := range sum.Inputs {
		if _, err := tgt.Run(context.Background(), in); err != nil {
			t.Fatal(err)
		}
		if i > 0 && !cov.HasNew(tgt.Counters()) {
			t.Fatalf("entry %d %q adds no new (counter, bucket) pair", i, in)
		}
		cov.Merge(tgt.Counters())
	}
	if cov.Features() != sum.Features {
		t.Fatalf("replayed features %d, engine says %d", cov.Features(), sum.Features)
	}
}

func countEqual(list [][]byte, x []byte) int {
	n := 0
	for _, b := range list {
		if bytes.Equal(b, x) {
			n++
		}
	}
	return n
}

// countingMaze reports how often the maze's finding came up, across
// every worker's target.
type countingMaze struct {
	*mazeTarget
	hits *atomic.Int64
}

func (c countingMaze) Run(ctx context.Context, in []byte) (Outcome, error) {
	out, err := c.mazeTarget.Run(ctx, in)
	if len(out.Findings) > 0 {
		c.hits.Add(1)
	}
	return out, err
}

func TestSeveralWorkers(t *testing.T) {
	// Which worker runs what depends on scheduling, so nothing here waits
	// for the workers to solve anything: the seed solves the maze, and
	// nearly every mutation that leaves its first three bytes alone
	// solves it again. The test is about sharing: one record however
	// often the key comes up, and the exact run budget.
	var hits atomic.Int64
	c := mazeCampaign("LAB", 0, 11, 20_000)
	c.NewTarget = func() (Target, error) { return countingMaze{newMaze("LAB", 0), &hits}, nil }
	c.Seeds = [][]byte{[]byte("LAB")}
	c.Workers = 2
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := findingKeys(sum)["maze"]; !ok {
		t.Fatal("the seed's finding was not recorded")
	}
	if hits.Load() < 2 {
		t.Fatalf("the maze came up %d times: nothing to merge", hits.Load())
	}
	if len(sum.Findings) != 1 {
		t.Fatalf("finding recorded %d times (came up %d times)", len(sum.Findings), hits.Load())
	}
	// Runs budget is exact for fuzzing runs; minimization may add a few.
	if sum.Execs < 20_000 {
		t.Fatalf("execs %d below the run budget", sum.Execs)
	}
}

func TestCancelAndBudgetStopCleanly(t *testing.T) {
	c := mazeCampaign("LABELCOV-IS-A-LONG-MAZE", 0, 1, 0)
	c.Budget = 150 * time.Millisecond
	// No wall-clock assertion (a loaded machine makes any bound flaky): a
	// campaign that ignored its budget would run into this backstop and
	// stop "canceled", not "budget".
	backstop, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	sum, err := c.Run(backstop)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stop != "budget" {
		t.Fatalf("stop %q, want budget", sum.Stop)
	}
	// Cancelled after its 50th run, not after a time: under load a timer
	// could fire before the first run.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	newMazeTarget := c.NewTarget
	c.NewTarget = func() (Target, error) {
		tg, err := newMazeTarget()
		return &cancelAfter{Target: tg, n: 50, cancel: cancel}, err
	}
	c.Budget = 0
	c.Out = t.TempDir()
	sum, err = c.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stop != "canceled" || sum.Execs == 0 {
		t.Fatalf("stop %q execs %d", sum.Stop, sum.Execs)
	}
	var st StatsFile
	if ok, err := (&store{dir: sum.Dir}).readJSON(StatsName, &st); !ok || err != nil || len(st.Samples) == 0 {
		t.Fatalf("stats.json not saved on cancel: %v %v", ok, err)
	}
}

// cancelAfter cancels its campaign's context once its target has run n
// times.
type cancelAfter struct {
	Target
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Run(ctx context.Context, input []byte) (Outcome, error) {
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return c.Target.Run(ctx, input)
}

func TestBrokenTargetStopsWithError(t *testing.T) {
	c := Campaign{NewTarget: func() (Target, error) { return &brokenTarget{}, nil }, Runs: 10}
	_, err := c.Run(context.Background())
	if !errors.Is(err, errBroken) {
		t.Fatalf("err = %v, want wrapping %v", err, errBroken)
	}
	c = Campaign{NewTarget: func() (Target, error) { return nil, errBroken }}
	if _, err := c.Run(context.Background()); !errors.Is(err, errBroken) {
		t.Fatalf("factory error %v", err)
	}
	if _, err := (Campaign{}).Run(context.Background()); err == nil {
		t.Fatal("nil NewTarget accepted")
	}
}

// Progress lines look like go test -fuzz's, and the coverage callback sees
// every kept input exactly once.
func TestProgressAndCoverageCallback(t *testing.T) {
	var progress syncBuffer
	var seen [][]byte
	c := mazeCampaign("LABELCOV-IS-A-LONG-MAZE", 0, 1, 0)
	c.Budget = 300 * time.Millisecond
	c.StatsInterval = 10 * time.Millisecond
	c.ProgressInterval = 50 * time.Millisecond
	c.Progress = &progress
	c.Coverage = func(s Snapshot) map[string]Figure {
		seen = append(seen, s.New...)
		return map[string]Figure{"branches": {Covered: len(seen), Total: 99}}
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lines := regexp.MustCompile(`(?m)^fuzz: elapsed: \d+s, execs: \d+ \(\d+/sec\), corpus: \d+ \(\d+ this session\), features: \d+, branches: \d+/99, findings: 0$`).FindAllString(progress.String(), -1)
	if len(lines) < 2 {
		t.Fatalf("%d status lines in:\n%s", len(lines), progress.String())
	}
	if len(seen) != sum.Corpus {
		t.Fatalf("callback saw %d new inputs, corpus has %d", len(seen), sum.Corpus)
	}
	for i := range seen {
		if !bytes.Equal(seen[i], sum.Inputs[i]) {
			t.Fatalf("input %d seen as %q, queue has %q", i, seen[i], sum.Inputs[i])
		}
	}
	if sum.Coverage["branches"] != (Figure{Covered: sum.Corpus, Total: 99}) {
		t.Fatalf("summary coverage %v", sum.Coverage)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// stuckTarget blocks until its run is cancelled on inputs starting with 'H',
// as a plan stuck in a slow builtin would; other inputs run at once.
type stuckTarget struct{ constTarget }

func (s *stuckTarget) Run(ctx context.Context, in []byte) (Outcome, error) {
	if len(in) > 0 && in[0] == 'H' {
		<-ctx.Done()
		return Outcome{}, ctx.Err()
	}
	return Outcome{}, nil
}

// TestRunTimeoutIsAHangFinding: a run that never ends becomes a saved
// "hang" finding, and the campaign goes on to its run budget.
func TestRunTimeoutIsAHangFinding(t *testing.T) {
	out := t.TempDir()
	c := Campaign{
		NewTarget: func() (Target, error) { return &stuckTarget{constTarget{counters: make([]uint8, 4)}}, nil },
		// The stuck seed first: the hang key is recorded at the first
		// hang, and a run of "ok" that a loaded machine delays past
		// 20 ms must not be the one that records it.
		Seeds:      [][]byte{[]byte("Hang"), []byte("ok")},
		Runs:       500,
		RunTimeout: 20 * time.Millisecond,
		Out:        out,
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Stop != "runs" {
		t.Errorf("stop %q, want runs: the campaign must go on after a hang", sum.Stop)
	}
	f, ok := findingKeys(sum)[HangCategory]
	if !ok {
		t.Fatalf("no hang finding in %+v", sum.Findings)
	}
	data, err := os.ReadFile(f.Input)
	if err != nil || len(data) == 0 || data[0] != 'H' {
		t.Fatalf("saved hang input %q (%v)", data, err)
	}
}
