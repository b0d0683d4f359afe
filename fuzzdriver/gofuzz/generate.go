package gofuzz

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/reduce"
)

// GenerateOptions configure Generate.
type GenerateOptions struct {
	// Yardstick measures the suite and the campaign's entries (its
	// annotation's criteria are the labels to cover).
	Yardstick *Yardstick
	// Binary is the fuzz binary of the campaign (BuildFuzz, through an
	// overlay of labels that guide it, or of the original code).
	Binary string
	Budget time.Duration
	// Seed seeds Go's mutator (see Options.Seed).
	Seed uint64
	// MinimizeTime is -test.fuzzminimizetime ("" = go test's default).
	MinimizeTime string
	// Work is a scratch directory (the campaign's and the runs').
	Work string
	Env  []string
	// Log, if set, receives the campaign's output.
	Log io.Writer
}

// Generation is what Generate found: new corpus entries for what a fuzz
// target's suite (its f.Add seeds and testdata/fuzz entries) misses.
type Generation struct {
	Target Target
	// Suite is the target's testdata/fuzz entries; Seeds the number of
	// its f.Add seeds.
	Suite []CorpusEntry
	Seeds int
	// Base is what the suite covers (Yardstick.Items' kinds), sorted.
	Base []string
	// Campaign is the fuzzing campaign's result; Candidates its corpus
	// entries and failing inputs that are not in the suite.
	Campaign   *Result
	Candidates []CorpusEntry
	// Kept are the candidates chosen, in campaign order, and Adds[i] what
	// Kept[i] covers that neither the suite nor an earlier kept entry
	// does (never empty).
	Kept []CorpusEntry
	Adds [][]string
}

// After is what the suite and the kept entries cover, sorted.
func (g *Generation) After() []string {
	return reduce.Union(append([][]string{g.Base}, g.Adds...), nil)
}

// Generate fuzzes the target (o.Binary, a private fuzz cache, one worker,
// restarting after failures until the budget is spent) starting from its
// suite, measures the suite and every candidate alone on o.Yardstick, and
// keeps a small set of candidates covering what the suite does not
// (reduce.Extend: greedy set cover over what each adds, smaller first on
// a tie).
func Generate(ctx context.Context, o GenerateOptions) (*Generation, error) {
	y := o.Yardstick
	t := y.Target
	suite, err := LoadCorpus(t, "")
	if err != nil {
		return nil, err
	}
	r, err := Run(ctx, Options{Binary: o.Binary, Target: t, Dir: filepath.Join(o.Work, "campaign"), Budget: o.Budget, Seed: o.Seed,
		Parallel: 1, KeepGoing: true, MinimizeTime: o.MinimizeTime, Env: o.Env, Log: o.Log})
	if err != nil {
		return nil, err
	}
	if r.Stop == "canceled" {
		return nil, fmt.Errorf("gofuzz: campaign on %s: %w", t, context.Canceled)
	}
	g := &Generation{Target: t, Suite: suite, Campaign: r}
	seen := map[string]bool{}
	for _, e := range suite {
		data, err := os.ReadFile(e.Path)
		if err != nil {
			return nil, err
		}
		seen[string(data)] = true
	}
	var paths []string
	for _, e := range r.Corpus {
		paths = append(paths, e.Path)
	}
	for _, f := range r.Failures {
		if f.Input != "" {
			paths = append(paths, f.Input)
		}
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if seen[string(data)] {
			continue
		}
		seen[string(data)] = true
		g.Candidates = append(g.Candidates, CorpusEntry{Name: fmt.Sprintf("candidate-%04d", len(g.Candidates)), Path: p, Size: len(data), Cached: true})
	}
	cov, err := y.Items(ctx, append(append([]CorpusEntry(nil), suite...), g.Candidates...), filepath.Join(o.Work, "items"), o.Env)
	if err != nil {
		return nil, err
	}
	g.Seeds = cov.SeedCount
	g.Base = reduce.Union(append([][]string{cov.Seeds}, cov.Entries[:len(suite)]...), nil)
	candItems := cov.Entries[len(suite):]
	sizes := make([]int, len(g.Candidates))
	for i, c := range g.Candidates {
		sizes[i] = c.Size
	}
	keep, adds := reduce.ExtendAdds(g.Base, candItems, sizes)
	for _, i := range keep {
		g.Kept = append(g.Kept, g.Candidates[i])
	}
	g.Adds = adds
	return g, nil
}

// Replays runs each entry alone on y's binaries and fails unless it
// covers every item of want[i] (what it was kept for). fails[i] is the
// failure site entry i reproduces (its ItemFailure item without the
// prefix: go test fails on it until the bug is fixed), "" if it passes.
func (y *Yardstick) Replays(ctx context.Context, entries []CorpusEntry, want [][]string, scratch string, env []string) (fails []string, err error) {
	cov, err := y.Items(ctx, entries, scratch, env)
	if err != nil {
		return nil, err
	}
	fails = make([]string, len(entries))
	for i, e := range entries {
		got := map[string]bool{}
		for _, it := range cov.Entries[i] {
			got[it] = true
			if site, ok := strings.CutPrefix(it, ItemFailure); ok {
				fails[i] = site
			}
		}
		var missing []string
		for _, it := range want[i] {
			if !got[it] {
				missing = append(missing, it)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("gofuzz: %s does not replay to what it was kept for: it misses %s (a labelcov bug, or a target that is not deterministic)",
				e.Path, strings.Join(missing[:min(len(missing), 4)], ", "))
		}
	}
	return fails, nil
}
