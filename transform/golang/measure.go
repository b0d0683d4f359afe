package golang

import (
	"bufio"
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

	"github.com/labelcov/labelcov/labels"
)

// MeasureOptions control Measure.
type MeasureOptions struct {
	// Dir is where the go command runs (the module of the packages).
	Dir string
	// Env is the go command's environment (nil = os.Environ()).
	Env []string
	// Fuzz names a fuzz target (FuzzX): instead of the package's tests,
	// run that target over its seed corpus (testdata/fuzz/FuzzX and f.Add)
	// and the corpus `go test -fuzz` keeps in GOCACHE/fuzz.
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
	// PerTest also runs every test (and fuzz target's seeds, and example)
	// of each package on its own, for Measurement.Traces. Not with Fuzz.
	PerTest bool
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
	// Inputs counts the corpus entries run (fuzz mode): seeds in
	// testdata, and entries of the cached corpus.
	SeedInputs, CachedInputs int
	// Traces, with PerTest: for each test run alone ("pkg TestName"), the
	// ids of the labels it covered.
	Traces map[string][]int
}

// Abundance turns per-test label sets into hits for labels.Coverage: a
// label's abundance is the number of distinct label sets (tests that
// cover exactly the same labels count once) that cover it, so the Hill
// numbers tell a suite of varied tests from one of repeated ones.
func (m *Measurement) Abundance() map[int]int {
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
	return labels.CountTraces(traces)
}

// ProfileBlock is one line of a Go coverage profile.
type ProfileBlock struct {
	File                                 string // import path / file name
	StartLine, StartCol, EndLine, EndCol int
	Stmts, Count                         int
}

var profileLine = regexp.MustCompile(`^(.+):(\d+)\.(\d+),(\d+)\.(\d+) (\d+) (\d+)$`)

// ParseProfile reads a coverage profile (go test -coverprofile); blocks
// that appear several times (several packages, several runs) are merged.
func ParseProfile(r io.Reader) ([]ProfileBlock, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	idx := map[ProfileBlock]int{}
	var out []ProfileBlock
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			first = false
			if !strings.HasPrefix(line, "mode:") {
				return nil, fmt.Errorf("coverage profile: missing mode line")
			}
			continue
		}
		if strings.HasPrefix(line, "mode:") || line == "" {
			continue
		}
		m := profileLine.FindStringSubmatch(line)
		if m == nil {
			return nil, fmt.Errorf("coverage profile: bad line %q", line)
		}
		n := make([]int, 6)
		for i := range n {
			n[i], _ = strconv.Atoi(m[i+2])
		}
		b := ProfileBlock{File: m[1], StartLine: n[0], StartCol: n[1], EndLine: n[2], EndCol: n[3], Stmts: n[4]}
		if i, ok := idx[b]; ok {
			out[i].Count += n[5]
			continue
		}
		idx[b] = len(out)
		b.Count = n[5]
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("coverage profile: %w", err)
	}
	return out, nil
}

type blockKey struct {
	file      string
	line, col int
}

