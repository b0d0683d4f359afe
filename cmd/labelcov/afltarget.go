package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver"
	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/spf13/cobra"
)

func newAFLTargetCmd() *cobra.Command {
	var o planSetupFlags
	cmd := &cobra.Command{
		Use:   "afl-target PLAN [--world W] [--criteria C] [@@|INPUT]",
		Short: "Run a plan as a target of a stock afl-fuzz (AFL++ fork server)",
		Long: `afl-target is the target afl-fuzz runs as it is:

  afl-fuzz -i seeds -o out -- labelcov afl-target PLAN --world W [--criteria mcc,wm]

It speaks AFL++'s fork-server protocol (the hello of AFL++ 4.04c, with the map
size the plan needs) and writes the VM's counters into AFL's shared-memory map:
one byte per instruction, then two per conditional jump (test true, test false).
A Go process cannot fork, so the process afl-fuzz starts answers the fork server
and runs inputs in a long-lived worker (this same command, re-executed); the
worker is restarted when AFL kills it on a timeout. See docs/afl.md.

Each input is read from standard input (AFL's default) or from the file given as
the last argument (write @@ there and afl-fuzz substitutes its input file). It
decodes into an environment of --world, or without --world into the plan's
parameters (8 bytes each, little-endian int64), exactly as labelcov fuzz does.

A finding — a def-check's error category, a policy violation, an unhandled plan
failure, a step-budget timeout — is a crash (SIGABRT, sig:06 in crashes/). An
error of labelcov itself is reported as SIGSEGV (sig:11). Replay crashes with
labelcov replay to see their category.

Without afl-fuzz (no fork-server fds) the input runs once: exit status 0 when
it found nothing, death by SIGABRT when it did. labelcov fuzz --engine afl runs
afl-fuzz on this command for you.`,
		Example: `  mkdir seeds && printf '\0\0\0\0' > seeds/zero
  AFL_NO_UI=1 afl-fuzz -i seeds -o out -V 60 -- \
      labelcov afl-target testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world
  afl-fuzz -i seeds -o out -- labelcov afl-target temperature.plan --criteria mcc,wm @@
  afl-showmap -o map.txt -- labelcov afl-target plan.plan --world w.world < input
  labelcov afl-target plan.plan --world w.world out/default/crashes/id:000000*; echo $?   # 134: a finding`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "-" {
				return errors.New("afl-target needs a plan file: standard input carries the fuzzer's inputs")
			}
			cfg := afl.Config{
				Factory: func(ctx context.Context) (afl.Executor, error) {
					pf, err := o.build(nil, args[0])
					if err != nil {
						return nil, err
					}
					return pf.NewExecutor()
				},
				Stderr: cmd.ErrOrStderr(),
			}
			if len(args) == 2 {
				cfg.InputPath = args[1]
			}
			return afl.Main(cmd.Context(), cfg)
		},
	}
	o.register(cmd, "none", false)
	o.registerNoRetire(cmd)
	return cmd
}

// aflTargetBinary is the labelcov binary afl-fuzz runs (tests point it at a
// built binary: the test binary has no afl-target command).
var aflTargetBinary = os.Executable

