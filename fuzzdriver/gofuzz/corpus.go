package gofuzz

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/labelcov/labelcov/coverage/gotest"
	"golang.org/x/tools/cover"
)

// CorpusEntry is one file of a fuzz target's corpus, in go test's corpus
// file format ("go test fuzz v1").
type CorpusEntry struct {
	// Name is the file name, kept when the entry is written elsewhere.
	Name string `json:"name"`
	// Path is where the entry is read from.
	Path string `json:"path"`
	Size int    `json:"size"`
	// Cached marks an entry of go test -fuzz's cache (rather than of the
	// package's testdata/fuzz).
	Cached bool `json:"cached,omitempty"`
}

// LoadCorpus lists the corpus of t: the files of its package's
// testdata/fuzz/NAME, then those of cache (the target's directory of
// go test -fuzz's cache, CACHE/IMPORTPATH/NAME; "" for none), each sorted
// by name. A directory that does not exist holds no entries. An entry of
// the cache with the contents of an entry already listed is left out (go
// test names both by the hash of the contents); one with the name of a
// listed entry but other contents is an error.
func LoadCorpus(t Target, cache string) ([]CorpusEntry, error) {
	var out []CorpusEntry
	byName := map[string][]byte{}
	seen := map[string]bool{}
	for _, src := range []struct {
		dir    string
		cached bool
	}{{filepath.Join(t.Dir, "testdata", "fuzz", t.Name), false}, {cache, true}} {
		if src.dir == "" {
			continue
		}
		ents, err := os.ReadDir(src.dir)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("gofuzz: reading the corpus: %w", err)
		}
		for _, e := range ents {
			if !e.Type().IsRegular() {
				continue
			}
			path := filepath.Join(src.dir, e.Name())
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("gofuzz: reading the corpus: %w", err)
			}
			if prev, ok := byName[e.Name()]; ok {
				if bytes.Equal(prev, data) {
					continue
				}
				return nil, fmt.Errorf("gofuzz: corpus entries %s and %s have the same name and different contents", path,
					filepath.Join(t.Dir, "testdata", "fuzz", t.Name, e.Name()))
			}
			if seen[string(data)] {
				continue
			}
			seen[string(data)] = true
			byName[e.Name()] = data
			out = append(out, CorpusEntry{Name: e.Name(), Path: path, Size: len(data), Cached: src.cached})
		}
	}
	return out, nil
}

