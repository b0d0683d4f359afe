package compare

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

var update = flag.Bool("update", false, "rewrite golden files")

var testMachine = &Machine{CPU: "Test CPU", Cores: 2, OS: "linux/amd64", Go: "go1.26"}

func testGrid() Grid {
	return Grid{Benches: []string{"alpha", "beta"}, Criteria: []string{"none", "mcc", "wm"}, Runs: 4,
		Budget: 20 * time.Second, Seed: 7}
}

func testBenches() []BenchInfo {
	return []BenchInfo{
		{Name: "alpha", Plan: "alpha.plan", World: "w.world", Categories: []string{"cat-a", "cat-b", "cat-c"}},
		{Name: "beta", Plan: "beta.plan", Categories: []string{"cat-x"}},
	}
}

// synthRunner writes a stats.json that depends only on the spec: coverage
// grows to a criterion-dependent plateau, findings come at seeded times
// (mcc finds cat-a early, none late), so the statistics have something to
// find.
func synthRunner(calls *atomic.Int64) RunFunc {
	return func(ctx context.Context, s Spec) (*engine.Summary, error) {
		if calls != nil {
			calls.Add(1)
		}
		rng := rand.New(rand.NewPCG(s.Seed, 1))
		budget := s.Budget.Seconds()
		plateau := map[string]int{"none": 60, "mcc": 75, "wm": 70}[s.Criterion] + rng.IntN(5)
		sf := engine.StatsFile{Version: 1, Instance: Instance, Seed: s.Seed, Workers: 1, Started: "2026-01-01T00:00:00Z"}
		speed := map[string]float64{"none": 1000, "mcc": 800, "wm": 900}[s.Criterion]
		var finds []engine.FindingRecord
		addFind := func(key string, t float64) {
			if t < budget {
				finds = append(finds, engine.FindingRecord{Key: key, Category: key, TimeS: t, Execs: int64(t * speed), New: true})
			}
		}
		switch s.Criterion {
		case "mcc":
			addFind("cat-a", 1+float64(rng.IntN(3)))
		case "wm":
			addFind("cat-a", 4+float64(rng.IntN(10)))
		default:
			addFind("cat-a", 8+float64(rng.IntN(20)))
		}
		addFind("cat-b", 2+float64(rng.IntN(30)))
		if s.Bench == "alpha" {
			addFind("timeout@alpha.plan:3:4", 15.5)
		}
		for t := 1; t <= int(budget); t++ {
			cov := min(plateau, 20+t*5)
			sm := engine.Sample{ElapsedS: float64(t), Execs: int64(float64(t) * speed), ExecsPerSec: speed, Corpus: cov / 5,
				Coverage: map[string]engine.Figure{
					"branches":   {Covered: cov, Total: 100},
					"labels":     {Covered: cov * 2, Total: 250},
					"labels:mcc": {Covered: cov / 2, Total: 80},
				}}
			for _, f := range finds {
				if f.TimeS <= float64(t) {
					sm.Findings++
				}
			}
			sf.Samples = append(sf.Samples, sm)
		}
		sf.Findings = finds
		dir := filepath.Join(s.Dir, Instance)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		if err := writeJSON(filepath.Join(dir, "stats.json"), sf); err != nil {
			return nil, err
		}
		last := sf.Samples[len(sf.Samples)-1]
		return &engine.Summary{Execs: last.Execs, ElapsedS: budget, ExecsPerSec: speed, Stop: "budget", Findings: finds}, nil
	}
}

