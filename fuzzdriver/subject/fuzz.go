package subject

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// SetupOptions are the flags fuzz, afl-target and replay share: which
// plan runs in which world, annotated how.
type SetupOptions struct {
	World    string
	PlanName string // --plan
	// Criteria guide the campaign ("none": the original plan); Measure
	// are the yardstick's ("" or "none": none).
	Criteria, Measure string
	MaxAtoms          int
	Pure              []string
	MaxObjects        int
	MaxSteps          int64
	Timeout           time.Duration
	NoRetire          bool
}

// FuzzOptions are fuzz's flags.
type FuzzOptions struct {
	SetupOptions
	Engine   string
	Budget   time.Duration
	Runs     int64
	Workers  int
	Seed     uint64
	Corpus   string
	Out      string
	Instance string
	Main     bool
	JSON     bool
	Progress time.Duration
	AFLArgs  []string
	// AllowFindings exits 0 even when the campaign has findings.
	AllowFindings bool
	// ForceOut resumes in an --out of another plan, world or criteria.
	ForceOut bool
	// AFLTarget locates the labelcov binary afl-fuzz runs.
	AFLTarget func() (string, error)
	// Replay is the command that reruns a finding, before its input
	// ("labelcov replay PLAN --world W ...", quoted for a shell).
	Replay string
}

func (s *planSubject) stderr() io.Writer {
	if s.o.Stderr == nil {
		return io.Discard
	}
	return s.o.Stderr
}

// Fuzz: Go fuzz targets are fuzzed by go test -fuzz.
func (s *goSubject) Fuzz(context.Context, io.Writer, FuzzOptions) error {
	return fmt.Errorf("%s is not a plan file: this command reads .plan files; for Go packages use labelcov annotate or labelcov cover", s.o.Args[0])
}

// Fuzz: sb-cover's records are read, never fuzzed.
func (s *sbclSubject) Fuzz(context.Context, io.Writer, FuzzOptions) error {
	return fmt.Errorf("--from-sbcl: SBCL's coverage record is reported by cover only")
}

// parseCriteriaFlag reads --criteria; "none" and "" mean the original plan.
func parseCriteriaFlag(name, s string) (labels.Criteria, error) {
	if s == "" || strings.EqualFold(s, "none") {
		return 0, nil
	}
	c, err := labels.ParseCriteria(s)
	if err != nil {
		return 0, fmt.Errorf("--%s: %w", name, err)
	}
	return c, nil
}

// worldForParams explains why a plan with parameters cannot run in a
// world: the input is either an environment (with --world) or the plan's
// parameters (without).
func worldForParams(f *syntax.File, fn *compile.Func) error {
	if fn.NumParams() == 0 {
		return nil
	}
	if runner.NeedsWorld(f) == nil {
		return fmt.Errorf("%s uses no world: its plan %s takes %d parameter(s) (%s), which the input gives without --world; drop --world",
			f.Name, fn.Name, fn.NumParams(), strings.Join(fn.Params, " "))
	}
	return fmt.Errorf("%s: plan %s takes %d parameter(s) (%s), but with --world the input is an environment and the plan runs without arguments; fuzz a plan without parameters (a def-plan that calls this one)",
		f.Name, fn.Name, fn.NumParams(), strings.Join(fn.Params, " "))
}

// BuildFuzzer reads the plan (planPath, "-": stdin) and the world and
// compiles the campaign's setup as the flags pf say (fuzz, afl-target,
// replay).
func BuildFuzzer(stdin io.Reader, planPath string, pf SetupOptions) (*campaign.Fuzzer, error) {
	if err := (runner.Limits{MaxSteps: pf.MaxSteps, MaxObjects: pf.MaxObjects}).Check(); err != nil {
		return nil, err
	}
	if pf.MaxAtoms < 1 {
		return nil, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", pf.MaxAtoms)
	}
	guide, err := parseCriteriaFlag("criteria", pf.Criteria)
	if err != nil {
		return nil, err
	}
	var meas labels.Criteria
	// Commands without --measure (replay, afl-target) measure nothing.
	noMeasure := pf.Measure == "" || strings.EqualFold(strings.TrimSpace(pf.Measure), "none")
	if !noMeasure {
		if meas, err = parseCriteriaFlag("measure", pf.Measure); err != nil {
			return nil, err
		}
	}
	display, src, err := ReadSource(stdin, planPath)
	if err != nil {
		return nil, err
	}
	f, err := syntax.Parse(display, src)
	if err != nil {
		return nil, err
	}
	s := campaign.Setup{Plan: f, PlanName: pf.PlanName, Criteria: guide, Measure: meas, NoMeasure: noMeasure, MCCMaxAtoms: pf.MaxAtoms,
		PureFuncs: pf.Pure, MaxObjects: pf.MaxObjects, MaxSteps: pf.MaxSteps, RunTimeout: pf.Timeout, NoRetire: pf.NoRetire}
	if pf.World != "" {
		if s.World, err = runner.LoadWorld(pf.World); err != nil {
			return nil, err
		}
	}
	built, err := s.Build()
	if err == nil && s.World != nil {
		// Say why a plan with parameters does not run in a world, rather
		// than that it got no arguments.
		err = worldForParams(f, built.Plan())
	}
	if err != nil {
		return nil, err
	}
	return built, nil
}

