package gotest

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
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
	"golang.org/x/tools/cover"
)

// Options control Measure.
type Options struct {
	// Dir is where the go command runs (the module of the packages).
	Dir string
	// Env is the go command's environment (nil = os.Environ()).
	Env []string
	// Fuzz names a fuzz target (FuzzX), defined in the tests of one of the
	// packages: instead of the tests, run that target over its seed corpus
	// (f.Add and testdata/fuzz/FuzzX) and the corpus `go test -fuzz` keeps
	// in GOCACHE/fuzz, in its package directory of a copy of the module,
	// with a coverage profile of every package.
	Fuzz string
	// FuzzCache is the root of the corpora `go test -fuzz` generates (the
	// target's entries are in FuzzCache/IMPORTPATH/FuzzX); "" means
	// $(go env GOCACHE)/fuzz, where go test keeps them.
	FuzzCache string
	// Work is a scratch directory (required).
	Work string
	// Output receives the go command's output (nil: discarded).
	Output io.Writer
	// TestFlags are extra go test flags (e.g. -short, -run).
	TestFlags []string
	// LabelPkgs, for Cover: the package patterns to label when they are
	// not the measured packages (labels inside dependencies): the
	// measured packages' tests, or fuzz target, run with coverage of
	// these (gotransform.AnnotateFor).
	LabelPkgs []string
	// PerTest also runs every test (and fuzz target's seeds, and example)
	// of each package on its own, for Measurement.Traces; with Fuzz, every
	// corpus entry the target ran on (but those it fails on).
	PerTest bool
	// Before, when set, is called by Cover with the annotated packages
	// before anything runs (a caller checks its outputs against the
	// packages' folders); its error stops Cover.
	Before func(*gotransform.Result) error
}

// Measurement is what a test run covered.
type Measurement struct {
	// Hits maps each covered label id to 1 (a coverage profile says
	// whether a block ran, not by how many distinct tests).
	Hits map[int]int
	// Statements and Blocks are the plain coverage of the original
	// program under the same tests (Go's statement coverage, and its
	// basic blocks as a branch measure).
	Statements, StatementsCovered int
	Blocks, BlocksCovered         int
	// Inputs counts the corpus entries run (fuzz mode): seeds (f.Add and
	// testdata/fuzz), and entries of the cached corpus.
	SeedInputs, CachedInputs int
	// Crashing lists the corpus entries the fuzz target fails on (fuzz
	// mode): f.Add seeds as "f.Add seed #N", files by path. They are left
	// out of the measurement, which covers the other entries.
	Crashing []string
	// Failing lists the tests that failed (top-level names, as go test
	// -run spells them), on either side; they are skipped and the other
	// tests measured, as go test -coverprofile of a panicking test binary
	// would record nothing.
	Failing []string
	// Traces, with PerTest: for each test run alone ("pkg TestName"), or
	// with Fuzz each corpus entry ("pkg FuzzX/ENTRY", ENTRY as go test
	// names the entry's subtest: seed#N for f.Add seeds, the file name for
	// testdata/fuzz entries, cache-FILE for the generated corpus), the ids
	// of the labels it covered.
	Traces map[string][]int
}

// Abundance turns per-test label sets into hits for labels.Coverage: a
// label's abundance is the number of distinct label sets (tests that
// cover exactly the same labels count once) that cover it, so the Hill
// numbers tell a suite of varied tests from one of repeated ones.
func (m *Measurement) Abundance() map[int]int { return labels.CountTraces(m.distinct()) }

// distinct are the distinct non-empty label sets of the per-test runs
// (each sorted), in the order of the tests' names.
func (m *Measurement) distinct() [][]int {
	seen := map[string]bool{}
	var traces [][]int
	names := make([]string, 0, len(m.Traces))
	for n := range m.Traces {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		ids := append([]int(nil), m.Traces[n]...)
		sort.Ints(ids)
		k := fmt.Sprint(ids)
		if len(ids) == 0 || seen[k] {
			continue
		}
		seen[k] = true
		traces = append(traces, ids)
	}
	return traces
}

type blockKey struct {
	file      string
	line, col int
}