func runSynth(t *testing.T, out string, g Grid, sh Shard, calls *atomic.Int64) Outcome {
	t.Helper()
	o := Options{Grid: g, Shard: sh, Workers: 3, Out: out, Benches: testBenches(),
		Runner: synthRunner(calls), Machine: testMachine, Command: "labelcov compare --test"}
	if sh != All && sh != (Shard{}) {
		// As the CLI records it: the shard's own command, and the
		// whole grid's without --shard and the shard's --out.
		o.Command = "labelcov compare --test --shard " + sh.String() + " --out " + out
		o.GridCommand = "labelcov compare --test"
	}
	res, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestShardsPartitionGrid(t *testing.T) {
	g := testGrid()
	all := g.Cells()
	if len(all) != 2*3*4 {
		t.Fatalf("%d cells", len(all))
	}
	for n := 1; n <= 30; n++ {
		seen := map[Cell]int{}
		for i := 1; i <= n; i++ {
			sh, err := ParseShard(fmt.Sprintf("%d/%d", i, n))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range sh.Cells(g) {
				seen[c]++
			}
		}
		if len(seen) != len(all) {
			t.Fatalf("n=%d: %d cells covered, want %d", n, len(seen), len(all))
		}
		for c, k := range seen {
			if k != 1 {
				t.Fatalf("n=%d: %s in %d shards", n, c, k)
			}
		}
	}
	for _, bad := range []string{"0/2", "3/2", "1", "a/b", "1/0", ""} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}

// TestShardsAlternateCriteria: with as many shards as criteria (the case
// where dealing single cells put each criterion in its own shard), every
// shard runs each (bench, run) with all its criteria one after another,
// so the arms alternate on every machine; for every shard count the sizes
// differ by at most one campaign, the first shards taking the extra, and
// 1/1 is the grid's own order.
func TestShardsAlternateCriteria(t *testing.T) {
	for _, g := range []Grid{
		testGrid(),
		{Benches: []string{"a", "b", "c", "d", "e", "f"}, Criteria: []string{"none", "dist"}, Runs: 7},
		{Benches: []string{"a", "b", "c"}, Criteria: []string{"none", "dist"}, Runs: 3},
	} {
		all := g.Cells()
		if got := All.Cells(g); !reflect.DeepEqual(got, all) {
			t.Fatalf("1/1 order differs from the grid's: %v", got)
		}
		nc := len(g.Criteria)
		for n := 1; n <= len(all)+2; n++ {
			for i := 1; i <= n; i++ {
				cells := Shard{i, n}.Cells(g)
				lo, hi := len(all)/n, (len(all)+n-1)/n
				want := lo
				if i <= len(all)%n {
					want = hi
				}
				if len(cells) != want {
					t.Fatalf("%v shard %d/%d: %d cells, want %d", g.Criteria, i, n, len(cells), want)
				}
			}
		}
		n := nc
		slots := len(all) / nc
		for i := 1; i <= n; i++ {
			cells := Shard{i, n}.Cells(g)
			perCrit := map[string]int{}
			for k, c := range cells {
				perCrit[c.Criterion]++
				if k >= slots/n*nc {
					continue // the leftover slots, dealt cell by cell
				}
				if c.Criterion != g.Criteria[k%nc] {
					t.Fatalf("shard %d/%d cell %d: %s, want criterion %s", i, n, k, c, g.Criteria[k%nc])
				}
				if k%nc > 0 && (c.Bench != cells[k-1].Bench || c.Run != cells[k-1].Run) {
					t.Fatalf("shard %d/%d: %s follows %s: want the same bench and run", i, n, c, cells[k-1])
				}
			}
			if len(perCrit) != nc {
				t.Fatalf("shard %d/%d holds criteria %v, want all %d", i, n, perCrit, nc)
			}
		}
	}
}

func TestSeedsIndependent(t *testing.T) {
	g := testGrid()
	seen := map[uint64]Cell{}
	for _, c := range g.Cells() {
		s := g.SeedOf(c)
		if prev, ok := seen[s]; ok {
			t.Fatalf("%s and %s share seed %d", prev, c, s)
		}
		seen[s] = c
	}
	// A cell's seed does not depend on the rest of the grid.
	h := g
	h.Benches = append([]string{"gamma"}, g.Benches...)
	h.Runs = 9
	c := Cell{"beta", "wm", 3}
	if g.SeedOf(c) != h.SeedOf(c) {
		t.Error("seed changed when the grid grew")
	}
	h.Seed = 8
	if g.SeedOf(c) == h.SeedOf(c) {
		t.Error("seed ignores the grid seed")
	}
}

func TestRunSkipsFinishedAndRestartsUnfinished(t *testing.T) {
	out := t.TempDir()
	g := testGrid()
	var calls atomic.Int64
	res := runSynth(t, out, g, All, &calls)
	if res.Ran != 24 || calls.Load() != 24 || res.Unfinished != 0 {
		t.Fatalf("first run: %+v, %d calls", res, calls.Load())
	}
	res = runSynth(t, out, g, All, &calls)
	if res.Ran != 0 || res.Skipped != 24 || calls.Load() != 24 {
		t.Fatalf("second run: %+v, %d calls", res, calls.Load())
	}
	// An interrupted campaign: directory without result.json.
	c := Cell{"alpha", "mcc", 2}
	before, _ := os.ReadFile(filepath.Join(out, c.Dir(), Instance, "stats.json"))
	os.Remove(filepath.Join(out, c.Dir(), "result.json"))
	os.WriteFile(filepath.Join(out, c.Dir(), "junk"), []byte("x"), 0o644)
	res = runSynth(t, out, g, All, &calls)
	if res.Ran != 1 || res.Restarted != 1 || res.Skipped != 23 {
		t.Fatalf("third run: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(out, c.Dir(), "junk")); !errors.Is(err, os.ErrNotExist) {
		t.Error("restarted campaign directory was not cleared")
	}
	after, _ := os.ReadFile(filepath.Join(out, c.Dir(), Instance, "stats.json"))
	if !bytes.Equal(before, after) {
		t.Error("restarted campaign differs (seed not reused)")
	}
	// Another grid in the same directory is refused.
	h := g
	h.Budget = time.Minute
	if _, err := Run(context.Background(), Options{Grid: h, Out: out, Runner: synthRunner(nil)}); err == nil ||
		!strings.Contains(err.Error(), "another comparison") {
		t.Errorf("other grid: %v", err)
	}
}

// TestRunRefusesOtherShardsCampaigns: a shard's folder that holds a
// campaign of a cell outside its share (made when shards were dealt
// otherwise) is refused on resume with an error naming the cell, and
// nothing runs; without the stray campaign the same folder resumes.
func TestRunRefusesOtherShardsCampaigns(t *testing.T) {
	out := t.TempDir()
	g := testGrid()
	sh := Shard{1, 2}
	o := Options{Grid: g, Shard: sh, Workers: 2, Out: out, Runner: synthRunner(nil), Machine: testMachine}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	other := Shard{2, 2}.Cells(g)[3]
	mine := sh.Cells(g)[0]
	if err := os.MkdirAll(filepath.Dir(filepath.Join(out, other.Dir())), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(out, mine.Dir()), filepath.Join(out, other.Dir())); err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "not shard 1/2's") || !strings.Contains(err.Error(), other.String()) {
		t.Fatalf("stray campaign %s: err %v", other, err)
	}
	if res.Ran != 0 {
		t.Errorf("ran %d campaign(s) after refusing", res.Ran)
	}
	if err := os.RemoveAll(filepath.Join(out, other.Dir())); err != nil {
		t.Fatal(err)
	}
	res, err = Run(context.Background(), o)
	if err != nil || res.Ran != 1 || res.Skipped != len(sh.Cells(g))-1 {
		t.Fatalf("resumed without the stray campaign: %+v, %v", res, err)
	}
}

func TestRunCanceled(t *testing.T) {
	out := t.TempDir()
	g := testGrid()
	ctx, cancel := context.WithCancel(context.Background())
	var n atomic.Int64
	runner := func(ctx context.Context, s Spec) (*engine.Summary, error) {
		if n.Add(1) > 5 {
			cancel()
			return &engine.Summary{Stop: "canceled"}, nil
		}
		return synthRunner(nil)(ctx, s)
	}
	res, err := Run(ctx, Options{Grid: g, Workers: 1, Out: out, Runner: runner, Machine: testMachine})
	if err != nil {
		t.Fatal(err)
	}
	if res.Ran != 5 || res.Unfinished != 19 {
		t.Fatalf("%+v", res)
	}
	d, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Runs) != 5 || len(d.Missing) != 19 {
		t.Fatalf("loaded %d runs, %d missing", len(d.Runs), len(d.Missing))
	}
	var calls atomic.Int64
	res = runSynth(t, out, g, All, &calls)
	if res.Ran != 19 || res.Skipped != 5 || res.Restarted != 1 {
		t.Fatalf("resume: %+v", res)
	}
}

