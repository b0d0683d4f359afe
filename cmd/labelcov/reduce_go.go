package main

// Go fuzz targets for `labelcov reduce` and `labelcov gentests`: the
// corpus of one target (testdata/fuzz/FuzzX and go test -fuzz's cache),
// measured entry by entry on coverage binaries (fuzzdriver/gofuzz).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/fuzzdriver/gotest"
	gotransform "github.com/labelcov/labelcov/transform/golang"
	"github.com/spf13/cobra"
)

// goFuzzOptions are the flags of reduce and gentests for a Go fuzz target.
type goFuzzOptions struct {
	fuzz      string // --fuzz FuzzX
	fuzzCache string // --fuzz-cache DIR: root of go test -fuzz's corpora
	dir       string // -C DIR
	labelPkgs []string
	json      bool
}

// register registers the flags; cache: also --fuzz-cache (reduce reads
// the cache, gentests fuzzes with a private one).
func (g *goFuzzOptions) register(cmd *cobra.Command, cache bool) {
	f := cmd.Flags()
	f.StringVar(&g.fuzz, "fuzz", "", "Go packages: the fuzz target whose corpus to work on (FuzzX)")
	if cache {
		f.StringVar(&g.fuzzCache, "fuzz-cache", "", "Go packages: root of go test -fuzz's generated corpora (default $(go env GOCACHE)/fuzz; the target's entries are in DIR/IMPORTPATH/FuzzX)")
	}
	f.StringVarP(&g.dir, "dir", "C", "", "Go packages: run the go command in this directory (default: the module holding the package)")
	f.BoolVar(&g.json, "json", false, "Go packages: print the report as JSON")
	f.StringSliceVar(&g.labelPkgs, "label-pkgs", nil, labelPkgsUsage)
}

// planOnlyFlags fails when a flag meant for plans is set with Go packages.
func planOnlyFlags(cmd *cobra.Command, names ...string) error {
	for _, n := range names {
		if !cmd.Flags().Changed(n) {
			continue
		}
		if n == "tests" {
			return fmt.Errorf("--tests is for plans; a Go fuzz target's suite is its corpus (testdata/fuzz/FuzzX and the fuzz cache)")
		}
		return fmt.Errorf("--%s is for plans, not Go packages", n)
	}
	return nil
}

// target finds the fuzz target of --fuzz in pattern, with --label-pkgs.
func (g *goFuzzOptions) target(ctx context.Context, pattern string) (gofuzz.Target, error) {
	t, err := goFuzzTarget(ctx, pattern, g.dir, g.fuzz)
	if err != nil {
		return t, err
	}
	t.LabelPkgs, err = resolveLabelPkgs(ctx, t.Module, g.labelPkgs)
	return t, err
}

// goFuzzTarget finds fuzz target name in the packages matching pattern
// (run from dir, or from the module holding pattern).
func goFuzzTarget(ctx context.Context, pattern, dir, name string) (gofuzz.Target, error) {
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

// goTargetCache is the directory of t's entries in go test -fuzz's cache:
// ROOT/IMPORTPATH/FuzzX, ROOT being --fuzz-cache or $(go env GOCACHE)/fuzz.
func goTargetCache(ctx context.Context, t gofuzz.Target, root string) (string, error) {
	if root != "" {
		return filepath.Join(root, filepath.FromSlash(t.Package), t.Name), nil
	}
	return gotest.FuzzCacheDir(ctx, t.Module, nil, t.Package, t.Name)
}

// goYardstick annotates t's package as o's label flags say and builds its
// two coverage binaries under work.
func goYardstick(ctx context.Context, t gofuzz.Target, o *coverOptions, work string) (*gofuzz.Yardstick, error) {
	to, err := goAnnotateOptions{Criteria: o.criteria, MCCMaxAtoms: o.maxAtoms, Dir: t.Module}.transformOptions()
	if err != nil {
		return nil, err
	}
	res, err := gotransform.Annotate(ctx, t.Labelled(), to)
	if err != nil {
		return nil, err
	}
	return gofuzz.BuildYardstick(ctx, t, res, nil, work, nil)
}

// goReduceReport is `labelcov reduce PACKAGE --fuzz FuzzX --json`.
type goReduceReport struct {
	Version int    `json:"version"`
	Package string `json:"package"`
	Target  string `json:"target"`
	// Out is the folder the kept entries were written to
	// (OUT/testdata/fuzz/FuzzX).
	Out string `json:"out"`
	// Seeds counts the f.Add seeds (they always run).
	Seeds  int          `json:"seeds"`
	Before corpusFigure `json:"before"`
	After  corpusFigure `json:"after"`
	// Kept names the entries written; Failing those the target fails on.
	Kept    []string `json:"kept"`
	Failing []string `json:"failing,omitempty"`
	// Items counts what the seeds and the kept entries cover, as the whole
	// corpus does: labels, blocks of the original code, failure sites.
	Items map[string]int `json:"items"`
}

type corpusFigure struct {
	Entries  int `json:"entries"`
	Bytes    int `json:"bytes"`
	Testdata int `json:"testdata"`
	Cached   int `json:"cached"`
}

func figureOf(es []gofuzz.CorpusEntry) corpusFigure {
	var f corpusFigure
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

// goItemKinds name the items of a Go fuzz target.
var goItemKinds = []itemKind{{gofuzz.ItemLabel, "labels"}, {gofuzz.ItemBlock, "blocks"}, {gofuzz.ItemFailure, "failure sites"}}

// runReduceGo reduces the corpus of a Go fuzz target.
func runReduceGo(cmd *cobra.Command, args []string, o *coverOptions, g *goFuzzOptions, out string) error {
	if len(args) > 1 {
		return fmt.Errorf("too many arguments: reduce takes one Go package (or pattern) holding --fuzz %s, got %s", g.fuzz, strings.Join(args, " "))
	}
	if err := planOnlyFlags(cmd, "tests", "world", "plan", "max-steps", "max-objects", "pure", "no-values"); err != nil {
		return err
	}
	ctx := cmd.Context()
	t, err := g.target(ctx, args[0])
	if err != nil {
		return err
	}
	cache, err := goTargetCache(ctx, t, g.fuzzCache)
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
	y, err := goYardstick(ctx, t, o, filepath.Join(work, "build"))
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
	rep := goReduceReport{Version: 1, Package: t.Package, Target: t.Name, Out: dir, Seeds: red.Seeds,
		Before: figureOf(red.Entries), After: figureOf(red.Kept), Kept: []string{}}
	for _, e := range red.Kept {
		rep.Kept = append(rep.Kept, e.Name)
	}
	rep.Items, rep.Failing = goItemFigures(red.Items), red.Failing
	w := cmd.OutOrStdout()
	if g.json {
		return writeJSON(w, rep)
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
