package afl

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// rangeBug is a target without a plan: a finding when the first 8 bytes
// (little-endian, missing bytes zero) exceed 1000 and the next 8 are
// negative, at a fixed position, as a plan's failure would be.
type rangeBug struct{ counters [4]uint8 }

func (t *rangeBug) Run(_ context.Context, input []byte) (engine.Outcome, error) {
	var word [16]byte
	copy(word[:], input)
	lo, hi := int64(binary.LittleEndian.Uint64(word[:8])), int64(binary.LittleEndian.Uint64(word[8:]))
	t.counters = [4]uint8{1, 0, 0, 0}
	if lo > 1000 && hi < 0 {
		t.counters[1] = 1
		return engine.Outcome{Findings: []engine.Finding{{Category: "range-bug", Pos: srcpos.Pos{File: "r.plan", Line: 3, Col: 7}}}}, nil
	}
	return engine.Outcome{}, nil
}

func (t *rangeBug) Counters() []uint8 { return t.counters[:] }

// countMeter counts the inputs it measures, as label coverage out of 10.
type countMeter struct{ n int }

func (m *countMeter) Add(context.Context, []byte) error { m.n++; return nil }
func (m *countMeter) Figures() map[string]engine.Figure {
	return map[string]engine.Figure{"labels": {Covered: m.n, Total: 10}}
}

func rangeCampaign() Campaign {
	return Campaign{Meter: &countMeter{}, NewTarget: func() (engine.Target, error) { return &rangeBug{}, nil }}
}