func reportJSON(t *testing.T, dirs ...string) []byte {
	t.Helper()
	d, err := Load(dirs...)
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(d)
	r.Sources = nil
	var b bytes.Buffer
	if err := r.JSON(&b); err != nil {
		t.Fatal(err)
	}
	if err := r.Markdown(&b, ""); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestMergeEqualsUnsharded(t *testing.T) {
	g := testGrid()
	whole := t.TempDir()
	runSynth(t, whole, g, All, nil)
	want := reportJSON(t, whole)
	for _, n := range []int{2, 3, 5} {
		var dirs []string
		for i := n; i >= 1; i-- { // any order
			dir := t.TempDir()
			runSynth(t, dir, g, Shard{i, n}, nil)
			dirs = append(dirs, dir)
		}
		if got := reportJSON(t, dirs...); !bytes.Equal(got, want) {
			t.Fatalf("merge of %d shards differs from the unsharded report", n)
		}
		// It regenerates the whole grid, not one shard's share.
		if md := string(reportJSON(t, dirs...)); !strings.Contains(md, "`labelcov compare --test`") || strings.Contains(md, "--shard") {
			t.Errorf("merge of %d shards: the Regenerate line is not the whole grid's command", n)
		}
		// A shard that finished its share misses nothing of it, though
		// the rest of the grid is elsewhere.
		for _, dir := range dirs {
			d, err := LoadShard(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Missing) != 0 {
				t.Errorf("n=%d: a finished shard misses %d campaign(s): %v", n, len(d.Missing), d.Missing)
			}
		}
		// A missing shard shows as missing campaigns.
		d, err := Load(dirs[1:]...)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Missing) != len(Shard{n, n}.Cells(g)) {
			t.Errorf("n=%d without shard %d: %d missing", n, n, len(d.Missing))
		}
		// The same shard twice is refused.
		if _, err := Load(dirs[0], dirs[0]); err == nil {
			t.Error("loading a shard twice succeeded")
		}
	}
	other := t.TempDir()
	h := g
	h.Runs = 2
	runSynth(t, other, h, All, nil)
	if _, err := Load(whole, other); err == nil || !strings.Contains(err.Error(), "another grid") {
		t.Errorf("merging different grids: %v", err)
	}
}

