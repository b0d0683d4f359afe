package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults for the zero values of Campaign fields.
const (
	DefaultMaxLen           = 1024
	DefaultInstance         = "labelcov"
	DefaultMinimizeRuns     = 4096
	DefaultStatsInterval    = time.Second
	DefaultProgressInterval = 3 * time.Second
	DefaultSyncInterval     = 10 * time.Second
	DefaultRunTimeout       = time.Second
)

// HangCategory is the finding category of a run that exceeded
// Campaign.RunTimeout (AFL++ calls these hangs too).
const HangCategory = "hang"

// Campaign describes one fuzzing campaign of the built-in engine. The zero
// value of every field but NewTarget is usable. A Campaign is a plain value:
// Run does not modify it and may be called again (on the same Out it resumes).
type Campaign struct {
	// NewTarget makes one Target per worker (called Workers times).
	NewTarget func() (Target, error)

	Workers int           // goroutines, each with its own Target; default 1
	Seed    uint64        // every random choice derives from it
	Budget  time.Duration // stop after this long (0: no time limit)
	Runs    int64         // stop after this many runs of inputs (0: no limit); seeds and
	// a resumed queue always run and count; minimizing findings does not count
	MaxLen int // longest input produced; default DefaultMaxLen
	// RunTimeout is the wall-clock limit of one run: a run still going
	// after it is cancelled (through its context) and recorded as a
	// HangCategory finding, and the campaign goes on. Step budgets bound
	// the VM's work; this catches what they miss (a slow builtin, a
	// target that blocks). Default DefaultRunTimeout; negative: no limit.
	RunTimeout time.Duration

	// Corpus is a directory of seed inputs (every regular file, in name
	// order); Seeds are more seeds. With neither, the campaign starts from
	// the empty input.
	Corpus string
	Seeds  [][]byte
	// Dict is a dictionary of tokens the mutator writes over inputs or
	// inserts (Mutator.SetDict): the constants the target compares with.
	Dict [][]byte

	// Out is the sync directory (AFL's -o); the campaign lives in
	// Out/Instance. Empty: the campaign is kept in memory only.
	Out      string
	Instance string // default DefaultInstance
	// Main marks the instance as AFL++'s main node (writes is_main_node), so
	// AFL++ secondaries (-S) import its queue.
	Main bool

	// Objects counts the objects of an input; findings are minimized to the
	// fewest objects, then the fewest bytes. Nil: fewest bytes.
	Objects ObjectCount
	// MinimizeRuns bounds the runs spent minimizing one finding; default
	// DefaultMinimizeRuns; negative: do not minimize.
	MinimizeRuns int
	// SaveFinding, when set, is called after a finding's input was written
	// to path, e.g. to write a readable path+".env" beside it.
	SaveFinding func(path string, input []byte, rec FindingRecord) error

	// Coverage supplies coverage figures for progress lines, stats.json and
	// the summary (nil: only the engine's own features/counters).
	Coverage CoverageFunc
	// Progress receives a status line every ProgressInterval and a line per
	// new finding (nil: silent).
	Progress         io.Writer
	ProgressInterval time.Duration // default DefaultProgressInterval
	StatsInterval    time.Duration // default DefaultStatsInterval
	SyncInterval     time.Duration // default DefaultSyncInterval
}

// engine is the state of one running campaign.
type engine struct {
	c     Campaign
	store *store // nil in memory

	mu          sync.Mutex // guards everything below up to the atomics
	corpus      corpus
	cov         Coverage
	findings    map[string]*FindingRecord
	order       []*FindingRecord
	nextID      int
	nextFinding int
	pending     [][]byte // inputs kept since the last Coverage call
	added       int      // inputs kept this session
	runErr      error

	claims   atomic.Int64 // runs claimed against Runs
	execs    atomic.Int64 // every run of the target (minimization too)
	stop     atomic.Bool
	syncDue  atomic.Bool
	start    time.Time
	prevTime float64 // campaign time and execs before this session
	prevExec int64
	outMu    sync.Mutex // serializes Progress writes
	stats    StatsFile
}

