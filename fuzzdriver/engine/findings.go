package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// readFindingsIndex reads the findings.json of instance directory dir,
// each record's Input resolved to a path (it is saved relative to dir,
// with slashes). ok is false when dir has no findings.json.
func readFindingsIndex(dir string) (ff findingsFile, ok bool, err error) {
	path := filepath.Join(dir, FindingsName)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return ff, false, nil
	}
	if err != nil {
		return ff, false, fmt.Errorf("reading findings: %w", err)
	}
	if err := checkVersion(path, data); err != nil {
		return ff, false, err
	}
	if err := json.Unmarshal(data, &ff); err != nil {
		return ff, false, fmt.Errorf("%s: %w", path, err)
	}
	for i := range ff.Findings {
		if r := &ff.Findings[i]; r.Input != "" {
			r.Input = filepath.Join(dir, filepath.FromSlash(r.Input))
		}
	}
	return ff, true, nil
}

// checkVersion refuses the findings.json at path (its content data) unless
// it is of StatsVersion, saying what to do about an older one.
func checkVersion(path string, data []byte) error {
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case v.Version == StatsVersion:
		return nil
	case v.Version == 1:
		return fmt.Errorf("%s: findings version 1, written by an older labelcov (positions as text), is not supported (want %d): run the campaign again in a new directory", path, StatsVersion)
	}
	return fmt.Errorf("%s: findings version %d not supported (want %d)", path, v.Version, StatsVersion)
}

// ReadFindings reads the findings a campaign recorded: dir/findings.json
// when dir is an instance directory, else the findings.json of every
// instance directory inside dir (a sync directory, AFL's -o), in path
// order. Each record's Input is the path of its saved input (Data is not
// read). A findings.json of another version than StatsVersion is an
// error (also when a campaign is resumed), and so is a dir without any findings.json.
func ReadFindings(dir string) ([]FindingRecord, error) {
	dirs := []string{dir}
	if _, err := os.Stat(filepath.Join(dir, FindingsName)); err != nil {
		files, _ := filepath.Glob(filepath.Join(dir, "*", FindingsName))
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no %s (neither in it nor in an instance directory inside it)", dir, FindingsName)
		}
		sort.Strings(files)
		dirs = dirs[:0]
		for _, f := range files {
			dirs = append(dirs, filepath.Dir(f))
		}
	}
	var out []FindingRecord
	for _, d := range dirs {
		ff, ok, err := readFindingsIndex(d)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("reading findings: %s: %w", filepath.Join(d, FindingsName), fs.ErrNotExist)
		}
		out = append(out, ff.Findings...)
	}
	return out, nil
}
