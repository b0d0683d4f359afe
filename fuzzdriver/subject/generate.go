package subject

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/coverage/report"
	"github.com/labelcov/labelcov/experiments/compare"
	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// GenerateOptions are gentests' options beside the subject's.
type GenerateOptions struct {
	// Out is the folder to write the generated tests to (plans: must not
	// exist or be empty; Go: Out/testdata/fuzz/FuzzX).
	Out string
	// Guide are the criteria guiding the campaign, as typed.
	Guide  string
	Budget time.Duration
	Runs   int64 // plans: the run budget
	Seed   uint64
	// Solve: plans without a world, then solve each label still
	// uncovered with z3.
	Solve SolveOptions
	// NoDirected: Go packages: no directed entries after the campaign
	// (gofuzz.Directed).
	NoDirected bool
}

// directedRounds and directedMax bound gentests' directed entries on Go
// packages: rounds of candidates, candidates per round.
const (
	directedRounds = 3
	directedMax    = 4000
)

// closingShare and solvingShare are the parts of a plan's --budget that
// the campaign leaves to what follows it: measuring the inputs it found,
// writing and replaying those kept and the closing resolution (a tenth),
// and with --solve the solving (half): z3 without a world, the
// environment search with one (which ends a tenth before the deadline, as
// it runs until then).
const (
	closingShare = 10
	solvingShare = 2
)

// planDeadline is the context of gentests' solving on a plan, ending
// budget after now; without a budget (--runs) nothing is bounded.
func planDeadline(ctx context.Context, budget time.Duration) (context.Context, context.CancelFunc) {
	if budget <= 0 {
		return ctx, func() {}
	}
	return context.WithTimeout(ctx, budget)
}

// campaignBudget is the campaign's part of a plan's --budget when left of
// it remains (the rest went to loading and measuring the suite): left
// less the share set aside (closingShare, and when solving, solvingShare),
// at least a tenth of a second; no budget (--runs) stays none.
func campaignBudget(budget, left time.Duration, solving bool) time.Duration {
	if budget <= 0 {
		return budget
	}
	reserve := budget / closingShare
	if solving {
		reserve = budget / solvingShare
	}
	return max(left-reserve, 100*time.Millisecond)
}

