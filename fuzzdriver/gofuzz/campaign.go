package gofuzz

import (
	"bufio"
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
	"time"
)

// Options configure one campaign (Run).
type Options struct {
	// Binary is the target's fuzz-instrumented test binary (BuildFuzz).
	Binary string
	Target Target
	// Dir is the campaign directory (made if needed): work/ is the
	// binary's working directory (the package's testdata copied in, so it
	// starts from the seed corpus only, and where go test writes failing
	// inputs), cache/ the private fuzz cache (-test.fuzzcachedir), failures/
	// the failing inputs, go.log the binary's output.
	Dir    string
	Budget time.Duration
	// Seed seeds Go's mutator (GODEBUG=fuzzseed); sessions after the
	// first add their index.
	Seed uint64
	// Parallel is -test.parallel, the number of fuzzing workers (default 1).
	Parallel int
	// KeepGoing restarts the fuzzer after a failure, from the corpus kept
	// so far with the failing input moved aside, until the budget is
	// spent; by default the campaign ends at its first failure, as
	// `go test -fuzz` does.
	KeepGoing bool
	// MinimizeTime is -test.fuzzminimizetime ("" = go test's default,
	// 60s; "0s" turns the minimization of new inputs and failures off).
	MinimizeTime string
	// Env is the binary's environment (nil: the current one).
	Env []string
	// Log, if set, also receives the binary's output.
	Log io.Writer
}

// CheckMinimizeTime checks a MinimizeTime as the testing package reads
// -test.fuzzminimizetime: "" (go test's default), a duration (0s, 10s) or
// a count of executions (1000x), never negative.
func CheckMinimizeTime(s string) error {
	if s == "" {
		return nil
	}
	if n, ok := strings.CutSuffix(s, "x"); ok {
		if v, err := strconv.Atoi(n); err == nil && v >= 0 {
			return nil
		}
	} else if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return nil
	}
	return fmt.Errorf("fuzzminimizetime %q: want a duration (0s, 10s) or a count of executions (1000x)", s)
}

// Progress is one progress line of go test, in campaign terms.
type Progress struct {
	TimeS float64 `json:"time_s"` // campaign seconds when the line was read
	Execs int64   `json:"execs"`  // campaign execs (every session so far)
	Rate  float64 `json:"rate"`   // execs/s as the line reports it
}

// Entry is a corpus entry the fuzzer kept (a file of the fuzz cache).
type Entry struct {
	Path  string  `json:"path"`
	TimeS float64 `json:"time_s"` // campaign seconds when it was written
}

// Failure is a failure that ended a fuzzing session.
type Failure struct {
	TimeS float64 `json:"time_s"`
	// Execs is the campaign execs at the failure: go test prints execs
	// every 3 s, so it is the last count plus the last rate times the time
	// since (ExecsEstimated); 0 when no rate was known yet.
	Execs          int64 `json:"execs"`
	ExecsEstimated bool  `json:"execs_estimated"`
	// Input is the failing input saved in the campaign's failures/, or ""
	// when a seed failed (Seed).
	Input string `json:"input,omitempty"`
	// Seed names a seed corpus entry that failed ("seed#0", or a file of
	// testdata/fuzz/FuzzX).
	Seed string `json:"seed,omitempty"`
	// Message is go test's report of the failure (its first lines).
	Message string `json:"message"`
}

// Result is what a campaign did.
type Result struct {
	// BaselineS is the campaign time at which the first session had run
	// its seed corpus ("gathering baseline coverage: N/N completed"),
	// where the corpus is the seeds alone.
	BaselineS float64    `json:"baseline_s"`
	Sessions  int        `json:"sessions"`
	ElapsedS  float64    `json:"elapsed_s"`
	Execs     int64      `json:"execs"`
	Progress  []Progress `json:"progress"`
	Corpus    []Entry    `json:"corpus"`
	Failures  []Failure  `json:"failures"`
	// Stop is "budget", "failure" (ended by a failure) or "canceled".
	Stop string `json:"stop"`
	// CPUS is the CPU time (user and system) of every session's test
	// process with its fuzzing worker: what the campaign cost, which other
	// work on the machine does not inflate as it does ElapsedS.
	CPUS float64 `json:"cpu_s,omitempty"`
}

