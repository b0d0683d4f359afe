package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/labelcov/labelcov/interp/syntax"
)

// WorldBeside returns the world a benchmark folder names for plan: the
// "world" of a truth.json beside the plan file, joined to its folder; "" when
// there is no truth.json or it names no world.
func WorldBeside(plan string) (string, error) {
	path := filepath.Join(filepath.Dir(plan), "truth.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var t struct {
		World string `json:"world"`
	}
	if err := json.Unmarshal(data, &t); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if t.World == "" {
		return "", nil
	}
	return filepath.Join(filepath.Dir(plan), t.World), nil
}

// OpenWorld reads the world plan runs in: the world file given (a --world
// flag), else the one a truth.json beside plan names (WorldBeside); its
// path comes back with it, and ("", nil, nil) when there is neither. plan
// "-" (standard input) has no folder, so only given counts there.
func OpenWorld(plan, given string) (string, *World, error) {
	path := given
	if path == "" && plan != "-" {
		var err error
		if path, err = WorldBeside(plan); err != nil {
			return "", nil, err
		}
	}
	if path == "" {
		return "", nil, nil
	}
	w, err := LoadWorld(path)
	if err != nil {
		return "", nil, err
	}
	return path, w, nil
}

// NeedsWorld reports the first call in f that only a world can answer — a
// perform or a simulator query — as a *syntax.Error saying to give a world
// (naming the one a truth.json beside the plan names, if any); nil when the
// plan never acts on a world. Without a world such a plan can only fail
// with no-world, so running or fuzzing it without one is a mistake best
// reported before any run.
func NeedsWorld(f *syntax.File) error {
	world := map[string]bool{"perform": true}
	for _, q := range Queries() {
		world[q.Name] = true
	}
	var at syntax.Node
	for _, form := range f.Forms {
		syntax.Walk(form, func(n syntax.Node) bool {
			if at != nil {
				return false
			}
			if _, ok := n.(*syntax.Quote); ok {
				return false // data, not a call
			}
			if world[syntax.Head(n)] {
				at = n
				return false
			}
			return true
		})
	}
	if at == nil {
		return nil
	}
	hint := ""
	if w, err := WorldBeside(f.Name); err == nil && w != "" {
		hint = " (the benchmark's truth.json names " + w + ")"
	}
	verb := "calls " + syntax.Head(at)
	if syntax.Head(at) == "perform" {
		verb = "performs actions"
	}
	return f.NodeErrorf(at, "this plan %s, which needs a world: give --world%s", verb, hint)
}