// deriveSeed gives worker i its own stream: splitmix64 of seed and i, so
// nearby seeds and workers do not produce correlated streams.
func deriveSeed(seed uint64, i int) uint64 {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (c Campaign) withDefaults() Campaign {
	if c.Workers <= 0 {
		c.Workers = 1
	}
	if c.MaxLen <= 0 {
		c.MaxLen = DefaultMaxLen
	}
	if c.Instance == "" {
		c.Instance = DefaultInstance
	}
	if c.MinimizeRuns == 0 {
		c.MinimizeRuns = DefaultMinimizeRuns
	}
	if c.ProgressInterval <= 0 {
		c.ProgressInterval = DefaultProgressInterval
	}
	if c.StatsInterval <= 0 {
		c.StatsInterval = DefaultStatsInterval
	}
	if c.SyncInterval <= 0 {
		c.SyncInterval = DefaultSyncInterval
	}
	if c.RunTimeout == 0 {
		c.RunTimeout = DefaultRunTimeout
	}
	return c
}

// Run runs the campaign until Budget or Runs is spent or ctx is cancelled,
// then saves everything and returns the summary. Cancellation is a normal
// end (Summary.Stop "canceled", nil error). Errors are reserved for broken
// targets, bad seeds and unwritable campaign directories; once fuzzing has
// started, the summary of what was done is returned with the error
// (Summary.Stop "error"). Targets that implement io.Closer are closed.
func (c Campaign) Run(ctx context.Context) (*Summary, error) {
	c = c.withDefaults()
	if c.NewTarget == nil {
		return nil, errors.New("fuzzdriver: Campaign.NewTarget is nil")
	}
	e := &engine{c: c, findings: map[string]*FindingRecord{}}
	e.stats = StatsFile{Version: StatsVersion, Instance: c.Instance, Seed: c.Seed, Workers: c.Workers}
	if c.Out != "" {
		s, err := openStore(c.Out, c.Instance, c.Main)
		if err != nil {
			return nil, err
		}
		unlock, err := lockDir(s.dir)
		if err != nil {
			return nil, err
		}
		defer unlock()
		e.store = s
		if err := s.removeTemps(); err != nil {
			return nil, err
		}
		if err := e.loadState(); err != nil {
			return nil, err
		}
	}
	workers := make([]*worker, c.Workers)
	for i := range workers {
		t, err := c.NewTarget()
		if err != nil {
			closeTargets(workers[:i])
			return nil, fmt.Errorf("fuzzdriver: make target %d: %w", i, err)
		}
		ws := deriveSeed(c.Seed, i)
		workers[i] = &worker{
			e: e, id: i, t: t,
			rng:   rand.New(rand.NewPCG(ws, ^ws)),
			mut:   NewMutator(ws+1, c.MaxLen),
			known: map[string]bool{},
		}
		workers[i].mut.SetDict(c.Dict)
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if c.Budget > 0 {
		var cancelT context.CancelFunc
		runCtx, cancelT = context.WithTimeout(runCtx, c.Budget)
		defer cancelT()
	}
	e.start = time.Now()
	if e.stats.Started == "" {
		e.stats.Started = e.start.UTC().Format(time.RFC3339)
	}

	// The monitor samples stats, prints progress and schedules syncs; it only
	// observes, so it cannot disturb a replay.
	e.syncDue.Store(true) // import from peers once before fuzzing
	monDone := make(chan struct{})
	monStop := make(chan struct{})
	go func() {
		defer close(monDone)
		e.monitor(runCtx, monStop)
	}()
	dogDone := make(chan struct{})
	go func() {
		defer close(dogDone)
		watchdog(c.RunTimeout, workers, monStop)
	}()

	err := e.loadCorpus(runCtx, workers[0])
	if err == nil && c.Progress != nil {
		e.mu.Lock()
		n, known := len(e.corpus.entries), len(e.order)
		e.mu.Unlock()
		e.outMu.Lock()
		// Campaign time, as every later line: a resumed campaign does not
		// start again at 0s.
		fmt.Fprintf(c.Progress, "fuzz: elapsed: %s, corpus: %d loaded, %d findings known, fuzzing with %d workers, seed %d\n",
			(time.Duration(e.elapsed()) * time.Second).String(), n, known, c.Workers, c.Seed)
		e.outMu.Unlock()
	}
	if err == nil {
		var wg sync.WaitGroup
		for _, w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				w.loop(runCtx)
			}()
		}
		wg.Wait()
	}
	close(monStop)
	<-monDone
	<-dogDone

	e.mu.Lock()
	if err == nil {
		err = e.runErr
	}
	e.mu.Unlock()
	sum, ferr := e.finish(ctx, runCtx)
	ferr = errors.Join(ferr, closeTargets(workers))
	if err != nil {
		sum.Stop = "error"
	}
	return sum, errors.Join(err, ferr)
}

