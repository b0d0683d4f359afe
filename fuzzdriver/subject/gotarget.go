package subject

// Go packages: the packages' tests, or one fuzz target's corpus
// (testdata/fuzz/FuzzX and go test -fuzz's cache), measured on coverage
// binaries (coverage/gotest, fuzzdriver/gofuzz).

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// goSubject is Go packages (patterns).
type goSubject struct{ o Options }

func (s *goSubject) Kind() Kind { return GoPackages }

// planFlags are the flags meant for plans only.
var planFlags = []string{"tests", "world", "plan", "max-steps", "max-objects", "pure", "no-values"}

// planOnlyFlags fails when a flag meant for plans is set with Go packages.
func (s *goSubject) planOnlyFlags() error {
	for _, n := range planFlags {
		if !s.o.changed(n) {
			continue
		}
		if n == "tests" {
			return fmt.Errorf("--tests is for plans; a Go fuzz target's suite is its corpus (testdata/fuzz/FuzzX and the fuzz cache)")
		}
		return fmt.Errorf("--%s is for plans, not Go packages", n)
	}
	return nil
}

// ResolveLabelPkgs turns --label-pkgs patterns into import paths as the
// go command sees them from dir (relative patterns: from the current
// directory).
func ResolveLabelPkgs(ctx context.Context, dir string, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	var abs []string
	for _, p := range patterns {
		a, err := gotransform.AbsPattern(p)
		if err != nil {
			return nil, fmt.Errorf("--label-pkgs %s: %w", p, err)
		}
		abs = append(abs, a)
	}
	fps, err := gotransform.ListPackages(ctx, dir, nil, abs)
	if err != nil {
		return nil, fmt.Errorf("--label-pkgs: %w", err)
	}
	var out []string
	for _, fp := range fps {
		out = append(out, fp.Path)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--label-pkgs %s: no packages", strings.Join(patterns, " "))
	}
	return out, nil
}

// goTransformOptions are the labelling options of Go packages: criteria
// ("" = all), --mcc-max-atoms, the go command's directory and tags.
func goTransformOptions(criteria string, maxAtoms int, dir, tags string) (gotransform.Options, error) {
	crit := criteria
	if crit == "" {
		crit = "all"
	}
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		return gotransform.Options{}, fmt.Errorf("--criteria: %w", err)
	}
	if maxAtoms < 0 {
		return gotransform.Options{}, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", maxAtoms)
	}
	to := gotransform.Options{Criteria: c, MCCMaxAtoms: maxAtoms, Dir: dir}
	if tags != "" {
		to.BuildFlags = []string{"-tags=" + tags}
	}
	return to, nil
}

// resolve resolves the patterns (the go command's directory, the patterns
// as it sees them from there, with the path rules of transform/golang)
// and the labelling options.
func (s *goSubject) resolve() (string, []string, gotransform.Options, error) {
	o := &s.o
	dir, patterns, err := gotransform.ResolvePatterns(o.Dir, o.Args)
	if err != nil {
		return "", nil, gotransform.Options{}, err
	}
	to, err := goTransformOptions(o.Criteria, o.MCCMaxAtoms, dir, o.Tags)
	return dir, patterns, to, err
}

