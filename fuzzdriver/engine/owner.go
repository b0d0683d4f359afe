package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/outputs"
)

// OwnerFile is the name of the record, at the top of a campaign directory,
// of what the campaign in it belongs to.
const OwnerFile = outputs.CampaignRecord

// Owner says what a campaign directory belongs to, in the caller's terms
// (the engine compares strings and knows nothing of plans): Keys are
// compared when a campaign resumes in the directory (for plans: the plan's
// digest and name, the world, the criteria), About is recorded for people
// and not compared (paths as the user gave them).
type Owner struct {
	Keys  map[string]string `json:"keys"`
	About map[string]string `json:"about,omitempty"`
}

// ownerRecord is the content of OwnerFile; "version" versions its shape.
type ownerRecord struct {
	Version int `json:"version"`
	Owner
}

// OwnerMismatchError is ClaimDir's error for a directory that belongs to
// another campaign.
type OwnerMismatchError struct {
	Dir string
	// Diffs are "KEY: recorded VALUE, now VALUE", sorted by key.
	Diffs []string
	// Recorded is what the directory's record says.
	Recorded Owner
}

func (e *OwnerMismatchError) Error() string {
	what := ""
	if p := e.Recorded.About["plan_file"]; p != "" {
		what = " (" + p + ")"
	}
	return fmt.Sprintf("campaign directory %s belongs to another campaign%s: %s", e.Dir, what, strings.Join(e.Diffs, "; "))
}

// ClaimDir records owner in dir/OwnerFile, creating dir, or checks it
// against the record already there: a campaign directory belongs to one
// campaign, and resuming another one in it would mix their corpora and
// findings. A directory with a different record fails with an
// *OwnerMismatchError unless force, which rewrites the record. A
// directory without a record (an empty one, or one written by an older
// labelcov or by afl-fuzz alone) is claimed.
func ClaimDir(dir string, owner Owner, force bool) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("campaign directory: %w", err)
	}
	path := filepath.Join(dir, OwnerFile)
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("campaign directory: %w", err)
	default:
		var rec ownerRecord
		if err := json.Unmarshal(data, &rec); err != nil {
			return fmt.Errorf("campaign directory: %s: %w", path, err)
		}
		if rec.Version != 1 {
			return fmt.Errorf("campaign directory: %s: version %d, want 1", path, rec.Version)
		}
		diffs := ownerDiffs(rec.Owner, owner)
		if len(diffs) == 0 {
			return nil
		}
		if !force {
			return &OwnerMismatchError{Dir: dir, Diffs: diffs, Recorded: rec.Owner}
		}
	}
	out, err := json.MarshalIndent(ownerRecord{Version: 1, Owner: owner}, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o644); err != nil {
		return fmt.Errorf("campaign directory: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("campaign directory: %w", err)
	}
	return nil
}

// ownerDiffs lists the keys whose values differ between the recorded
// owner and now.
func ownerDiffs(rec, now Owner) []string {
	keys := map[string]bool{}
	for k := range rec.Keys {
		keys[k] = true
	}
	for k := range now.Keys {
		keys[k] = true
	}
	var diffs []string
	for k := range keys {
		if r, n := rec.Keys[k], now.Keys[k]; r != n {
			diffs = append(diffs, fmt.Sprintf("%s: recorded %s, now %s", k, orNone(r), orNone(n)))
		}
	}
	sort.Strings(diffs)
	return diffs
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
