package gofuzz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/constant"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
	"golang.org/x/tools/cover"
)

// Yardstick measures the corpus of any campaign on one target the same
// way, whatever guided it: the coverage blocks of the original package
// ("blocks", as go test -cover counts them) and the labels of the yardstick
// criteria as cover counts them (labels.Figures): per criterion
// "labels:mcc", "labels:cc", "labels:wm", "labels:mcdc" (conditions whose
// independence pair the corpus executed) and "labels:dist"; "labels" is
// cover's all, the sum of these rows (labels.GroupFigures).
type Yardstick struct {
	Target Target
	// Original and Labels are coverage-instrumented test binaries of the
	// original package and of the package annotated with the yardstick
	// criteria (BuildYardstick).
	Original, Labels string
	Annotation       *gotransform.Result
}

// YardstickCriteria are the criteria every Go campaign is measured on.
func YardstickCriteria() labels.Criteria {
	c, _ := labels.ParseCriteria("all,dist,mcdc")
	return c
}

// AnnotateYardstick annotates t's labelled packages with the yardstick criteria
// (the annotation BuildYardstick builds on; one serves every yardstick of
// the target).
func AnnotateYardstick(ctx context.Context, t Target, env []string) (*gotransform.Result, error) {
	return gotransform.Annotate(ctx, t.Labelled(), gotransform.Options{Criteria: YardstickCriteria(), Dir: t.Module, Env: env})
}

// BuildYardstick builds the two coverage binaries of t into work: the
// original package, and the package annotated as res (AnnotateYardstick;
// in a copy of the module under work: go test -cover ignores -overlay;
// labels inside dependencies: in copies of their modules, replaced in a
// private go.mod, Result.MaterializeDeps). Both use the package's test files as the user wrote
// them, or, for the files named in tests (original path -> contents), the
// test files a campaign ran with — an overlay with dist adds the constants
// of relations as f.Add seeds there — so that a campaign's seeds are
// replayed with its corpus, and a failing seed can be replayed on the
// original code (Original is also the binary Reproduce needs).
func BuildYardstick(ctx context.Context, t Target, res *gotransform.Result, tests map[string][]byte, work string, env []string) (*Yardstick, error) {
	y := &Yardstick{Target: t, Original: filepath.Join(work, "original.cover.test"),
		Labels: filepath.Join(work, "labels.cover.test"), Annotation: res}
	orig := t.Module
	if len(tests) > 0 {
		orig = filepath.Join(work, "original-module")
		if err := copyDir(t.Module, orig); err != nil {
			return nil, err
		}
		if err := writeTests(t, orig, tests); err != nil {
			return nil, err
		}
	}
	if err := BuildCover(ctx, t, orig, y.Original, env); err != nil {
		return nil, err
	}
	if len(res.Packages) > 0 && res.Packages[0].Module != t.Module {
		// Labels inside dependencies: copies of their modules with the
		// annotated files in place, replaced in a private go.mod of the
		// target's module (or of its copy with the campaign's tests).
		denv, err := res.MaterializeDeps(ctx, orig, env, filepath.Join(work, "deps"))
		if err != nil {
			return nil, err
		}
		if err := BuildCover(ctx, t, orig, y.Labels, denv); err != nil {
			return nil, err
		}
		return y, nil
	}
	mod := filepath.Join(work, "module")
	if err := res.Materialize(mod); err != nil {
		return nil, err
	}
	// The package's own test files, then the campaign's.
	own, _ := filepath.Glob(filepath.Join(t.Dir, "*_test.go"))
	for _, f := range own {
		rel, err := filepath.Rel(t.Module, f)
		if err != nil {
			return nil, err
		}
		if err := copyFile(f, filepath.Join(mod, rel)); err != nil {
			return nil, err
		}
	}
	if err := writeTests(t, mod, tests); err != nil {
		return nil, err
	}
	if err := BuildCover(ctx, t, mod, y.Labels, env); err != nil {
		return nil, err
	}
	return y, nil
}