// Cover annotates the packages in memory, runs their tests — or, with
// Fuzz, one fuzz target over its seed and cached corpus — on a scratch
// copy of the module with the annotated files in place and on the
// original, and reports label coverage per criterion and operator, plain
// statement and block coverage, and every uncovered label with its
// file:line:col.
func (s *goSubject) Cover(ctx context.Context, w io.Writer, co CoverOptions) error {
	gates, err := co.gates(true)
	if err != nil {
		return err
	}
	if co.Justified {
		return fmt.Errorf("--fail-under-justified: plans only so far (no prover resolves the labels of Go packages: justified would be covered)")
	}
	o := s.o
	dir, patterns, to, err := s.resolve()
	if err != nil {
		return err
	}
	// Gates on figures Go does not report fail now, not after the tests.
	if err := measure.ValidateGates(gates, measure.GateKeys(to.Criteria.Keys(), "statements", "blocks")); err != nil {
		return fmt.Errorf("--fail-under: %w", err)
	}
	var g outputs.Guard
	if err := co.check(&g); err != nil {
		return err
	}
	mo := gotest.Options{Dir: dir, Fuzz: o.Fuzz, FuzzCache: o.FuzzCache, PerTest: o.PerTest, LabelPkgs: o.LabelPkgs}
	mo.Before = func(res *gotransform.Result) error {
		// What the tests and fuzz targets read: each package's testdata
		// (its corpus among it), and go test -fuzz's cached corpus.
		for _, p := range res.Packages {
			g.Folder("the testdata of "+p.Path, filepath.Join(p.Dir, "testdata"))
		}
		for _, p := range res.FuzzPackages { // the tested packages, with labels in dependencies
			g.Folder("the testdata of "+p.Path, filepath.Join(p.Dir, "testdata"))
		}
		if o.Fuzz != "" && o.FuzzCache != "" {
			g.Folder("the fuzz cache", o.FuzzCache)
		}
		return co.check(&g)
	}
	if o.Verbose && o.Stderr != nil {
		mo.Output = o.Stderr
	}
	rep, err := gotest.Cover(ctx, patterns, to, mo)
	if err != nil {
		return err
	}
	// The one writer of every front end's report (its warnings are in
	// the report: Go's labelling notes went to stderr while annotating).
	err = co.write(w, nil, &g, rep, o.JSON, gates)
	if c := rep.Corpus; err == nil && c != nil && len(c.Crashing) > 0 {
		// Like go test, a corpus entry that crashes is a failure; the
		// report above measured the others.
		err = Found("%s fails on %d corpus entr%s: %s", o.Fuzz, len(c.Crashing), plural(len(c.Crashing), "y", "ies"), strings.Join(c.Crashing, ", "))
	}
	if err == nil && len(rep.Failing) > 0 {
		// Like go test: failing tests fail the command, after the report
		// of what the others cover.
		err = Found("%d test(s) fail: %s (skipped; the report covers the others; go test shows why)", len(rep.Failing), strings.Join(rep.Failing, ", "))
	}
	return err
}

// target finds the fuzz target of Fuzz in the pattern, with LabelPkgs.
func (s *goSubject) target(ctx context.Context) (gofuzz.Target, error) {
	t, err := FuzzTarget(ctx, s.o.Args[0], s.o.Dir, s.o.Fuzz)
	if err != nil {
		return t, err
	}
	t.LabelPkgs, err = ResolveLabelPkgs(ctx, t.Module, s.o.LabelPkgs)
	return t, err
}

// FuzzTarget finds fuzz target name in the packages matching pattern
// (run from dir, or from the module holding pattern).
func FuzzTarget(ctx context.Context, pattern, dir, name string) (gofuzz.Target, error) {
	if name == "" {
		return gofuzz.Target{}, fmt.Errorf("give --fuzz FuzzX: the fuzz target of %s whose corpus to work on", pattern)
	}
	p := pattern
	if dir == "" {
		var err error
		if dir, p, err = gotransform.PatternDir(pattern); err != nil {
			return gofuzz.Target{}, err
		}
	}
	ts, err := gofuzz.Discover(ctx, dir, nil, p)
	if err != nil {
		return gofuzz.Target{}, err
	}
	var match []gofuzz.Target
	var names []string
	for _, t := range ts {
		names = append(names, t.Name)
		if t.Name == name {
			match = append(match, t)
		}
	}
	switch {
	case len(match) == 1:
		return match[0], nil
	case len(match) > 1:
		return gofuzz.Target{}, fmt.Errorf("fuzz target %s is defined in %s and %s: name one package", name, match[0].Package, match[1].Package)
	case len(names) == 0:
		return gofuzz.Target{}, fmt.Errorf("%s has no fuzz target (func %s(f *testing.F) in a _test.go file)", pattern, name)
	}
	return gofuzz.Target{}, fmt.Errorf("%s has no fuzz target %s; its fuzz targets: %s", pattern, name, strings.Join(names, ", "))
}

// targetCache is the directory of t's entries in go test -fuzz's cache:
// ROOT/IMPORTPATH/FuzzX, ROOT being root or $(go env GOCACHE)/fuzz.
func targetCache(ctx context.Context, t gofuzz.Target, root string) (string, error) {
	if root != "" {
		return filepath.Join(root, filepath.FromSlash(t.Package), t.Name), nil
	}
	return gotest.FuzzCacheDir(ctx, t.Module, nil, t.Package, t.Name)
}

// yardstick annotates t's package as the label options say and builds
// its two coverage binaries under work.
func (s *goSubject) yardstick(ctx context.Context, t gofuzz.Target, work string) (*gofuzz.Yardstick, error) {
	to, err := goTransformOptions(s.o.Criteria, s.o.MCCMaxAtoms, t.Module, "")
	if err != nil {
		return nil, err
	}
	to.Consts = true // gentests' directed entries
	res, err := gotransform.Annotate(ctx, t.Labelled(), to)
	if err != nil {
		return nil, err
	}
	return gofuzz.BuildYardstick(ctx, t, res, nil, work, nil)
}

