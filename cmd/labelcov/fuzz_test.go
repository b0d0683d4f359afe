package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

const (
	wsPlan  = "../../testdata/bench/warehouse-sort/warehouse-sort.plan"
	wsWorld = "../../testdata/worlds/warehouse.world"
)

// jsonSummary is the part of fuzz --json the tests read.
type jsonSummary struct {
	Execs       int64   `json:"execs"`
	ExecsPerSec float64 `json:"execs_per_sec"`
	Corpus      int     `json:"corpus"`
	Coverage    map[string]struct {
		Covered, Total int
	} `json:"coverage"`
	ByCriterion map[string]struct{ Covered, Total int } `json:"labels_by_criterion"`
	Findings    []struct {
		Key      string      `json:"key"`
		Category string      `json:"category"`
		TimeS    float64     `json:"time_s"`
		Execs    int64       `json:"execs"`
		Input    string      `json:"input"`
		New      bool        `json:"new"`
		Size     engine.Size `json:"size"`
		Original engine.Size `json:"original"`
	} `json:"findings"`
	Stop   string `json:"stop"`
	Dir    string `json:"dir"`
	Engine string `json:"engine"`
	AFL    []struct {
		ExecsDone   int64   `json:"execs_done"`
		ExecsPerSec float64 `json:"execs_per_sec"`
		CorpusCount int     `json:"corpus_count"`
	} `json:"afl"`
}

func fuzzJSON(t *testing.T, args ...string) (jsonSummary, string) {
	t.Helper()
	// Campaigns without --out write to a temporary directory.
	t.Setenv("TMPDIR", t.TempDir())
	// A generous wall-clock limit per run comes first (a test's own
	// --timeout, later, wins): on a loaded machine a run may take longer
	// than the default second, and a hang finding would then depend on the
	// load, not on the plan.
	return cliJSON[jsonSummary](t, append([]string{"fuzz", "--json", "--progress", "0", "--allow-findings", "--timeout", "5m"}, args...)...)
}

