package gofuzz

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"golang.org/x/mod/semver"
)

// ErrNoFixed is FixedVersions' error for a target whose ground truth does
// not say where its bugs were fixed.
var ErrNoFixed = errors.New("no fixed module version")

// FixedVersions are the module versions with the fixes of every bug of
// tr (each category's Fixed), the highest one per module — x/text's bugs
// fixed in v0.3.5 and v0.3.6 give golang.org/x/text@v0.3.6 — sorted by
// module path: the versions on which none of the target's known bugs
// remains. A category without Fixed (or a nil tr: no truth.json) is
// ErrNoFixed, for a campaign on the fixed versions would still end at
// that bug.
func FixedVersions(tr *Truth) ([]string, error) {
	if tr == nil || len(tr.Categories) == 0 {
		return nil, fmt.Errorf("%w: no known bugs (%s beside the package lists them, with \"fixed\": \"MODULE@VERSION\")", ErrNoFixed, TruthFile)
	}
	high := map[string]string{}
	for _, c := range tr.Categories {
		if c.Fixed == "" {
			return nil, fmt.Errorf("%w for %s (%s: give its \"fixed\": \"MODULE@VERSION\")", ErrNoFixed, c.Name, TruthFile)
		}
		path, v, ok := strings.Cut(c.Fixed, "@")
		if !ok || path == "" || !semver.IsValid(v) {
			return nil, fmt.Errorf("%s: fixed %q of %s is not MODULE@VERSION with a semantic version", TruthFile, c.Fixed, c.Name)
		}
		if prev, seen := high[path]; !seen || semver.Compare(v, prev) > 0 {
			high[path] = v
		}
	}
	var out []string
	for path, v := range high {
		out = append(out, path+"@"+v)
	}
	sort.Strings(out)
	return out, nil
}

// RaiseFixed replaces in fixed (FixedVersions) the version of each module
// that over names (MODULE@VERSION) — a later release, when the one with
// the fixes still has another bug that would end campaigns — and reports
// which of over it used. A version below the one fixed gives is an error:
// the known bugs would come back.
func RaiseFixed(fixed, over []string) ([]string, []bool, error) {
	out := append([]string(nil), fixed...)
	used := make([]bool, len(over))
	for i, o := range over {
		path, v, ok := strings.Cut(o, "@")
		if !ok || path == "" || !semver.IsValid(v) {
			return nil, nil, fmt.Errorf("%q is not MODULE@VERSION with a semantic version", o)
		}
		for j, f := range out {
			fp, fv, _ := strings.Cut(f, "@")
			if fp != path {
				continue
			}
			if semver.Compare(v, fv) < 0 {
				return nil, nil, fmt.Errorf("%s is older than %s, which has the fixes of the known bugs", o, f)
			}
			out[j], used[i] = o, true
		}
	}
	return out, used, nil
}