// Generate fuzzes the plan seeded with its suite and writes the new
// tests that cover what the suite does not.
func (s *planSubject) Generate(ctx context.Context, stdout io.Writer, gen GenerateOptions) error {
	// --budget bounds the whole command: the campaign, the written tests'
	// replays and the solving end by the deadline (planDeadline).
	dctx, cancel := planDeadline(ctx, gen.Budget)
	defer cancel()
	deadline, _ := dctx.Deadline() // unused without a budget (campaignBudget)
	o := &s.o
	so := gen.Solve
	if o.Fuzz != "" || o.Dir != "" || o.JSON && !so.On {
		return fmt.Errorf("--fuzz, -C and --json are for Go packages; %s is a plan", s.file())
	}
	asJSON := o.JSON
	tests := s.tests()
	if len(tests) == 0 {
		return fmt.Errorf("no tests: give --tests DIR|FILE (the suite to extend)")
	}
	out := gen.Out
	if out == "" {
		return fmt.Errorf("give --out NEWDIR: gentests writes the new tests there")
	}
	if gen.Budget <= 0 && gen.Runs <= 0 {
		return fmt.Errorf("give a positive --budget or --runs")
	}
	og, err := s.newOut(tests, out)
	if err != nil {
		return err
	}
	g, err := labels.ParseCriteria(gen.Guide)
	if err != nil {
		return fmt.Errorf("--guide: %w", err)
	}
	ms, err := s.measured()
	if err != nil {
		return err
	}
	m := ms.Measurer
	if so.On {
		if err := solvable(m); err != nil {
			return err
		}
	}
	ts, err := m.LoadTests(tests...)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "labelcov-gentests-")
	if err != nil {
		return fmt.Errorf("gentests: %w", err)
	}
	defer os.RemoveAll(work)
	res, err := campaign.Generate(ctx, campaign.GenerateOptions{Measurer: m, Plan: ms.File, PlanName: o.PlanName, Guide: g,
		Seed: gen.Seed, Budget: campaignBudget(gen.Budget, time.Until(deadline), so.On), Runs: gen.Runs, Work: work}, ts)
	if res == nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("gentests: %w", err)
	}
	labelOf := labelSlugs(m.Labels())
	w := stdout
	if asJSON {
		w = io.Discard
	}
	all := [][]string{res.Base}
	for n, t := range res.Kept {
		adds := res.Adds[n]
		text, ext := m.Render(t)
		name := fmt.Sprintf("gen-%02d-%s%s", n+1, slugItem(adds, labelOf), ext)
		path := filepath.Join(out, name)
		if err := og.WriteFile("--out", path, text, 0o644); err != nil {
			return fmt.Errorf("gentests: %w", err)
		}
		// The written test must replay to what it is kept for.
		wt, err := m.ParseTest(path, text)
		if err != nil {
			return fmt.Errorf("gentests: %s does not read back: %w", path, err)
		}
		got, err := m.Items(ctx, []*measure.Test{wt})
		if err != nil {
			return err
		}
		gotSet := map[string]bool{}
		for _, it := range got[0] {
			gotSet[it] = true
		}
		for _, it := range adds {
			if !gotSet[it] {
				return fmt.Errorf("gentests: %s does not cover %s as the input it was written from did (a labelcov bug)", path, it)
			}
		}
		all = append(all, got[0])
		fmt.Fprintf(w, "%s: covers %d item(s) the suite does not (%s)\n", name, len(adds), strings.Join(firstN(adds, 4), ", "))
	}
	after := reduce.Union(all, nil)
	base, sum := res.Base, res.Campaign
	fmt.Fprintf(w, "gentests: %d tests covered %d items; with %d generated test(s) (from %d campaign inputs, %d runs): %d items\n",
		len(ts), len(base), len(res.Kept), len(sum.Inputs), sum.Execs, len(after))
	for _, line := range itemDelta(base, after, planItemKinds) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	names, b, cerr := criterionFigures(m.Labels(), m.Decisions(), base)
	_, a, aerr := criterionFigures(m.Labels(), m.Decisions(), after)
	if cerr = errors.Join(cerr, aerr); cerr != nil {
		return cerr
	}
	for i, n := range names {
		fmt.Fprintf(w, "  %-7s %s -> %s\n", n, b[i], a[i])
	}
	if err != nil && !errors.Is(err, ctx.Err()) {
		return err
	}
	var verdicts map[int]measure.Verdict
	if so.On {
		have := map[string]bool{}
		for _, it := range res.After() {
			have[it] = true
		}
		seeds := append(append(append([]*measure.Test{}, ts...), res.Kept...), res.Inputs...)
		sctx := dctx
		if m.World() != nil && gen.Budget > 0 {
			// The environment search runs until its deadline: it ends
			// a tenth early, for the closing resolution.
			var scancel context.CancelFunc
			sctx, scancel = context.WithDeadline(dctx, deadline.Add(-gen.Budget/closingShare))
			defer scancel()
		}
		s, err := solveUncovered(sctx, w, m, og, out, o.PlanName, have, so, seeds, gen.Seed, int(gen.Runs))
		if err != nil {
			return err
		}
		if asJSON {
			return writeSolveJSON(stdout, s)
		}
		printSolveSummary(w, s)
		verdicts = s.verdicts()
	}
	return printResolution(ctx, w, m, ts, out, verdicts)
}

