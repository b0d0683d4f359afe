package afl

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

// Dir is labelcov's directory inside an afl-fuzz output directory (the
// default of Campaign.Dir): summary.json and stats.json of the last
// session, the worker's setup, each finding key's minimized input (with its
// .env beside it when there is a world) and afl-fuzz's own output,
// afl-fuzz-NAME.log. afl-fuzz ignores it (it has no queue/).
const Dir = "labelcov-afl"

// Meter measures the coverage of the inputs an afl-fuzz campaign keeps
// (its queues), as the built-in engine's CoverageFunc does.
type Meter interface {
	// Add replays one kept input.
	Add(ctx context.Context, input []byte) error
	// Figures is the coverage so far, by name.
	Figures() map[string]engine.Figure
}

// Campaign is an afl-fuzz campaign on a target command: afl-fuzz runs
// Target once per instance; labelcov reads their progress live, measures
// their queues with Meter, and replays and minimizes their crashes with
// NewTarget. It knows only counters and findings, not plans.
type Campaign struct {
	// Fuzz is the afl-fuzz binary ("": afl-fuzz on PATH).
	Fuzz string
	// Target is the command line afl-fuzz runs (labelcov afl-target ...).
	Target []string
	// Out is the campaign directory (AFL's sync directory), required;
	// Dir labelcov's directory inside it (default Dir).
	Out, Dir string
	// Workers is the number of afl-fuzz instances (default 1), Seed the
	// first instance's seed (the next ones count up).
	Workers int
	Seed    uint64
	// Budget is the wall-clock budget (afl-fuzz -V), Runs the run budget
	// (afl-fuzz -E, split over the instances); one of them is required.
	Budget time.Duration
	Runs   int64
	// RunTimeout is afl-fuzz -t unless Args has a -t (0: afl-fuzz's).
	RunTimeout time.Duration
	// Args are extra afl-fuzz arguments.
	Args []string
	// Seeds are the first inputs (at least one).
	Seeds [][]byte
	// Dict is a dictionary of tokens, written to DIR/dict.txt and given
	// to every instance as afl-fuzz -x.
	Dict [][]byte
	// Meter measures kept inputs; NewTarget runs one input as the
	// worker does (to replay and minimize crashes).
	Meter     Meter
	NewTarget func() (engine.Target, error)
	// Objects and SaveFinding are engine.Campaign's: how minimization
	// counts an input's objects and what is saved beside a finding.
	Objects     engine.ObjectCount
	SaveFinding func(path string, input []byte, rec engine.FindingRecord) error
	// Progress receives status lines every ProgressInterval (nil: silent).
	Progress         io.Writer
	ProgressInterval time.Duration
}

// Result is what a campaign did. Complete says it ran to its end (stats
// and findings written): a caller then writes its own summary.json in
// DirPath.
type Result struct {
	Summary   *engine.Summary
	Instances []InstanceStats
	DirPath   string
	Complete  bool
}

// FindFuzz is the afl-fuzz binary: name, or afl-fuzz on PATH when name is
// empty.
func FindFuzz(name string) (string, error) {
	if name != "" {
		return name, nil
	}
	path, err := exec.LookPath("afl-fuzz")
	if err != nil {
		return "", errors.New("afl-fuzz not found on PATH: install AFL++ (Debian: apt-get install afl++)")
	}
	return path, nil
}

// aflInstances names the afl-fuzz instances of n workers: one "default",
// or a main and secondaries.
func aflInstances(n int) []string {
	if n <= 1 {
		return []string{"default"}
	}
	names := []string{"main"}
	for i := 1; i < n; i++ {
		names = append(names, fmt.Sprintf("sec%d", i))
	}
	return names
}