func TestReportGolden(t *testing.T) {
	g := Grid{Benches: []string{"alpha"}, Criteria: []string{"none", "mcc"}, Runs: 3, Budget: 12 * time.Second, Seed: 1}
	out := t.TempDir()
	runSynth(t, out, g, All, nil)
	d, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(d)
	files, err := r.Write(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"report.json", "report.md"} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", name)
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (go test -run TestReportGolden -update to accept)", name, golden)
		}
	}
	var rj map[string]any
	data, _ := os.ReadFile(filepath.Join(out, "report.json"))
	if err := json.Unmarshal(data, &rj); err != nil || rj["version"] != 1.0 {
		t.Errorf("report.json version: %v %v", rj["version"], err)
	}
	html, _ := os.ReadFile(filepath.Join(out, "report.html"))
	if !bytes.Contains(html, []byte(`<img src="coverage-alpha-branches.svg"`)) {
		t.Error("report.html does not show the branch plot")
	}
	nplots := 0
	for _, f := range files {
		if strings.HasSuffix(f, ".png") || strings.HasSuffix(f, ".svg") {
			st, err := os.Stat(f)
			if err != nil || st.Size() < 1000 {
				t.Errorf("plot %s: %v", f, err)
			}
			nplots++
		}
	}
	if nplots != 2*3 { // branches, labels, labels:mcc
		t.Errorf("%d plot files, want 6", nplots)
	}
}

