package gofuzz

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// TruthFile is the name of a package's ground truth file, beside its
// sources.
const TruthFile = "truth.json"

// Truth is the ground truth of one fuzz target.
type Truth struct {
	// Shape says in words what makes the bug hard (or easy) to find.
	Shape      string          `json:"shape,omitempty"`
	Categories []TruthCategory `json:"categories"`
}

// TruthCategory is one known bug of a target.
type TruthCategory struct {
	// Name is the finding key (Site.Key) of the bug on the original code.
	Name string `json:"name"`
	// Witness is an input that shows it, in go test's corpus file format
	// ("go test fuzz v1\n..."); optional.
	Witness string `json:"witness,omitempty"`
	// Fixed is the module version with the bug's fix, MODULE@VERSION
	// (github.com/pelletier/go-toml@v1.9.5); optional. compare --go
	// --on-fixed builds the target against it (FixedVersions).
	Fixed string `json:"fixed,omitempty"`
}

// truthFile is truth.json: {"version": 1, "targets": {"FuzzX": Truth}}.
type truthFile struct {
	Version int              `json:"version"`
	Targets map[string]Truth `json:"targets"`
}

// LoadTruth reads the ground truth of t from truth.json in t's package
// directory; a package without one has no known bugs (nil, nil).
func LoadTruth(t Target) (*Truth, error) {
	path := filepath.Join(t.Dir, TruthFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var f truthFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Version != 1 {
		return nil, fmt.Errorf("%s: version %d, want 1", path, f.Version)
	}
	tr, ok := f.Targets[t.Name]
	if !ok {
		return nil, nil
	}
	return &tr, nil
}
