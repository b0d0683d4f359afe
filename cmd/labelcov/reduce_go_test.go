package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/internal/testenv"
)

// goShellCorpus copies the gobench module into a temporary directory with
// the hand-written corpus of testdata/go/shellcorpus in shell's
// testdata/fuzz; it returns the module and the root of a private fuzz
// cache holding the corpus's cache entries.
func goShellCorpus(t *testing.T) (mod, cache string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	mod = filepath.Join(t.TempDir(), "gobench")
	cache = filepath.Join(t.TempDir(), "fuzzcache")
	for _, c := range [][2]string{{"../../testdata/gobench", mod}, {"../../testdata/go/shellcorpus/FuzzRun", filepath.Join(mod, "shell", "testdata", "fuzz", "FuzzRun")},
		{"../../testdata/go/shellcorpus/fuzzcache", cache}} {
		if err := os.CopyFS(c[1], os.DirFS(c[0])); err != nil {
			t.Fatal(err)
		}
	}
	return mod, cache
}

// dirSizes maps the files of dir to their sizes.
func dirSizes(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, e := range ents {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = info.Size()
	}
	return out
}

// TestReduceGo: the corpus of shell.FuzzRun (testdata and a private fuzz
// cache) shrinks to a subset on which cover --fuzz measures exactly what
// it measures on the whole corpus — labels per criterion, statements and
// blocks — and the corpus and cache are left as they were.
func TestReduceGo(t *testing.T) {
	testenv.Long(t) // minutes under load: .ci/run runs it
	if testing.Short() {
		t.Skip("annotates and builds Go test binaries")
	}
	mod, cache := goShellCorpus(t)
	corpus := filepath.Join(mod, "shell", "testdata", "fuzz", "FuzzRun")
	cached := filepath.Join(cache, "example.com", "gobench", "shell", "FuzzRun")
	before, beforeCache := dirSizes(t, corpus), dirSizes(t, cached)
	out := filepath.Join(t.TempDir(), "reduced")
	code, stdout, errs := runCLI("reduce", filepath.Join(mod, "shell"), "--fuzz", "FuzzRun", "--fuzz-cache", cache, "--out", out, "--json")
	if code != exitOK {
		t.Fatalf("reduce: exit %d\n%s", code, errs)
	}
	var rep subject.GoReduceReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	kept := dirSizes(t, filepath.Join(out, "testdata", "fuzz", "FuzzRun"))
	bytes := 0
	for _, n := range kept {
		bytes += int(n)
	}
	if rep.Before.Entries != 13 || rep.Before.Cached != 3 || rep.After.Entries != len(kept) || rep.After.Bytes != bytes ||
		len(kept) == 0 || len(kept) >= rep.Before.Entries || rep.Items["failures"] != 1 || rep.Seeds != 1 {
		t.Errorf("report %+v, %d files written", rep, len(kept))
	}
	for name := range kept {
		if _, ok := before[name]; !ok {
			if _, ok := beforeCache[name]; !ok {
				t.Errorf("kept %s, not a corpus entry's name", name)
			}
		}
	}
	if a, b := dirSizes(t, corpus), dirSizes(t, cached); len(a) != len(before) || len(b) != len(beforeCache) {
		t.Fatalf("the corpus or the cache changed")
	}

	// cover --fuzz on the whole corpus and on a copy of the module whose
	// testdata holds the kept entries, with an empty cache.
	measure := func(modDir, cacheRoot string) string {
		code, out, errs := runCLI("cover", "./shell", "-C", modDir, "--fuzz", "FuzzRun", "--fuzz-cache", cacheRoot, "--criteria", "all,mcdc", "--json")
		if code != exitFound { // a corpus entry panics: cover reports and exits 1
			t.Fatalf("cover: exit %d\n%s", code, errs)
		}
		var r struct {
			Criteria map[string]struct{ Covered, Total int } `json:"criteria"`
			Coverage any                                     `json:"coverage"`
			Corpus   struct{ Crashing []string }             `json:"corpus"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		if len(r.Corpus.Crashing) == 0 {
			t.Errorf("no crashing entry in %s", modDir)
		}
		b, _ := json.Marshal([]any{r.Criteria, r.Coverage})
		return string(b)
	}
	whole := measure(mod, cache)
	mod2 := filepath.Join(t.TempDir(), "gobench")
	if err := os.CopyFS(mod2, os.DirFS("../../testdata/gobench")); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(filepath.Join(mod2, "shell"), os.DirFS(out)); err != nil {
		t.Fatal(err)
	}
	if sub := measure(mod2, t.TempDir()); sub != whole {
		t.Errorf("cover of the reduced corpus differs:\nwhole   %s\nreduced %s", whole, sub)
	}

	// Text report, and errors.
	out2 := filepath.Join(t.TempDir(), "text")
	code, stdout, errs = runCLI("reduce", filepath.Join(mod, "shell"), "--fuzz", "FuzzRun", "--fuzz-cache", cache, "--out", out2, "--criteria", "cc")
	if code != exitOK || !strings.Contains(stdout, "13 entries") || !strings.Contains(stdout, "failure sites") {
		t.Errorf("reduce (text): exit %d\n%s%s", code, stdout, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", t.TempDir()}, "give --fuzz FuzzX"},
		{[]string{"--fuzz", "FuzzNope", "--out", t.TempDir()}, "no fuzz target FuzzNope; its fuzz targets: FuzzRun"},
		{[]string{"--fuzz", "FuzzRun", "--fuzz-cache", cache, "--out", out}, "not empty"},
		{[]string{"--fuzz", "FuzzRun", "--tests", corpus, "--out", t.TempDir()}, "--tests is for plans"},
	} {
		code, _, errs := runCLI(append([]string{"reduce", filepath.Join(mod, "shell")}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("reduce %v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	empty := filepath.Join(t.TempDir(), "gobench")
	if err := os.CopyFS(empty, os.DirFS("../../testdata/gobench")); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runCLI("reduce", filepath.Join(empty, "easy"), "--fuzz", "FuzzFields", "--fuzz-cache", t.TempDir(), "--out", t.TempDir()); code != exitUsage || !strings.Contains(errs, "no corpus entries") {
		t.Errorf("reduce of an empty corpus: exit %d, %q", code, errs)
	}
}