// The statistics in the report are those of the samples: mcc finds cat-a
// in 1-3 s in every run, none in 8-27 s, so Â12 is 1 and with 4 runs each
// the exact p is 2/C(8,4) = 0.0286 — significant alone, but not in a
// family of 22 tests (2 criteria × (4 categories × time and execs + 3
// measures)): Holm makes the smallest p 22 × 0.028571 = 0.628562.
func TestReportStatistics(t *testing.T) {
	out := t.TempDir()
	runSynth(t, out, testGrid(), All, nil)
	d, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(d)
	var found bool
	for _, tr := range r.Results[0].Tests {
		if tr.Kind == "time_to_find" && tr.Subject == "cat-a" && tr.Criterion == "mcc" {
			found = true
			if tr.A12 != 1 || !tr.Exact || tr.P != 0.028571 || tr.PAdj != 0.628562 || !tr.SignificantUncorrected ||
				tr.Significant || tr.Outcome != "no significant difference" {
				t.Errorf("mcc on cat-a: %+v", tr)
			}
		}
		if tr.Kind == "execs_to_find" && tr.Subject == "cat-a" && tr.Criterion == "mcc" && (tr.A12 != 1 || tr.P != 0.028571) {
			t.Errorf("mcc on cat-a, execs: %+v", tr)
		}
		if tr.Kind == "time_to_find" && tr.Subject == "cat-c" && tr.Outcome != "identical" {
			t.Errorf("never found by anyone: %+v", tr)
		}
		if tr.Kind == "coverage" && tr.Subject == "branches" && tr.Criterion == "mcc" && (tr.A12 != 1 || tr.Significant) {
			t.Errorf("coverage: %+v", tr)
		}
	}
	if !found {
		t.Error("no test of mcc on cat-a")
	}
	if len(r.Results[0].Tests) != 22 {
		t.Errorf("%d tests on alpha, want 22", len(r.Results[0].Tests))
	}
	v := r.Results[0].Verdicts["mcc"]
	if !strings.Contains(v, "no significant difference") || !strings.Contains(v, "Holm-adjusted over the 22 tests") ||
		!strings.Contains(v, "uncorrected: ") {
		t.Errorf("verdict %q", v)
	}
	var md strings.Builder
	if err := r.Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "Significant differences (Holm") ||
		!strings.Contains(md.String(), "alpha, mcc, time to find cat-a: better than none (Â12 1.00, large; p 0.029, adj 0.629)") {
		t.Errorf("report lists corrected/uncorrected differences wrongly:\n%s", md.String())
	}
	for _, tr := range r.Results[0].Throughput {
		if tr.Criterion == "mcc" && (tr.Ratio == nil || *tr.Ratio != 0.8) {
			t.Errorf("throughput ratio of mcc: %+v", tr)
		}
		if tr.MeasuredS != 20 {
			t.Errorf("throughput of %s measured over a median of %v s, want the runs' 20", tr.Criterion, tr.MeasuredS)
		}
	}
	// Campaigns that ended within seconds: their rate is said to be that.
	const short = "ended within a median of under"
	if strings.Contains(md.String(), short) {
		t.Errorf("runs of 20 s noted as short:\n%s", md.String())
	}
	for i := range r.Results[0].Throughput {
		if r.Results[0].Throughput[i].Criterion == "mcc" {
			r.Results[0].Throughput[i].MeasuredS = 2
		}
	}
	md.Reset()
	if err := r.Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "guided by `mcc` "+short) {
		t.Errorf("runs of 2 s not noted as short:\n%s", md.String())
	}
	// Every category of truth.json is listed, found or not, then others.
	if got := strings.Join(r.Results[0].Categories, ","); got != "cat-a,cat-b,cat-c,timeout@alpha.plan:3:4" {
		t.Errorf("categories %s", got)
	}
	// The timeout comes at 15.5 s; branch coverage saturates by 8-9 s, so
	// it is found after saturation in every run.
	for _, sr := range r.Results[0].Saturation {
		if sr.Measure == "branches" && sr.Criterion == "all" && sr.RunsAfter != sr.N {
			t.Errorf("saturation: %+v", sr)
		}
	}
}