var (
	progressLine = regexp.MustCompile(`^fuzz: elapsed: \S+, execs: (\d+) \((\d+)/sec\)`)
	minimizeLine = regexp.MustCompile(`^fuzz: minimizing \d+-byte failing input file`)
	baselineLine = regexp.MustCompile(`^fuzz: elapsed: \S+, (?:gathering baseline coverage|testing seed corpus): (\d+)/(\d+) completed`)
	failingInput = regexp.MustCompile(`Failing input written to (\S+)`)
	seedFailure  = regexp.MustCompile(`failure while testing seed corpus entry: [^/\s]+/(\S+)`)
)

// Run runs a campaign: the fuzzer on opts.Target for opts.Budget of wall
// clock, in sessions of the test binary (one unless KeepGoing). Cancelling
// ctx stops it (Stop "canceled").
func Run(ctx context.Context, o Options) (*Result, error) {
	if o.Parallel <= 0 {
		o.Parallel = 1
	}
	if o.Budget <= 0 {
		return nil, fmt.Errorf("gofuzz: budget must be positive, got %s", o.Budget)
	}
	var err error
	if o.Dir, err = filepath.Abs(o.Dir); err != nil {
		return nil, err
	}
	work := filepath.Join(o.Dir, "work")
	cache := filepath.Join(o.Dir, "cache")
	failures := filepath.Join(o.Dir, "failures")
	for _, d := range []string{work, cache, failures} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	// The seed corpus: the package's testdata (testdata/fuzz/FuzzX and
	// whatever else the target reads relative to its directory).
	if td := filepath.Join(o.Target.Dir, "testdata"); isDir(td) {
		if err := copyDir(td, filepath.Join(work, "testdata")); err != nil {
			return nil, fmt.Errorf("gofuzz: copying the seed corpus: %w", err)
		}
	}
	logf, err := os.Create(filepath.Join(o.Dir, "go.log"))
	if err != nil {
		return nil, err
	}
	defer logf.Close()
	var log io.Writer = logf
	if o.Log != nil {
		log = io.MultiWriter(logf, o.Log)
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}

	r := &Result{Progress: []Progress{}, Corpus: []Entry{}, Failures: []Failure{}}
	start := time.Now()
	since := func() float64 { return time.Since(start).Seconds() }
	var base int64 // execs of the sessions before this one
	for {
		left := o.Budget - time.Since(start)
		if left < 50*time.Millisecond {
			r.Stop = "budget"
			break
		}
		if ctx.Err() != nil {
			r.Stop = "canceled"
			break
		}
		s, err := runSession(ctx, o, work, cache, left, env, log, since, base, r.Sessions, r)
		r.Sessions++
		if err != nil {
			return r, err
		}
		base = s.execs
		if ctx.Err() != nil {
			r.Stop = "canceled"
			break
		}
		if s.failure == nil {
			r.Stop = "budget"
			break
		}
		f := *s.failure
		if s.input != "" {
			dst := filepath.Join(failures, fmt.Sprintf("%02d-%s", r.Sessions, filepath.Base(s.input)))
			if err := os.Rename(filepath.Join(work, s.input), dst); err != nil {
				return r, fmt.Errorf("gofuzz: saving the failing input: %w", err)
			}
			f.Input = dst
		}
		r.Failures = append(r.Failures, f)
		if !o.KeepGoing || f.Seed != "" {
			r.Stop = "failure"
			break
		}
	}
	r.ElapsedS = since()
	r.Execs = base
	if r.BaselineS == 0 {
		// A seed failed: the seeds ran until the failure.
		r.BaselineS = r.ElapsedS
		if len(r.Failures) > 0 {
			r.BaselineS = r.Failures[0].TimeS
		}
	}
	r.Progress = append(r.Progress, Progress{TimeS: r.ElapsedS, Execs: r.Execs})
	ents, err := os.ReadDir(filepath.Join(cache, o.Target.Name))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return r, err
	}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		r.Corpus = append(r.Corpus, Entry{Path: filepath.Join(cache, o.Target.Name, e.Name()),
			TimeS: max(0, info.ModTime().Sub(start).Seconds())})
	}
	sort.SliceStable(r.Corpus, func(i, j int) bool { return r.Corpus[i].TimeS < r.Corpus[j].TimeS })
	return r, nil
}

