package compare

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// A Go grid's benchmarks are fuzz targets (package, FuzzX) and its
// campaigns `go test -fuzz` runs (package fuzzdriver/gofuzz); GoRunner is
// the RunFunc that runs them, separate from PlanRunner.

// GoBench is one Go fuzz target of a grid.
type GoBench struct {
	Target gofuzz.Target
	Info   BenchInfo
	// Env is the environment of the go commands that build this target
	// and of its test binaries (nil: GoRunnerOptions.Env): with
	// PinFixed, -modfile names a private go.mod with the fixed versions.
	Env []string
}

// PinFixed makes every campaign of b build against the module versions
// with the fixes of its known bugs (gofuzz.FixedVersions of its
// truth.json): a private go.mod under work (gotransform.PinModfile; the
// target's go.mod is not written) that b.Env names, and Info.Fixed lists
// the versions for the report. over raises some of those versions
// (gofuzz.RaiseFixed; it reports which of over it used). env is the go
// command's environment (nil: this process's).
func (b *GoBench) PinFixed(ctx context.Context, work string, over, env []string) ([]bool, error) {
	tr, err := gofuzz.LoadTruth(b.Target)
	if err != nil {
		return nil, err
	}
	fixed, err := gofuzz.FixedVersions(tr)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Info.Name, err)
	}
	fixed, used, err := gofuzz.RaiseFixed(fixed, over)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", b.Info.Name, err)
	}
	if b.Env, err = gotransform.PinModfile(ctx, b.Target.Module, env, fixed, filepath.Join(work, b.Info.Name, "fixed.mod")); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Info.Name, err)
	}
	b.Info.Fixed = fixed
	return used, nil
}

// LoadGoBenches lists the fuzz targets of the Go packages matching
// patterns (the go command runs in dir) with their ground truth
// (truth.json beside each package's sources; see gofuzz.LoadTruth). Each
// is named by gofuzz.Target.BenchName ("header.FuzzDecode").
func LoadGoBenches(ctx context.Context, dir string, patterns []string) ([]*GoBench, error) {
	ts, err := gofuzz.Discover(ctx, dir, nil, patterns...)
	if err != nil {
		return nil, err
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("no fuzz target (func FuzzX(f *testing.F)) in %s", strings.Join(patterns, " "))
	}
	var out []*GoBench
	seen := map[string]string{}
	for _, t := range ts {
		name := t.BenchName()
		if prev, ok := seen[name]; ok {
			return nil, fmt.Errorf("fuzz targets %s and %s have the same name %s", prev, t, name)
		}
		seen[name] = t.String()
		tr, err := gofuzz.LoadTruth(t)
		if err != nil {
			return nil, err
		}
		info := BenchInfo{Name: name, Package: t.Package, Target: t.Name, Categories: []string{}}
		if tr != nil {
			info.Shape = tr.Shape
			for _, c := range tr.Categories {
				info.Categories = append(info.Categories, c.Name)
			}
		}
		out = append(out, &GoBench{Target: t, Info: info})
	}
	return out, nil
}

// GoRunnerOptions configure GoRunner.
type GoRunnerOptions struct {
	// Work holds the builds (overlays, test binaries); made if needed.
	Work string
	// Env is the go command's and the test binaries' environment (nil:
	// the current one).
	Env []string
	// KeepGoing restarts the fuzzer after each failure until the budget
	// (gofuzz.Options.KeepGoing); by default a campaign ends at its first.
	KeepGoing bool
	// Samples bounds the coverage samples of a campaign (default 16).
	Samples int
	// MinimizeTime is every campaign's -test.fuzzminimizetime (Grid.MinimizeTime).
	MinimizeTime string
}

// GoRunner runs the campaigns of a Go grid: every (target, guiding
// criterion) is built once — the package annotated with the criterion
// through an overlay (none: the original) into a fuzz-instrumented test
// binary — and every campaign is a gofuzz.Run of it with one fuzzing
// worker, in the cell's directory (Instance/: work/, cache/, failures/,
// go.log, go.json and stats.json). Failing inputs are replayed on the
// original code and named by their site (gofuzz.Reproduce); the kept corpus
// and the seeds are replayed on the target's yardstick for coverage over
// time. A criterion whose overlay replaces test files (dist adds f.Add
// seeds) gets a yardstick of its own with those test files.
type GoRunner struct {
	o       GoRunnerOptions
	benches map[string]*GoBench

	mu   sync.Mutex
	fuzz map[string]*buildOnce // bench + "\x00" + criterion
	// yard: bench + "\x00" + criterion, or bench + "\x00" for the
	// criteria whose overlay keeps the package's test files.
	yard map[string]*yardOnce
	ann  map[string]*annotationOnce // bench
}

type buildOnce struct {
	once sync.Once
	bin  string
	// tests are the test files the overlay replaces (with dist, copies
	// with the constants of relations as extra f.Add seeds).
	tests map[string][]byte
	err   error
}