// With 12 runs per cell the strong effects (mcc finds cat-a in 1-3 s, none
// in 8-27 s; mcc covers 75-79 branches, none 60-64) stay significant after
// Holm over the family.
func TestReportStrongEffectSurvivesCorrection(t *testing.T) {
	out := t.TempDir()
	g := testGrid()
	g.Benches, g.Runs = []string{"alpha"}, 12
	runSynth(t, out, g, All, nil)
	d, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(d)
	if r.Correction != Correction {
		t.Errorf("correction %q", r.Correction)
	}
	n := 0
	for _, tr := range r.Results[0].Tests {
		if tr.PAdj < tr.P || tr.Significant && !tr.SignificantUncorrected {
			t.Errorf("adjusted p below raw: %+v", tr)
		}
		if tr.Criterion == "mcc" && (tr.Kind == "time_to_find" && tr.Subject == "cat-a" || tr.Kind == "coverage" && tr.Subject == "branches") {
			n++
			if tr.Outcome != "better" || tr.PAdj >= 0.05 {
				t.Errorf("strong effect not significant after correction: %+v", tr)
			}
		}
	}
	if n != 2 {
		t.Errorf("%d strong-effect tests found, want 2", n)
	}
}

func TestParseGuide(t *testing.T) {
	if c, err := ParseGuide("none"); err != nil || c != 0 {
		t.Errorf("none: %v %v", c, err)
	}
	if c, err := ParseGuide("mcc+wm"); err != nil || c == 0 {
		t.Errorf("mcc+wm: %v %v", c, err)
	}
	if _, err := ParseGuide("action"); !errors.Is(err, ErrActionGuide) {
		t.Errorf("action: %v", err)
	}
	if _, err := ParseGuide("bogus"); err == nil {
		t.Error("bogus accepted")
	}
}

// A rerun keeps the machine description (and load) of the first session.
func TestRunKeepsMachine(t *testing.T) {
	out := t.TempDir()
	g := testGrid()
	g.Runs = 1
	o := Options{Grid: g, Out: out, Runner: synthRunner(nil)}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	m, err := ReadMeta(out)
	if err != nil {
		t.Fatal(err)
	}
	m.Machine.Load = "first session"
	if err := writeJSON(filepath.Join(out, "compare.json"), m); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if m, err = ReadMeta(out); err != nil || m.Machine.Load != "first session" {
		t.Errorf("machine after rerun: %+v %v", m, err)
	}
}