// labelBlocks maps the profile key of each label body to its id.
func (r *Result) labelBlocks() map[blockKey]int {
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

// LabelHits returns the labels whose body block ran in blocks (a profile
// of the annotated packages).
func (r *Result) LabelHits(blocks []ProfileBlock) map[int]int {
	lb := r.labelBlocks()
	hits := map[int]int{}
	for _, b := range blocks {
		if id, ok := lb[blockKey{b.File, b.StartLine, b.StartCol}]; ok && b.Count > 0 {
			hits[id] = 1
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
func Measure(ctx context.Context, r *Result, opts MeasureOptions) (*Measurement, error) {
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
	m := &Measurement{}
	orig, err := runProfile(ctx, r, opts, paths, "original")
	if err != nil {
		return nil, err
	}
	for _, b := range orig.blocks {
		m.Blocks++
		m.Statements += b.Stmts
		if b.Count > 0 {
			m.BlocksCovered++
			m.StatementsCovered += b.Stmts
		}
	}
	// go test -cover ignores -overlay for the files it instruments
	// (golang/go#73802), so the annotated run uses a copy of the module
	// with the annotated files in place.
	copyRoot := filepath.Join(opts.Work, "module")
	if err := r.Materialize(copyRoot); err != nil {
		return nil, err
	}
	aopts := opts
	aopts.Dir = copyRoot
	ann, err := runProfile(ctx, r, aopts, paths, "annotated")
	if err != nil {
		return nil, err
	}
	m.Hits = r.LabelHits(ann.blocks)
	m.SeedInputs, m.CachedInputs = ann.seeds, ann.cached
	if opts.PerTest && opts.Fuzz == "" {
		if m.Traces, err = perTest(ctx, r, aopts); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// perTest builds each package's test binary once (with coverage) and runs
// every listed test alone.
func perTest(ctx context.Context, r *Result, opts MeasureOptions) (map[string][]int, error) {
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
			prof := bin + ".cover"
			args := append([]string{"-test.run=^" + regexp.QuoteMeta(name) + "$", "-test.coverprofile=" + prof}, testBinaryFlags(opts.TestFlags)...)
			run := exec.CommandContext(ctx, bin, args...)
			run.Dir = dir
			_ = run.Run() // a failing test still covered what it covered
			f, err := os.Open(prof)
			if err != nil {
				continue
			}
			blocks, err := ParseProfile(f)
			f.Close()
			if err != nil {
				return nil, err
			}
			var ids []int
			for id := range r.LabelHits(blocks) {
				ids = append(ids, id)
			}
			sort.Ints(ids)
			out[p.Path+" "+name] = ids
		}
	}
	return out, nil
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
	blocks        []ProfileBlock
	seeds, cached int
}

func (o MeasureOptions) goCmd(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = o.Dir
	cmd.Env = o.Env
	return cmd
}

// runProfile runs the tests of paths (or opts.Fuzz over its corpus) in
// opts.Dir with a coverage profile; tag names the run's scratch directory.
func runProfile(ctx context.Context, r *Result, opts MeasureOptions, paths []string, tag string) (*profileRun, error) {
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
		args := append([]string{"test", "-count=1", "-covermode=set", "-coverprofile=" + prof}, opts.TestFlags...)
		cmd := opts.goCmd(ctx, append(args, paths...)...)
		cmd.Stdout, cmd.Stderr = w, w
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("measure (%s): go test: %w: %w\n%s", tag, ErrTestsFailed, err, tail(out.String()))
		}
	} else {
		if len(r.Packages) != 1 {
			return nil, fmt.Errorf("measure: --fuzz needs exactly one package, got %d", len(r.Packages))
		}
		p := r.Packages[0]
		bin := filepath.Join(work, "pkg.test")
		args := []string{"test", "-c", "-o", bin, "-covermode=set", "-coverpkg=" + p.Path}
		cmd := opts.goCmd(ctx, append(args, p.Path)...)
		cmd.Stdout, cmd.Stderr = w, w
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("measure (%s): building test binary: %w\n%s", tag, err, tail(out.String()))
		}
		run := filepath.Join(work, "run")
		corpus := filepath.Join(run, "testdata", "fuzz", opts.Fuzz)
		if err := os.MkdirAll(corpus, 0o755); err != nil {
			return nil, fmt.Errorf("measure: %w", err)
		}
		var err error
		if pr.seeds, err = copyCorpus(filepath.Join(p.Dir, "testdata", "fuzz", opts.Fuzz), corpus, "seed-"); err != nil {
			return nil, err
		}
		cache := filepath.Join(opts.FuzzCache, filepath.FromSlash(p.Path), opts.Fuzz)
		if opts.FuzzCache == "" {
			if cache, err = FuzzCacheDir(ctx, opts.Dir, opts.Env, p.Path, opts.Fuzz); err != nil {
				return nil, err
			}
		}
		if pr.cached, err = copyCorpus(cache, corpus, "cache-"); err != nil {
			return nil, err
		}
		tcmd := exec.CommandContext(ctx, bin, "-test.run=^"+regexp.QuoteMeta(opts.Fuzz)+"$", "-test.coverprofile="+prof)
		tcmd.Dir = run
		tcmd.Env = opts.Env
		tcmd.Stdout, tcmd.Stderr = w, w
		if err := tcmd.Run(); err != nil {
			return nil, fmt.Errorf("measure (%s): running %s over its corpus: %w: %w\n%s", tag, opts.Fuzz, ErrTestsFailed, err, tail(out.String()))
		}
	}
	f, err := os.Open(prof)
	if err != nil {
		return nil, fmt.Errorf("measure: %w", err)
	}
	defer f.Close()
	pr.blocks, err = ParseProfile(f)
	return pr, err
}

// Materialize copies the module of r's packages to dir (without .git) and
// writes the annotated files in place of the originals: a tree where plain
// go commands see the annotated code, for tools that do not honour
// -overlay (go test -cover, golang/go#73802).
func (r *Result) Materialize(dir string) error {
	if len(r.Packages) == 0 {
		return errors.New("materialize: no packages")
	}
	root := r.Packages[0].Module
	if root == "" {
		return fmt.Errorf("materialize: %s is not in a module", r.Packages[0].Path)
	}
	for _, p := range r.Packages {
		if p.Module != root {
			return fmt.Errorf("materialize: packages from several modules (%s, %s)", root, p.Module)
		}
	}
	if err := copyTree(root, dir); err != nil {
		return err
	}
	for _, p := range r.Packages {
		for _, f := range p.Files {
			if f.Source == nil {
				continue
			}
			rel, err := filepath.Rel(root, f.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Errorf("materialize: %s is outside module %s", f.Path, root)
			}
			if err := os.WriteFile(filepath.Join(dir, rel), f.Source, 0o644); err != nil {
				return fmt.Errorf("materialize: %w", err)
			}
		}
	}
	return nil
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copying module: %w", err)
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel != "." && (d.Name() == ".git" || d.Name() == ".hg") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("copying module: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), b, 0o644); err != nil {
			return fmt.Errorf("copying module: %w", err)
		}
		return nil
	})
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

// Coverage computes per-key coverage of r's labels from hits (see
// labels.Coverage).
func (r *Result) Coverage(hits map[int]int) map[labels.Key]*labels.KeyCoverage {
	return labels.Coverage(r.Labels, hits)
}