type session struct {
	execs   int64    // campaign execs at the session's end (or failure)
	failure *Failure // nil: ran to its fuzztime
	input   string   // failing input, relative to work
}

// runSession runs the binary once for at most left and appends its
// progress lines to r.
func runSession(ctx context.Context, o Options, work, cache string, left time.Duration, env []string, log io.Writer,
	since func() float64, base int64, index int, r *Result) (*session, error) {
	args := []string{"-test.run=^$", "-test.fuzz=^" + regexp.QuoteMeta(o.Target.Name) + "$",
		"-test.fuzztime=" + left.Round(time.Millisecond).String(), "-test.parallel=" + strconv.Itoa(o.Parallel),
		"-test.fuzzcachedir=" + cache}
	if o.MinimizeTime != "" {
		args = append(args, "-test.fuzzminimizetime="+o.MinimizeTime)
	}
	cmd := exec.CommandContext(ctx, o.Binary, args...)
	cmd.Dir = work
	cmd.Env = append(withoutGodebug(env), "GODEBUG="+godebug(env, o.Seed+uint64(index)))
	// Workers are the binary's children: a cancelled campaign must not
	// leave them behind, so the binary gets an interrupt first (it stops
	// its workers) and a kill after a grace period.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	fmt.Fprintf(log, "=== session %d: %s %s\n", index+1, filepath.Base(o.Binary), strings.Join(args, " "))
	if err := cmd.Start(); err != nil {
		pw.Close()
		pr.Close()
		return nil, fmt.Errorf("gofuzz: %w", err)
	}
	pw.Close()
	s := &session{execs: base}
	var (
		lastT, lastRate float64
		lastE           int64
		haveLine        bool
		failT           = -1.0
		msg             []string
		inFail          bool
	)
	sc := bufio.NewScanner(pr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		now := since()
		fmt.Fprintln(log, line)
		if m := baselineLine.FindStringSubmatch(line); m != nil && m[1] == m[2] && r.BaselineS == 0 {
			r.BaselineS = now
		}
		switch {
		case progressLine.MatchString(line):
			m := progressLine.FindStringSubmatch(line)
			n, _ := strconv.ParseInt(m[1], 10, 64)
			rate, _ := strconv.ParseFloat(m[2], 64)
			lastT, lastE, lastRate, haveLine = now, base+n, rate, true
			s.execs = lastE
			r.Progress = append(r.Progress, Progress{TimeS: now, Execs: lastE, Rate: rate})
		case minimizeLine.MatchString(line), strings.HasPrefix(line, "--- FAIL: "+o.Target.Name):
			if failT < 0 {
				failT = now
			}
			inFail = true
		}
		if m := failingInput.FindStringSubmatch(line); m != nil {
			s.input = m[1]
		}
		if m := seedFailure.FindStringSubmatch(line); m != nil {
			if failT < 0 {
				failT = now
			}
			s.failure = &Failure{Seed: m[1]}
			inFail = true
		}
		if inFail && len(msg) < 12 && strings.TrimSpace(line) != "" {
			msg = append(msg, strings.TrimSpace(line))
		}
	}
	pr.Close()
	werr := cmd.Wait()
	if ps := cmd.ProcessState; ps != nil {
		// wait4's usage of the test process includes its children's
		// that it waited for: the fuzzing worker.
		r.CPUS += (ps.UserTime() + ps.SystemTime()).Seconds()
	}
	if ctx.Err() != nil {
		return s, nil
	}
	if werr == nil {
		return s, nil
	}
	if failT < 0 {
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			return s, fmt.Errorf("gofuzz: %s %s: %w (no failure reported; see %s)", o.Binary, strings.Join(args, " "), werr,
				filepath.Join(o.Dir, "go.log"))
		}
		return s, fmt.Errorf("gofuzz: %w", werr)
	}
	if s.failure == nil && s.input == "" && deadlineRace(msg) {
		return s, nil // the fuzztime ended: the session ran to its budget
	}
	if s.failure == nil {
		s.failure = &Failure{}
		if s.input == "" {
			return s, fmt.Errorf("gofuzz: %s failed without writing its failing input (see %s)", o.Target, filepath.Join(o.Dir, "go.log"))
		}
	}
	// Execs at the failure: the last count plus the last rate (of this
	// session, else of the campaign so far) times the time since.
	rate := lastRate
	if rate <= 0 && len(r.Progress) > 0 {
		var e int64
		var t float64
		for _, p := range r.Progress {
			if p.Rate > 0 {
				e, t = p.Execs, p.TimeS
			}
		}
		if t > 0 {
			rate = float64(e) / t
		}
	}
	if !haveLine {
		lastT, lastE = failT, base
	}
	est := lastE
	if failT > lastT && rate > 0 {
		est += int64(rate * (failT - lastT))
	}
	s.failure.TimeS, s.failure.Execs, s.failure.ExecsEstimated = failT, est, est != lastE || !haveLine
	s.failure.Message = strings.Join(msg, "\n")
	s.execs = est
	if !haveLine || failT > lastT {
		r.Progress = append(r.Progress, Progress{TimeS: failT, Execs: est})
	}
	return s, nil
}

