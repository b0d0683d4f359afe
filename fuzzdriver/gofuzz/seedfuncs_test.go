package gofuzz

import (
	"context"
	"go/constant"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
	"golang.org/x/tools/cover"
)

// TestExecutedFuncs: a function counts as executed when a block starting
// within its lines ran; blocks of files without spans, and blocks that did
// not run, name nothing.
func TestExecutedFuncs(t *testing.T) {
	spans := map[string][]gotransform.FuncSpan{
		"example.com/p/a.go": {{Pkg: "example.com/p", Func: "A", Start: 3, End: 9}, {Pkg: "example.com/p", Func: "B", Start: 11, End: 20}},
		"example.com/p/b.go": {{Pkg: "example.com/p", Func: "C", Start: 1, End: 5}},
	}
	profiles := []*cover.Profile{
		{FileName: "example.com/p/a.go", Blocks: []cover.ProfileBlock{
			{StartLine: 4, EndLine: 5, Count: 1}, {StartLine: 12, EndLine: 13, Count: 0}, {StartLine: 21, EndLine: 22, Count: 1}}},
		{FileName: "example.com/p/b.go", Blocks: []cover.ProfileBlock{{StartLine: 2, EndLine: 3, Count: 0}}},
		{FileName: "example.com/q/c.go", Blocks: []cover.ProfileBlock{{StartLine: 2, EndLine: 3, Count: 1}}},
	}
	got := executedFuncs(profiles, spans)
	if want := map[string]bool{"example.com/p.A": true}; !reflect.DeepEqual(got, want) {
		t.Errorf("executed %v, want %v", got, want)
	}
}

