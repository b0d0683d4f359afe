package gofuzz

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
)

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}

// gobench discovers the targets of the repository's Go benchmark module.
func gobench(t *testing.T) map[string]Target {
	t.Helper()
	needGo(t)
	dir, err := filepath.Abs("../../testdata/gobench")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := Discover(context.Background(), dir, nil, "./...")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]Target{}
	for _, x := range ts {
		out[x.BenchName()] = x
	}
	return out
}

func TestDiscoverNamesTargets(t *testing.T) {
	ts := gobench(t)
	for _, want := range []string{"easy.FuzzFields", "header.FuzzDecode", "ledger.FuzzSettle", "quota.FuzzReserve",
		"sensor.FuzzCalibrate", "shell.FuzzRun", "frame.FuzzDecode"} {
		x, ok := ts[want]
		if !ok {
			t.Errorf("no target %s among %v", want, ts)
			continue
		}
		if !strings.HasPrefix(x.Package, "example.com/gobench/") || x.ModPath != "example.com/gobench" {
			t.Errorf("%s: package %q module %q", want, x.Package, x.ModPath)
		}
	}
}

// TestTruthWitnessesReproduce replays every benchmark's witness on the
// original code: the site it names must be its ground truth, so the truth
// files cannot drift from the sources.
func TestTruthWitnessesReproduce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary per benchmark package")
	}
	ts := gobench(t)
	if len(ts) == 0 {
		t.Fatal("no targets")
	}
	// Each target costs a fuzzing build: the default run checks the two
	// the other tests build too, the long run (.ci/run) every target.
	sample := map[string]bool{"easy.FuzzFields": true, "quota.FuzzReserve": true}
	for name, x := range ts {
		if !testenv.IsLong() && !sample[name] {
			continue
		}
		tr, err := LoadTruth(x)
		if err != nil {
			t.Fatal(err)
		}
		if tr == nil || len(tr.Categories) == 0 {
			t.Errorf("%s: no ground truth", name)
			continue
		}
		bin := filepath.Join(t.TempDir(), "orig.test")
		if err := BuildFuzz(context.Background(), x, "", bin, nil); err != nil {
			t.Fatal(err)
		}
		for _, c := range tr.Categories {
			in := filepath.Join(t.TempDir(), "witness")
			if err := os.WriteFile(in, []byte(c.Witness), 0o644); err != nil {
				t.Fatal(err)
			}
			site, err := Reproduce(context.Background(), bin, x, in, "", t.TempDir(), nil)
			if err != nil {
				t.Fatal(err)
			}
			if site.Key() != c.Name {
				t.Errorf("%s: witness fails at %s (%s), truth says %s", name, site.Key(), site.Detail, c.Name)
			}
		}
		// The seeds pass: campaigns start from a passing corpus.
		site, err := Reproduce(context.Background(), bin, x, "", "seed#0", t.TempDir(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if site.Category != "unreproduced" {
			t.Errorf("%s: seed#0 fails: %s", name, site.Key())
		}
	}
}

// TestCampaignEndsAtFailure fuzzes the easy control: the campaign ends at
// its first failure, whose input fails at the truth's site on the
// original, and its time and execs are within the campaign's.
func TestCampaignEndsAtFailure(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test -fuzz")
	}
	x := gobench(t)["easy.FuzzFields"]
	dir := t.TempDir()
	bin := filepath.Join(dir, "easy.test")
	if err := BuildFuzz(context.Background(), x, "", bin, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Binary: bin, Target: x, Dir: filepath.Join(dir, "c"), Budget: 2 * time.Minute, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stop != "failure" || len(r.Failures) != 1 || r.Sessions != 1 {
		t.Fatalf("stop %q, %d failures in %d sessions; want one failure", r.Stop, len(r.Failures), r.Sessions)
	}
	f := r.Failures[0]
	if f.Input == "" || f.TimeS <= 0 || f.TimeS > r.ElapsedS || f.Execs > r.Execs {
		t.Errorf("failure %+v in a campaign of %.2fs, %d execs", f, r.ElapsedS, r.Execs)
	}
	if _, err := os.Stat(filepath.Join(dir, "c", "work", "testdata", "fuzz", x.Name, filepath.Base(f.Input)[3:])); err == nil {
		t.Errorf("failing input left in the working directory's seed corpus")
	}
	site, err := Reproduce(context.Background(), bin, x, f.Input, "", t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := LoadTruth(x)
	if site.Key() != tr.Categories[0].Name {
		t.Errorf("found %s (%s), truth %s", site.Key(), site.Detail, tr.Categories[0].Name)
	}
	if _, err := os.Stat(filepath.Join(x.Dir, "testdata")); err == nil {
		t.Errorf("the campaign wrote into the package's directory")
	}
}

func TestParseFailure(t *testing.T) {
	x := Target{Module: "/m", ModPath: "example.com/m", Package: "example.com/m/p", Dir: "/m/p", Name: "FuzzF"}
	for _, c := range []struct{ out, key, detail string }{
		{`--- FAIL: FuzzF (0.00s)
    --- FAIL: FuzzF/abc (0.00s)
panic: runtime error: index out of range [3] with length 0 [recovered, repanicked]

goroutine 7 [running]:
testing.tRunner.func1.2({0x5a2b00, 0xc000016150})
	/usr/local/go/src/testing/testing.go:1734 +0x21c
panic({0x5a2b00?, 0xc000016150?})
	/usr/local/go/src/runtime/panic.go:792 +0x132
strings.Repeat(...)
	/usr/local/go/src/strings/strings.go:600
example.com/m/p.(*T).Parse(...)
	/m/p/p.go:6
example.com/m/p.FuzzF.func1(0x0?, {0xc000012345, 0x3, 0x8})
	/m/p/p_test.go:7 +0x1d
`, "panic@p/p.go:6", "runtime error: index out of range [3] with length 0"},
		{`--- FAIL: FuzzF (0.00s)
    --- FAIL: FuzzF/seed#0 (0.00s)
        p_test.go:12: payload longer than the input
FAIL
`, "fail@p/p_test.go:12", "payload longer than the input"},
		{`runtime: goroutine stack exceeds 1000000000-byte limit
fatal error: stack overflow

goroutine 5 gp=0xc000007dc0 m=0 mp=0x6c1a20 [running]:
example.com/m/p/sub.G(...)
	/m/p/sub/g.go:3 +0x1
example.com/m/p.F(0x1)
	/m/p/p.go:11 +0x25
`, "fatal@p/p.go:11", "stack overflow"},
		{"signal: killed\n", "crash", "signal: killed"},
	} {
		s := ParseFailure(c.out, x)
		if s.Key() != c.key || s.Detail != c.detail {
			t.Errorf("got %s (%q), want %s (%q)", s.Key(), s.Detail, c.key, c.detail)
		}
	}
	// Labels inside a dependency: its first frame names the site, by
	// import path; without a frame there, the target's package does.
	x.LabelPkgs = []string{"example.com/dep"}
	panicked := `panic: runtime error: slice bounds out of range [:9] with capacity 4 [recovered]

goroutine 7 [running]:
example.com/dep.Parse({0xc000012345, 0x4, 0x8})
	/cache/example.com/dep@v0.1.0/dep.go:31 +0x1d
example.com/m/p.FuzzF.func1(0x0?, {0xc000012345, 0x4, 0x8})
	/m/p/p_test.go:7 +0x1d
`
	if s := ParseFailure(panicked, x); s.Key() != "panic@example.com/dep/dep.go:31" {
		t.Errorf("failure in the labelled dependency: %s", s.Key())
	}
	if s := ParseFailure(strings.Replace(panicked, "example.com/dep.Parse", "example.com/other.Parse", 1), x); s.Key() != "panic@p/p_test.go:7" {
		t.Errorf("failure outside the labelled dependency: %s", s.Key())
	}
}

func TestSampleTimes(t *testing.T) {
	var corpus []Entry
	for i := 1; i <= 100; i++ {
		corpus = append(corpus, Entry{TimeS: float64(i) * 0.2})
	}
	got := SampleTimes(corpus, 0.1, 30, 12)
	if len(got) > 12 || got[0] != 0.1 || got[len(got)-1] != 30 {
		t.Fatalf("SampleTimes = %v", got)
	}
	for i := 1; i < len(got)-1; i++ {
		if got[i] <= got[i-1] {
			t.Errorf("not increasing: %v", got)
		}
		found := false
		for _, e := range corpus {
			found = found || e.TimeS == got[i]
		}
		if !found {
			t.Errorf("%v is no growth time", got[i])
		}
	}
	few := SampleTimes(corpus[:3], 0.1, 5, 12)
	if want := []float64{0.1, 0.2, 0.4, 0.6000000000000001, 5}; len(few) != len(want) {
		t.Errorf("SampleTimes(3 entries) = %v, want every growth", few)
	}
}

func TestExecsAt(t *testing.T) {
	r := &Result{Progress: []Progress{{TimeS: 0.5, Execs: 0}, {TimeS: 3.5, Execs: 3000}, {TimeS: 5, Execs: 4000}}}
	for _, c := range []struct {
		t    float64
		want int64
	}{{0, 0}, {0.5, 0}, {2, 1500}, {3.5, 3000}, {4.25, 3500}, {9, 4000}} {
		if got := r.ExecsAt(c.t); got != c.want {
			t.Errorf("ExecsAt(%v) = %d, want %d", c.t, got, c.want)
		}
	}
}

// TestYardstickWithCampaignTests builds the yardstick of a campaign whose
// overlay replaced the test file with one holding an extra seed, as dist's
// harvested constants do: that seed fails on the original code at the
// truth's site, and the yardstick measures the corpus with the passing
// seeds, more than the user's seed alone covers.
func TestYardstickWithCampaignTests(t *testing.T) {
	testenv.Long(t) // minutes under load: .ci/run runs it
	if testing.Short() {
		t.Skip("annotates and builds coverage binaries")
	}
	x := gobench(t)["quota.FuzzReserve"]
	testFile := filepath.Join(x.Dir, "quota_test.go")
	src, err := os.ReadFile(testFile)
	if err != nil {
		t.Fatal(err)
	}
	seeded := strings.Replace(string(src), "f.Add(uint32(4096))", "f.Add(uint32(4096))\n\tf.Add(uint32(MaxSlots))\n\tf.Add(uint32(MaxSlots + 1))", 1)
	if seeded == string(src) {
		t.Fatal("quota_test.go has no f.Add(uint32(4096))")
	}
	ctx := context.Background()
	res, err := AnnotateYardstick(ctx, x, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := BuildYardstick(ctx, x, res, nil, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	y, err := BuildYardstick(ctx, x, res, map[string][]byte{testFile: []byte(seeded)}, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// The scratch directory need not exist (a seed brings no file).
	site, err := Reproduce(ctx, y.Original, x, "", "seed#1", filepath.Join(t.TempDir(), "replay", "1"), nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := LoadTruth(x)
	if site.Key() != tr.Categories[0].Name {
		t.Errorf("seed#1 fails at %s (%s), truth %s", site.Key(), site.Detail, tr.Categories[0].Name)
	}
	before, err := plain.Measure(ctx, nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	after, err := y.Measure(ctx, nil, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"blocks", "labels", "labels:dist"} {
		b, a := before[m], after[m]
		if b.Total == 0 || a.Total != b.Total || a.Covered <= b.Covered {
			t.Errorf("%s: user's seed %v, with the harvested seeds %v; want more covered of the same total", m, b, a)
		}
	}
	if src2, _ := os.ReadFile(testFile); string(src2) != string(src) {
		t.Error("the user's test file changed")
	}
}

// TestCampaignKeepGoing restarts the fuzzer after each failure until the
// budget: every failing input is moved aside (none is left in the seed
// corpus of the working directory) and the kept corpus survives restarts.
func TestCampaignKeepGoing(t *testing.T) {
	testenv.Long(t) // an 8 s campaign: .ci/run runs it
	if testing.Short() {
		t.Skip("runs go test -fuzz")
	}
	x := gobench(t)["easy.FuzzFields"]
	dir := t.TempDir()
	bin := filepath.Join(dir, "easy.test")
	if err := BuildFuzz(context.Background(), x, "", bin, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), Options{Binary: bin, Target: x, Dir: filepath.Join(dir, "c"), Budget: 8 * time.Second, Seed: 3, KeepGoing: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stop != "budget" || len(r.Failures) == 0 || r.Sessions < len(r.Failures) {
		t.Fatalf("stop %q, %d failures in %d sessions", r.Stop, len(r.Failures), r.Sessions)
	}
	for i, f := range r.Failures {
		if _, err := os.Stat(f.Input); err != nil {
			t.Errorf("failure %d: %v", i, err)
		}
		if i > 0 && f.TimeS < r.Failures[i-1].TimeS {
			t.Errorf("failure times out of order: %v then %v", r.Failures[i-1].TimeS, f.TimeS)
		}
	}
	left, _ := os.ReadDir(filepath.Join(dir, "c", "work", "testdata", "fuzz", x.Name))
	if len(left) != 0 {
		t.Errorf("%d failing input(s) left in the working directory", len(left))
	}
	for i := 1; i < len(r.Progress); i++ {
		if r.Progress[i].Execs < r.Progress[i-1].Execs || r.Progress[i].TimeS < r.Progress[i-1].TimeS {
			t.Errorf("progress goes back: %+v then %+v", r.Progress[i-1], r.Progress[i])
		}
	}
}

// TestDeadlineRaceIsTheBudget: Go 1.26's fuzzing coordinator can report
// the end of -fuzztime as a failure of the target, "context deadline
// exceeded" without a failing input (golang/go#75804); a campaign takes
// it for the end of its budget, not a finding nor an error that stops a
// grid. A failure without an input and without that message stays an
// error.
func TestDeadlineRaceIsTheBudget(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	x := Target{Module: "/m", ModPath: "example.com/m", Package: "example.com/m/p", Dir: "/m/p", Name: "FuzzF"}
	for _, c := range []struct {
		last  string
		error bool
	}{{"    context deadline exceeded", false}, {"    p_test.go:9: no reply", true}} {
		dir := t.TempDir()
		bin := filepath.Join(dir, "fake.test")
		script := "#!/bin/sh\necho 'fuzz: elapsed: 0s, gathering baseline coverage: 1/1 completed, now fuzzing with 1 workers'\n" +
			"echo 'fuzz: elapsed: 1s, execs: 1000 (1000/sec), new interesting: 0 (total: 1)'\n" +
			"echo '--- FAIL: FuzzF (1.01s)'\necho '" + c.last + "'\necho FAIL\nexit 1\n"
		if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		r, err := Run(context.Background(), Options{Binary: bin, Target: x, Dir: filepath.Join(dir, "c"), Budget: time.Second, Seed: 1})
		if c.error {
			if err == nil {
				t.Errorf("%q: no error for a failure without its input", c.last)
			}
			continue
		}
		if err != nil || r.Stop != "budget" || len(r.Failures) != 0 || r.Execs != 1000 {
			t.Errorf("%q: err %v, stop %q, %d failures, %d execs; want the budget's end with 1000 execs", c.last, err, r.Stop, len(r.Failures), r.Execs)
		}
	}
}

func TestCheckMinimizeTime(t *testing.T) {
	for _, ok := range []string{"", "0s", "10s", "1m", "0x", "1000x"} {
		if err := CheckMinimizeTime(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"ten", "-1s", "x", "-3x", "1.5x"} {
		if err := CheckMinimizeTime(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
