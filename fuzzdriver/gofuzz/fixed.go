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