// GoReduceReport is `labelcov reduce PACKAGE --fuzz FuzzX --json`.
type GoReduceReport struct {
	Version int    `json:"version"`
	Package string `json:"package"`
	Target  string `json:"target"`
	// Out is the folder the kept entries were written to
	// (OUT/testdata/fuzz/FuzzX).
	Out string `json:"out"`
	// Seeds counts the f.Add seeds (they always run).
	Seeds  int          `json:"seeds"`
	Before CorpusFigure `json:"before"`
	After  CorpusFigure `json:"after"`
	// Kept names the entries written; Failing those the target fails on.
	Kept    []string `json:"kept"`
	Failing []string `json:"failing,omitempty"`
	// Items counts what the seeds and the kept entries cover, as the whole
	// corpus does: labels, blocks of the original code, failure sites.
	Items map[string]int `json:"items"`
}

// CorpusFigure counts corpus entries.
type CorpusFigure struct {
	Entries  int `json:"entries"`
	Bytes    int `json:"bytes"`
	Testdata int `json:"testdata"`
	Cached   int `json:"cached"`
}

func figureOf(es []gofuzz.CorpusEntry) CorpusFigure {
	var f CorpusFigure
	for _, e := range es {
		f.Entries++
		f.Bytes += e.Size
		if e.Cached {
			f.Cached++
		} else {
			f.Testdata++
		}
	}
	return f
}

// Reduce reduces the corpus of the fuzz target Fuzz.
func (s *goSubject) Reduce(ctx context.Context, w io.Writer, out string) error {
	if out == "" {
		return fmt.Errorf("give --out NEWDIR: reduce writes the kept entries to NEWDIR/testdata/fuzz/FuzzX and never touches the corpus")
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return fmt.Errorf("--out %s is not empty", out)
	}
	if args := s.o.Args; len(args) > 1 {
		return fmt.Errorf("too many arguments: reduce takes one Go package (or pattern) holding --fuzz %s, got %s", s.o.Fuzz, strings.Join(args, " "))
	}
	if err := s.planOnlyFlags(); err != nil {
		return err
	}
	t, err := s.target(ctx)
	if err != nil {
		return err
	}
	cache, err := targetCache(ctx, t, s.o.FuzzCache)
	if err != nil {
		return err
	}
	entries, err := gofuzz.LoadCorpus(t, cache)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return fmt.Errorf("%s has no corpus entries in %s or %s: nothing to reduce", t, filepath.Join(t.Dir, "testdata", "fuzz", t.Name), cache)
	}
	work, err := os.MkdirTemp("", "labelcov-reduce-")
	if err != nil {
		return fmt.Errorf("reduce: %w", err)
	}
	defer os.RemoveAll(work)
	y, err := s.yardstick(ctx, t, filepath.Join(work, "build"))
	if err != nil {
		return err
	}
	red, err := gofuzz.Reduce(ctx, y, entries, filepath.Join(work, "runs"), nil)
	if err != nil {
		return err
	}
	dir, err := gofuzz.WriteCorpus(t, out, red.Kept)
	if err != nil {
		return err
	}
	rep := GoReduceReport{Version: 1, Package: t.Package, Target: t.Name, Out: dir, Seeds: red.Seeds,
		Before: figureOf(red.Entries), After: figureOf(red.Kept), Kept: []string{}}
	for _, e := range red.Kept {
		rep.Kept = append(rep.Kept, e.Name)
	}
	rep.Items, rep.Failing = goItemFigures(red.Items), red.Failing
	if s.o.JSON {
		return WriteJSON(w, rep)
	}
	b, a := rep.Before, rep.After
	fmt.Fprintf(w, "reduce: %s: %d entries (%d bytes; %d in testdata/fuzz, %d cached) -> %d entries (%d bytes) in %s\n",
		t, b.Entries, b.Bytes, b.Testdata, b.Cached, a.Entries, a.Bytes, dir)
	fmt.Fprintf(w, "  with the %d f.Add seed(s), kept %s\n", red.Seeds, strings.Join(itemCounts(red.Items, goItemKinds), ", "))
	line, err := criterionLine(y.Annotation.Labels, y.Annotation.Decisions, red.Items)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  criteria (as cover counts them, the same as the whole corpus): %s\n", line)
	if n := len(red.Failing); n > 0 {
		fmt.Fprintf(w, "  %d kept entr%s the target fails on (go test fails until the bug is fixed): %s\n", n, plural(n, "y", "ies"), strings.Join(red.Failing, ", "))
	}
	fmt.Fprintf(w, "  to use it: replace %s with %s, and empty %s (go clean -fuzzcache empties every target's)\n",
		filepath.Join(t.Dir, "testdata", "fuzz", t.Name), dir, cache)
	return nil
}