// fakeAFLOut lays out what afl-fuzz leaves in out/NAME: fuzzer_stats, a
// queue, crashes and hangs.
func fakeAFLOut(t *testing.T, out, name string, files map[string][]byte, stats string) {
	t.Helper()
	for rel, data := range files {
		path := filepath.Join(out, name, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(out, name, "fuzzer_stats"), []byte(stats), 0o644); err != nil {
		t.Fatal(err)
	}
}

func rangeInput(lo, hi int64, junk int) []byte {
	b := make([]byte, 16+junk)
	binary.LittleEndian.PutUint64(b, uint64(lo))
	binary.LittleEndian.PutUint64(b[8:], uint64(hi))
	return b
}

// TestAFLWatcherCountsLive: the progress of an AFL++ campaign counts saved
// crashes and hangs from their directories (afl-fuzz's fuzzer_stats lags by
// up to a minute) and says how old the execs figure is.
func TestAFLWatcherCountsLive(t *testing.T) {
	m := &countMeter{}
	out := t.TempDir()
	fakeAFLOut(t, out, "default", map[string][]byte{
		"queue/id:000000,time:0,execs:0,orig:seed000":        rangeInput(0, 0, 0),
		"crashes/id:000000,sig:06,src:000000,time:5,execs:9": rangeInput(2000, -1, 0),
		"crashes/id:000001,sig:06,src:000000,time:7,execs:9": rangeInput(3000, -5, 0),
		"hangs/id:000000,src:000000,time:9,execs:12":         rangeInput(1, 1, 0),
	}, "execs_done : 8\nexecs_per_sec : 4000\nlast_update : 1000\n")
	// A resumed session: the queue entry predates it.
	w := &aflWatcher{out: out, dir: t.TempDir(), names: []string{"default"}, meter: m, seen: map[string]bool{},
		since: time.Now().Add(time.Hour)}
	if err := w.scan(0); err != nil {
		t.Fatal(err)
	}
	if w.corpus != 1 || w.fresh != 0 {
		t.Errorf("corpus %d, %d new this session; want 1, 0", w.corpus, w.fresh)
	}
	// Before the fork server counted anything: fuzzer_stats, marked as old.
	s, at := w.sample(2 * time.Second)
	if s.Findings != 3 || s.Corpus != 1 || s.Execs != 8 || s.ExecsPerSec != 4 || at != 1000 {
		t.Fatalf("sample %+v (stats at %d), want 3 findings, corpus 1, 8 execs at 4/sec", s, at)
	}
	line := w.progressLine(s, at, time.Unix(1010, 0))
	for _, want := range []string{"execs: 8 (4/sec, afl-fuzz's figures of 10s ago)", "corpus: 1", "labels: ", "crashes and hangs: 3\n"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	// The fork server's live count wins over the stale fuzzer_stats.
	if err := os.WriteFile(w.execsFile("default"), []byte("508\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, at = w.sample(3 * time.Second)
	if s.Execs != 508 || s.ExecsPerSec != 500 || at != 0 {
		t.Fatalf("sample %+v (stats at %d), want 508 execs at 500/sec from the live count", s, at)
	}
	if line := w.progressLine(s, at, time.Unix(1011, 0)); !strings.Contains(line, "execs: 508 (500/sec), corpus: 1") {
		t.Errorf("progress line %q", line)
	}
}

// TestAFLFindingsMinimized: crashes are replayed and grouped by key, the
// first input of each key is minimized and saved by key in labelcov's
// directory, and afl-fuzz's hangs are hang findings.
func TestAFLFindingsMinimized(t *testing.T) {
	c := rangeCampaign()
	out := t.TempDir()
	fakeAFLOut(t, out, "main", map[string][]byte{
		"crashes/id:000000,sig:06,src:000000,time:50,execs:90": rangeInput(5000, -7, 40),
		"crashes/id:000001,sig:06,src:000000,time:20,execs:30": rangeInput(4000, -9, 30), // earlier: wins
		"hangs/id:000000,src:000000,time:70,execs:120":         rangeInput(1, 1, 0),
	}, "")
	dir := filepath.Join(out, Dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sum := &engine.Summary{}
	if err := c.findings(context.Background(), out, []string{"main"}, dir, sum); err != nil {
		t.Fatal(err)
	}
	if len(sum.Findings) != 2 {
		t.Fatalf("findings %+v, want range-bug and hang", sum.Findings)
	}
	bug, hang := sum.Findings[0], sum.Findings[1]
	if bug.Category != "range-bug" || bug.TimeS != 0.02 || bug.Original.Bytes != 46 || bug.Size.Bytes > 16 {
		t.Errorf("range-bug finding %+v: want the earliest crash, minimized", bug)
	}
	if bug.Input != filepath.Join(dir, engine.Slug(bug.Key)) {
		t.Errorf("finding input %s, want the minimized copy in %s", bug.Input, dir)
	}
	data, err := os.ReadFile(bug.Input)
	if err != nil || len(data) != bug.Size.Bytes {
		t.Fatalf("saved input %d bytes (%v), size %+v", len(data), err, bug.Size)
	}
	if out, err := c.NewTarget(); err != nil {
		t.Fatal(err)
	} else if res, err := out.Run(context.Background(), data); err != nil || !res.HasKey(bug.Key) {
		t.Errorf("minimized input does not reproduce %s: %+v %v", bug.Key, res, err)
	}
	if hang.Key != engine.HangCategory {
		t.Errorf("afl-fuzz hang recorded as %+v", hang)
	}
}

// An afl-fuzz that gave up in its dry run because every seed crashed is
// explained in a sentence, not by 8 KB of its coloured output; any other
// start failure keeps the log's tail, without terminal escapes.
func TestAFLStartError(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "afl-fuzz-main.log")
	abort := "\x1b[1;92m[+] \x1b[0mEnabled environment variable AFL_NO_UI with value 1\x1b[0m\n" +
		"\x1b[?25h\x1b[0m\x1b[1;91m\n[-] PROGRAM ABORT : \x1b[0mAll test cases time out or crash, giving up!\x1b[1;91m\n" +
		"         Location : \x1b[0mperform_dry_run(), src/afl-fuzz-init.c:1135\n"
	if err := os.WriteFile(log, []byte(abort), 0o644); err != nil {
		t.Fatal(err)
	}
	err := aflStartError("main", os.ErrProcessDone, os.ErrNotExist, log)
	for _, want := range []string{"afl-fuzz main gave up before fuzzing: every seed input is a finding or a hang", "--engine builtin", log} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if strings.Contains(err.Error(), "\x1b") || strings.Contains(err.Error(), "Enabled environment") {
		t.Errorf("error carries afl-fuzz's log:\n%q", err)
	}

	secondary := "[+] All test cases processed.\x1b[0m\n\x0f\x1b)B\x1b[?25h\x1b[0m\x1b[1;91m\n[-] PROGRAM ABORT : \x1b[0mWe need at least one valid input seed that does not crash!\n"
	if err := os.WriteFile(log, []byte(secondary), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := aflStartError("sec1", os.ErrProcessDone, os.ErrNotExist, log); !strings.Contains(err.Error(), "afl-fuzz sec1 gave up before fuzzing") {
		t.Errorf("secondary: %v", err)
	}

	other := "\x1b[1;91m[-] PROGRAM ABORT : \x1b[0mNo instrumentation detected\x0f\x1b)B\n"
	if err := os.WriteFile(log, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	err = aflStartError("main", os.ErrProcessDone, os.ErrNotExist, log)
	if !strings.Contains(err.Error(), "[-] PROGRAM ABORT : No instrumentation detected") || strings.Contains(err.Error(), "\x1b") {
		t.Errorf("other failure: %q", err)
	}
}
