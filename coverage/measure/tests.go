package measure

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/value"
)

// Kind says how a test gives the plan its input.
type Kind string

const (
	// KindEnv is a .env scenario file: an environment of the world.
	KindEnv Kind = "env"
	// KindBytes is any other file: raw bytes, decoded by the world into an
	// environment, or without a world 8 bytes per plan parameter.
	KindBytes Kind = "bytes"
	// KindArgs is a .args file: the plan's arguments as plan literals,
	// one per line (comments allowed).
	KindArgs Kind = "args"
	// KindRecorded is no test labelcov ran: the labels another tool saw
	// covered in a run of its own (FromLabels), such as SBCL's sb-cover.
	KindRecorded Kind = "recorded"
)

// Test is one test of a suite, read and checked against the plan and world.
type Test struct {
	// Name is the path the test was read from.
	Name string
	Kind Kind
	// Env is the start environment (KindEnv, and KindBytes with a world;
	// the empty environment for KindArgs with a world).
	Env *sim.Env
	// Args are the plan's arguments (KindArgs, and KindBytes without a
	// world).
	Args []value.Value
	// Bytes is the raw input of a KindBytes test.
	Bytes []byte
}

// skipInDir lists the extensions a directory scan passes over: notes and
// descriptions that usually sit beside tests, not tests themselves.
var skipInDir = map[string]bool{".md": true, ".txt": true, ".json": true, ".plan": true, ".world": true}

// ExpandPaths turns the paths of a suite into test files: a file is itself;
// a directory stands for its regular, non-hidden files, sorted by name,
// except .md, .txt, .json, .plan and .world files (subdirectories are not
// entered). Duplicates are kept once, in first-seen order.
func ExpandPaths(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("tests: %w", err)
		}
		if !st.IsDir() {
			add(p)
			continue
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("tests: %w", err)
		}
		var names []string
		for _, e := range ents {
			n := e.Name()
			if strings.HasPrefix(n, ".") || !e.Type().IsRegular() || skipInDir[strings.ToLower(filepath.Ext(n))] {
				continue
			}
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			add(filepath.Join(p, n))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("tests: no test files in %s", strings.Join(paths, ", "))
	}
	return out, nil
}

// LoadTests reads every test of paths (see ExpandPaths).
func (m *Measurer) LoadTests(paths ...string) ([]*Test, error) {
	files, err := ExpandPaths(paths)
	if err != nil {
		return nil, err
	}
	tests := make([]*Test, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("reading test: %w", err)
		}
		t, err := m.ParseTest(f, data)
		if err != nil {
			return nil, err
		}
		tests = append(tests, t)
	}
	return tests, nil
}

// ParseTest reads one test from data; name decides its kind by extension
// (.env, .args, anything else is bytes). Errors in .env and .args files are
// *syntax.Error values naming name:line:col.
func (m *Measurer) ParseTest(name string, data []byte) (*Test, error) {
	w := m.opts.World
	switch strings.ToLower(filepath.Ext(name)) {
	case ".env":
		if w == nil {
			return nil, fmt.Errorf("%s: a .env scenario needs a world (--world)", name)
		}
		env, err := w.ParseEnv(name, data)
		if err != nil {
			return nil, err
		}
		return &Test{Name: name, Kind: KindEnv, Env: env}, nil
	case ".args":
		args, err := sim.ParseArgs(name, data, m.plan)
		if err != nil {
			return nil, err
		}
		t := &Test{Name: name, Kind: KindArgs, Args: args}
		if w != nil {
			t.Env = &sim.Env{}
		}
		return t, nil
	}
	t := &Test{Name: name, Kind: KindBytes, Bytes: append([]byte(nil), data...)}
	if w != nil {
		t.Env = w.DecodeEnv(data, m.opts.MaxObjects)
	} else {
		t.Args = bytesArgs(data, m.plan.NumParams())
	}
	return t, nil
}
