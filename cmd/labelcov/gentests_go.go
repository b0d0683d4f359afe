package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/compare"
	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
	"github.com/spf13/cobra"
)

type goGenOptions struct {
	out, guide string
	budget     time.Duration
	seed       uint64
}

// goGentestsReport is `labelcov gentests PACKAGE --fuzz FuzzX --json`.
type goGentestsReport struct {
	Version int    `json:"version"`
	Package string `json:"package"`
	Target  string `json:"target"`
	// Out is the folder the entries were written to (DIR/testdata/fuzz/FuzzX).
	Out string `json:"out"`
	// Seeds and Suite count the suite: f.Add seeds, testdata entries.
	Seeds    int               `json:"seeds"`
	Suite    int               `json:"suite"`
	Campaign goCampaignFigures `json:"campaign"`
	// Generated lists the entries written, each with the items it covers
	// that the suite and the entries before it do not.
	Generated []goGenerated `json:"generated"`
	// Before and After count the items covered by the suite, and by the
	// suite with the generated entries: labels, blocks, failures.
	Before map[string]int `json:"before"`
	After  map[string]int `json:"after"`
	// Criteria gives per criterion the active labels and how many the
	// suite covered before and after.
	Criteria map[labels.Key]goCriterionDelta `json:"criteria"`
}

type goCampaignFigures struct {
	ElapsedS float64 `json:"elapsed_s"`
	Execs    int64   `json:"execs"`
	Entries  int     `json:"entries"`
	Failures int     `json:"failures"`
	// Candidates counts the campaign's entries and failing inputs that
	// are not in the suite.
	Candidates int `json:"candidates"`
}

type goGenerated struct {
	Name string   `json:"name"`
	Size int      `json:"size"`
	Adds []string `json:"adds"`
}

type goCriterionDelta struct {
	Total  int `json:"total"`
	Before int `json:"before"`
	After  int `json:"after"`
}