// closeTargets closes the targets that implement io.Closer (a target may
// hold a worker process or files).
func closeTargets(ws []*worker) error {
	var err error
	for _, w := range ws {
		if cl, ok := w.t.(io.Closer); ok {
			if cerr := cl.Close(); cerr != nil {
				err = errors.Join(err, fmt.Errorf("fuzzdriver: close target: %w", cerr))
			}
		}
	}
	return err
}

// elapsed is campaign time, counting earlier sessions of a resumed campaign.
func (e *engine) elapsed() float64 { return e.prevTime + time.Since(e.start).Seconds() }

// totalExecs counts earlier sessions too.
func (e *engine) totalExecs() int64 { return e.prevExec + e.execs.Load() }

// loadState reads findings.json and stats.json of a resumed campaign.
func (e *engine) loadState() error {
	ff, _, err := readFindingsIndex(e.store.dir)
	if err != nil {
		return fmt.Errorf("fuzzdriver: %w", err)
	}
	for i := range ff.Findings {
		r := ff.Findings[i]
		r.New = false
		if r.Input != "" {
			if data, err := os.ReadFile(r.Input); err == nil {
				r.Data = data
			}
		}
		if _, dup := e.findings[r.Key]; dup {
			continue
		}
		e.findings[r.Key] = &r
		e.order = append(e.order, &r)
	}
	// Finding ids continue after the highest one on disk, whatever the index says.
	files, err := listIDs(filepath.Join(e.store.dir, FindingsDir))
	if err != nil {
		return err
	}
	for _, f := range files {
		e.nextFinding = max(e.nextFinding, f.id+1)
	}
	var st StatsFile
	ok, err := e.store.readJSON(StatsName, &st)
	if err != nil {
		return err
	}
	if ok && st.Version == StatsVersion {
		e.stats.Started = st.Started
		e.stats.Samples = st.Samples
		if n := len(st.Samples); n > 0 {
			e.prevTime = st.Samples[n-1].ElapsedS
			e.prevExec = st.Samples[n-1].Execs
		}
	}
	return nil
}

// loadCorpus replays a resumed queue, then runs the seeds. Queue entries are
// kept whatever they cover (their ids are already taken); seeds are kept
// when they add coverage, and the first input is kept anyway so that there
// is always something to mutate.
func (e *engine) loadCorpus(ctx context.Context, w *worker) error {
	if e.store != nil {
		files, err := listIDs(filepath.Join(e.store.dir, QueueDir))
		if err != nil {
			return err
		}
		for _, f := range files {
			data, err := readInput(f.path)
			if err != nil {
				return err
			}
			e.claims.Add(1)
			if _, err := w.exec(ctx, data, origin{resumed: f}); err != nil {
				return err
			}
			e.nextID = max(e.nextID, f.id+1)
		}
	}
	type seed struct {
		name string
		data []byte
	}
	var seeds []seed
	if e.c.Corpus != "" {
		ents, err := os.ReadDir(e.c.Corpus)
		if err != nil {
			return fmt.Errorf("fuzzdriver: seed corpus: %w", err)
		}
		for _, ent := range ents {
			if !ent.Type().IsRegular() || ent.Name()[0] == '.' {
				continue
			}
			data, err := readInput(filepath.Join(e.c.Corpus, ent.Name()))
			if err != nil {
				return err
			}
			seeds = append(seeds, seed{ent.Name(), data})
		}
	}
	for i, s := range e.c.Seeds {
		seeds = append(seeds, seed{fmt.Sprintf("seed%d", i), s})
	}
	if len(seeds) == 0 {
		seeds = append(seeds, seed{"empty", nil})
	}
	for _, s := range seeds {
		data := s.data
		if len(data) > e.c.MaxLen {
			data = data[:e.c.MaxLen]
		}
		e.claims.Add(1) // seeds count against Runs but always run
		if _, err := w.exec(ctx, data, origin{seed: s.name}); err != nil {
			return err
		}
	}
	e.mu.Lock()
	empty := len(e.corpus.entries) == 0
	e.mu.Unlock()
	if empty && ctx.Err() == nil {
		// Every seed hung (hangs are never kept): fuzz from the empty input,
		// so the campaign goes on.
		e.claims.Add(1)
		if _, err := w.exec(ctx, nil, origin{seed: "empty"}); err != nil {
			return err
		}
	}
	return nil
}