// Run runs afl-fuzz on the target, replays its queues into the Meter while
// it runs (progress, stats.json) and at the end, then replays its crashes,
// groups them by finding key, minimizes the first input of each key and
// saves it in Dir. A campaign that ran returns its result even with an
// error.
func (o Campaign) Run(ctx context.Context) (*Result, error) {
	if o.Budget == 0 && o.Runs == 0 {
		return nil, errors.New("afl: the afl engine needs a budget or a run count")
	}
	if len(o.Target) == 0 || o.Out == "" || len(o.Seeds) == 0 || o.Meter == nil || o.NewTarget == nil {
		return nil, errors.New("afl: Campaign needs Target, Out, Seeds, Meter and NewTarget")
	}
	o.Workers = max(o.Workers, 1)
	aflFuzz, err := FindFuzz(o.Fuzz)
	if err != nil {
		return nil, err
	}
	target := o.Target
	out, err := filepath.Abs(o.Out)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(out, cmp.Or(o.Dir, Dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	names := aflInstances(o.Workers)
	seedDir, err := writeSeeds(o.Seeds)
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(seedDir)
	var dictArgs []string
	if len(o.Dict) > 0 {
		path := filepath.Join(dir, "dict.txt")
		if err := os.WriteFile(path, DictFile(o.Dict), 0o644); err != nil {
			return nil, fmt.Errorf("afl: writing the dictionary: %w", err)
		}
		dictArgs = []string{"-x", path}
	}

	watch := &aflWatcher{out: out, dir: dir, names: names, meter: o.Meter, seen: map[string]bool{}, since: time.Now()}

	runCtx := ctx
	if o.Budget > 0 {
		var cancel context.CancelFunc
		// afl-fuzz stops itself (-V); this is only a backstop.
		runCtx, cancel = context.WithTimeout(ctx, o.Budget+2*time.Minute)
		defer cancel()
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	logs := make([]string, len(names))
	for i, name := range names {
		in := seedDir
		if st, err := os.Stat(filepath.Join(out, name, "queue")); err == nil && st.IsDir() {
			in = "-" // resume
		}
		args := []string{"-i", in, "-o", out, "-s", strconv.FormatUint(o.Seed+uint64(i), 10)}
		if o.Budget > 0 {
			args = append(args, "-V", strconv.Itoa(max(1, int(o.Budget.Round(time.Second)/time.Second))))
		}
		if o.Runs > 0 {
			args = append(args, "-E", strconv.FormatInt(max(1, o.Runs/int64(len(names))), 10))
		}
		if !slices.Contains(o.Args, "-t") && o.RunTimeout > 0 {
			args = append(args, "-t", strconv.FormatInt(max(1, o.RunTimeout.Milliseconds()), 10))
		}
		switch {
		case len(names) == 1:
		case i == 0:
			args = append(args, "-M", name)
		default:
			args = append(args, "-S", name)
		}
		args = append(args, dictArgs...)
		args = append(args, o.Args...)
		args = append(append(args, "--"), target...)
		c := exec.CommandContext(runCtx, aflFuzz, args...)
		c.Env = append(os.Environ(), "AFL_NO_UI=1", "AFL_SKIP_CPUFREQ=1", "AFL_NO_AFFINITY=1",
			"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1", "AFL_FORKSRV_INIT_TMOUT=60000",
			// The fork server counts its runs there: live execs.
			ExecsFileEnv+"="+watch.execsFile(name))
		c.Cancel = func() error { return c.Process.Signal(os.Interrupt) }
		c.WaitDelay = 20 * time.Second
		// afl-fuzz's own output (hundreds of lines) goes to a log file in
		// the campaign directory, not to the user's terminal.
		logs[i] = filepath.Join(dir, "afl-fuzz-"+name+".log")
		logf, err := os.Create(logs[i])
		if err != nil {
			return nil, err
		}
		c.Stdout, c.Stderr = logf, logf
		if err := c.Start(); err != nil {
			logf.Close()
			return nil, fmt.Errorf("starting afl-fuzz: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Wait()
			logf.Close()
		}()
	}
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "fuzz: afl-fuzz (%d instance(s)) in %s, its output in %s\n", len(names), o.Out, filepath.Join(o.Out, cmp.Or(o.Dir, Dir), "afl-fuzz-*.log"))
	}
	stats := engine.StatsFile{Version: engine.StatsVersion, Instance: filepath.Base(dir), Seed: o.Seed, Workers: len(names),
		Started: start.UTC().Format(time.RFC3339)}
	monDone := make(chan struct{})
	monStopped := make(chan struct{})
	go func() {
		defer close(monStopped)
		tick := time.NewTicker(engine.DefaultStatsInterval)
		defer tick.Stop()
		lastProgress := start
		for {
			select {
			case <-monDone:
				return
			case now := <-tick.C:
				// Entries younger than a second may still be being written.
				if err := watch.scan(time.Second); err != nil {
					continue
				}
				s, statsAt := watch.sample(now.Sub(start))
				stats.Samples = append(stats.Samples, s)
				WriteJSONFile(filepath.Join(dir, engine.StatsName), stats) //nolint:errcheck // rewritten at the end
				if o.Progress != nil && o.ProgressInterval > 0 && now.Sub(lastProgress) >= o.ProgressInterval-engine.DefaultStatsInterval/2 {
					lastProgress = now
					io.WriteString(o.Progress, watch.progressLine(s, statsAt, now)) //nolint:errcheck // progress is best effort
				}
			}
		}
	}()
	wg.Wait()
	close(monDone)
	<-monStopped
	session := time.Since(start)

	// Paths in the summary as the user gave them (afl-fuzz got them
	// absolute).
	sum := &engine.Summary{Dir: o.Out, Coverage: map[string]engine.Figure{}, SessionS: session.Seconds()}
	res := &Result{Summary: sum, DirPath: dir}
	switch {
	case ctx.Err() != nil:
		sum.Stop = "canceled"
	case o.Budget > 0 && session >= o.Budget:
		sum.Stop = "budget"
	default:
		sum.Stop = "runs"
	}
	var runErr error
	for i, name := range names {
		st, err := ReadFuzzerStats(filepath.Join(out, name, "fuzzer_stats"))
		if err != nil {
			runErr = errors.Join(runErr, aflStartError(name, errs[i], err, logs[i]))
			continue
		}
		st.Name = name
		res.Instances = append(res.Instances, st)
		sum.Execs += st.ExecsDone
		sum.ExecsPerSec += st.ExecsPerSec
		sum.ElapsedS = max(sum.ElapsedS, st.RunTimeS)
		if errs[i] != nil && ctx.Err() == nil && o.Progress != nil {
			fmt.Fprintf(o.Progress, "warning: afl-fuzz %s: %v (see %s)\n", name, errs[i], logs[i])
		}
	}
	if len(res.Instances) == 0 {
		sum.Stop = "error"
		return res, runErr
	}

	// Coverage on the yardstick: replay every queue entry.
	if err := watch.scan(0); err != nil {
		return res, err
	}
	sum.Corpus, sum.NewInputs = watch.corpus, watch.fresh
	sum.Coverage = watch.figures()
	if o.Progress != nil && o.ProgressInterval > 0 {
		// The last status line, with the whole queue replayed: a campaign
		// shorter than the interval has printed none, and a longer one's
		// last is up to an interval old.
		s, statsAt := watch.sample(session)
		io.WriteString(o.Progress, watch.progressLine(s, statsAt, time.Now())) //nolint:errcheck // progress is best effort
	}
	if err := o.findings(ctx, out, names, filepath.Join(o.Out, cmp.Or(o.Dir, Dir)), sum); err != nil {
		return res, errors.Join(runErr, err)
	}
	last, _ := watch.sample(session)
	last.Execs, last.ElapsedS = sum.Execs, sum.ElapsedS
	stats.Samples = append(stats.Samples, last)
	stats.Findings = sum.Findings
	res.Complete = true
	return res, errors.Join(runErr, WriteJSONFile(filepath.Join(dir, engine.StatsName), stats))
}

// writeSeeds writes the seeds into a new temporary directory. afl-fuzz
// skips empty seeds, so an empty one becomes a zero byte.
func writeSeeds(seeds [][]byte) (string, error) {
	dir, err := os.MkdirTemp("", "labelcov-afl-seeds-")
	if err != nil {
		return "", err
	}
	for i, s := range seeds {
		if len(s) == 0 {
			s = []byte{0}
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed%03d", i)), s, 0o644); err != nil {
			os.RemoveAll(dir)
			return "", err
		}
	}
	return dir, nil
}

// findings replays the instances' crashes, keeps the first input of each
// finding key (afl-fuzz's hangs are "hang" findings, not replayed: each
// could cost the whole time limit), minimizes it like the built-in engine
// and saves it in dir as KEY (and KEY.env with a world). A cancelled ctx
// (Ctrl-C) still triages every crash, as the built-in engine saves its
// findings: only minimization stops, keeping each input as small as it got.
func (o Campaign) findings(ctx context.Context, out string, names []string, dir string, sum *engine.Summary) error {
	triage := context.WithoutCancel(ctx)
	t, err := o.NewTarget()
	if err != nil {
		return err
	}
	objects := o.Objects
	byKey := map[string]*engine.FindingRecord{}
	note := func(f engine.Finding, path string, data []byte) {
		ts, execs := NameTime(filepath.Base(path))
		k := f.Key()
		if r, ok := byKey[k]; ok && r.TimeS <= ts {
			return
		}
		sz := engine.SizeOf(data, objects)
		byKey[k] = &engine.FindingRecord{Key: k, Category: f.Category, Pos: f.Pos, Detail: f.Detail,
			TimeS: ts, Execs: execs, Input: path, Size: sz, Original: sz, New: true, Data: data}
	}
	for _, name := range names {
		for _, sub := range []string{"crashes", "hangs"} {
			files, err := Entries(filepath.Join(out, name, sub))
			if err != nil {
				return err
			}
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					return err
				}
				if sub == "hangs" {
					note(engine.Finding{Category: engine.HangCategory, Detail: "afl-fuzz: a run exceeded its time limit"}, f, data)
					continue
				}
				res, err := t.Run(triage, data)
				if err != nil {
					return err
				}
				fs := res.Findings
				if len(fs) == 0 {
					fs = []engine.Finding{{Category: "afl-crash", Detail: "no finding when replayed (a harness error or a killed worker): " + filepath.Base(f)}}
				}
				for _, fd := range append([]engine.Finding(nil), fs...) {
					note(fd, f, data)
				}
			}
		}
	}
	save := o.SaveFinding
	sum.Findings = []engine.FindingRecord{}
	for _, r := range byKey {
		if r.Category != engine.HangCategory && r.Category != "afl-crash" {
			keep := func(cand []byte) (bool, error) {
				res, err := t.Run(triage, cand)
				if err != nil {
					return false, err
				}
				return res.HasKey(r.Key), nil
			}
			best, _, err := engine.Minimize(ctx, r.Data, keep, objects, engine.DefaultMinimizeRuns)
			if err != nil && ctx.Err() == nil {
				return fmt.Errorf("finding %s: %w", r.Key, err)
			}
			r.Data, r.Size = best, engine.SizeOf(best, objects)
		}
		r.Input = filepath.Join(dir, engine.Slug(r.Key))
		if err := os.WriteFile(r.Input, r.Data, 0o644); err != nil {
			return err
		}
		if save != nil {
			if err := save(r.Input, r.Data, *r); err != nil {
				return err
			}
		}
		sum.Findings = append(sum.Findings, *r)
	}
	sort.Slice(sum.Findings, func(i, j int) bool {
		a, b := sum.Findings[i], sum.Findings[j]
		if a.TimeS != b.TimeS {
			return a.TimeS < b.TimeS
		}
		return a.Key < b.Key
	})
	return nil
}