type yardOnce struct {
	once sync.Once
	y    *gofuzz.Yardstick
	err  error
}

type annotationOnce struct {
	once sync.Once
	res  *gotransform.Result
	err  error
}

// yardAnnotation is bench's annotation with the yardstick criteria, made
// once for all its yardsticks.
func (g *GoRunner) yardAnnotation(ctx context.Context, b *GoBench) (*gotransform.Result, error) {
	g.mu.Lock()
	ao := g.ann[b.Info.Name]
	if ao == nil {
		ao = &annotationOnce{}
		g.ann[b.Info.Name] = ao
	}
	g.mu.Unlock()
	ao.once.Do(func() { ao.res, ao.err = gofuzz.AnnotateYardstick(ctx, b.Target, g.env(b)) })
	return ao.res, ao.err
}

// NewGoRunner makes a GoRunner for benches.
func NewGoRunner(benches []*GoBench, o GoRunnerOptions) *GoRunner {
	if o.Samples <= 0 {
		o.Samples = 16
	}
	g := &GoRunner{o: o, benches: map[string]*GoBench{}, fuzz: map[string]*buildOnce{}, yard: map[string]*yardOnce{},
		ann: map[string]*annotationOnce{}}
	for _, b := range benches {
		g.benches[b.Info.Name] = b
	}
	return g
}

// Prepare builds what the campaigns of bench guided by crit need (the
// fuzz binary and the yardstick, whose original binary also replays
// failures), so that a target a criterion cannot annotate or build fails
// before any campaign.
func (g *GoRunner) Prepare(ctx context.Context, bench, crit string) error {
	_, err := g.yardstick(ctx, bench, crit)
	return err
}

// env is the environment of b's go commands and test binaries.
func (g *GoRunner) env(b *GoBench) []string {
	if b.Env != nil {
		return b.Env
	}
	return g.o.Env
}

func (g *GoRunner) bench(name string) (*GoBench, error) {
	b := g.benches[name]
	if b == nil {
		return nil, fmt.Errorf("unknown Go benchmark %s", name)
	}
	return b, nil
}

// binary is the fuzz binary of bench guided by crit, built on first use,
// and the test files its overlay replaces.
func (g *GoRunner) binary(ctx context.Context, bench, crit string) (*buildOnce, error) {
	b, err := g.bench(bench)
	if err != nil {
		return nil, err
	}
	g.mu.Lock()
	k := bench + "\x00" + crit
	bo := g.fuzz[k]
	if bo == nil {
		bo = &buildOnce{}
		g.fuzz[k] = bo
	}
	g.mu.Unlock()
	bo.once.Do(func() {
		dir := filepath.Join(g.o.Work, bench, crit)
		if bo.err = os.MkdirAll(dir, 0o755); bo.err != nil {
			return
		}
		overlay, env := "", g.env(b)
		if crit != Baseline {
			guide, err := ParseGuide(crit)
			if err != nil {
				bo.err = err
				return
			}
			gd, err := gofuzz.AnnotateGuide(ctx, b.Target, gotransform.Options{Criteria: guide, Env: g.env(b)}, dir)
			if err != nil {
				bo.err = fmt.Errorf("%s guided by %s: %w", bench, crit, err)
				return
			}
			overlay, env = gd.Overlay, gd.Env
			if bo.tests, err = gofuzz.OverlayTests(overlay); err != nil {
				bo.err = err
				return
			}
		}
		bin := filepath.Join(dir, "fuzz.test")
		if err := gofuzz.BuildFuzz(ctx, b.Target, overlay, bin, env); err != nil {
			bo.err = fmt.Errorf("%s guided by %s: %w", bench, crit, err)
			return
		}
		bo.bin = bin
	})
	if bo.err != nil {
		return nil, bo.err
	}
	return bo, nil
}

// yardstick is the yardstick of bench's campaigns guided by crit (built on
// first use, with the fuzz binary): the coverage binaries, with the test
// files crit's campaigns ran with.
func (g *GoRunner) yardstick(ctx context.Context, bench, crit string) (*gofuzz.Yardstick, error) {
	b, err := g.bench(bench)
	if err != nil {
		return nil, err
	}
	bo, err := g.binary(ctx, bench, crit)
	if err != nil {
		return nil, err
	}
	k, sub := bench+"\x00", "yardstick"
	if len(bo.tests) > 0 {
		k, sub = bench+"\x00"+crit, filepath.Join(crit, "yardstick")
	}
	g.mu.Lock()
	yo := g.yard[k]
	if yo == nil {
		yo = &yardOnce{}
		g.yard[k] = yo
	}
	g.mu.Unlock()
	yo.once.Do(func() {
		dir := filepath.Join(g.o.Work, bench, sub)
		if yo.err = os.MkdirAll(dir, 0o755); yo.err != nil {
			return
		}
		res, err := g.yardAnnotation(ctx, b)
		if err != nil {
			yo.err = err
			return
		}
		yo.y, yo.err = gofuzz.BuildYardstick(ctx, b.Target, res, bo.tests, dir, g.env(b))
		if yo.err != nil {
			yo.err = fmt.Errorf("%s: yardstick: %w", bench, yo.err)
		}
	})
	return yo.y, yo.err
}

