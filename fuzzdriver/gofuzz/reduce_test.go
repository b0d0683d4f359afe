package gofuzz

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// shellCorpus copies the gobench module to a temporary directory with
// the hand-written corpus of testdata/go/shellcorpus in shell's
// testdata/fuzz and in a private fuzz cache; it returns the target and
// its directory of the cache.
func shellCorpus(t *testing.T) (Target, string) {
	t.Helper()
	needGo(t)
	mod := filepath.Join(t.TempDir(), "gobench")
	cache := filepath.Join(t.TempDir(), "fuzzcache")
	for _, c := range [][2]string{{"../../testdata/gobench", mod}, {"../../testdata/go/shellcorpus/FuzzRun", filepath.Join(mod, "shell", "testdata", "fuzz", "FuzzRun")},
		{"../../testdata/go/shellcorpus/fuzzcache", cache}} {
		if err := os.CopyFS(c[1], os.DirFS(c[0])); err != nil {
			t.Fatal(err)
		}
	}
	ts, err := Discover(context.Background(), mod, nil, "./shell")
	if err != nil || len(ts) != 1 {
		t.Fatalf("Discover: %v %v", ts, err)
	}
	return ts[0], filepath.Join(cache, filepath.FromSlash(ts[0].Package), ts[0].Name)
}

func TestReduceCorpus(t *testing.T) {
	testenv.Long(t) // minutes under load: .ci/run runs it
	if testing.Short() {
		t.Skip("annotates, builds coverage binaries and runs every corpus entry")
	}
	x, cache := shellCorpus(t)
	// Names with spaces: testing matches them only by a pattern that
	// survives its rewriting of patterns (gotest.EntryPattern); one fails.
	for name, script := range map[string]string{"dup twice": "push 1\ndup\ndup", "deep two": "push 1\ncompact! 4"} {
		if err := os.WriteFile(filepath.Join(x.Dir, "testdata", "fuzz", x.Name, name), []byte("go test fuzz v1\nstring(\""+strings.ReplaceAll(script, "\n", `\n`)+"\")\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := LoadCorpus(x, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 15 {
		t.Fatalf("LoadCorpus: %d entries, want 15 (the cache's copy of push-one left out): %v", len(entries), entries)
	}
	ctx := context.Background()
	crit, _ := labels.ParseCriteria("all,mcdc")
	res, err := gotransform.Annotate(ctx, []string{x.Package}, gotransform.Options{Criteria: crit, Dir: x.Module})
	if err != nil {
		t.Fatal(err)
	}
	y, err := BuildYardstick(ctx, x, res, nil, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	red, err := Reduce(ctx, y, entries, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, e := range red.Kept {
		kept = append(kept, e.Name)
	}
	t.Logf("kept %v of %d; %d items, seeds %d items", kept, len(entries), len(red.Items), len(red.SeedItems))
	if len(red.Kept) >= len(entries) || len(red.Kept) == 0 {
		t.Fatalf("kept %d of %d", len(red.Kept), len(entries))
	}
	for _, gone := range []string{"push-two", "1a1b2c3d4e5f6071"} {
		if slices.Contains(kept, gone) {
			t.Errorf("kept %s, which covers nothing the seed and push-one do not", gone)
		}
	}
	if !slices.Equal(red.Failing, []string{"compact-deep"}) {
		t.Errorf("failing kept entries %v, want [compact-deep]", red.Failing)
	}
	if !slices.Contains(kept, "compact-deep") || slices.Contains(kept, "0a1b2c3d4e5f6071") || slices.Contains(kept, "deep two") {
		t.Errorf("of the three panics at one site the smallest is kept, alone: %v", kept)
	}
	var failures []string
	for _, it := range red.Items {
		if strings.HasPrefix(it, ItemFailure) {
			failures = append(failures, it)
		}
	}
	if want := []string{"category:panic@shell/shell.go:47"}; !slices.Equal(failures, want) {
		t.Errorf("failure items %v, want %v", failures, want)
	}
	// Measured again, the kept entries with the seeds cover every item.
	again, err := y.Items(ctx, red.Kept, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := reduce.Union(append([][]string{again.Seeds}, again.Entries...), nil); !slices.Equal(got, red.Items) {
		t.Errorf("kept entries cover %d items, the corpus %d", len(got), len(red.Items))
	}
	// Each kept entry covers something the seeds and the other kept
	// entries do not.
	for i := range red.Kept {
		rest := [][]string{again.Seeds}
		for j := range red.Kept {
			if j != i {
				rest = append(rest, again.Entries[j])
			}
		}
		if len(reduce.Union(rest, nil)) == len(red.Items) {
			t.Errorf("kept entry %s adds nothing", red.Kept[i].Name)
		}
	}
	// Written under their names, for the package's testdata.
	out := t.TempDir()
	dir, err := WriteCorpus(x, out, red.Kept)
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(out, "testdata", "fuzz", "FuzzRun") {
		t.Errorf("written to %s", dir)
	}
	for _, e := range red.Kept {
		a, _ := os.ReadFile(e.Path)
		b, err := os.ReadFile(filepath.Join(dir, e.Name))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s not copied: %v", e.Name, err)
		}
	}
	if _, err := WriteCorpus(x, out, red.Kept[:1]); err == nil {
		t.Error("WriteCorpus overwrote an entry")
	}
}

func TestLoadCorpusNameClash(t *testing.T) {
	x := Target{Dir: t.TempDir(), Name: "FuzzX"}
	td := filepath.Join(x.Dir, "testdata", "fuzz", "FuzzX")
	cache := t.TempDir()
	for dir, body := range map[string]string{td: "a", cache: "b"} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "same"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadCorpus(x, cache); err == nil || !strings.Contains(err.Error(), "same name") {
		t.Fatalf("LoadCorpus: %v", err)
	}
	es, err := LoadCorpus(x, filepath.Join(cache, "none"))
	if err != nil || len(es) != 1 || es[0].Cached {
		t.Fatalf("missing cache: %v %v", es, err)
	}
}