// WriteJSONFile writes v indented through a temporary file and a rename.
func WriteJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// tail returns the last n bytes of a file (for error messages).
// aflStartError explains an afl-fuzz instance that wrote no fuzzer_stats:
// waitErr is how it exited, statsErr why its stats are missing, log its
// output. The commonest cause gets a sentence of its own: AFL++ (4.04c)
// gives up when every seed crashes or hangs in its dry run, which is the
// case for a plan whose every input is a finding.
func aflStartError(name string, waitErr, statsErr error, log string) error {
	out := ansiEscape.ReplaceAllString(tail(log, 8192), "")
	// The main instance says the first, a secondary (-S) the second.
	if strings.Contains(out, "All test cases time out or crash") || strings.Contains(out, "at least one valid input seed that does not crash") {
		return fmt.Errorf("afl-fuzz %s gave up before fuzzing: every seed input is a finding or a hang (afl-fuzz stops "+
			"on such a corpus); replay the seeds with labelcov replay, give seeds that pass with --corpus, or use "+
			"--engine builtin, which saves such inputs as findings and goes on (afl-fuzz's output: %s)", name, log)
	}
	return fmt.Errorf("afl-fuzz %s: %v; %v (its output: %s)\n%s", name, waitErr, statsErr, log, out)
}