// printResolution prints, as cover does, the resolution of the active
// labels by the suite ts with the tests gentests wrote to out: covered,
// proven infeasible (verdicts of --solve) and unresolved per criterion.
func printResolution(ctx context.Context, w io.Writer, m *measure.Measurer, ts []*measure.Test, out string, verdicts map[int]measure.Verdict) error {
	var gen []*measure.Test
	if entries, err := os.ReadDir(out); err != nil || len(entries) > 0 { // none written: no tests
		if gen, err = m.LoadTests(out); err != nil {
			return fmt.Errorf("gentests: the written tests do not read back: %w", err)
		}
	}
	// The replay is short (the suite and the few tests written): it runs
	// even when the campaign was interrupted, so the summary is whole.
	rep, err := m.Run(context.WithoutCancel(ctx), append(append([]*measure.Test{}, ts...), gen...))
	if err != nil {
		return err
	}
	if err := m.Resolve(rep, verdicts); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nthe suite with the %d generated test(s):", len(gen))
	report.ResolutionText(w, rep)
	if len(rep.Infeasible) > 0 {
		fmt.Fprintf(w, "%d more label(s) infeasible by the static analysis: not injected, not counted above (reasons: cover --json, labelcov labels)\n", len(rep.Infeasible))
	}
	return nil
}

// GoGentestsReport is `labelcov gentests PACKAGE --fuzz FuzzX --json`.
type GoGentestsReport struct {
	Version int    `json:"version"`
	Package string `json:"package"`
	Target  string `json:"target"`
	// Out is the folder the entries were written to (DIR/testdata/fuzz/FuzzX).
	Out string `json:"out"`
	// Seeds and Suite count the suite: f.Add seeds, testdata entries.
	Seeds    int               `json:"seeds"`
	Suite    int               `json:"suite"`
	Campaign GoCampaignFigures `json:"campaign"`
	// Generated lists the entries written, each with the items it covers
	// that the suite and the entries before it do not; the last Directed
	// of them are directed entries (gen-directed-NN-...: derived from
	// the package's constants after the campaign, gofuzz.Directed).
	Generated []GoGenerated `json:"generated"`
	Directed  int           `json:"directed"`
	// Before and After count the items covered by the suite, and by the
	// suite with the generated entries: labels, blocks, failures.
	Before map[string]int `json:"before"`
	After  map[string]int `json:"after"`
	// Criteria gives per criterion, as cover counts it (labels.Figures:
	// mcdc in conditions), the total and how many the suite covered
	// before and after; All the sum of the rows, as cover's "all".
	Criteria map[labels.Key]GoCriterionDelta `json:"criteria"`
	All      GoCriterionDelta                `json:"all"`
	// Unresolved lists the active labels (of every criterion but mcdc,
	// whose unit is the condition) that neither the suite nor a generated
	// entry covers, in label order.
	Unresolved []GoUnresolved `json:"unresolved"`
}

// GoUnresolved is an active label gentests left uncovered.
type GoUnresolved struct {
	ID        int        `json:"id"`
	Criterion labels.Key `json:"criterion"`
	Operator  string     `json:"operator"`
	Pos       string     `json:"pos"`
	// Expr is the label's predicate on the original code's expressions.
	Expr string `json:"expr"`
}

// goUnresolved lists the active labels of ls (but mcdc's) items do not
// cover.
func goUnresolved(ls []*labels.Label, items []string) []GoUnresolved {
	hits := measure.LabelHits(items)
	out := []GoUnresolved{}
	for _, l := range ls {
		if l.Status != labels.Active || l.Criterion == labels.MCDC || hits[l.ID] > 0 {
			continue
		}
		e := l.Expr
		if e == "" {
			e = l.Predicate
		}
		out = append(out, GoUnresolved{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator, Pos: l.Pos.String(), Expr: e})
	}
	return out
}

// GoCampaignFigures are the figures of gentests' go test -fuzz campaign.
type GoCampaignFigures struct {
	ElapsedS float64 `json:"elapsed_s"`
	Execs    int64   `json:"execs"`
	Entries  int     `json:"entries"`
	Failures int     `json:"failures"`
	// Candidates counts the campaign's entries and failing inputs that
	// are not in the suite.
	Candidates int `json:"candidates"`
}