// runAFLCampaign runs afl-fuzz on `labelcov afl-target`, then replays its
// queue (coverage) and crashes (finding categories) in-process.
func runAFLCampaign(ctx context.Context, cmd *cobra.Command, planPath string, pf *fuzzdriver.PlanFuzz,
	seeds []namedInput, o *fuzzOptions) (*fuzzSummary, error) {
	stderr := cmd.ErrOrStderr()
	aflFuzz, err := exec.LookPath("afl-fuzz")
	if err != nil {
		return nil, errors.New("afl-fuzz not found on PATH: install AFL++ (Debian: apt-get install afl++)")
	}
	exe, err := aflTargetBinary()
	if err != nil {
		return nil, fmt.Errorf("locating the labelcov binary: %w", err)
	}
	out := o.out
	if out == "" {
		if out, err = os.MkdirTemp("", "labelcov-afl-"); err != nil {
			return nil, err
		}
		fmt.Fprintf(stderr, "fuzz: afl-fuzz output in %s\n", out)
	}
	if out, err = filepath.Abs(out); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	names := []string{"default"}
	if o.workers > 1 {
		names = []string{"main"}
		for i := 1; i < o.workers; i++ {
			names = append(names, fmt.Sprintf("sec%d", i))
		}
	}

	// Seeds: --corpus (encoded), else one small all-zero input.
	seedDir, err := os.MkdirTemp("", "labelcov-afl-seeds-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(seedDir)
	if len(seeds) == 0 {
		n := 8 * max(pf.Plan().NumParams(), 1)
		if w := pf.Setup.World; w != nil {
			n = w.BytesPerObject()
		}
		seeds = []namedInput{{"zero", make([]byte, n)}}
	}
	for i, s := range seeds {
		data := s.data
		if len(data) == 0 {
			data = []byte{0} // afl-fuzz skips empty seeds
		}
		if err := os.WriteFile(filepath.Join(seedDir, fmt.Sprintf("seed%03d", i)), data, 0o644); err != nil {
			return nil, err
		}
	}

	absPlan, err := filepath.Abs(planPath)
	if err != nil {
		return nil, err
	}
	target := []string{exe, "afl-target", absPlan, "--criteria", critName(pf.Setup.Criteria),
		"--max-steps", strconv.FormatInt(pf.Setup.MaxSteps, 10), "--max-objects", strconv.Itoa(pf.Setup.MaxObjects),
		"--mcc-max-atoms", strconv.Itoa(o.maxAtoms)}
	if pf.Setup.NoRetire {
		target = append(target, "--no-retire")
	}
	if o.world != "" {
		w, err := filepath.Abs(o.world)
		if err != nil {
			return nil, err
		}
		target = append(target, "--world", w)
	}
	if o.plan != "" {
		target = append(target, "--plan", o.plan)
	}
	if len(o.pure) > 0 {
		target = append(target, "--pure", strings.Join(o.pure, ","))
	}

	meter, err := pf.NewMeter()
	if err != nil {
		return nil, err
	}
	watch := &aflWatcher{out: out, names: names, meter: meter, seen: map[string]bool{}}

	runCtx := ctx
	if o.budget > 0 {
		var cancel context.CancelFunc
		// afl-fuzz stops itself (-V); this is only a backstop.
		runCtx, cancel = context.WithTimeout(ctx, o.budget+2*time.Minute)
		defer cancel()
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, len(names))
	logs := make([]*tailBuffer, len(names))
	var outMu sync.Mutex
	for i, name := range names {
		in := seedDir
		if st, err := os.Stat(filepath.Join(out, name, "queue")); err == nil && st.IsDir() {
			in = "-" // resume
		}
		args := []string{"-i", in, "-o", out, "-s", strconv.FormatUint(o.seed+uint64(i), 10)}
		if o.budget > 0 {
			args = append(args, "-V", strconv.Itoa(max(1, int(o.budget.Round(time.Second)/time.Second))))
		}
		if o.runs > 0 {
			args = append(args, "-E", strconv.FormatInt(max(1, o.runs/int64(len(names))), 10))
		}
		switch {
		case len(names) == 1:
		case i == 0:
			args = append(args, "-M", name)
		default:
			args = append(args, "-S", name)
		}
		args = append(args, o.aflArgs...)
		args = append(append(args, "--"), target...)
		c := exec.CommandContext(runCtx, aflFuzz, args...)
		c.Env = append(os.Environ(), "AFL_NO_UI=1", "AFL_SKIP_CPUFREQ=1", "AFL_NO_AFFINITY=1",
			"AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1", "AFL_FORKSRV_INIT_TMOUT=60000")
		c.Stdin = nil
		c.Cancel = func() error { return c.Process.Signal(os.Interrupt) }
		c.WaitDelay = 20 * time.Second
		logs[i] = &tailBuffer{max: 8192}
		var w io.Writer = logs[i]
		if o.progress > 0 {
			w = io.MultiWriter(logs[i], &prefixWriter{w: stderr, mu: &outMu, prefix: "afl-fuzz[" + name + "]: "})
		}
		c.Stdout, c.Stderr = w, w
		if err := c.Start(); err != nil {
			return nil, fmt.Errorf("starting afl-fuzz: %w", err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = c.Wait()
		}()
	}
	progDone := make(chan struct{})
	progStopped := make(chan struct{})
	go func() {
		defer close(progStopped)
		if o.progress <= 0 {
			return
		}
		tick := time.NewTicker(o.progress)
		defer tick.Stop()
		for {
			select {
			case <-progDone:
				return
			case <-tick.C:
				// Entries younger than a second may still be being written.
				if err := watch.scan(time.Second); err != nil {
					continue
				}
				line := watch.progressLine(time.Since(start))
				outMu.Lock()
				io.WriteString(stderr, line) //nolint:errcheck // progress is best effort
				outMu.Unlock()
			}
		}
	}()
	wg.Wait()
	close(progDone)
	<-progStopped
	elapsed := time.Since(start).Seconds()

	sum := &fuzzSummary{Summary: &fuzzdriver.Summary{Dir: out, Coverage: map[string]fuzzdriver.Figure{}},
		Engine: "afl", Criteria: critName(pf.Setup.Criteria), Measure: critName(pf.Setup.Measure),
		Workers: len(names), Seed: o.seed}
	switch {
	case ctx.Err() != nil:
		sum.Stop = "canceled"
	case o.budget > 0 && time.Duration(elapsed*float64(time.Second)) >= o.budget:
		sum.Stop = "budget"
	default:
		sum.Stop = "runs"
	}
	var runErr error
	for i, name := range names {
		st, err := afl.ReadFuzzerStats(filepath.Join(out, name, "fuzzer_stats"))
		if err != nil {
			runErr = errors.Join(runErr, fmt.Errorf("afl-fuzz %s: %v; %v\n%s", name, errs[i], err, logs[i].String()))
			continue
		}
		st.Name = name
		sum.AFL = append(sum.AFL, st)
		sum.Execs += st.ExecsDone
		sum.ExecsPerSec += st.ExecsPerSec
		sum.ElapsedS = max(sum.ElapsedS, st.RunTimeS)
		if errs[i] != nil && ctx.Err() == nil {
			fmt.Fprintf(stderr, "warning: afl-fuzz %s: %v\n", name, errs[i])
		}
	}
	if len(sum.AFL) == 0 {
		sum.Stop = "error"
		return sum, runErr
	}

	// Coverage on the yardstick: replay every queue entry.
	if err := watch.scan(0); err != nil {
		return sum, err
	}
	sum.Corpus = watch.corpus
	sum.Coverage = meter.Figures()
	sum.ByCriteria = meter.ByCriterion()

	// Findings: replay crashes, group by key, first discovery wins.
	t, err := pf.NewTarget()
	if err != nil {
		return sum, err
	}
	objects := pf.Objects()
	byKey := map[string]*fuzzdriver.FindingRecord{}
	for _, name := range names {
		files, err := afl.Entries(filepath.Join(out, name, "crashes"))
		if err != nil {
			return sum, err
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return sum, err
			}
			res, err := t.Run(context.Background(), data)
			if err != nil {
				return sum, err
			}
			fs := res.Findings
			if len(fs) == 0 {
				fs = []fuzzdriver.Finding{{Category: "afl-crash", Detail: "no finding when replayed (a harness error or a killed worker): " + filepath.Base(f)}}
			}
			ts, execs := afl.NameTime(filepath.Base(f))
			for _, fd := range fs {
				k := fd.Key()
				if r, ok := byKey[k]; ok && r.TimeS <= ts {
					continue
				}
				sz := fuzzdriver.SizeOf(data, objects)
				byKey[k] = &fuzzdriver.FindingRecord{Key: k, Category: fd.Category, Pos: fd.Pos, Detail: fd.Detail,
					TimeS: ts, Execs: execs, Input: f, Size: sz, Original: sz, New: true, Data: data}
			}
		}
	}
	for _, r := range byKey {
		sum.Findings = append(sum.Findings, *r)
	}
	sort.Slice(sum.Findings, func(i, j int) bool {
		a, b := sum.Findings[i], sum.Findings[j]
		if a.TimeS != b.TimeS {
			return a.TimeS < b.TimeS
		}
		return a.Key < b.Key
	})
	if sum.Findings == nil {
		sum.Findings = []fuzzdriver.FindingRecord{}
	}
	return sum, errors.Join(runErr, saveAFLFindings(out, pf, sum))
}

// aflDir is labelcov's directory inside an afl-fuzz output directory: the
// summary of the last session and each finding key's first input with its
// .env. afl-fuzz ignores it (it has no queue/).
const aflDir = "labelcov-afl"

// saveAFLFindings writes OUT/labelcov-afl/summary.json and, per finding key,
// the input (KEY) and with a world its environment (KEY.env).
func saveAFLFindings(out string, pf *fuzzdriver.PlanFuzz, sum *fuzzSummary) error {
	dir := filepath.Join(out, aflDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	save := pf.SaveFinding()
	for _, f := range sum.Findings {
		path := filepath.Join(dir, keyFileName(f.Key))
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			return err
		}
		if save != nil {
			if err := save(path, f.Data, f); err != nil {
				return err
			}
		}
	}
	var b bytes.Buffer
	if err := writeJSON(&b, sum); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "summary.json"), b.Bytes(), 0o644)
}