// ansiEscape matches the terminal colour and cursor sequences afl-fuzz
// writes even with AFL_NO_UI, which are noise in an error message.
var ansiEscape = regexp.MustCompile(`\x0f|\x1b(\[[0-9;?]*[A-Za-z]|[()][A-Z0-9])`)

func tail(path string, n int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() > n {
		f.Seek(st.Size()-n, io.SeekStart) //nolint:errcheck // best effort
	}
	b, _ := io.ReadAll(f)
	return string(bytes.ToValidUTF8(b, nil))
}

// aflWatcher replays the queues of running afl-fuzz instances into a meter
// and reads their progress live: execs as counted by each instance's fork
// server (fuzzer_stats lags by up to a minute), crashes and hangs from their
// directories.
type aflWatcher struct {
	out    string
	dir    string // labelcov's directory
	names  []string
	meter  Meter
	seen   map[string]bool
	corpus int
	since  time.Time // this session's start
	fresh  int       // queue entries written since then
	prev   engine.Sample
}

// execsFile is where instance name's fork server counts its runs.
func (w *aflWatcher) execsFile(name string) string {
	return filepath.Join(w.dir, "execs-"+name)
}

// scan replays queue entries not seen yet that are older than minAge.
func (w *aflWatcher) scan(minAge time.Duration) error {
	now := time.Now()
	for _, name := range w.names {
		files, err := Entries(filepath.Join(w.out, name, "queue"))
		if err != nil {
			return err
		}
		for _, f := range files {
			if w.seen[f] {
				continue
			}
			st, err := os.Stat(f)
			if err != nil || (minAge > 0 && now.Sub(st.ModTime()) < minAge) {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			if err := w.meter.Add(context.Background(), data); err != nil {
				return err
			}
			w.seen[f] = true
			w.corpus++
			if !st.ModTime().Before(w.since) {
				w.fresh++ // kept this session (afl-fuzz -i - resumes an old queue)
			}
		}
	}
	return nil
}

func (w *aflWatcher) figures() map[string]engine.Figure { return w.meter.Figures() }

// sample is one point of stats.json: execs per instance, the larger of the
// fork server's live count and fuzzer_stats' (which afl-fuzz rewrites only
// about once a minute: statsAt is the oldest instance's last update when
// the live count is missing, Unix seconds, else 0), the rate since the
// previous sample, and findings counted live as the crash and hang files
// saved so far.
func (w *aflWatcher) sample(elapsed time.Duration) (s engine.Sample, statsAt int64) {
	s = engine.Sample{ElapsedS: elapsed.Seconds(), Corpus: w.corpus, Coverage: w.figures()}
	for _, name := range w.names {
		execs := int64(0)
		if data, err := os.ReadFile(w.execsFile(name)); err == nil {
			execs, _ = strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		}
		if st, err := ReadFuzzerStats(filepath.Join(w.out, name, "fuzzer_stats")); err == nil && st.ExecsDone >= execs {
			execs = st.ExecsDone
			if statsAt == 0 || st.LastUpdate < statsAt {
				statsAt = st.LastUpdate
			}
		}
		s.Execs += execs
		for _, sub := range []string{"crashes", "hangs"} {
			files, _ := Entries(filepath.Join(w.out, name, sub))
			s.Findings += len(files)
		}
	}
	if dt := s.ElapsedS - w.prev.ElapsedS; dt > 0 {
		s.ExecsPerSec = float64(s.Execs-w.prev.Execs) / dt
	}
	w.prev = s
	return s, statsAt
}

// progressLine is a status line like the built-in engine's; when execs come
// from fuzzer_stats written at statsAt, it says how old they are.
func (w *aflWatcher) progressLine(s engine.Sample, statsAt int64, now time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "fuzz: elapsed: %s, execs: %d (%.0f/sec", (time.Duration(s.ElapsedS) * time.Second).String(), s.Execs, s.ExecsPerSec)
	if age := now.Unix() - statsAt; statsAt > 0 && age > 5 {
		fmt.Fprintf(&b, ", afl-fuzz's figures of %ds ago", age)
	}
	fmt.Fprintf(&b, "), corpus: %d", s.Corpus)
	engine.AppendCoverage(&b, s.Coverage)
	fmt.Fprintf(&b, ", crashes and hangs: %d\n", s.Findings)
	return b.String()
}

// DictFile renders tokens as an AFL++ dictionary (-x): one name="..." line
// each, every byte but letters, digits and a few marks as \xNN; tokens
// beyond AFL++'s 128 bytes are left out.
func DictFile(tokens [][]byte) []byte {
	var b bytes.Buffer
	for i, t := range tokens {
		if len(t) == 0 || len(t) > 128 {
			continue
		}
		fmt.Fprintf(&b, "t%d=\"", i)
		for _, c := range t {
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$%&()*+,-./:;<=>?@[]^_{|}~ ", c) >= 0 {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "\\x%02x", c)
			}
		}
		b.WriteString("\"\n")
	}
	return b.Bytes()
}