// labelBlocks maps the profile key of each label body of r to its id.
func labelBlocks(r *gotransform.Result) map[blockKey]int {
	out := map[blockKey]int{}
	for _, p := range r.Packages {
		for _, f := range p.Files {
			for id, pos := range f.Bodies {
				out[blockKey{p.Path + "/" + filepath.Base(f.Path), pos.Line, pos.Col}] = id
			}
		}
	}
	return out
}

// LabelHits returns the labels of r whose body block ran in profiles (of
// the annotated packages, as cover.ParseProfiles reads them).
func LabelHits(r *gotransform.Result, profiles []*cover.Profile) map[int]int {
	lb := labelBlocks(r)
	hits := map[int]int{}
	for _, p := range profiles {
		for _, b := range p.Blocks {
			if id, ok := lb[blockKey{p.FileName, b.StartLine, b.StartCol}]; ok && b.Count > 0 {
				hits[id] = 1
			}
		}
	}
	return hits
}

// ErrTestsFailed is wrapped by Measure's error when the tests fail.
var ErrTestsFailed = errors.New("tests failed")

// Measure runs the tests of the annotated packages of r with a coverage
// profile (covermode set) in a copy of their module with the annotated
// files in place (Materialize, under Work: go test -cover ignores -overlay)
// and maps label bodies back to labels; it also runs them on the original
// code for plain statement and block coverage. A test failure on either
// side is an error wrapping ErrTestsFailed.
func Measure(ctx context.Context, r *gotransform.Result, opts Options) (*Measurement, error) {
	if opts.Work == "" {
		return nil, errors.New("measure: no work directory")
	}
	var paths []string
	for _, p := range r.Packages {
		paths = append(paths, p.Path)
	}
	if len(paths) == 0 {
		return nil, errors.New("measure: no packages")
	}
	tested := testedPackages(r)
	deps := len(r.FuzzPackages) > 0 // labels inside dependencies
	if deps && opts.PerTest {
		return nil, errors.New("measure: each test alone (per-test) is not measured yet when the labelled packages are not the tested ones")
	}
	m := &Measurement{}
	oopts := opts
	main := tested[0].Module
	if opts.Fuzz != "" {
		// The fuzz target runs in its package directory of a copy of the
		// module, whose testdata/fuzz also gets the generated corpus: the
		// user's tree is never written.
		if main == "" {
			return nil, fmt.Errorf("measure: %s is not in a module", tested[0].Path)
		}
		oopts.Dir = filepath.Join(opts.Work, "original-module")
		if err := gotransform.CopyModule(main, oopts.Dir); err != nil {
			return nil, err
		}
		main = oopts.Dir
	}
	orig, err := runProfile(ctx, r, oopts, paths, "original")
	if err != nil {
		return nil, err
	}
	m.Failing = orig.failing
	for _, p := range orig.profiles {
		for _, b := range p.Blocks {
			m.Blocks++
			m.Statements += b.NumStmt
			if b.Count > 0 {
				m.BlocksCovered++
				m.StatementsCovered += b.NumStmt
			}
		}
	}
	// go test -cover ignores -overlay for the files it instruments
	// (golang/go#73802), so the annotated run uses a copy of the module
	// with the annotated files in place.
	aopts := opts
	if deps {
		// The tested packages' module (or its copy, with the fuzz
		// corpus) builds with copies of the labelled modules.
		aopts.Dir = oopts.Dir
		if aopts.Env, err = r.MaterializeDeps(ctx, main, opts.Env, filepath.Join(opts.Work, "deps")); err != nil {
			return nil, err
		}
	} else {
		copyRoot := filepath.Join(opts.Work, "module")
		if err := r.Materialize(copyRoot); err != nil {
			return nil, err
		}
		aopts.Dir = copyRoot
	}
	ann, err := runProfile(ctx, r, aopts, paths, "annotated")
	if err != nil {
		return nil, err
	}
	m.Hits = LabelHits(r, ann.profiles)
	for _, f := range ann.failing {
		if !slices.Contains(m.Failing, f) {
			m.Failing = append(m.Failing, f)
		}
	}
	sort.Strings(m.Failing)
	m.SeedInputs, m.CachedInputs, m.Crashing = ann.seeds, ann.cached, ann.crashing
	switch {
	case opts.PerTest && opts.Fuzz == "":
		if m.Traces, err = perTest(ctx, r, aopts); err != nil {
			return nil, err
		}
	case opts.PerTest:
		if m.Traces, err = perEntry(ctx, r, aopts, ann); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// perTest builds each package's test binary once (with coverage) and runs
// every listed test alone.
func perTest(ctx context.Context, r *gotransform.Result, opts Options) (map[string][]int, error) {
	out := map[string][]int{}
	root := r.Packages[0].Module
	for i, p := range r.Packages {
		bin := filepath.Join(opts.Work, "pertest", fmt.Sprintf("p%d.test", i))
		cmd := opts.goCmd(ctx, "test", "-c", "-o", bin, "-covermode=set", "-coverpkg="+p.Path, p.Path)
		if b, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("measure: building %s tests: %w\n%s", p.Path, err, tail(string(b)))
		}
		if _, err := os.Stat(bin); err != nil {
			continue // no test files
		}
		rel, err := filepath.Rel(root, p.Dir)
		if err != nil {
			return nil, fmt.Errorf("measure: %w", err)
		}
		dir := filepath.Join(opts.Dir, rel)
		list := exec.CommandContext(ctx, bin, "-test.list", ".")
		list.Dir = dir
		names, err := list.Output()
		if err != nil {
			return nil, fmt.Errorf("measure: listing %s tests: %w", p.Path, err)
		}
		for _, name := range strings.Fields(string(names)) {
			if !strings.HasPrefix(name, "Test") && !strings.HasPrefix(name, "Fuzz") && !strings.HasPrefix(name, "Example") {
				continue
			}
			ids, ok, err := runAlone(ctx, r, bin, dir, nil, "^"+regexp.QuoteMeta(name)+"$", testBinaryFlags(opts.TestFlags))
			if err != nil {
				return nil, err
			}
			if ok {
				out[p.Path+" "+name] = ids
			}
		}
	}
	return out, nil
}

// perEntry runs the fuzz target over each corpus entry alone, on the
// coverage binary the annotated corpus run built (ann), but for the entries
// it failed on.
func perEntry(ctx context.Context, r *gotransform.Result, opts Options, ann *profileRun) (map[string][]int, error) {
	out := map[string][]int{}
	for _, e := range ann.entries {
		ids, ok, err := runAlone(ctx, r, ann.bin, ann.dir, opts.Env, EntryPattern(opts.Fuzz, e), nil)
		if err != nil {
			return nil, err
		}
		if ok {
			out[ann.pkg+" "+opts.Fuzz+"/"+e] = ids
		}
	}
	return out, nil
}

// runAlone runs the coverage-instrumented test binary bin in dir on the
// tests -test.run selects, and returns the ids of the labels they covered,
// sorted; ok is false when the binary wrote no profile (it crashed before
// the end). A failing test still covered what it covered.
func runAlone(ctx context.Context, r *gotransform.Result, bin, dir string, env []string, pattern string, flags []string) (ids []int, ok bool, err error) {
	ar, err := RunAlone(ctx, bin, dir, env, pattern, bin+".alone.cover", flags...)
	if err != nil || ar.Profiles == nil {
		return nil, false, err
	}
	for id := range LabelHits(r, ar.Profiles) {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids, true, nil
}

// AloneRun is what one RunAlone run did.
type AloneRun struct {
	// Profiles is the coverage the run wrote; nil when it wrote none (a
	// panicking test ends the binary before the profile is written).
	Profiles []*cover.Profile
	// Output is the binary's stdout and stderr.
	Output string
	// Failed: the binary exited with a status other than 0.
	Failed bool
}

// RunAlone runs the coverage-instrumented test binary bin in dir (env nil:
// this process's) on the tests -test.run=pattern selects, with flags, and
// writes the coverage profile to prof (EntryPattern selects one corpus
// entry of a fuzz target). A failing test is no error (Failed). Cancelling
// ctx is an error.
func RunAlone(ctx context.Context, bin, dir string, env []string, pattern, prof string, flags ...string) (AloneRun, error) {
	if err := os.Remove(prof); err != nil && !errors.Is(err, os.ErrNotExist) {
		return AloneRun{}, fmt.Errorf("measure: %w", err)
	}
	run := exec.CommandContext(ctx, bin, append([]string{"-test.run=" + pattern, "-test.coverprofile=" + prof}, flags...)...)
	run.Dir, run.Env = dir, env
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, &out
	err := run.Run()
	if ctx.Err() != nil {
		return AloneRun{}, ctx.Err()
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return AloneRun{}, fmt.Errorf("measure: running %s: %w", bin, err)
	}
	ar := AloneRun{Output: out.String(), Failed: err != nil}
	if _, err := os.Stat(prof); err != nil {
		return ar, nil
	}
	if ar.Profiles, err = cover.ParseProfiles(prof); err != nil {
		return AloneRun{}, fmt.Errorf("measure: %w", err)
	}
	return ar, nil
}

// EntryPattern is the -test.run pattern that selects corpus entry (a file
// name, or seed#N) of fuzz target alone.
func EntryPattern(target, entry string) string {
	return "^" + regexp.QuoteMeta(target) + "$/^" + entryRegexp(entry) + "$"
}

// entryRegexp is a regular expression matching exactly the corpus entry
// name as -test.run and -test.skip see it: testing matches a fuzz
// target's corpus entries by their names as they are, but rewrites each
// element of the pattern (whitespace becomes '_', an unprintable rune its
// quoted form), so both are written as "any rune".
func entryRegexp(entry string) string {
	var b strings.Builder
	for _, r := range entry {
		switch {
		case unicode.IsSpace(r) || !strconv.IsPrint(r):
			b.WriteString(`(?s:.)`)
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

// testBinaryFlags turns go test flags such as -short into test binary
// flags (-test.short); -run is dropped (each test runs alone).
func testBinaryFlags(flags []string) []string {
	var out []string
	for _, f := range flags {
		name := strings.TrimLeft(f, "-")
		if strings.HasPrefix(name, "run") {
			continue
		}
		out = append(out, "-test."+name)
	}
	return out
}

type profileRun struct {
	profiles      []*cover.Profile
	seeds, cached int
	crashing      []string
	failing       []string
	// With Fuzz: the coverage binary, the directory it ran in, the fuzz
	// target's package and the corpus entries it ran and passed on.
	bin, dir, pkg string
	entries       []string
}

func (o Options) goCmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = o.Dir
	cmd.Env = o.Env
	return cmd
}

// runProfile runs the tests of paths (or opts.Fuzz over its corpus) in
// opts.Dir with a coverage profile; tag names the run's scratch directory.
func runProfile(ctx context.Context, r *gotransform.Result, opts Options, paths []string, tag string) (*profileRun, error) {
	work := filepath.Join(opts.Work, tag)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	prof := filepath.Join(work, "cover.out")
	var out bytes.Buffer
	w := io.Writer(&out)
	if opts.Output != nil {
		w = io.MultiWriter(&out, opts.Output)
	}
	pr := &profileRun{}
	if opts.Fuzz == "" {
		// A failing test is skipped and the tests run again, until the
		// rest passes: a panicking test binary writes an empty profile.
		for {
			args := []string{"test", "-count=1", "-covermode=set", "-coverprofile=" + prof}
			if len(r.FuzzPackages) > 0 {
				// Labels inside dependencies: the tested packages' tests
				// cover the labelled ones.
				args = append(args, "-coverpkg="+strings.Join(paths, ","))
			}
			args = append(args, opts.TestFlags...)
			if len(pr.failing) > 0 {
				quoted := make([]string, len(pr.failing))
				for i, f := range pr.failing {
					quoted[i] = regexp.QuoteMeta(f)
				}
				args = append(args, "-skip=^("+strings.Join(quoted, "|")+")$")
			}
			out.Reset()
			cmd := opts.goCmd(ctx, append(args, testedPaths(r)...)...)
			cmd.Stdout, cmd.Stderr = w, w
			err := cmd.Run()
			if err == nil {
				break
			}
			n := len(pr.failing)
			for _, m := range failedTopRe.FindAllStringSubmatch(out.String(), -1) {
				if !slices.Contains(pr.failing, m[1]) {
					pr.failing = append(pr.failing, m[1])
				}
			}
			if len(pr.failing) == n || ctx.Err() != nil {
				return nil, fmt.Errorf("measure (%s): go test: %w: %w\n%s", tag, ErrTestsFailed, err, tail(out.String()))
			}
		}
		sort.Strings(pr.failing)
	} else if err := runFuzzCorpus(ctx, r, opts, paths, work, prof, w, pr); err != nil {
		return nil, fmt.Errorf("measure (%s): %w", tag, err)
	}
	var err error
	if pr.profiles, err = cover.ParseProfiles(prof); err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	return pr, nil
}

// failedTopRe matches go test's line for a failed top-level test.
var failedTopRe = regexp.MustCompile(`(?m)^--- FAIL: (\S+) \(`)

// runFuzzCorpus runs fuzz target opts.Fuzz over its seed corpus (f.Add,
// testdata/fuzz) and the generated corpus in the target's package
// directory of the module copy opts.Dir, with a coverage profile of every
// package in paths; entries it fails on are listed in pr.crashing and
// skipped in a new run, so the profile covers the others.
func runFuzzCorpus(ctx context.Context, r *gotransform.Result, opts Options, paths []string, work, prof string, w io.Writer, pr *profileRun) error {
	p, err := fuzzPackage(r, opts.Fuzz)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(p.Module, p.Dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return fmt.Errorf("%s is outside module %s", p.Dir, p.Module)
	}
	bin := filepath.Join(work, "pkg.test")
	var out bytes.Buffer
	cmd := opts.goCmd(ctx, "test", "-c", "-o", bin, "-covermode=set", "-coverpkg="+strings.Join(paths, ","), p.Path)
	cmd.Stdout, cmd.Stderr = io.MultiWriter(&out, w), io.MultiWriter(&out, w)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("building test binary: %w\n%s", err, tail(out.String()))
	}
	dir := filepath.Join(opts.Dir, rel)
	corpus := filepath.Join(dir, "testdata", "fuzz", opts.Fuzz)
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	cache := filepath.Join(opts.FuzzCache, filepath.FromSlash(p.Path), opts.Fuzz)
	if opts.FuzzCache == "" {
		if cache, err = FuzzCacheDir(ctx, opts.Dir, opts.Env, p.Path, opts.Fuzz); err != nil {
			return err
		}
	}
	if _, err := copyCorpus(cache, corpus, cachePrefix); err != nil {
		return err
	}
	cr, err := RunCorpus(ctx, bin, dir, opts.Env, opts.Fuzz, prof, w)
	if err != nil {
		return err
	}
	ran, crashing := cr.Ran, cr.Failing
	pr.bin, pr.dir, pr.pkg = bin, dir, p.Path
	for _, name := range ran {
		if strings.HasPrefix(name, cachePrefix) {
			pr.cached++
		} else {
			pr.seeds++
		}
		if !slices.Contains(crashing, name) {
			pr.entries = append(pr.entries, name)
		}
	}
	sort.Strings(crashing)
	for _, c := range crashing {
		switch {
		case strings.HasPrefix(c, "seed#"):
			pr.crashing = append(pr.crashing, "f.Add seed #"+strings.TrimPrefix(c, "seed#"))
		case strings.HasPrefix(c, cachePrefix):
			pr.crashing = append(pr.crashing, filepath.Join(cache, strings.TrimPrefix(c, cachePrefix)))
		default:
			pr.crashing = append(pr.crashing, filepath.Join(p.Dir, "testdata", "fuzz", opts.Fuzz, c))
		}
	}
	return nil
}

// CorpusRun says what RunCorpus ran.
type CorpusRun struct {
	// Ran names the corpus entries that ran (seed#N for f.Add seeds, file
	// names for testdata/fuzz entries), each once.
	Ran []string
	// Failing names the entries that failed or panicked and were skipped.
	Failing []string
}

// RunCorpus runs fuzz target's compiled test binary bin in dir (env nil:
// this process's) over its seed corpus, f.Add seeds and
// dir/testdata/fuzz/target, writing a coverage profile to prof. A failing
// entry ends the run (a panic) or fails it: it is skipped and the binary
// runs again, until the rest passes. Every run's output also goes to w
// (nil: nowhere). The error wraps ErrTestsFailed when the binary fails
// without naming an entry to skip.
func RunCorpus(ctx context.Context, bin, dir string, env []string, target, prof string, w io.Writer) (CorpusRun, error) {
	if w == nil {
		w = io.Discard
	}
	quoted := regexp.QuoteMeta(target)
	runRe := regexp.MustCompile(`(?m)^=== RUN   ` + quoted + `/(.+)$`)
	failRe := regexp.MustCompile(`(?m)^\s*--- FAIL: ` + quoted + `/(.+) \(`)
	var cr CorpusRun
	ran := map[string]bool{}
	var out bytes.Buffer
	for {
		args := []string{"-test.run=^" + quoted + "$", "-test.v", "-test.coverprofile=" + prof}
		if len(cr.Failing) > 0 {
			skip := make([]string, len(cr.Failing))
			for i, c := range cr.Failing {
				skip[i] = entryRegexp(c)
			}
			args = append(args, "-test.skip=^"+quoted+"$/^("+strings.Join(skip, "|")+")$")
		}
		out.Reset()
		run := exec.CommandContext(ctx, bin, args...)
		run.Dir, run.Env = dir, env
		run.Stdout, run.Stderr = io.MultiWriter(&out, w), io.MultiWriter(&out, w)
		err := run.Run()
		for _, m := range runRe.FindAllStringSubmatch(out.String(), -1) {
			if !ran[m[1]] {
				ran[m[1]] = true
				cr.Ran = append(cr.Ran, m[1])
			}
		}
		if err == nil {
			return cr, nil
		}
		n := len(cr.Failing)
		for _, m := range failRe.FindAllStringSubmatch(out.String(), -1) {
			if !slices.Contains(cr.Failing, m[1]) {
				cr.Failing = append(cr.Failing, m[1])
			}
		}
		if len(cr.Failing) == n || ctx.Err() != nil {
			return cr, fmt.Errorf("running %s over its corpus: %w: %w\n%s", target, ErrTestsFailed, err, tail(out.String()))
		}
	}
}

// cachePrefix marks the entries of the generated corpus among the seeds.
const cachePrefix = "cache-"

// fuzzPackage returns the package of r whose tests define fuzz target
// name.
func fuzzPackage(r *gotransform.Result, name string) (gotransform.FuzzPackage, error) {
	decl := regexp.MustCompile(`(?m)^func ` + regexp.QuoteMeta(name) + `\(`)
	var found []gotransform.FuzzPackage
	for _, p := range testedPackages(r) {
		tests, _ := filepath.Glob(filepath.Join(p.Dir, "*_test.go"))
		for _, t := range tests {
			if b, err := os.ReadFile(t); err == nil && decl.Match(b) {
				found = append(found, p)
				break
			}
		}
	}
	switch len(found) {
	case 0:
		return gotransform.FuzzPackage{}, fmt.Errorf("no package measured has a fuzz target %s", name)
	case 1:
		return found[0], nil
	}
	return gotransform.FuzzPackage{}, fmt.Errorf("fuzz target %s is defined in %s and %s: measure one of them", name, found[0].Path, found[1].Path)
}

// testedPackages are the packages whose tests (or fuzz target) run: with
// labels inside dependencies, r's FuzzPackages; else r's packages.
func testedPackages(r *gotransform.Result) []gotransform.FuzzPackage {
	if len(r.FuzzPackages) > 0 {
		return r.FuzzPackages
	}
	out := make([]gotransform.FuzzPackage, len(r.Packages))
	for i, p := range r.Packages {
		out[i] = gotransform.FuzzPackage{Path: p.Path, Dir: p.Dir, Module: p.Module}
	}
	return out
}

// testedPaths are the import paths of testedPackages.
func testedPaths(r *gotransform.Result) []string {
	var out []string
	for _, p := range testedPackages(r) {
		out = append(out, p.Path)
	}
	return out
}

// FuzzCacheDir is where `go test -fuzz` keeps the generated corpus of a
// fuzz target: $(go env GOCACHE)/fuzz/IMPORTPATH/TARGET.
func FuzzCacheDir(ctx context.Context, dir string, env []string, pkgPath, target string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "env", "GOCACHE")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env GOCACHE: %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "fuzz", filepath.FromSlash(pkgPath), target), nil
}

func copyCorpus(from, to, prefix string) (int, error) {
	ents, err := os.ReadDir(from)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("reading corpus: %w", err)
	}
	n := 0
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return n, fmt.Errorf("reading corpus: %w", err)
		}
		if err := os.WriteFile(filepath.Join(to, prefix+e.Name()), b, 0o644); err != nil {
			return n, fmt.Errorf("copying corpus: %w", err)
		}
		n++
	}
	return n, nil
}

func tail(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	return strings.Join(lines, "\n")
}