// keyFileName makes a finding key a file name ("kind@plan.plan:3:7" becomes
// "kind@plan.plan-3-7", as in the built-in engine's crashes/).
func keyFileName(key string) string {
	b := []byte(key)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-', c == '_', c == '.', c == '@':
		case c == ':':
			b[i] = '-'
		default:
			b[i] = '_'
		}
	}
	return string(b)
}

// aflWatcher replays the queues of running afl-fuzz instances into a meter.
type aflWatcher struct {
	out    string
	names  []string
	meter  *fuzzdriver.Meter
	seen   map[string]bool
	corpus int
}

// scan replays queue entries not seen yet that are older than minAge.
func (w *aflWatcher) scan(minAge time.Duration) error {
	now := time.Now()
	for _, name := range w.names {
		files, err := afl.Entries(filepath.Join(w.out, name, "queue"))
		if err != nil {
			return err
		}
		for _, f := range files {
			if w.seen[f] {
				continue
			}
			if minAge > 0 {
				if st, err := os.Stat(f); err != nil || now.Sub(st.ModTime()) < minAge {
					continue
				}
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
		}
	}
	return nil
}

// progressLine is a status line like the built-in engine's, from the
// instances' fuzzer_stats and the replayed queues.
func (w *aflWatcher) progressLine(elapsed time.Duration) string {
	var execs int64
	var rate float64
	crashes := 0
	for _, name := range w.names {
		st, err := afl.ReadFuzzerStats(filepath.Join(w.out, name, "fuzzer_stats"))
		if err != nil {
			continue
		}
		execs += st.ExecsDone
		rate += st.ExecsPerSec
		crashes += st.SavedCrashes
	}
	var b strings.Builder
	fmt.Fprintf(&b, "fuzz: elapsed: %s, execs: %d (%.0f/sec), corpus: %d", elapsed.Round(time.Second), execs, rate, w.corpus)
	fig := w.meter.Figures()
	keys := make([]string, 0, len(fig))
	for k := range fig {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, ", %s: %s", k, fig[k])
	}
	fmt.Fprintf(&b, ", crashes: %d\n", crashes)
	return b.String()
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// ansiEscape matches the colour codes afl-fuzz prints even without its UI.
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;]*[A-Za-z]`)

// prefixWriter writes whole lines, each with a prefix, without colours.
type prefixWriter struct {
	w      io.Writer
	mu     *sync.Mutex
	prefix string
	buf    []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.buf = append(p.buf, b...)
	for {
		i := bytes.IndexByte(p.buf, '\n')
		if i < 0 {
			break
		}
		line := p.buf[:i+1]
		p.mu.Lock()
		io.WriteString(p.w, p.prefix+ansiEscape.ReplaceAllString(string(line), "")) //nolint:errcheck // progress is best effort
		p.mu.Unlock()
		p.buf = p.buf[i+1:]
	}
	return len(b), nil
}
