package fuzzdriver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
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
)

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

	// Corpus is a directory of seed inputs (every regular file, in name
	// order); Seeds are more seeds. With neither, the campaign starts from
	// the empty input.
	Corpus string
	Seeds  [][]byte

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

// worker is one goroutine's private state.
type worker struct {
	e     *engine
	id    int
	t     Target
	rng   *rand.Rand
	mut   *Mutator
	local Coverage        // subset of e.cov: a cheap, lock-free first filter
	known map[string]bool // finding keys already recorded
	fresh []Finding       // scratch: findings of the current run with unknown keys
	buf   []byte
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
		e.store = s
		if err := e.loadState(); err != nil {
			return nil, err
		}
	}
	workers := make([]*worker, c.Workers)
	for i := range workers {
		t, err := c.NewTarget()
		if err != nil {
			return nil, fmt.Errorf("fuzzdriver: make target %d: %w", i, err)
		}
		ws := deriveSeed(c.Seed, i)
		workers[i] = &worker{
			e: e, id: i, t: t,
			rng:   rand.New(rand.NewPCG(ws, ^ws)),
			mut:   NewMutator(ws+1, c.MaxLen),
			known: map[string]bool{},
		}
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

	err := e.loadCorpus(runCtx, workers[0])
	if err == nil && c.Progress != nil {
		e.mu.Lock()
		n := len(e.corpus.entries)
		e.mu.Unlock()
		e.outMu.Lock()
		fmt.Fprintf(c.Progress, "fuzz: elapsed: 0s, corpus: %d loaded, %d findings known, fuzzing with %d workers, seed %d\n",
			n, len(e.order), c.Workers, c.Seed)
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

	e.mu.Lock()
	if err == nil {
		err = e.runErr
	}
	e.mu.Unlock()
	sum, ferr := e.finish(ctx, runCtx)
	for _, w := range workers {
		if cl, ok := w.t.(io.Closer); ok {
			if cerr := cl.Close(); cerr != nil {
				ferr = errors.Join(ferr, fmt.Errorf("fuzzdriver: close target: %w", cerr))
			}
		}
	}
	if err != nil {
		sum.Stop = "error"
	}
	return sum, errors.Join(err, ferr)
}

// elapsed is campaign time, counting earlier sessions of a resumed campaign.
func (e *engine) elapsed() float64 { return e.prevTime + time.Since(e.start).Seconds() }

// totalExecs counts earlier sessions too.
func (e *engine) totalExecs() int64 { return e.prevExec + e.execs.Load() }

// loadState reads findings.json and stats.json of a resumed campaign.
func (e *engine) loadState() error {
	var ff findingsFile
	if _, err := e.store.readJSON(FindingsName, &ff); err != nil {
		return err
	}
	for i := range ff.Findings {
		r := ff.Findings[i]
		r.New = false
		if r.Input != "" {
			r.Input = filepath.Join(e.store.dir, filepath.FromSlash(r.Input))
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
	return nil
}

// loop is one worker's fuzzing loop: pick an entry, run its energy's worth of
// mutants, repeat.
func (w *worker) loop(ctx context.Context) {
	e := w.e
	for !e.stop.Load() {
		if w.id == 0 && e.syncDue.Swap(false) {
			if err := w.syncPeers(ctx); err != nil {
				e.fail(err)
				return
			}
		}
		e.mu.Lock()
		parent, other := e.corpus.pick(w.rng)
		energy := 0
		if parent != nil {
			energy = parent.energy() // reads fields the lock guards
		}
		e.mu.Unlock()
		if parent == nil {
			return
		}
		for n := energy; n > 0 && !e.stop.Load(); n-- {
			if !e.claim() {
				return
			}
			var op Op
			w.buf, op = w.mut.Mutate(w.buf, parent.data, other.data)
			src := origin{parent: parent, op: op}
			if op == OpSplice {
				src.other = other
			}
			if _, err := w.exec(ctx, w.buf, src); err != nil {
				e.fail(err)
				return
			}
		}
	}
}

// claim takes one run from the Runs budget.
func (e *engine) claim() bool {
	if e.c.Runs > 0 && e.claims.Add(1) > e.c.Runs {
		e.stop.Store(true)
		return false
	}
	return true
}

// fail records the first fatal error and stops every worker.
func (e *engine) fail(err error) {
	e.mu.Lock()
	if e.runErr == nil {
		e.runErr = err
	}
	e.mu.Unlock()
	e.stop.Store(true)
}

// origin says where an input came from; it names queue files.
type origin struct {
	seed    string    // seed name
	resumed queueFile // a file of our own queue (resume)
	sync    string    // peer instance
	syncID  int       // id in the peer's queue
	parent  *entry    // mutated entry
	other   *entry    // splice partner
	op      Op        // top-level operator
}

// exec runs one input and acts on the result: keep it if it reaches a new
// (counter, bucket) pair, record findings whose key is new. It reports
// whether the input was kept. A run cut short by cancellation is ignored.
func (w *worker) exec(ctx context.Context, data []byte, src origin) (bool, error) {
	e := w.e
	out, err := w.t.Run(ctx, data)
	if err != nil {
		if ctx.Err() != nil {
			e.stop.Store(true)
			return false, nil
		}
		return false, fmt.Errorf("fuzzdriver: target: %w", err)
	}
	e.execs.Add(1)
	counters := w.t.Counters()
	kept := false
	if src.resumed.name != "" || w.local.HasNew(counters) {
		var err error
		kept, err = e.consider(w, data, counters, src)
		if err != nil {
			return kept, err
		}
	}
	// Copy unknown findings first: minimizing runs the target again, which
	// may reuse the storage of out.Findings.
	w.fresh = w.fresh[:0]
	for _, f := range out.Findings {
		if key := f.Key(); !w.known[key] {
			w.known[key] = true
			w.fresh = append(w.fresh, f)
		}
	}
	if len(w.fresh) > 0 {
		data = append([]byte(nil), data...) // data may be the mutation buffer
		for _, f := range append([]Finding(nil), w.fresh...) {
			if err := w.record(ctx, f, data); err != nil {
				return kept, err
			}
		}
	}
	return kept, nil
}

// consider decides under the lock whether counters are new for the campaign
// and keeps data if so. Only the counters decide.
func (e *engine) consider(w *worker, data, counters []uint8, src origin) (bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	newPairs, newCounters := e.cov.Merge(counters)
	w.local.copyFrom(&e.cov)
	keep := newPairs > 0 || src.resumed.name != "" || (src.seed != "" && len(e.corpus.entries) == 0)
	if !keep {
		return false, nil
	}
	ent := &entry{data: append([]byte(nil), data...)}
	if src.resumed.name != "" {
		ent.id, ent.name = src.resumed.id, src.resumed.name
	} else {
		ent.id = e.nextID
		e.nextID++
		ent.name = e.queueName(ent.id, src, newCounters > 0)
		if e.store != nil {
			if _, err := e.store.writeFile(filepath.Join(QueueDir, ent.name), ent.data); err != nil {
				return false, err
			}
		}
		e.added++
	}
	e.corpus.add(ent, counters)
	e.pending = append(e.pending, ent.data)
	return true, nil
}

// queueName builds an AFL++-style queue file name.
func (e *engine) queueName(id int, src origin, cov bool) string {
	var name string
	switch {
	case src.seed != "":
		name = fmt.Sprintf("id:%06d,time:0,execs:0,orig:%s", id, slug(src.seed))
	case src.sync != "":
		name = fmt.Sprintf("id:%06d,sync:%s,src:%06d", id, slug(src.sync), src.syncID)
	default:
		parent := fmt.Sprintf("%06d", src.parent.id)
		if src.other != nil {
			parent += fmt.Sprintf("+%06d", src.other.id)
		}
		name = fmt.Sprintf("id:%06d,src:%s,time:%d,execs:%d,op:%s", id, parent,
			int64(e.elapsed()*1000), e.totalExecs(), src.op)
	}
	if cov {
		name += ",+cov"
	}
	return name
}

// record handles a finding whose key this worker has not seen: the first
// worker to see the key claims it, minimizes the input and saves it.
func (w *worker) record(ctx context.Context, f Finding, data []byte) error {
	e := w.e
	key := f.Key()
	e.mu.Lock()
	if _, ok := e.findings[key]; ok {
		e.mu.Unlock()
		return nil
	}
	objects := e.c.Objects
	rec := &FindingRecord{
		Key: key, Category: f.Category, Pos: f.Pos, Detail: f.Detail,
		TimeS: e.elapsed(), Execs: e.totalExecs(), New: true,
		Original: SizeOf(data, objects),
	}
	e.findings[key] = rec
	e.order = append(e.order, rec)
	id := e.nextFinding
	e.nextFinding++
	e.mu.Unlock()

	best := append([]byte(nil), data...)
	if e.c.MinimizeRuns > 0 {
		keep := func(cand []byte) (bool, error) {
			out, err := w.t.Run(ctx, cand)
			if err != nil {
				return false, err
			}
			e.execs.Add(1)
			return out.hasKey(key), nil
		}
		m, _, err := Minimize(ctx, best, keep, objects, e.c.MinimizeRuns)
		if err != nil && ctx.Err() == nil {
			return fmt.Errorf("fuzzdriver: finding %s: %w", key, err)
		}
		best = m // on cancellation: the smallest input found so far
	}

	e.mu.Lock()
	rec.Data = best
	rec.Size = SizeOf(best, objects)
	var path string
	if e.store != nil {
		name := fmt.Sprintf("id:%06d,cat:%s,time:%d,execs:%d", id, slug(key), int64(rec.TimeS*1000), rec.Execs)
		var err error
		if path, err = e.store.writeFile(filepath.Join(FindingsDir, name), best); err != nil {
			e.mu.Unlock()
			return err
		}
		rec.Input = path
		if err := e.store.writeJSON(FindingsName, findingsFile{Version: StatsVersion, Findings: e.fileRecordsLocked()}); err != nil {
			e.mu.Unlock()
			return err
		}
	}
	snapshot := *rec
	e.mu.Unlock()

	if e.c.Progress != nil {
		e.outMu.Lock()
		fmt.Fprintf(e.c.Progress, "fuzz: new finding %s after %.1fs (%d bytes, %d objects) %s\n",
			key, snapshot.TimeS, snapshot.Size.Bytes, snapshot.Size.Objects, path)
		e.outMu.Unlock()
	}
	if e.c.SaveFinding != nil && path != "" {
		if err := e.c.SaveFinding(path, best, snapshot); err != nil {
			return fmt.Errorf("fuzzdriver: save finding %s: %w", key, err)
		}
	}
	return nil
}

// recordsLocked copies the finding records in discovery order.
func (e *engine) recordsLocked() []FindingRecord {
	out := make([]FindingRecord, 0, len(e.order))
	for _, r := range e.order {
		out = append(out, *r)
	}
	return out
}

// fileRecordsLocked is recordsLocked with inputs relative to the instance
// directory, as the JSON files store them, so a campaign directory can move.
func (e *engine) fileRecordsLocked() []FindingRecord {
	recs := e.recordsLocked()
	for i := range recs {
		if rel, err := filepath.Rel(e.store.dir, recs[i].Input); err == nil && recs[i].Input != "" {
			recs[i].Input = filepath.ToSlash(rel)
		}
	}
	return recs
}

// syncPeers imports new inputs from the other instances of the sync
// directory (AFL++ or built-in), keeping those that add coverage, and
// remembers how far it got in .synced/<peer> as AFL++ does.
func (w *worker) syncPeers(ctx context.Context) error {
	e := w.e
	if e.store == nil {
		return nil
	}
	peers, err := e.store.peers()
	if err != nil {
		return err
	}
	for _, p := range peers {
		next := e.store.synced(p)
		files, err := listIDs(filepath.Join(e.store.sync, p, QueueDir))
		if err != nil {
			return err
		}
		last := next
		for _, f := range files {
			if uint32(f.id) < next || e.stop.Load() {
				continue
			}
			data, err := readInput(f.path)
			if err != nil {
				continue // the peer may be rewriting its queue; AFL++ tolerates this too
			}
			if len(data) > e.c.MaxLen {
				data = data[:e.c.MaxLen]
			}
			if _, err := w.exec(ctx, data, origin{sync: p, syncID: f.id}); err != nil {
				return err
			}
			last = uint32(f.id) + 1
		}
		if last != next {
			if err := e.store.setSynced(p, last); err != nil {
				return err
			}
		}
	}
	return nil
}

// monitor runs beside the workers: it stops them when ctx ends, samples
// stats every StatsInterval, prints progress and schedules syncs.
func (e *engine) monitor(ctx context.Context, done <-chan struct{}) {
	tick := time.NewTicker(e.c.StatsInterval)
	defer tick.Stop()
	lastProgress, lastSync := time.Now(), time.Now()
	var ticks int
	for {
		select {
		case <-ctx.Done():
			e.stop.Store(true)
			<-done
			return
		case <-done:
			return
		case now := <-tick.C:
			s := e.sample(now)
			ticks++
			if e.c.Progress != nil && now.Sub(lastProgress) >= e.c.ProgressInterval {
				lastProgress = now
				e.outMu.Lock()
				writeProgress(e.c.Progress, s, e.addedCount())
				e.outMu.Unlock()
			}
			if now.Sub(lastSync) >= e.c.SyncInterval {
				lastSync = now
				e.syncDue.Store(true)
			}
			// Rewriting the whole file costs O(samples); write less often as
			// it grows so long campaigns stay cheap.
			if e.store != nil && ticks%(1+len(e.stats.Samples)/300) == 0 {
				if err := e.writeStats(); err != nil {
					e.fail(err)
				}
			}
		}
	}
}

func (e *engine) addedCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.added
}

// sample appends one point to the time series (monitor goroutine, or the
// end of Run after the monitor stopped).
func (e *engine) sample(now time.Time) Sample {
	e.mu.Lock()
	snap := Snapshot{Buckets: e.cov.Bits(), New: e.pending, Corpus: len(e.corpus.entries)}
	e.pending = nil
	s := Sample{
		ElapsedS: e.prevTime + now.Sub(e.start).Seconds(),
		Execs:    e.totalExecs(),
		Corpus:   len(e.corpus.entries),
		Features: e.cov.Features(),
		Counters: e.cov.CountersHit(),
		Findings: len(e.order),
	}
	e.mu.Unlock()
	if e.c.Coverage != nil {
		s.Coverage = e.c.Coverage(snap)
	}
	var prev Sample
	if n := len(e.stats.Samples); n > 0 {
		prev = e.stats.Samples[n-1]
	}
	if dt := s.ElapsedS - prev.ElapsedS; dt > 0 {
		s.ExecsPerSec = float64(s.Execs-prev.Execs) / dt
	}
	e.stats.Samples = append(e.stats.Samples, s)
	return s
}

func (e *engine) writeStats() error {
	e.mu.Lock()
	e.stats.Findings = e.fileRecordsLocked()
	st := e.stats
	e.mu.Unlock()
	return e.store.writeJSON(StatsName, st)
}

// finish takes the last sample, writes stats.json and findings.json and
// builds the summary.
func (e *engine) finish(parent, runCtx context.Context) (*Summary, error) {
	last := e.sample(time.Now())
	var err error
	if e.store != nil {
		err = e.writeStats()
		e.mu.Lock()
		if werr := e.store.writeJSON(FindingsName, findingsFile{Version: StatsVersion, Findings: e.fileRecordsLocked()}); werr != nil {
			err = errors.Join(err, werr)
		}
		e.mu.Unlock()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	sum := &Summary{
		Execs:    last.Execs,
		ElapsedS: last.ElapsedS,
		Corpus:   len(e.corpus.entries),
		Features: e.cov.Features(),
		Coverage: last.Coverage,
		Findings: e.recordsLocked(),
	}
	if secs := time.Since(e.start).Seconds(); secs > 0 {
		sum.ExecsPerSec = float64(e.execs.Load()) / secs
	}
	if sum.Coverage == nil {
		sum.Coverage = map[string]Figure{}
	}
	switch {
	case parent.Err() != nil:
		sum.Stop = "canceled"
	case runCtx.Err() != nil:
		sum.Stop = "budget"
	default:
		sum.Stop = "runs"
	}
	if e.store != nil {
		sum.Dir = e.store.dir
	}
	ents := append([]*entry(nil), e.corpus.entries...)
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].id < ents[j].id })
	for _, ent := range ents {
		sum.Inputs = append(sum.Inputs, ent.data)
	}
	return sum, err
}