// TestGuideSeedsExecutedConsts: dist's guide offers as seeds the integer
// constants of the functions the target's own seeds execute, and string
// constants wherever they are. In testdata/go/seedreach both the text
// path (field, a magic key) and the binary path (wide, a 64-bit bound and
// a tag) are reachable from FuzzDecode by name, and the seed runs the text
// path only: the guide's test file offers the key and the tag, not the
// bound's encoding, which the overlay without the rule (every reachable
// constant) does offer.
func TestGuideSeedsExecutedConsts(t *testing.T) {
	testenv.Long(t) // a go list, two annotations and a coverage build: seconds
	needGo(t)
	ctx := context.Background()
	dir, ts := seedreach(t)
	crit, err := labels.ParseCriteria("dist")
	if err != nil {
		t.Fatal(err)
	}
	test := filepath.Join(dir, "seedreach_test.go")
	key := strconv.Quote("labelcov-magic-key")
	tag := strconv.Quote("labelcov-wide-tag")
	wide := strconv.Quote("\x7e\xed\xc0\xde\x5e\xed\x00\x01")

	// Without the rule: Annotate and WriteOverlay offer both.
	res, err := gotransform.Annotate(ctx, []string{ts[0].Package}, gotransform.Options{Criteria: crit, Dir: ts[0].Module})
	if err != nil {
		t.Fatal(err)
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	all := seededTest(t, ov, test)
	if !strings.Contains(all, key) || !strings.Contains(all, wide) || !strings.Contains(all, tag) {
		t.Fatalf("the overlay without the rule lacks the key, the bound or the tag:\n%s", all)
	}

	ran, err := SeedFuncs(ctx, ts[0], res, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]bool{"example.com/seedreach.Decode": true, "example.com/seedreach.field": true}; !reflect.DeepEqual(ran, want) {
		t.Errorf("the seeds executed %v, want %v", ran, want)
	}

	g, err := AnnotateGuide(ctx, ts[0], gotransform.Options{Criteria: crit}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got := seededTest(t, g.Overlay, test)
	if !strings.Contains(got, key) || !strings.Contains(got, tag) {
		t.Errorf("the guide does not offer the executed field's key or the tag:\n%s", got)
	}
	if strings.Contains(got, wide) {
		t.Errorf("the guide offers the bound of wide, which no seed executes:\n%s", got)
	}
}

// seededTest is the overlay's copy of test file name.
func seededTest(t *testing.T, overlay, name string) string {
	t.Helper()
	tests, err := OverlayTests(overlay)
	if err != nil {
		t.Fatal(err)
	}
	src, ok := tests[name]
	if !ok {
		t.Fatalf("overlay %s has no copy of %s", overlay, name)
	}
	if _, err := os.Stat(name); err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// TestSeedsBuildFeedsFuzzBuild: with a cold build cache, the fuzzing build
// that follows the seeds' coverage build (a campaign's, or the user's go
// test -fuzz after annotate) compiles no package of the standard library:
// the seeds' build compiled them with the same instrumentation. Before,
// the two builds compiled the standard library once each (x/net/html with
// dist: 36 CPU-s of annotating and building, half of it the second pass).
func TestSeedsBuildFeedsFuzzBuild(t *testing.T) {
	testenv.Long(t) // compiles the standard library into an empty build cache
	needGo(t)
	ctx := context.Background()
	_, ts := seedreach(t)
	work := t.TempDir()
	env := append(os.Environ(), "GOCACHE="+filepath.Join(work, "gocache"))
	if err := buildSeedsCover(ctx, ts[0], filepath.Join(work, "seeds.cover.test"), env); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-c", "-x", "-o", filepath.Join(work, "fuzz.test"), fuzzFlag(ts[0]), ts[0].Package)
	cmd.Dir, cmd.Env = ts[0].Module, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// go passes -std to the compiler for packages of the standard library.
	var std []string
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.Fields(l); len(f) > 0 && strings.HasSuffix(f[0], "/compile") && slices.Contains(f, "-std") {
			if i := slices.Index(f, "-p"); i >= 0 && i+1 < len(f) {
				std = append(std, f[i+1])
			}
		}
	}
	if len(std) > 0 {
		t.Errorf("the fuzzing build compiled %d packages of the standard library again: %v", len(std), std)
	}
	if !strings.Contains(string(out), "/compile") {
		t.Errorf("the fuzzing build compiled nothing, not even the target's package:\n%s", out)
	}
}

// TestKeepExecutedConstsNumericOnly: the seeds are built and run only when
// a numeric constant is offered, the only kind the rule may drop. The
// target cannot be built (its module does not exist): with string
// constants only, the constants come back untouched and no error; with an
// integer as well, the build is tried and its failure reported.
func TestKeepExecutedConstsNumericOnly(t *testing.T) {
	needGo(t)
	ctx := context.Background()
	tgt := Target{Module: filepath.Join(t.TempDir(), "absent"), Package: "example.com/absent", Name: "FuzzX"}
	str := gotransform.Const{Value: constant.MakeString("magic"), Pkg: "example.com/absent", Func: "F"}
	res := &gotransform.Result{Packages: []*gotransform.Package{{Path: "example.com/absent", Consts: []gotransform.Const{str}}}}
	if err := KeepExecutedConsts(ctx, []Target{tgt}, res, t.TempDir(), nil); err != nil {
		t.Errorf("string constants only: %v", err)
	}
	if cs := res.Packages[0].Consts; len(cs) != 1 || cs[0] != str {
		t.Errorf("string constants only: kept %v", cs)
	}
	res.Packages[0].Consts = append(res.Packages[0].Consts, gotransform.Const{Value: constant.MakeInt64(0x7eedc0de), Bits: 32, Pkg: "example.com/absent", Func: "F"})
	if err := KeepExecutedConsts(ctx, []Target{tgt}, res, t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "the seeds of") {
		t.Errorf("with an integer constant: %v, want the seeds' build failing", err)
	}
}

// seedreach is testdata/go/seedreach's directory and its one fuzz target.
func seedreach(t *testing.T) (string, []Target) {
	t.Helper()
	dir, err := filepath.Abs("../../testdata/go/seedreach")
	if err != nil {
		t.Fatal(err)
	}
	ts, err := Discover(context.Background(), dir, nil, "./...")
	if err != nil || len(ts) != 1 {
		t.Fatalf("targets %v, %v", ts, err)
	}
	return dir, ts
}