// GoGenerated is one entry gentests wrote.
type GoGenerated struct {
	Name string   `json:"name"`
	Size int      `json:"size"`
	Adds []string `json:"adds"`
	// Fails is the failure site the entry reproduces (as compare --go
	// keys findings: "panic@shell/shell.go:47"): go test fails on it until
	// the bug is fixed. Empty when the entry passes.
	Fails string `json:"fails,omitempty"`
}

// GoCriterionDelta is one criterion before and after gentests.
type GoCriterionDelta struct {
	Total  int `json:"total"`
	Before int `json:"before"`
	After  int `json:"after"`
	// The resolution after: Unresolved (Total - After) active labels no
	// entry covers; Infeasible labels the static analysis proved can never
	// hold (feasible.Contradiction and the constant predicates; each with
	// its reason in labelcov labels), not injected and not in Total.
	Infeasible int `json:"infeasible"`
	Unresolved int `json:"unresolved"`
}

// Generate generates corpus entries of the fuzz target Fuzz for what its
// suite misses.
func (s *goSubject) Generate(ctx context.Context, w io.Writer, gen GenerateOptions) error {
	o := &s.o
	if o.changed("runs") {
		return fmt.Errorf("--runs is for plans: go test -fuzz takes a --budget")
	}
	if gen.Out == "" {
		return fmt.Errorf("give --out DIR: gentests writes the new entries to DIR/testdata/fuzz/FuzzX")
	}
	if gen.Budget <= 0 {
		return fmt.Errorf("give a positive --budget")
	}
	if len(o.Args) > 1 {
		return fmt.Errorf("too many arguments: gentests takes one Go package (or pattern) holding --fuzz %s, got %s", o.Fuzz, strings.Join(o.Args, " "))
	}
	if err := s.planOnlyFlags(); err != nil {
		return err
	}
	var guide labels.Criteria
	if gen.Guide != compare.Baseline {
		var err error
		if guide, err = labels.ParseCriteria(gen.Guide); err != nil {
			return fmt.Errorf("--guide: %w (or %s: fuzz the original code)", err, compare.Baseline)
		}
	}
	t, err := s.target(ctx)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "labelcov-gentests-")
	if err != nil {
		return fmt.Errorf("gentests: %w", err)
	}
	defer os.RemoveAll(work)
	y, err := s.yardstick(ctx, t, filepath.Join(work, "build"))
	if err != nil {
		return err
	}
	overlay := ""
	var env []string
	if gen.Guide != compare.Baseline {
		gd, err := gofuzz.AnnotateGuide(ctx, t, gotransform.Options{Criteria: guide, MCCMaxAtoms: o.MCCMaxAtoms}, filepath.Join(work, "guide"))
		if err != nil {
			return fmt.Errorf("--guide: %w", err)
		}
		overlay, env = gd.Overlay, gd.Env
	}
	bin := filepath.Join(work, "fuzz.test")
	if err := gofuzz.BuildFuzz(ctx, t, overlay, bin, env); err != nil {
		return err
	}
	res, err := gofuzz.Generate(ctx, gofuzz.GenerateOptions{Yardstick: y, Binary: bin, Budget: gen.Budget, Seed: gen.Seed,
		MinimizeTime: "0s", Work: filepath.Join(work, "generate")})
	if err != nil {
		return err
	}
	for _, f := range res.Campaign.Failures {
		if f.Seed != "" {
			// go test -fuzz runs the seed corpus first and stops at a failure.
			msg, _, _ := strings.Cut(f.Message, "\n")
			return Found("%s fails on its seed corpus entry %s, so go test -fuzz stops before fuzzing (%s): fix the bug, or move the entry aside, and run gentests again", t, f.Seed, msg)
		}
	}
	directed := 0
	if !gen.NoDirected {
		if directed, err = addDirected(ctx, t, y, res, filepath.Join(work, "directed")); err != nil {
			return err
		}
	}
	labelOf := labelSlugs(y.Annotation.Labels)
	written := make([]gofuzz.CorpusEntry, len(res.Kept))
	to := filepath.Join(gen.Out, "testdata", "fuzz", t.Name)
	for i, e := range res.Kept {
		kind := "gen"
		if i >= len(res.Kept)-directed {
			kind = "gen-directed"
		}
		e.Name = fmt.Sprintf("%s-%02d-%s", kind, i+1, slugItem(res.Adds[i], labelOf))
		if _, err := os.Stat(filepath.Join(to, e.Name)); err == nil {
			return fmt.Errorf("%s exists: gentests never overwrites an entry; write to another --out", filepath.Join(to, e.Name))
		}
		written[i] = e
	}
	dir, err := gofuzz.WriteCorpus(t, gen.Out, written)
	if err != nil {
		return err
	}
	for i := range written {
		written[i].Path = filepath.Join(dir, written[i].Name)
	}
	// Each written entry must replay, from its file, to what it was kept
	// for; an entry kept for a failure it reproduces fails under go test.
	fails, err := y.Replays(ctx, written, res.Adds, filepath.Join(work, "replay"), nil)
	if err != nil {
		return err
	}

	after := res.After()
	r := res.Campaign
	rep := GoGentestsReport{Version: 1, Package: t.Package, Target: t.Name, Out: dir, Seeds: res.Seeds, Suite: len(res.Suite), Directed: directed,
		Campaign:  GoCampaignFigures{ElapsedS: r.ElapsedS, Execs: r.Execs, Entries: len(r.Corpus), Failures: len(r.Failures), Candidates: len(res.Candidates)},
		Generated: []GoGenerated{}, Before: goItemFigures(res.Base), After: goItemFigures(after), Criteria: map[labels.Key]GoCriterionDelta{},
		Unresolved: goUnresolved(y.Annotation.Labels, after)}
	for i, e := range written {
		rep.Generated = append(rep.Generated, GoGenerated{Name: e.Name, Size: e.Size, Adds: res.Adds[i], Fails: fails[i]})
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
	infeasible := map[labels.Key]int{}
	for _, l := range y.Annotation.Labels {
		if l.Status == labels.Infeasible {
			infeasible[l.Criterion]++
			infeasible[labels.All]++
		}
	}
	for i, n := range names {
		d := GoCriterionDelta{Total: before[i].Total, Before: before[i].Covered, After: afterFigs[i].Covered,
			Infeasible: infeasible[labels.Key(n)], Unresolved: before[i].Total - afterFigs[i].Covered}
		if labels.Key(n) == labels.All {
			rep.All = d
		} else {
			rep.Criteria[labels.Key(n)] = d
		}
	}
	if o.JSON {
		if err := WriteJSON(w, rep); err != nil {
			return err
		}
		return rep.failing()
	}
	for _, e := range rep.Generated {
		if e.Fails != "" {
			fmt.Fprintf(w, "%s: FAILS at %s (go test fails on it until the bug is fixed); covers %d item(s) the suite does not (%s)\n", e.Name, e.Fails, len(e.Adds), strings.Join(firstN(e.Adds, 4), ", "))
			continue
		}
		fmt.Fprintf(w, "%s: covers %d item(s) the suite does not (%s)\n", e.Name, len(e.Adds), strings.Join(firstN(e.Adds, 4), ", "))
	}
	fmt.Fprintf(w, "gentests: %s: the suite (%d f.Add seed(s), %d testdata entries) covered %d items; with %d generated entr%s (from %d campaign entries and failing inputs, %d execs in %.1fs; %d directed, derived from the package's constants): %d items, in %s\n",
		t, res.Seeds, len(res.Suite), len(res.Base), len(written), plural(len(written), "y", "ies"), len(res.Candidates), r.Execs, r.ElapsedS, directed, len(after), dir)
	for _, line := range itemDelta(res.Base, after, goItemKinds) {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, k := range y.Annotation.Criteria.Keys() {
		if d, ok := rep.Criteria[k]; ok {
			fmt.Fprintf(w, "  %-7s %d/%d -> %d/%d\n", k, d.Before, d.Total, d.After, d.Total)
		}
	}
	fmt.Fprintf(w, "  %-7s %d/%d -> %d/%d\n", labels.All, rep.All.Before, rep.All.Total, rep.All.After, rep.All.Total)
	fmt.Fprintln(w, "resolution with the generated entries: covered, proven infeasible by the static analysis (not injected, not in the total; reasons: labelcov labels), unresolved:")
	for _, k := range y.Annotation.Criteria.Keys() {
		if d, ok := rep.Criteria[k]; ok {
			fmt.Fprintf(w, "  %-7s covered %d, infeasible %d, unresolved %d\n", k, d.After, d.Infeasible, d.Unresolved)
		}
	}
	fmt.Fprintf(w, "  %-7s covered %d, infeasible %d, unresolved %d\n", labels.All, rep.All.After, rep.All.Infeasible, rep.All.Unresolved)
	if len(rep.Unresolved) > 0 {
		fmt.Fprintf(w, "unresolved labels (%d; mcdc's are its conditions above):\n", len(rep.Unresolved))
		for _, u := range rep.Unresolved {
			fmt.Fprintf(w, "  label %d (%s %s, %s): %s\n", u.ID, u.Criterion, u.Operator, u.Pos, u.Expr)
		}
	}
	return rep.failing()
}

// failing is the Found error (exit 1) of a report whose written entries
// include some that fail under go test: they reproduce bugs of the
// target, and the suite stays red until the bugs are fixed (or the
// entries are moved aside). nil when every written entry passes.
func (r *GoGentestsReport) failing() error {
	var names, sites []string
	for _, g := range r.Generated {
		if g.Fails != "" {
			names = append(names, g.Name)
			if !slices.Contains(sites, g.Fails) {
				sites = append(sites, g.Fails)
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	return Found("%d written entr%s fail%s under go test, reproducing %s: %s (keep them as regression tests once the bug is fixed, or move them aside to keep the suite green)",
		len(names), plural(len(names), "y", "ies"), plural(len(names), "s", ""), strings.Join(sites, ", "), strings.Join(names, ", "))
}

// addDirected appends to res the directed entries (gofuzz.Directed) that
// cover what the suite and the campaign's kept entries do not, derived
// from the target's f.Add seeds, its suite and the kept entries; it
// returns how many.
func addDirected(ctx context.Context, t gofuzz.Target, y *gofuzz.Yardstick, res *gofuzz.Generation, work string) (int, error) {
	_, base, err := gofuzz.SeedRows(t)
	if err != nil {
		return 0, err
	}
	for _, e := range append(append([]gofuzz.CorpusEntry(nil), res.Suite...), res.Kept...) {
		data, err := os.ReadFile(e.Path)
		if err != nil {
			return 0, fmt.Errorf("gentests: %w", err)
		}
		if r, err := gofuzz.ParseEntry(data); err == nil {
			base = append(base, r)
		}
	}
	kept, adds, err := gofuzz.Directed(ctx, gofuzz.DirectedOptions{Yardstick: y, Base: base, Have: res.After(),
		Rounds: directedRounds, Max: directedMax, Work: work})
	if err != nil {
		return 0, fmt.Errorf("gentests: directed entries: %w", err)
	}
	res.Kept = append(res.Kept, kept...)
	res.Adds = append(res.Adds, adds...)
	return len(kept), nil
}

// SolveSummary is what gentests --solve prints with --json: every active
// label as covered, infeasible or unresolved, and the tally per criterion.
type SolveSummary = solveSummary