// Fuzz runs a fuzzing campaign on the plan (built-in engine or AFL++),
// prints its summary on w and fails with its findings.
func (s *planSubject) Fuzz(ctx context.Context, w io.Writer, o FuzzOptions) error {
	planPath := s.file()
	if o.Workers <= 0 {
		return fmt.Errorf("--workers must be positive, got %d", o.Workers)
	}
	if o.Budget < 0 || o.Runs < 0 {
		return errors.New("--budget and --runs must not be negative")
	}
	if o.Engine != campaign.EngineBuiltin && o.Engine != campaign.EngineAFL {
		return fmt.Errorf("--engine must be builtin or afl, got %q", o.Engine)
	}
	if o.Budget == 0 && o.Runs == 0 && o.Engine == campaign.EngineAFL {
		return errors.New("--engine afl needs --budget or --runs")
	}
	if planPath == "-" {
		return errors.New("fuzz needs a plan file, not standard input (afl-target and the worker re-read it)")
	}
	g := PlanGuard(planPath, o.World, nil)
	g.Folder("the --corpus folder", o.Corpus)
	if err := g.CheckDir("--out", o.Out, ""); err != nil {
		return err
	}
	stderr := s.stderr()
	if o.Budget == 0 && o.Runs == 0 {
		fmt.Fprintln(stderr, "fuzz: --budget 0 and no --runs: the campaign runs until Ctrl-C or SIGTERM (then saves, summarizes and exits 3)")
	}
	pf, err := BuildFuzzer(s.o.Stdin, planPath, o.SetupOptions)
	if err != nil {
		return err
	}
	for _, w := range pf.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	// A missing world is the one error to show (Fuzz checks it too, but
	// after this point every world query would first print a warning).
	if err := pf.NeedsWorld(); err != nil {
		return err
	}
	// As run and replay do: a misspelled function is a mistake to show with
	// its caret now, not an undefined-function finding of every input.
	if err := CheckCalls(stderr, pf.Setup.Plan, pf.Original, runner.Link{World: pf.Setup.World != nil}); err != nil {
		return err
	}
	if pf.Setup.World == nil && pf.Plan().NumParams() == 0 {
		fmt.Fprintf(stderr, "warning: plan %s takes no parameters and no --world is given: every input runs the same test\n", pf.Plan().Name)
	}
	var seeds [][]byte
	if o.Corpus != "" {
		if seeds, err = pf.ReadCorpus(o.Corpus); err != nil {
			return fmt.Errorf("--corpus: %w", err)
		}
	}
	co := campaign.Options{Engine: o.Engine, Workers: o.Workers, Seed: o.Seed, Budget: o.Budget, Runs: o.Runs,
		Seeds: seeds, Out: o.Out, Instance: o.Instance, Main: o.Main, ForceOut: o.ForceOut}
	if o.Progress > 0 {
		co.Progress, co.ProgressInterval = stderr, o.Progress
	}
	if o.Engine == campaign.EngineAFL {
		exe, err := o.AFLTarget()
		if err != nil {
			return fmt.Errorf("locating the labelcov binary: %w", err)
		}
		co.AFL = campaign.AFLOptions{Exe: exe, PlanPath: planPath, WorldPath: o.World, Args: o.AFLArgs}
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := pf.Fuzz(ctx, co)
	if sum == nil {
		var om *engine.OwnerMismatchError
		if errors.As(err, &om) {
			return fmt.Errorf("%w\n(a campaign directory belongs to one plan, world and criteria: choose another --out, or --force-out to resume in it anyway)", err)
		}
		return err
	}
	if o.JSON {
		err = errors.Join(err, WriteJSON(w, sum))
	} else {
		err = errors.Join(err, writeFuzzSummary(w, sum))
	}
	if err != nil {
		return err
	}
	if len(sum.Findings) > 0 {
		writeReplayLines(stderr, o.Replay, sum)
	}
	if sum.Stop == "canceled" && (o.Budget > 0 || o.Runs > 0) {
		// A signal (Ctrl-C, SIGTERM from scancel or a time limit) before
		// the budget: a scheduler must not record the task as done.
		// Without any budget a signal is the planned end.
		resume := "it is saved in " + o.Out + ": run the same command again to resume"
		if o.Out == "" {
			resume = "it is saved in the temporary directory named at the start: give it as --out to resume"
		}
		return Interrupted("campaign interrupted after %.1fs, before its budget (%s), with %d finding(s); %s",
			sum.SessionS, fuzzBudget(o), len(sum.Findings), resume)
	}
	if len(sum.Findings) > 0 {
		if !o.AllowFindings {
			// Like go test -fuzz: a campaign that found something fails.
			return Found("the campaign has %d finding(s); rerun each with the replay lines above (--allow-findings exits 0)", len(sum.Findings))
		}
	}
	return nil
}

// fuzzBudget describes the budget of a campaign: its time, its runs or both.
func fuzzBudget(o FuzzOptions) string {
	var parts []string
	if o.Budget > 0 {
		parts = append(parts, o.Budget.String())
	}
	if o.Runs > 0 {
		parts = append(parts, fmt.Sprintf("%d runs", o.Runs))
	}
	return strings.Join(parts, " or ")
}

// writeReplayLines prints, per finding, the command that reruns it.
func writeReplayLines(w io.Writer, replay string, sum *campaign.Summary) {
	for _, f := range sum.Findings {
		if f.Input == "" {
			continue
		}
		fmt.Fprintf(w, "rerun %s: %s %s\n", f.Key, replay, ShellQuote(f.Input))
	}
}

// writeFuzzSummary prints the end of a campaign for a person.
func writeFuzzSummary(w io.Writer, s *campaign.Summary) error {
	var b strings.Builder
	rate := "this session"
	if s.Engine == "afl" {
		rate = "afl-fuzz's average"
	}
	if s.Stop == "canceled" {
		// A signal: the JSON says "canceled", a person reads this.
		fmt.Fprintf(&b, "%s campaign interrupted after %.1fs", s.Engine, s.SessionS)
	} else {
		fmt.Fprintf(&b, "%s campaign stopped (%s) after %.1fs", s.Engine, s.Stop, s.SessionS)
	}
	if s.ElapsedS > s.SessionS+0.05 {
		// A resumed campaign: this session's time first, as the budget.
		fmt.Fprintf(&b, " (%.1fs over all sessions)", s.ElapsedS)
	}
	fmt.Fprintf(&b, ": %d execs (%.0f/s, %s), corpus %d (%d new this session)\n",
		s.Execs, s.ExecsPerSec, rate, s.Corpus, s.NewInputs)
	keys := make([]string, 0, len(s.Coverage))
	for k := range s.Coverage {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %-13s %s\n", k+":", pct(s.Coverage[k]))
	}
	ck := make([]string, 0, len(s.ByCriteria))
	for k := range s.ByCriteria {
		ck = append(ck, k)
	}
	sort.Strings(ck)
	for _, k := range ck {
		fmt.Fprintf(&b, "  %-13s %s\n", "labels "+k+":", pct(s.ByCriteria[k]))
	}
	fmt.Fprintf(&b, "%d finding(s)\n", len(s.Findings))
	for _, f := range s.Findings {
		state := "new"
		if !f.New {
			state = "known"
		}
		fmt.Fprintf(&b, "  %-40s %8.3fs  %s, %d bytes", f.Key, f.TimeS, state, f.Size.Bytes)
		if f.Size.Objects > 0 {
			fmt.Fprintf(&b, " (%d objects)", f.Size.Objects)
		}
		if f.Input != "" {
			fmt.Fprintf(&b, "  %s", f.Input)
		}
		b.WriteByte('\n')
	}
	if s.Dir != "" {
		fmt.Fprintf(&b, "campaign directory: %s\n", s.Dir)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(f engine.Figure) string {
	if f.Total == 0 {
		return f.String()
	}
	return fmt.Sprintf("%s (%.1f%%)", f, 100*float64(f.Covered)/float64(f.Total))
}
