package subject

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/coverage/resolve"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// planSubject is a plan file and its tests.
type planSubject struct{ o Options }

func (s *planSubject) Kind() Kind { return Plan }

// file is the plan's path as typed ("-": standard input).
func (s *planSubject) file() string { return s.o.Args[0] }

// tests are --tests and the arguments after the plan.
func (s *planSubject) tests() []string {
	return append(append([]string(nil), s.o.Tests...), s.o.Args[1:]...)
}

// StdinName is how messages name a plan read from standard input ("-").
const StdinName = "<stdin>"

// ReadSource reads the file name, or stdin when name is "-", and returns
// the name messages should use for it.
func ReadSource(stdin io.Reader, name string) (string, []byte, error) {
	if name == "-" {
		if stdin == nil {
			return StdinName, nil, fmt.Errorf("reading standard input: no standard input given")
		}
		src, err := io.ReadAll(stdin)
		if err != nil {
			return StdinName, nil, fmt.Errorf("reading standard input: %w", err)
		}
		return StdinName, src, nil
	}
	src, err := os.ReadFile(name)
	if err != nil {
		if st, serr := os.Stat(name); serr != nil && strings.Contains(name, "...") || serr == nil && st.IsDir() {
			// labels ./... : a Go package pattern, or a directory.
			return name, nil, fmt.Errorf("%s is not a plan file: this command reads .plan files; for Go packages use labelcov annotate or labelcov cover", name)
		}
		return name, nil, fmt.Errorf("reading plan: %w", err)
	}
	return name, src, nil
}

// LoadPlan reads, parses and compiles a plan file ("-" is stdin).
// Compiling here reports a malformed form (an (if) without a test, say)
// at its position before any verb labels or runs the plan.
func LoadPlan(stdin io.Reader, name string, opts compile.Options) (*syntax.File, *compile.Program, error) {
	display, src, err := ReadSource(stdin, name)
	if err != nil {
		return nil, nil, err
	}
	f, err := syntax.Parse(display, src)
	if err != nil {
		return nil, nil, err
	}
	p, err := compile.CompileWith(f, opts)
	if err != nil {
		return nil, nil, err
	}
	return f, p, nil
}

// LabelOptions are the labelling options of the label flags: criteria,
// --mcc-max-atoms, --pure, --no-values.
func LabelOptions(criteria string, maxAtoms int, pure []string, noValues bool) (transform.Options, error) {
	c, err := labels.ParseCriteria(criteria)
	if err != nil {
		return transform.Options{}, fmt.Errorf("--criteria: %w", err)
	}
	if maxAtoms < 1 {
		return transform.Options{}, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", maxAtoms)
	}
	// The simulator's queries only read the world, so calls of them may
	// stay inside conditions and be re-evaluated by labels.
	to := transform.Options{Labels: labels.Options{Criteria: c, MCCMaxAtoms: maxAtoms}}
	to.Feasible.NoValues = noValues
	to.Normalize.PureFuncs = pipeline.PureFuncs(pure)
	return to, nil
}

// CheckCalls prints to stderr, with a caret, every call of p to a
// function defined nowhere (runner.CheckCalls decides which names link)
// and fails when one of them can only end in undefined-function;
// warnings are printed only.
func CheckCalls(stderr io.Writer, f *syntax.File, p *compile.Program, l runner.Link) error {
	errs := 0
	for _, lp := range runner.CheckCalls(f, p, l) {
		fmt.Fprintln(stderr, "labelcov:", lp)
		if s := lp.Err.Snippet(); s != "" {
			fmt.Fprintln(stderr, s)
		}
		if !lp.Warning {
			errs++
		}
	}
	if errs > 0 {
		return fmt.Errorf("%s: %d call(s) to undefined functions (see above)", f.Name, errs)
	}
	return nil
}

// PlanGuard is the output guard of a verb that runs tests on a plan: the
// plan, its world (given, or named by the benchmark's truth.json) and the
// tests are inputs.
func PlanGuard(file, world string, tests []string) *outputs.Guard {
	var g outputs.Guard
	g.Input("the input", file, world)
	GuardTests(&g, tests)
	if file != "-" {
		g.Input("the benchmark's truth.json", filepath.Join(filepath.Dir(file), "truth.json"))
		if w, err := runner.WorldBeside(file); err == nil && w != "" {
			g.Input("the benchmark's world", w)
		}
	}
	return &g
}

// GuardTests adds tests (files or folders of tests) to g as inputs.
func GuardTests(g *outputs.Guard, tests []string) {
	for _, t := range tests {
		if st, err := os.Stat(t); err == nil && st.IsDir() {
			g.Input("the tests folder", t)
		} else {
			g.Input("the test", t)
		}
	}
}

// Measured is a plan ready to measure: its tree and its measurer.
type Measured struct {
	File     *syntax.File
	Measurer *measure.Measurer
}

