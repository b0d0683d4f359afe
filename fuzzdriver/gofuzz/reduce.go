package gofuzz

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/reduce"
)

// Reduction is a fuzz target's corpus and the subset Reduce keeps.
type Reduction struct {
	Target Target
	// Entries is the corpus (LoadCorpus), Kept the subset, in the same
	// order.
	Entries, Kept []CorpusEntry
	// Seeds is the number of f.Add seeds, which run whatever the corpus
	// holds.
	Seeds int
	// Items is what the seeds and the corpus cover (Yardstick.Items'
	// kinds), sorted; the seeds with Kept cover every one. SeedItems is
	// what the seeds alone cover.
	Items, SeedItems []string
	// Failing names the kept entries the target fails on (each for a
	// failure site no other entry shows first).
	Failing []string
}

// Reduce keeps a subset of entries that, with the target's f.Add seeds,
// covers every label of y's annotation, every block of the original code
// and every failure site that the seeds and entries cover: greedy set
// cover over what each entry covers beyond the seeds, smallest entry on a
// tie (reduce.Extend), each entry measured alone (Yardstick.Items). The
// kept entries are then replayed together on both binaries (as go test
// runs a corpus) and must cover every label and block again: a subset
// that lost one is an error. scratch is a directory for the runs.
func Reduce(ctx context.Context, y *Yardstick, entries []CorpusEntry, scratch string, env []string) (*Reduction, error) {
	cov, err := y.Items(ctx, entries, filepath.Join(scratch, "items"), env)
	if err != nil {
		return nil, err
	}
	sizes := make([]int, len(entries))
	for i, e := range entries {
		sizes[i] = e.Size
	}
	red := &Reduction{Target: y.Target, Entries: entries, Seeds: cov.SeedCount, SeedItems: cov.Seeds,
		Items: reduce.Union(append([][]string{cov.Seeds}, cov.Entries...), nil)}
	for _, i := range reduce.Extend(cov.Seeds, cov.Entries, sizes) {
		red.Kept = append(red.Kept, entries[i])
		for _, it := range cov.Entries[i] {
			if strings.HasPrefix(it, ItemFailure) {
				red.Failing = append(red.Failing, entries[i].Name)
				break
			}
		}
	}
	if err := y.Check(ctx, red.Kept, red.Items, filepath.Join(scratch, "check"), env); err != nil {
		return nil, err
	}
	return red, nil
}

// Check replays the seeds and entries together on both binaries and
// fails unless they cover every label and block of want (failure items
// are left out: an entry that fails covers nothing in a joint run).
func (y *Yardstick) Check(ctx context.Context, entries []CorpusEntry, want []string, scratch string, env []string) error {
	got, _, err := y.Joint(ctx, entries, scratch, env)
	if err != nil {
		return err
	}
	have := map[string]bool{}
	for _, it := range got {
		have[it] = true
	}
	var lost []string
	for _, it := range want {
		if !strings.HasPrefix(it, ItemFailure) && !have[it] {
			lost = append(lost, it)
		}
	}
	if len(lost) > 0 {
		return fmt.Errorf("gofuzz: the %d kept entries of %s, run together, miss %d item(s) they cover one by one (%s): the target's coverage depends on more than the entry, or a labelcov bug",
			len(entries), y.Target, len(lost), strings.Join(lost[:min(len(lost), 4)], ", "))
	}
	return nil
}