// writeTests writes test files (original path -> contents) of t's module
// into the module copy root; those of other modules (the labelled
// dependencies' own, seeded by an overlay) are not the campaign's and are
// left out.
func writeTests(t Target, root string, tests map[string][]byte) error {
	for path, src := range tests {
		rel, err := filepath.Rel(t.Module, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		if err := os.WriteFile(filepath.Join(root, rel), src, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// OverlayTests reads the test files (*_test.go) an overlay file (go
// -overlay JSON) replaces: original path -> the replacement's contents.
func OverlayTests(overlay string) (map[string][]byte, error) {
	data, err := os.ReadFile(overlay)
	if err != nil {
		return nil, err
	}
	var ov struct{ Replace map[string]string }
	if err := json.Unmarshal(data, &ov); err != nil {
		return nil, fmt.Errorf("%s: %w", overlay, err)
	}
	out := map[string][]byte{}
	for orig, repl := range ov.Replace {
		if !strings.HasSuffix(orig, "_test.go") || repl == "" {
			continue
		}
		src, err := os.ReadFile(repl)
		if err != nil {
			return nil, err
		}
		out[orig] = src
	}
	return out, nil
}

// Measure replays the target's seed corpus and the corpus files entries on
// both binaries, in scratch (made empty first), and returns the coverage
// figures.
func (y *Yardstick) Measure(ctx context.Context, entries []string, scratch string) (map[string]engine.Figure, error) {
	orig, err := y.profile(ctx, y.Original, entries, filepath.Join(scratch, "original"))
	if err != nil {
		return nil, err
	}
	fig := map[string]engine.Figure{}
	var b engine.Figure
	for _, p := range orig {
		for _, blk := range p.Blocks {
			b.Total++
			if blk.Count > 0 {
				b.Covered++
			}
		}
	}
	fig["blocks"] = b
	ann, err := y.profile(ctx, y.Labels, entries, filepath.Join(scratch, "labels"))
	if err != nil {
		return nil, err
	}
	hits := gotest.LabelHits(y.Annotation, ann)
	// The figures of cover (labels.Figures: mcdc in conditions), named as
	// a campaign's: "labels" is cover's all, dist included.
	cov, err := labels.Figures(y.Annotation.Labels, y.Annotation.Decisions, hits)
	if err != nil {
		return nil, err
	}
	all, groups := labels.GroupFigures(cov, y.Annotation.Criteria.Keys())
	for g, f := range groups {
		fig[labels.FigureName(g)] = f
	}
	fig[labels.AllFigure] = all
	return fig, nil
}

// profile runs bin over the seed corpus and entries in dir with a
// coverage profile; entries it fails on are skipped.
func (y *Yardstick) profile(ctx context.Context, bin string, entries []string, dir string) ([]*cover.Profile, error) {
	t := y.Target
	named := make([]CorpusEntry, len(entries))
	for i, e := range entries {
		named[i] = CorpusEntry{Name: fmt.Sprintf("labelcov-%05d", i), Path: e}
	}
	dir, err := y.corpusDir(named, dir, true)
	if err != nil {
		return nil, err
	}
	prof := filepath.Join(dir, "cover.out")
	if _, err := gotest.RunCorpus(ctx, bin, dir, nil, t.Name, prof, nil); err != nil {
		return nil, fmt.Errorf("gofuzz: replaying the corpus of %s: %w", t, err)
	}
	return cover.ParseProfiles(prof)
}

// SampleTimes chooses the campaign times at which a campaign's corpus is
// measured: start (when the seeds had run), the times the corpus grew — at most max-2 of
// them (at most limit in all), on a geometric grid from the first growth to the end, each the
// last growth before its grid point, so every sample is exact — and end.
func SampleTimes(corpus []Entry, start, end float64, limit int) []float64 {
	limit = max(limit, 3)
	var grew []float64
	for _, e := range corpus {
		if e.TimeS > start && e.TimeS <= end && (len(grew) == 0 || e.TimeS > grew[len(grew)-1]) {
			grew = append(grew, e.TimeS)
		}
	}
	out := []float64{start}
	if len(grew) <= limit-2 {
		out = append(out, grew...)
	} else {
		lo := max(grew[0], start, 1e-3)
		ratio := end / lo
		n := limit - 2
		for i := 1; i <= n; i++ {
			bound := lo * math.Pow(ratio, float64(i)/float64(n))
			j := sort.SearchFloat64s(grew, bound+1e-9) - 1
			if j >= 0 && grew[j] > out[len(out)-1] {
				out = append(out, grew[j])
			}
		}
	}
	if end > out[len(out)-1] {
		out = append(out, end)
	}
	return out
}

// Series measures r's corpus at SampleTimes(r.Corpus, r.BaselineS, r.ElapsedS, limit):
// one stats.json sample per time (execs interpolated from the progress
// lines). scratch is a directory for the replays.
func (y *Yardstick) Series(ctx context.Context, r *Result, limit int, scratch string) ([]engine.Sample, error) {
	var out []engine.Sample
	var prev map[string]engine.Figure
	prevN := -1
	for _, t := range SampleTimes(r.Corpus, r.BaselineS, r.ElapsedS, limit) {
		var entries []string
		for _, e := range r.Corpus {
			if e.TimeS <= t {
				entries = append(entries, e.Path)
			}
		}
		fig := prev
		if len(entries) != prevN {
			var err error
			if fig, err = y.Measure(ctx, entries, scratch); err != nil {
				return nil, err
			}
		}
		prev, prevN = fig, len(entries)
		s := engine.Sample{ElapsedS: t, Execs: r.ExecsAt(t), Corpus: len(entries), Coverage: fig}
		for _, f := range r.Failures {
			if f.TimeS <= t {
				s.Findings++
			}
		}
		out = append(out, s)
	}
	for i := range out {
		if i > 0 && out[i].ElapsedS > out[i-1].ElapsedS {
			out[i].ExecsPerSec = float64(out[i].Execs-out[i-1].Execs) / (out[i].ElapsedS - out[i-1].ElapsedS)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("gofuzz: no sample")
	}
	return out, nil
}

// Guide is the annotation a campaign on a target is guided by.
type Guide struct {
	Result *gotransform.Result
	// Overlay is the go -overlay file of the annotated code.
	Overlay string
	// Env is the environment that builds with it (with labels inside
	// dependencies, -modfile names the layout's private go.mod).
	Env []string
}

// AnnotateGuide annotates t's labelled packages (Labelled) as opts says
// (Dir and Env: t's module and the go command's environment) and writes
// the overlay under work: the one place where every Go campaign's guiding
// annotation is made. Labels inside dependencies are laid out under work
// (gotransform.AnnotateFor) and t's package gets their constants as seeds.
// With dist, the constants offered as seeds are those of the functions
// t's own seeds execute (KeepExecutedConsts).
func AnnotateGuide(ctx context.Context, t Target, opts gotransform.Options, work string) (*Guide, error) {
	opts.Dir = t.Module
	g := &Guide{Env: opts.Env}
	var err error
	if len(t.LabelPkgs) == 0 {
		g.Result, err = gotransform.Annotate(ctx, []string{t.Package}, opts)
	} else {
		var l *gotransform.Layout
		g.Result, l, err = gotransform.AnnotateFor(ctx, []string{t.Package}, t.LabelPkgs, opts, filepath.Join(work, "layout"))
		if l != nil {
			g.Env = l.Env()
		}
	}
	if err != nil {
		return nil, err
	}
	if opts.Criteria.Has(labels.DIST) {
		if err := KeepExecutedConsts(ctx, []Target{t}, g.Result, filepath.Join(work, "seedrun"), opts.Env); err != nil {
			return nil, err
		}
	}
	if g.Overlay, err = g.Result.WriteOverlay(filepath.Join(work, "overlay")); err != nil {
		return nil, err
	}
	return g, nil
}

// hasNumericConsts reports whether r offers a numeric constant: the only
// kind KeepExecutedConsts may drop, so without one the seeds' coverage
// build and run would change nothing.
func hasNumericConsts(r *gotransform.Result) bool {
	for _, p := range r.Packages {
		for _, c := range p.Consts {
			if c.Value.Kind() != constant.String {
				return true
			}
		}
	}
	return false
}

// KeepExecutedConsts keeps, of res's constants (offered as seeds with
// dist), the string constants and the numeric constants of the functions
// the seeds of targets ts execute (SeedFuncs, each run under work); all
// of them when the seeds execute none. The byte encodings of integers
// compared in code no seed reaches (a decoder's range checks for struct
// fields, where the target decodes into a map) diluted a text parser's
// corpus; string constants of such code (a marshaller's options) still
// paid on one (docs/go.md, "Seventh grid"). Without numeric constants
// nothing is built or run.
func KeepExecutedConsts(ctx context.Context, ts []Target, res *gotransform.Result, work string, env []string) error {
	if !hasNumericConsts(res) {
		return nil
	}
	spans, err := res.FuncSpans()
	if err != nil {
		return err
	}
	// Targets of one package share its coverage binary.
	bins := map[string]string{}
	ran := map[string]bool{}
	for i, t := range ts {
		w := filepath.Join(work, strconv.Itoa(i))
		key := t.Package + " " + strings.Join(t.Labelled(), ",")
		bin, built := bins[key]
		if !built {
			bin = filepath.Join(w, "seeds.cover.test")
			if err := buildSeedsCover(ctx, t, bin, env); err != nil {
				return err
			}
			bins[key] = bin
		}
		profiles, err := runSeeds(ctx, t, bin, w, env)
		if err != nil {
			return err
		}
		for f := range executedFuncs(profiles, spans) {
			ran[f] = true
		}
	}
	if len(ran) > 0 {
		res.KeepConsts(func(c gotransform.Const) bool { return ran[c.Pkg+"."+c.Func] || c.Value.Kind() == constant.String })
	}
	return nil
}

// SeedFuncs runs t's seed corpus (its f.Add calls and
// testdata/fuzz/FuzzX, as go test does without -fuzz) on a coverage
// binary of the original labelled packages built under work, and returns
// the functions of res's packages the seeds executed, named as
// gotransform.Const names them ("IMPORTPATH.NAME", by declared name, a
// function literal counting as its enclosing declaration). Empty when
// the seeds executed none (a target without seeds): then nothing tells
// which constants matter. env is the go command's environment for the
// original code (nil: the current one).
func SeedFuncs(ctx context.Context, t Target, res *gotransform.Result, work string, env []string) (map[string]bool, error) {
	bin := filepath.Join(work, "seeds.cover.test")
	if err := buildSeedsCover(ctx, t, bin, env); err != nil {
		return nil, err
	}
	profiles, err := runSeeds(ctx, t, bin, work, env)
	if err != nil {
		return nil, err
	}
	spans, err := res.FuncSpans()
	if err != nil {
		return nil, err
	}
	return executedFuncs(profiles, spans), nil
}

// buildSeedsCover builds t's coverage test binary (BuildCover) at bin,
// with the fuzzing build's instrumentation (BuildFuzz's -fuzz) as well:
// then every package the binary imports, the standard library most of
// all, is compiled as the fuzzing build that follows (a campaign's, or
// the user's go test -fuzz after annotate) compiles it, and that build
// finds them in the build cache. Without it a cold cache compiled the
// standard library twice, once for each build (x/net/html: docs/go.md,
// "Build cost and throughput on real parsers"). The coverage profile is
// the same: -fuzz adds its own counters, not -cover's.
func buildSeedsCover(ctx context.Context, t Target, bin string, env []string) error {
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return err
	}
	if err := goBuild(ctx, t.Module, env, coverArgs(t, bin, fuzzFlag(t))...); err != nil {
		return fmt.Errorf("gofuzz: the seeds of %s: %w", t, err)
	}
	return nil
}

// runSeeds runs t's seed corpus on bin, a coverage binary of t's package,
// under work, and returns the coverage profile.
func runSeeds(ctx context.Context, t Target, bin, work string, env []string) ([]*cover.Profile, error) {
	dir := filepath.Join(work, "run")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	// The seed corpus of testdata/fuzz, in a directory of the run's own:
	// the user's tree is not the binary's working directory.
	if td := filepath.Join(t.Dir, "testdata"); isDir(td) {
		if err := copyDir(td, filepath.Join(dir, "testdata")); err != nil {
			return nil, err
		}
	}
	prof := filepath.Join(work, "seeds.cover.out")
	if _, err := gotest.RunCorpus(ctx, bin, dir, env, t.Name, prof, nil); err != nil {
		return nil, fmt.Errorf("gofuzz: running the seeds of %s: %w", t, err)
	}
	profiles, err := cover.ParseProfiles(prof)
	if err != nil {
		return nil, fmt.Errorf("gofuzz: the seeds of %s: %w", t, err)
	}
	return profiles, nil
}

// executedFuncs names the functions (spans: per profile file name) with a
// block of profiles executed at least once.
func executedFuncs(profiles []*cover.Profile, spans map[string][]gotransform.FuncSpan) map[string]bool {
	out := map[string]bool{}
	for _, p := range profiles {
		fs := spans[p.FileName]
		for _, b := range p.Blocks {
			if b.Count == 0 {
				continue
			}
			for _, f := range fs {
				if b.StartLine >= f.Start && b.StartLine <= f.End {
					out[f.Pkg+"."+f.Func] = true
					break
				}
			}
		}
	}
	return out
}