// deadlineRace reports whether a failure that wrote no failing input is
// Go's fuzzing coordinator reporting the end of -fuzztime as a failure of
// the target: "--- FAIL: FuzzX" with the bare message "context deadline
// exceeded", a race between the fuzztime deadline and a worker's last
// call (golang/go#75804, fixed in Go 1.27; seen under load with go1.26).
// A target's own t.Error or t.Fatal message carries its file:line.
func deadlineRace(msg []string) bool {
	for _, l := range msg {
		if l == "context deadline exceeded" {
			return true
		}
	}
	return false
}

// godebug is the GODEBUG of env with fuzzseed=seed (Go's mutator seed,
// an int) added.
func godebug(env []string, seed uint64) string {
	var parts []string
	for _, e := range env {
		if v, ok := strings.CutPrefix(e, "GODEBUG="); ok && v != "" {
			for _, p := range strings.Split(v, ",") {
				if !strings.HasPrefix(p, "fuzzseed=") {
					parts = append(parts, p)
				}
			}
		}
	}
	return strings.Join(append(parts, "fuzzseed="+strconv.FormatUint(seed>>1, 10)), ",")
}

func withoutGodebug(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "GODEBUG=") {
			out = append(out, e)
		}
	}
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// ExecsAt interpolates the campaign execs at campaign time t from the
// progress lines (linearly between lines; constant after the last).
func (r *Result) ExecsAt(t float64) int64 {
	var pt float64
	var pe int64
	for _, p := range r.Progress {
		if p.TimeS >= t {
			if p.TimeS == pt {
				return p.Execs
			}
			return pe + int64(float64(p.Execs-pe)*(t-pt)/(p.TimeS-pt))
		}
		pt, pe = p.TimeS, p.Execs
	}
	return pe
}
