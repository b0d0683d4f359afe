package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"time"
)

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

	// The run in progress, as the watchdog sees it (guarded by runMu).
	runMu     sync.Mutex
	running   bool
	seq       uint64             // runs started
	hung      bool               // the watchdog cancelled the run
	runCtx    context.Context    // the current run's context, a child of runParent
	runParent context.Context    // the context runCtx derives from
	cancelRun context.CancelFunc // cancels runCtx
}

// run runs one input under the per-run time limit. hung reports that the
// watchdog cut the run short; then out and err mean nothing.
func (w *worker) run(ctx context.Context, data []byte) (out Outcome, hung bool, err error) {
	if w.e.c.RunTimeout < 0 {
		out, err = w.t.Run(ctx, data)
		return out, false, err
	}
	w.runMu.Lock()
	if w.runCtx == nil || w.runParent != ctx {
		if w.cancelRun != nil {
			w.cancelRun()
		}
		w.runCtx, w.cancelRun = context.WithCancel(ctx)
		w.runParent = ctx
	}
	runCtx := w.runCtx
	w.running = true
	w.seq++
	w.runMu.Unlock()

	out, err = w.t.Run(runCtx, data)

	w.runMu.Lock()
	w.running = false
	hung, w.hung = w.hung, false
	if hung {
		w.runCtx = nil // cancelled: the next run needs a fresh one
	}
	w.runMu.Unlock()
	if hung && ctx.Err() == nil {
		return Outcome{}, true, nil
	}
	return out, false, err
}

// watchdogTicks is how many watchdog ticks make up the time limit: a run
// seen running at watchdogTicks+1 consecutive ticks took at least the limit.
const watchdogTicks = 4

// watchdog cancels runs that exceed limit, until done is closed. It is the
// only clock of runs (the VM never reads one), and keeps the clock out of the
// workers' hot path: it counts its own ticks per run instead of timing them.
func watchdog(limit time.Duration, ws []*worker, done <-chan struct{}) {
	if limit < 0 {
		return
	}
	tick := time.NewTicker(max(limit/watchdogTicks, time.Millisecond))
	defer tick.Stop()
	type seen struct {
		seq   uint64
		ticks int
	}
	last := make([]seen, len(ws))
	for {
		select {
		case <-done:
			for _, w := range ws {
				w.runMu.Lock()
				if w.cancelRun != nil {
					w.cancelRun()
				}
				w.runMu.Unlock()
			}
			return
		case <-tick.C:
			for i, w := range ws {
				w.runMu.Lock()
				switch {
				case !w.running || w.seq != last[i].seq:
					last[i] = seen{seq: w.seq}
				case !w.hung:
					if last[i].ticks++; last[i].ticks >= watchdogTicks {
						w.hung = true
						w.cancelRun()
					}
				}
				w.runMu.Unlock()
			}
		}
	}
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
	out, hung, err := w.run(ctx, data)
	if hung {
		// The run's counters are cut short: never kept, only recorded.
		e.execs.Add(1)
		if w.known[HangCategory] {
			return false, nil
		}
		w.known[HangCategory] = true
		f := Finding{Category: HangCategory, Detail: fmt.Sprintf("a run exceeded the time limit of %s", e.c.RunTimeout)}
		return false, w.record(ctx, f, append([]byte(nil), data...))
	}
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
		name = fmt.Sprintf("id:%06d,time:0,execs:0,orig:%s", id, Slug(src.seed))
	case src.sync != "":
		name = fmt.Sprintf("id:%06d,sync:%s,src:%06d", id, Slug(src.sync), src.syncID)
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
	// A hang is not minimized: every try could cost the whole time limit.
	if e.c.MinimizeRuns > 0 && f.Category != HangCategory {
		keep := func(cand []byte) (bool, error) {
			out, hung, err := w.run(ctx, cand)
			if err != nil {
				return false, err
			}
			e.execs.Add(1)
			return !hung && out.HasKey(key), nil
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
		name := fmt.Sprintf("id:%06d,cat:%s,time:%d,execs:%d", id, Slug(key), int64(rec.TimeS*1000), rec.Execs)
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
