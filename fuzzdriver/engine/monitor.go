package engine

import (
	"context"
	"errors"
	"sort"
	"time"
)

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
			s, added := e.sample(now)
			ticks++
			// Ticks jitter; half a tick of slack keeps "every 3s" at 3s, not 4s.
			slack := e.c.StatsInterval / 2
			if e.c.Progress != nil && now.Sub(lastProgress) >= e.c.ProgressInterval-slack {
				lastProgress = now
				e.outMu.Lock()
				writeProgress(e.c.Progress, s, added)
				e.outMu.Unlock()
			}
			if now.Sub(lastSync) >= e.c.SyncInterval-slack {
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

// sample appends one point to the time series (monitor goroutine, or the
// end of Run after the monitor stopped). added is the number of inputs kept
// this session, taken under the same lock as the sample's corpus so that
// the two agree.
func (e *engine) sample(now time.Time) (s Sample, added int) {
	e.mu.Lock()
	snap := Snapshot{Buckets: e.cov.Bits(), New: e.pending, Corpus: len(e.corpus.entries)}
	e.pending = nil
	added = e.added
	s = Sample{
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
	return s, added
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
	last, added := e.sample(time.Now())
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
		Execs:     last.Execs,
		ElapsedS:  last.ElapsedS,
		SessionS:  last.ElapsedS - e.prevTime,
		Corpus:    len(e.corpus.entries),
		NewInputs: added,
		Features:  e.cov.Features(),
		Coverage:  last.Coverage,
		Findings:  e.recordsLocked(),
	}
	if sum.SessionS > 0 {
		sum.ExecsPerSec = float64(e.execs.Load()) / sum.SessionS
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