// A campaign that ended at a failure (Stop "failure", as Go campaigns do)
// is finished; a plan grid and a Go grid of the same shape do not merge.
func TestFailureStopFinishesAndKindsDoNotMix(t *testing.T) {
	g := testGrid()
	g.Runs = 1
	stopAt := func(stop string) RunFunc {
		inner := synthRunner(nil)
		return func(ctx context.Context, s Spec) (*engine.Summary, error) {
			sum, err := inner(ctx, s)
			if sum != nil {
				sum.Stop = stop
			}
			return sum, err
		}
	}
	plan := filepath.Join(t.TempDir(), "plan")
	res, err := Run(context.Background(), Options{Grid: g, Workers: 2, Out: plan, Benches: testBenches(), Runner: stopAt("failure"), Machine: testMachine})
	if err != nil || res.Ran != len(g.Cells()) || res.Unfinished != 0 {
		t.Fatalf("Run = %+v, %v; want every campaign finished", res, err)
	}
	gg := g
	gg.Kind = KindGo
	goOut := filepath.Join(t.TempDir(), "go")
	if _, err := Run(context.Background(), Options{Grid: gg, Workers: 2, Out: goOut, Benches: testBenches(), Runner: stopAt("canceled"), Machine: testMachine}); err != nil {
		t.Fatal(err)
	}
	d, err := Load(goOut)
	if err != nil || len(d.Runs) != 0 || len(d.Missing) != len(gg.Cells()) || d.Grid.Kind != KindGo {
		t.Fatalf("canceled campaigns: %v runs, %v missing, kind %q, %v", len(d.Runs), len(d.Missing), d.Grid.Kind, err)
	}
	if r := Analyze(d); r.Kind != KindGo {
		t.Errorf("report kind %q", r.Kind)
	}
	if _, err := Load(plan, goOut); err == nil || !strings.Contains(err.Error(), "another grid") {
		t.Errorf("merging a plan grid with a Go grid: %v", err)
	}
	if _, err := Run(context.Background(), Options{Grid: gg, Workers: 2, Out: plan, Benches: testBenches(), Runner: stopAt("budget"), Machine: testMachine}); err == nil {
		t.Error("a Go grid ran in a plan grid's folder")
	}
}

// TestGridValidateMinimizeTime: a Go grid's -test.fuzzminimizetime is
// checked with the grid (gofuzz.CheckMinimizeTime).
func TestGridValidateMinimizeTime(t *testing.T) {
	g := testGrid()
	g.Kind = KindGo
	for _, ok := range []string{"", "0s", "1000x"} {
		g.MinimizeTime = ok
		if err := g.Validate(); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	g.MinimizeTime = "ten"
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), `fuzzminimizetime "ten"`) {
		t.Errorf("ten: %v", err)
	}
}

// TestReportExecsPerCPUSecond: runs that measured their CPU time get a
// pooled rate per CPU-second (all execs over all CPU seconds) and its ratio
// to none, shown as two more throughput columns; runs without it (the
// built-in engine) get neither.
func TestReportExecsPerCPUSecond(t *testing.T) {
	out := t.TempDir()
	runSynth(t, out, testGrid(), All, nil)
	d, err := Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := Analyze(d).Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "execs per CPU-s") {
		t.Errorf("a CPU column without CPU times:\n%s", md.String())
	}
	want := map[string][2]float64{} // criterion -> execs, CPU seconds
	n := 0
	for c, rd := range d.Runs {
		n++
		// Half of the runs at 1 CPU-s per 1,000 execs, half at 2.
		rd.Result.CPUS = float64(rd.Stats.Samples[len(rd.Stats.Samples)-1].Execs) / 1000 * float64(1+n%2)
		if c.Bench != d.Grid.Benches[0] {
			continue
		}
		w := want[c.Criterion]
		w[0] += float64(rd.Stats.Samples[len(rd.Stats.Samples)-1].Execs)
		w[1] += rd.Result.CPUS
		want[c.Criterion] = w
	}
	r := Analyze(d)
	if r.Results[0].Bench != d.Grid.Benches[0] {
		t.Fatalf("first result %s, want %s", r.Results[0].Bench, d.Grid.Benches[0])
	}
	rows := map[string]ThroughputRow{}
	for _, tr := range r.Results[0].Throughput {
		rows[tr.Criterion] = tr
		w := want[tr.Criterion]
		if got := tr.ExecsPerCPUS; got != round6(w[0]/w[1]) {
			t.Errorf("%s: %v execs per CPU-s, want %v", tr.Criterion, got, w[0]/w[1])
		}
	}
	if m := rows["mcc"]; m.CPURatio == nil || *m.CPURatio != round6(m.ExecsPerCPUS/rows[Baseline].ExecsPerCPUS) {
		t.Errorf("mcc's CPU ratio: %+v", m)
	}
	md.Reset()
	if err := r.Markdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| execs per CPU-s | ratio to none |") {
		t.Errorf("no CPU columns:\n%s", md.String())
	}
}