// runGentestsGo generates corpus entries of a Go fuzz target for what its
// suite misses.
func runGentestsGo(cmd *cobra.Command, args []string, o *coverOptions, g *goFuzzOptions, gen goGenOptions) error {
	if len(args) > 1 {
		return fmt.Errorf("too many arguments: gentests takes one Go package (or pattern) holding --fuzz %s, got %s", g.fuzz, strings.Join(args, " "))
	}
	if err := planOnlyFlags(cmd, "tests", "world", "plan", "max-steps", "max-objects", "pure", "no-values"); err != nil {
		return err
	}
	var guide labels.Criteria
	if gen.guide != compare.Baseline {
		var err error
		if guide, err = labels.ParseCriteria(gen.guide); err != nil {
			return fmt.Errorf("--guide: %w (or %s: fuzz the original code)", err, compare.Baseline)
		}
	}
	ctx := cmd.Context()
	t, err := g.target(ctx, args[0])
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "labelcov-gentests-")
	if err != nil {
		return fmt.Errorf("gentests: %w", err)
	}
	defer os.RemoveAll(work)
	y, err := goYardstick(ctx, t, o, filepath.Join(work, "build"))
	if err != nil {
		return err
	}
	overlay := ""
	var env []string
	if gen.guide != compare.Baseline {
		gd, err := gofuzz.AnnotateGuide(ctx, t, gotransform.Options{Criteria: guide, MCCMaxAtoms: o.maxAtoms}, filepath.Join(work, "guide"))
		if err != nil {
			return fmt.Errorf("--guide: %w", err)
		}
		overlay, env = gd.Overlay, gd.Env
	}
	bin := filepath.Join(work, "fuzz.test")
	if err := gofuzz.BuildFuzz(ctx, t, overlay, bin, env); err != nil {
		return err
	}
	res, err := gofuzz.Generate(ctx, gofuzz.GenerateOptions{Yardstick: y, Binary: bin, Budget: gen.budget, Seed: gen.seed,
		MinimizeTime: "0s", Work: filepath.Join(work, "generate")})
	if err != nil {
		return err
	}
	for _, f := range res.Campaign.Failures {
		if f.Seed != "" {
			// go test -fuzz runs the seed corpus first and stops at a failure.
			msg, _, _ := strings.Cut(f.Message, "\n")
			return found("%s fails on its seed corpus entry %s, so go test -fuzz stops before fuzzing (%s): fix the bug, or move the entry aside, and run gentests again", t, f.Seed, msg)
		}
	}
	labelOf := labelSlugs(y.Annotation.Labels)
	written := make([]gofuzz.CorpusEntry, len(res.Kept))
	to := filepath.Join(gen.out, "testdata", "fuzz", t.Name)
	for i, e := range res.Kept {
		e.Name = fmt.Sprintf("gen-%02d-%s", i+1, slugItem(res.Adds[i], labelOf))
		if _, err := os.Stat(filepath.Join(to, e.Name)); err == nil {
			return fmt.Errorf("%s exists: gentests never overwrites an entry; write to another --out", filepath.Join(to, e.Name))
		}
		written[i] = e
	}
	dir, err := gofuzz.WriteCorpus(t, gen.out, written)
	if err != nil {
		return err
	}
	for i := range written {
		written[i].Path = filepath.Join(dir, written[i].Name)
	}
	// Each written entry must replay, from its file, to what it was kept for.
	if err := y.Replays(ctx, written, res.Adds, filepath.Join(work, "replay"), nil); err != nil {
		return err
	}

	after := res.After()
	r := res.Campaign
	rep := goGentestsReport{Version: 1, Package: t.Package, Target: t.Name, Out: dir, Seeds: res.Seeds, Suite: len(res.Suite),
		Campaign:  goCampaignFigures{ElapsedS: r.ElapsedS, Execs: r.Execs, Entries: len(r.Corpus), Failures: len(r.Failures), Candidates: len(res.Candidates)},
		Generated: []goGenerated{}, Before: goItemFigures(res.Base), After: goItemFigures(after), Criteria: map[labels.Key]goCriterionDelta{}}
	for i, e := range written {
		rep.Generated = append(rep.Generated, goGenerated{Name: e.Name, Size: e.Size, Adds: res.Adds[i]})
	}
	// Per criterion as cover counts it (labels.Figures: mcdc in
	// conditions), before and after.
	names, before, err := criterionFigures(y.Annotation.Labels, y.Annotation.Decisions, res.Base)
	if err != nil {
		return err
	}
	_, afterFigs, err := criterionFigures(y.Annotation.Labels, y.Annotation.Decisions, after)
	if err != nil {
		return err
	}
	for i, n := range names {
		if labels.Key(n) != labels.All {
			rep.Criteria[labels.Key(n)] = goCriterionDelta{Total: before[i].Total, Before: before[i].Covered, After: afterFigs[i].Covered}
		}
	}
	w := cmd.OutOrStdout()
	if g.json {
		return writeJSON(w, rep)
	}
	for _, e := range rep.Generated {
		fmt.Fprintf(w, "%s: covers %d item(s) the suite does not (%s)\n", e.Name, len(e.Adds), strings.Join(firstN(e.Adds, 4), ", "))
	}
	fmt.Fprintf(w, "gentests: %s: the suite (%d f.Add seed(s), %d testdata entries) covered %d items; with %d generated entr%s (from %d campaign entries and failing inputs, %d execs in %.1fs): %d items, in %s\n",
		t, res.Seeds, len(res.Suite), len(res.Base), len(written), plural(len(written), "y", "ies"), len(res.Candidates), r.Execs, r.ElapsedS, len(after), dir)
	for _, line := range itemDelta(res.Base, after, goItemKinds) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, k := range y.Annotation.Criteria.Keys() {
		if d, ok := rep.Criteria[k]; ok {
			fmt.Fprintf(w, "  %-7s %d/%d -> %d/%d\n", k, d.Before, d.Total, d.After, d.Total)
		}
	}
	return nil
}

// goItemFigures counts items by kind for JSON.
func goItemFigures(items []string) map[string]int {
	return map[string]int{"labels": countKind(items, gofuzz.ItemLabel), "blocks": countKind(items, gofuzz.ItemBlock),
		"failures": countKind(items, gofuzz.ItemFailure)}
}