// measured reads the plan and builds its measurer as the options say
// (criteria, world or the benchmark's truth.json, limits); calls that
// cannot link are printed and fail it.
func (s *planSubject) measured() (*Measured, error) {
	o := &s.o
	if err := (runner.Limits{MaxSteps: o.MaxSteps, MaxObjects: o.MaxObjects}).Check(); err != nil {
		return nil, err
	}
	to, err := LabelOptions(o.Criteria, o.MCCMaxAtoms, o.Pure, o.NoValues)
	if err != nil {
		return nil, err
	}
	file := s.file()
	f, p, err := LoadPlan(o.Stdin, file, compile.Options{})
	if err != nil {
		return nil, err
	}
	mo := measure.Options{Labels: to.Labels, Feasible: to.Feasible, Normalize: to.Normalize, Plan: o.PlanName, MaxSteps: o.MaxSteps, MaxObjects: o.MaxObjects, Program: p}
	worldPath, w, err := runner.OpenWorld(file, o.World)
	if err != nil {
		return nil, err
	}
	mo.World, mo.WorldPath = w, worldPath
	// The verb runs the plan: a call that cannot link fails every test.
	stderr := o.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	if err := CheckCalls(stderr, f, p, runner.Link{World: worldPath != ""}); err != nil {
		return nil, err
	}
	m, err := measure.New(f, mo)
	if err != nil {
		return nil, err
	}
	return &Measured{File: f, Measurer: m}, nil
}

// Cover runs the plan's tests and reports their coverage.
func (s *planSubject) Cover(ctx context.Context, w io.Writer, co CoverOptions) error {
	gates, err := co.gates(false)
	if err != nil {
		return err
	}
	tests := s.tests()
	if len(tests) == 0 {
		return fmt.Errorf("no tests: give --tests DIR|FILE")
	}
	g := PlanGuard(s.file(), s.o.World, tests)
	if err := co.check(g); err != nil {
		return err
	}
	ms, err := s.measured()
	if err != nil {
		return err
	}
	m := ms.Measurer
	if co.Solve.On {
		if err := solvable(m); err != nil {
			return err
		}
	}
	ts, err := m.LoadTests(tests...)
	if err != nil {
		return err
	}
	rep, err := m.Run(ctx, ts)
	if err != nil {
		return err
	}
	if co.Solve.On {
		have := map[string]bool{}
		for _, l := range rep.Labels {
			if l.Covered {
				have[measure.LabelItem(l.ID)] = true
			}
		}
		r, err := resolve.Uncovered(ctx, m, have, resolve.Options{Plan: s.o.PlanName, Timeout: co.Solve.Timeout, Seeds: ts, Seed: 1})
		if err != nil {
			return fmt.Errorf("--solve: %w", err)
		}
		if err := m.Resolve(rep, r.Verdicts()); err != nil {
			return err
		}
	}
	return co.write(w, s.o.Stderr, g, rep, s.o.JSON, gates)
}

// Reduce measures every test and copies a subset covering the same
// items to out.
func (s *planSubject) Reduce(ctx context.Context, w io.Writer, out string) error {
	o := &s.o
	if o.Fuzz != "" || o.FuzzCache != "" || o.Dir != "" || o.JSON {
		return fmt.Errorf("--fuzz, --fuzz-cache, -C and --json are for Go packages; %s is a plan", s.file())
	}
	tests := s.tests()
	if len(tests) == 0 {
		return fmt.Errorf("no tests: give --tests DIR|FILE")
	}
	if out == "" {
		return fmt.Errorf("give --out NEWDIR: reduce writes the subset there and never touches the tests")
	}
	og, err := s.newOut(tests, out)
	if err != nil {
		return err
	}
	ms, err := s.measured()
	if err != nil {
		return err
	}
	m := ms.Measurer
	ts, err := m.LoadTests(tests...)
	if err != nil {
		return err
	}
	// reduce copies tests by name, so two of one name cannot both be kept.
	names := map[string]string{}
	for _, t := range ts {
		base := filepath.Base(t.Name)
		if prev, ok := names[base]; ok {
			return fmt.Errorf("tests %s and %s have the same name: reduce copies tests by name", prev, t.Name)
		}
		names[base] = t.Name
	}
	red, err := measure.Reduce(ctx, m, ts)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("reduce: %w", err)
	}
	total, kept := 0, 0
	for _, s := range red.Sizes {
		total += s
	}
	for _, t := range red.Kept {
		data, err := os.ReadFile(t.Name)
		if err != nil {
			return fmt.Errorf("reading test: %w", err)
		}
		kept += len(data)
		if err := og.WriteFile("--out", filepath.Join(out, filepath.Base(t.Name)), data, 0o644); err != nil {
			return fmt.Errorf("reduce: %w", err)
		}
	}
	fmt.Fprintf(w, "reduce: %d tests (%d bytes) -> %d tests (%d bytes) in %s\n", len(ts), total, len(red.Kept), kept, out)
	for _, line := range itemCounts(red.Items, planItemKinds) {
		fmt.Fprintf(w, "  kept %s\n", line)
	}
	line, err := criterionLine(m.Labels(), m.Decisions(), red.Items)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  criteria (as cover counts them, the same as the whole suite): %s\n", line)
	return nil
}

// newOut is the output guard of a verb that writes a new folder out from
// the plan's tests: out may be neither an input nor a folder holding one,
// and must not exist or be empty.
func (s *planSubject) newOut(tests []string, out string) (*outputs.Guard, error) {
	og := PlanGuard(s.file(), s.o.World, tests)
	if err := og.CheckDir("--out", out, ""); err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("--out %s is not empty", out)
	}
	return og, nil
}