// Run is the RunFunc of the grid.
func (g *GoRunner) Run(ctx context.Context, s Spec) (*engine.Summary, error) {
	b, err := g.bench(s.Bench)
	if err != nil {
		return nil, err
	}
	if err := g.Prepare(ctx, s.Bench, s.Criterion); err != nil {
		if ctx.Err() != nil {
			return &engine.Summary{Stop: "canceled"}, nil
		}
		return nil, err
	}
	bo, _ := g.binary(ctx, s.Bench, s.Criterion)
	y, _ := g.yardstick(ctx, s.Bench, s.Criterion)
	dir := filepath.Join(s.Dir, Instance)
	started := time.Now().UTC().Format(time.RFC3339)
	r, err := gofuzz.Run(ctx, gofuzz.Options{Binary: bo.bin, Target: b.Target, Dir: dir, Budget: s.Budget, Seed: s.Seed,
		Parallel: 1, KeepGoing: g.o.KeepGoing, MinimizeTime: g.o.MinimizeTime, Env: g.env(b)})
	if err != nil {
		return nil, err
	}
	if r.Stop == "canceled" {
		return &engine.Summary{Stop: "canceled"}, nil
	}
	stats := engine.StatsFile{Version: engine.StatsVersion, Instance: Instance, Seed: s.Seed, Workers: 1, Started: started,
		Findings: []engine.FindingRecord{}}
	seen := map[string]bool{}
	sites := []gofuzz.Site{}
	for i, f := range r.Failures {
		// On the original code, with the test files (and seeds) the
		// campaign ran with.
		site, err := gofuzz.Reproduce(ctx, y.Original, b.Target, f.Input, f.Seed, filepath.Join(dir, "replay", fmt.Sprint(i+1)), g.env(b))
		if err != nil {
			return nil, err
		}
		sites = append(sites, site)
		if seen[site.Key()] {
			continue
		}
		seen[site.Key()] = true
		stats.Findings = append(stats.Findings, engine.FindingRecord{Key: site.Key(), Category: site.Category, Pos: site.Pos,
			Detail: site.Detail, TimeS: f.TimeS, Execs: f.Execs, Input: f.Input, New: true})
	}
	if err := os.RemoveAll(filepath.Join(dir, "replay")); err != nil {
		return nil, err
	}
	if stats.Samples, err = y.Series(ctx, r, g.o.Samples, filepath.Join(dir, "measure")); err != nil {
		return nil, err
	}
	if err := os.RemoveAll(filepath.Join(dir, "measure")); err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return &engine.Summary{Stop: "canceled"}, nil
	}
	if err := writeJSON(filepath.Join(dir, "go.json"), struct {
		*gofuzz.Result
		Sites []gofuzz.Site `json:"sites"`
	}{r, sites}); err != nil {
		return nil, err
	}
	if err := writeJSON(filepath.Join(dir, "stats.json"), stats); err != nil {
		return nil, err
	}
	last := stats.Samples[len(stats.Samples)-1]
	sum := &engine.Summary{Execs: r.Execs, ElapsedS: r.ElapsedS, SessionS: r.ElapsedS, Corpus: len(r.Corpus),
		Coverage: last.Coverage, Findings: stats.Findings, Stop: r.Stop, Dir: dir, CPUS: r.CPUS}
	// execs/s of the fuzzing phase: after the seeds' baseline, so that a
	// campaign that ends within seconds (a find) is not measured by its
	// start-up (process and worker start, the baseline run of the seeds).
	if f := r.ElapsedS - r.BaselineS; f > 0 && r.BaselineS > 0 {
		sum.ExecsPerSec = float64(r.Execs) / f
	} else if r.ElapsedS > 0 {
		sum.ExecsPerSec = float64(r.Execs) / r.ElapsedS
	}
	return sum, nil
}

// GoBenchNames are the names of benches, sorted.
func GoBenchNames(benches []*GoBench) []string {
	var out []string
	for _, b := range benches {
		out = append(out, b.Info.Name)
	}
	sort.Strings(out)
	return out
}

// SelectGoBenches keeps the benches named in names (all when names is
// empty), in the order of names.
func SelectGoBenches(benches []*GoBench, names []string) ([]*GoBench, error) {
	if len(names) == 0 {
		return benches, nil
	}
	by := map[string]*GoBench{}
	for _, b := range benches {
		by[b.Info.Name] = b
	}
	var out []*GoBench
	for _, n := range names {
		b := by[n]
		if b == nil {
			return nil, fmt.Errorf("--bench %s: no such fuzz target; the targets are %s", n, strings.Join(GoBenchNames(benches), ", "))
		}
		out = append(out, b)
	}
	return out, nil
}