// WriteCorpus copies entries into dir/testdata/fuzz/NAME (made if needed)
// under their names, so that dir/testdata can be copied into t's package;
// a file that is already there is never overwritten (an error). It
// returns the directory written to.
func WriteCorpus(t Target, dir string, entries []CorpusEntry) (string, error) {
	to := filepath.Join(dir, "testdata", "fuzz", t.Name)
	if err := os.MkdirAll(to, 0o755); err != nil {
		return "", fmt.Errorf("gofuzz: %w", err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(e.Path)
		if err != nil {
			return "", fmt.Errorf("gofuzz: %w", err)
		}
		f, err := os.OpenFile(filepath.Join(to, e.Name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return "", fmt.Errorf("gofuzz: %w", err)
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return "", fmt.Errorf("gofuzz: %w", err)
		}
	}
	return to, nil
}

// Item kinds of Items: what a corpus entry covers.
const (
	// ItemLabel prefixes a label of the annotation ("label:ID").
	ItemLabel = "label:"
	// ItemBlock prefixes a coverage block of the original package that
	// ran ("block:FILE:L.C,L.C", as a coverage profile names it).
	ItemBlock = "block:"
	// ItemFailure prefixes the site of a failure on the original code
	// ("category:" + Site.Key(), as compare --go counts findings).
	ItemFailure = "category:"
)

// Coverage is what a fuzz target's seeds and corpus entries cover, each
// measured alone (Yardstick.Items).
type Coverage struct {
	// Seeds are the items of the target's f.Add seeds, run together
	// (they run whatever the corpus holds).
	Seeds []string
	// SeedCount is the number of f.Add seeds.
	SeedCount int
	// Entries are the items of each corpus entry, run alone, in the order
	// given.
	Entries [][]string
}

// Items runs the target's f.Add seeds, then each corpus entry alone (one
// run of each of y's two binaries per entry, -test.run=^NAME$/^ENTRY$),
// and returns what each covers: the labels of y.Annotation (ItemLabel),
// the blocks of the original code (ItemBlock), and for an entry that
// fails on the original code the failure's site (ItemFailure; a failing
// run writes no coverage profile). The runs happen in scratch (made empty
// first), holding a copy of the package's testdata whose
// testdata/fuzz/NAME holds exactly entries. An entry that fails on one
// binary and passes on the other is an error.
func (y *Yardstick) Items(ctx context.Context, entries []CorpusEntry, scratch string, env []string) (*Coverage, error) {
	t := y.Target
	dir, err := y.corpusDir(entries, filepath.Join(scratch, "corpus"), false)
	if err != nil {
		return nil, err
	}
	cov := &Coverage{Entries: make([][]string, len(entries))}
	// The seeds: RunCorpus over an empty corpus dir skips failing seeds;
	// each failing seed then runs alone on the original for its site.
	seedDir := filepath.Join(scratch, "seeds")
	if _, err := y.corpusDir(nil, seedDir, false); err != nil {
		return nil, err
	}
	var seedItems []string
	for _, bin := range []string{y.Labels, y.Original} {
		prof := filepath.Join(seedDir, filepath.Base(bin)+".cover")
		cr, err := gotest.RunCorpus(ctx, bin, seedDir, env, t.Name, prof, nil)
		if err != nil {
			return nil, fmt.Errorf("gofuzz: running the seeds of %s: %w", t, err)
		}
		items, err := y.profileItems(prof, bin == y.Labels)
		if err != nil {
			return nil, err
		}
		seedItems = append(seedItems, items...)
		if bin == y.Labels {
			cov.SeedCount = len(cr.Ran)
			continue
		}
		for _, name := range cr.Failing {
			r, err := y.runEntry(ctx, bin, seedDir, name, filepath.Join(seedDir, "failing.cover"), env)
			if err != nil {
				return nil, err
			}
			if !r.Failed {
				return nil, fmt.Errorf("gofuzz: seed %s of %s failed with the others and passes alone", name, t)
			}
			seedItems = append(seedItems, ItemFailure+ParseFailure(r.Output, t).Key())
		}
	}
	cov.Seeds = sortedSet(seedItems)

	// One run per entry and binary, on as many workers as there are CPUs.
	jobs := make(chan int)
	errs := make([]error, len(entries))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(entries))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := range jobs {
				cov.Entries[i], errs[i] = y.entryItems(ctx, dir, entries[i].Name, filepath.Join(scratch, "w"+strconv.Itoa(w)+".cover"), env)
			}
		}(w)
	}
	for i := range entries {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("gofuzz: measuring the corpus of %s: %w", t, err)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return cov, nil
}

// entryItems runs one corpus entry on both binaries.
func (y *Yardstick) entryItems(ctx context.Context, dir, name, prof string, env []string) ([]string, error) {
	ann, err := y.runEntry(ctx, y.Labels, dir, name, prof, env)
	if err != nil {
		return nil, err
	}
	var items []string
	if !ann.Failed {
		items = y.coverageItems(ann.Profiles, true)
	}
	orig, err := y.runEntry(ctx, y.Original, dir, name, prof, env)
	if err != nil {
		return nil, err
	}
	switch {
	case orig.Failed != ann.Failed:
		return nil, fmt.Errorf("gofuzz: corpus entry %s of %s fails on the %s code only (a labelcov bug, or a target that is not deterministic):\n%s",
			name, y.Target, map[bool]string{true: "original", false: "annotated"}[orig.Failed], tail(ann.Output+orig.Output, 20))
	case !orig.Failed:
		items = append(items, y.coverageItems(orig.Profiles, false)...)
	default:
		items = append(items, ItemFailure+ParseFailure(orig.Output, y.Target).Key())
	}
	return sortedSet(items), nil
}