func TestFuzzCampaignLayoutAndReplay(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	s, _ := fuzzJSON(t, wsPlan, "--world", wsWorld, "--runs", "1500", "--seed", "3", "--workers", "1", "--out", out)
	if s.Stop != "runs" || s.Execs < 1500 || s.Corpus < 10 || len(s.Findings) == 0 {
		t.Fatalf("summary: stop %s, execs %d, corpus %d, %d findings", s.Stop, s.Execs, s.Corpus, len(s.Findings))
	}
	for _, k := range []string{"branches", "instructions", "actions", "labels"} {
		if f := s.Coverage[k]; f.Total == 0 || f.Covered == 0 {
			t.Errorf("coverage %s = %+v", k, f)
		}
	}
	for _, k := range []string{"mcc", "cc", "wm"} {
		if s.ByCriterion[k].Total == 0 {
			t.Errorf("labels_by_criterion %s missing: %+v", k, s.ByCriterion)
		}
	}
	dir := filepath.Join(out, "labelcov")
	queue, _ := filepath.Glob(filepath.Join(dir, "queue", "id:*"))
	if len(queue) != s.Corpus {
		t.Errorf("queue holds %d files, corpus %d", len(queue), s.Corpus)
	}
	for _, f := range s.Findings {
		if _, err := os.Stat(f.Input); err != nil {
			t.Errorf("finding %s: %v", f.Key, err)
		}
		if _, err := os.Stat(f.Input + ".env"); err != nil {
			t.Errorf("finding %s has no .env beside it: %v", f.Key, err)
		}
	}
	var stats struct {
		Version int `json:"version"`
		Samples []struct {
			Coverage map[string]struct{ Covered, Total int } `json:"coverage"`
		} `json:"samples"`
		Findings []struct{ Key string } `json:"findings"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "stats.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &stats); err != nil {
		t.Fatal(err)
	}
	if stats.Version != 2 || len(stats.Samples) == 0 || len(stats.Findings) != len(s.Findings) {
		t.Fatalf("stats.json: version %d, %d samples, %d findings", stats.Version, len(stats.Samples), len(stats.Findings))
	}
	last := stats.Samples[len(stats.Samples)-1].Coverage
	if last["labels"].Total == 0 || last["labels"] != s.Coverage["labels"] {
		t.Errorf("stats.json label coverage %+v, summary %+v", last["labels"], s.Coverage["labels"])
	}

	// Replay reproduces every saved finding: same key, from the bytes and
	// from the .env beside them.
	for _, f := range s.Findings {
		for _, in := range []string{f.Input, f.Input + ".env"} {
			code, rout, errs := execLabelcov("replay", wsPlan, "--world", wsWorld, "--timeout", "5m", "--json", in)
			if code != exitFound {
				t.Fatalf("replay %s: exit %d, want %d (the finding reproduces): %s", in, code, exitFound, errs)
			}
			var rep struct {
				Version int `json:"version"`
				Inputs  []struct {
					Findings []struct{ Key string } `json:"findings"`
				} `json:"inputs"`
			}
			if err := json.Unmarshal([]byte(rout), &rep); err != nil || rep.Version != 1 || len(rep.Inputs) != 1 {
				t.Fatalf("replay --json: %v\n%s", err, rout)
			}
			reps := rep.Inputs
			found := false
			for _, rf := range reps[0].Findings {
				found = found || rf.Key == f.Key
			}
			if !found {
				t.Errorf("replay %s: findings %+v, want %s", in, reps[0].Findings, f.Key)
			}
		}
	}
	// The human form, with the trace.
	code, rout, errs := execLabelcov("replay", wsPlan, "--world", wsWorld, "--timeout", "5m", "--trace", s.Findings[0].Input)
	if code != exitFound || !strings.Contains(rout, "findings:\n  "+s.Findings[0].Key) || !strings.Contains(rout, "environment:") ||
		!strings.Contains(rout, " -> ") {
		t.Errorf("replay --trace: exit %d\n%s%s", code, rout, errs)
	}
}

func TestFuzzDeterministic(t *testing.T) {
	args := []string{wsPlan, "--world", wsWorld, "--runs", "800", "--seed", "11", "--workers", "1", "--criteria", "mcc,wm"}
	a, _ := fuzzJSON(t, args...)
	b, _ := fuzzJSON(t, args...)
	if a.Execs != b.Execs || a.Corpus != b.Corpus || len(a.Findings) != len(b.Findings) {
		t.Fatalf("two identical campaigns differ: execs %d/%d, corpus %d/%d, findings %d/%d",
			a.Execs, b.Execs, a.Corpus, b.Corpus, len(a.Findings), len(b.Findings))
	}
	for i := range a.Findings {
		if a.Findings[i].Key != b.Findings[i].Key || a.Findings[i].Execs != b.Findings[i].Execs {
			t.Errorf("finding %d: %s@%d vs %s@%d", i, a.Findings[i].Key, a.Findings[i].Execs, b.Findings[i].Key, b.Findings[i].Execs)
		}
	}
	for k, f := range a.Coverage {
		if b.Coverage[k] != f {
			t.Errorf("coverage %s: %+v vs %+v", k, f, b.Coverage[k])
		}
	}
}

func TestFuzzResume(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	args := []string{wsPlan, "--world", wsWorld, "--runs", "600", "--seed", "5", "--workers", "1", "--out", out}
	first, _ := fuzzJSON(t, args...)
	second, errs := fuzzJSON(t, append(args[:len(args):len(args)], "--seed", "6")...)
	if second.Corpus < first.Corpus || second.Execs <= first.Execs {
		t.Fatalf("resume: corpus %d -> %d, execs %d -> %d", first.Corpus, second.Corpus, first.Execs, second.Execs)
	}
	known := map[string]bool{}
	for _, f := range second.Findings {
		known[f.Key] = !f.New
	}
	for _, f := range first.Findings {
		if !known[f.Key] {
			t.Errorf("finding %s of the first session is not known in the second", f.Key)
		}
	}
	if second.Coverage["labels"].Covered < first.Coverage["labels"].Covered {
		t.Errorf("label coverage fell on resume: %+v -> %+v\n%s", first.Coverage["labels"], second.Coverage["labels"], errs)
	}
}

const argsPlan = `(def-plan main (lo hi)
  (if (and (> lo 1000) (< hi 0))
      (fail 'range-bug "lo ~a hi ~a" lo hi)
      'ok))

(defparameter *seen* 0)
`

func TestFuzzWithoutWorld(t *testing.T) {
	plan := tempPlan(t, argsPlan)
	s, _ := fuzzJSON(t, plan, "--runs", "30000", "--seed", "1", "--workers", "1", "--criteria", "mcc,wm")
	var key string
	for _, f := range s.Findings {
		if f.Category == "range-bug" {
			key = f.Key
		}
	}
	if key == "" {
		t.Fatalf("no range-bug finding in %+v", s.Findings)
	}
	// Positions are those of the original plan, not of the annotated one.
	if !strings.HasSuffix(key, "p.plan:3:7") {
		t.Errorf("finding key %q, want the original position p.plan:3:7", key)
	}
	if _, ok := s.Coverage["actions"]; ok {
		t.Errorf("action coverage without a world: %+v", s.Coverage)
	}
	if s.Coverage["labels"].Total == 0 {
		t.Errorf("no label coverage: %+v", s.Coverage)
	}
}

// TestFuzzFindingsExitNonZero: like go test -fuzz, a campaign with findings
// exits 1 and says how to rerun each finding; --allow-findings exits 0.
func TestFuzzFindingsExitNonZero(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	plan := tempPlan(t, argsPlan)
	args := []string{"fuzz", plan, "--runs", "30000", "--seed", "1", "--workers", "1", "--criteria", "mcc,wm", "--progress", "0",
		"--pure", "ext1", "--pure", "ext2"}
	code, stdout, errs := execLabelcov(args...)
	if code != exitFound || !strings.Contains(errs, "finding(s)") {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFound, stdout, errs)
	}
	m := regexp.MustCompile(`rerun (range-bug@\S+): labelcov replay (\S+) --criteria mcc,wm --pure ext1,ext2 (\S+)\n`).FindStringSubmatch(errs)
	if m == nil || m[2] != plan {
		t.Fatalf("no replay line for range-bug in:\n%s", errs)
	}
	// The printed command reproduces the finding.
	code, rout, rerrs := execLabelcov("replay", plan, "--criteria", "mcc,wm", "--pure", "ext1,ext2", m[3])
	if code != exitFound || !strings.Contains(rout, m[1]) {
		t.Errorf("replay line: exit %d\n%s%s", code, rout, rerrs)
	}
	if code, _, errs := execLabelcov(append(args, "--allow-findings")...); code != exitOK {
		t.Errorf("--allow-findings: exit %d\n%s", code, errs)
	}
}

// TestFuzzNeedsWorldUpFront: a plan that acts on a world, fuzzed without
// one, fails before any run and names the world truth.json gives.
func TestFuzzNeedsWorldUpFront(t *testing.T) {
	code, _, errs := execLabelcov("fuzz", wsPlan, "--runs", "10")
	if code != exitUsage || !strings.Contains(errs, "needs a world: give --world") || !strings.Contains(errs, "warehouse.world") ||
		!strings.Contains(errs, "^") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	// The missing world is the one message: no warning per world query first.
	if strings.Contains(errs, "warning") {
		t.Errorf("warnings before the missing-world error:\n%s", errs)
	}
}

func TestFuzzErrors(t *testing.T) {
	bad := tempPlan(t, "(def-plan main ()\n  (if 1 2 3 4 5)")
	code, _, errs := execLabelcov("fuzz", bad, "--runs", "10")
	if code != exitUsage || !strings.Contains(errs, "p.plan:") {
		t.Errorf("bad plan: exit %d, %q", code, errs)
	}
	code, _, errs = execLabelcov("fuzz", wsPlan, "--world", wsWorld, "--criteria", "bogus", "--runs", "10")
	if code != exitUsage || !strings.Contains(errs, "--criteria") {
		t.Errorf("bad criteria: exit %d, %q", code, errs)
	}
	code, _, errs = execLabelcov("fuzz", wsPlan, "--world", wsWorld, "--engine", "libfuzzer")
	if code != exitUsage || !strings.Contains(errs, "--engine") {
		t.Errorf("bad engine: exit %d, %q", code, errs)
	}
	world := filepath.Join(t.TempDir(), "w.world")
	os.WriteFile(world, []byte("(room 0 0 1 1)\n(furniture table (pose 1 1 90) (size 1 1) (surface top (height 0.7)))\n(region r (surface bord))\n"), 0o644)
	code, _, errs = execLabelcov("fuzz", wsPlan, "--world", world, "--runs", "10")
	if code != exitUsage || !strings.Contains(errs, "w.world:") {
		t.Errorf("bad world: exit %d, %q", code, errs)
	}
}

// TestFuzzHangFinding: a run over the wall-clock limit (here: an endless
// loop under a huge step budget) is a saved hang finding, the campaign goes
// on, and replay reports the same finding under the same limit.
func TestFuzzHangFinding(t *testing.T) {
	plan := tempPlan(t, "(def-plan main (x)\n  (when (> x 5)\n    (let ((n 0)) (while t (setq n (+ n 1)))))\n  x)\n")
	out := filepath.Join(t.TempDir(), "out")
	limits := []string{"--max-steps", "1000000000000", "--timeout", "20ms"}
	s, _ := fuzzJSON(t, append([]string{plan, "--runs", "60", "--workers", "1", "--out", out, "--corpus", writeSeed(t, "\x09")}, limits...)...)
	var hang string
	for _, f := range s.Findings {
		if f.Key == "hang" {
			hang = f.Input
		}
	}
	if hang == "" || s.Stop != "runs" || s.Execs < 60 {
		t.Fatalf("stop %s, findings %+v: want a hang and the campaign to go on", s.Stop, s.Findings)
	}
	code, rout, errs := execLabelcov(append([]string{"replay", plan, hang}, limits...)...)
	if code != exitFound || !strings.Contains(rout, "hang") {
		t.Errorf("replay of the hang: exit %d\n%s%s", code, rout, errs)
	}
}

// writeSeed writes a one-file seed corpus.
func writeSeed(t *testing.T, data string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "seed"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFuzzResumedProgressShowsCampaignTime: a resumed campaign's first
// progress line says the campaign's elapsed time, not 0s.
func TestFuzzResumedProgressShowsCampaignTime(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c")
	args := []string{"fuzz", "../../testdata/bench/temperature/temperature.plan", "--budget", "1200ms", "--workers", "1",
		"--progress", "1s", "--allow-findings", "--out", out}
	if code, _, errs := execLabelcov(args...); code != exitOK {
		t.Fatalf("first session: exit %d\n%s", code, errs)
	}
	_, _, errs := execLabelcov(append(args[:len(args):len(args)], "--runs", "1")...)
	m := regexp.MustCompile(`fuzz: elapsed: (\S+), corpus: \d+ loaded`).FindStringSubmatch(errs)
	if m == nil || m[1] == "0s" {
		t.Errorf("resumed session's first line: %q, want the campaign's time so far\n%s", m, errs)
	}
}