// runEntry runs corpus entry name (a file of dir/testdata/fuzz/NAME, or a
// seed "seed#N") alone on bin, with a coverage profile to prof.
func (y *Yardstick) runEntry(ctx context.Context, bin, dir, name, prof string, env []string) (gotest.AloneRun, error) {
	t := y.Target
	tctx, cancel := context.WithTimeout(ctx, ReplayTimeout)
	defer cancel()
	r, err := gotest.RunAlone(tctx, bin, dir, env, gotest.EntryPattern(t.Name, name), prof, "-test.v")
	if err != nil && ctx.Err() == nil && tctx.Err() != nil {
		return r, fmt.Errorf("gofuzz: corpus entry %s of %s ran longer than %s", name, t, ReplayTimeout)
	}
	if err != nil {
		return r, fmt.Errorf("gofuzz: running corpus entry %s of %s: %w", name, t, err)
	}
	if !strings.Contains(r.Output, "=== RUN   "+t.Name+"/"+name+"\n") {
		return r, fmt.Errorf("gofuzz: running corpus entry %s of %s ran no such entry:\n%s", name, t, tail(r.Output, 20))
	}
	if !r.Failed && r.Profiles == nil {
		return r, fmt.Errorf("gofuzz: running corpus entry %s of %s wrote no coverage profile", name, t)
	}
	return r, nil
}

// profileItems reads a coverage profile of the labels binary (labels) or
// of the original binary (blocks).
func (y *Yardstick) profileItems(prof string, labelsBin bool) ([]string, error) {
	profiles, err := cover.ParseProfiles(prof)
	if err != nil {
		return nil, fmt.Errorf("gofuzz: %w", err)
	}
	return y.coverageItems(profiles, labelsBin), nil
}

// coverageItems are the labels (labelsBin) or blocks that profiles cover.
func (y *Yardstick) coverageItems(profiles []*cover.Profile, labelsBin bool) []string {
	var items []string
	if labelsBin {
		for id := range gotest.LabelHits(y.Annotation, profiles) {
			items = append(items, ItemLabel+strconv.Itoa(id))
		}
		return items
	}
	for _, p := range profiles {
		for _, b := range p.Blocks {
			if b.Count > 0 {
				items = append(items, fmt.Sprintf("%s%s:%d.%d,%d.%d", ItemBlock, p.FileName, b.StartLine, b.StartCol, b.EndLine, b.EndCol))
			}
		}
	}
	return items
}

// Joint runs the seeds and entries together on both binaries (as go test
// runs a corpus: gotest.RunCorpus, entries that fail skipped) and returns
// the labels and blocks covered, and the entries that failed.
func (y *Yardstick) Joint(ctx context.Context, entries []CorpusEntry, scratch string, env []string) (items, failing []string, err error) {
	dir, err := y.corpusDir(entries, scratch, false)
	if err != nil {
		return nil, nil, err
	}
	for _, bin := range []string{y.Labels, y.Original} {
		prof := filepath.Join(scratch, filepath.Base(bin)+".cover")
		cr, err := gotest.RunCorpus(ctx, bin, dir, env, y.Target.Name, prof, nil)
		if err != nil {
			return nil, nil, fmt.Errorf("gofuzz: replaying the corpus of %s: %w", y.Target, err)
		}
		is, err := y.profileItems(prof, bin == y.Labels)
		if err != nil {
			return nil, nil, err
		}
		items = append(items, is...)
		if bin == y.Original {
			failing = cr.Failing
		}
	}
	sort.Strings(failing)
	return sortedSet(items), failing, nil
}

// corpusDir makes scratch (emptied first) the working directory of a
// corpus run: a copy of the package's testdata whose testdata/fuzz/NAME
// holds entries, and with own the package's own entries there too. It
// returns scratch as an absolute path.
func (y *Yardstick) corpusDir(entries []CorpusEntry, scratch string, own bool) (string, error) {
	t := y.Target
	dir, err := filepath.Abs(scratch)
	if err != nil {
		return "", err
	}
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if td := filepath.Join(t.Dir, "testdata"); isDir(td) {
		if err := copyDir(td, filepath.Join(dir, "testdata")); err != nil {
			return "", err
		}
	}
	corpus := filepath.Join(dir, "testdata", "fuzz", t.Name)
	if !own {
		if err := os.RemoveAll(corpus); err != nil {
			return "", err
		}
	}
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		return "", err
	}
	for _, e := range entries {
		if err := copyFile(e.Path, filepath.Join(corpus, e.Name)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// sortedSet is xs sorted without repeats (xs is left as it is).
func sortedSet(xs []string) []string {
	out := append([]string{}, xs...) // never nil: JSON lists it as []
	slices.Sort(out)
	return slices.Compact(out)
}
