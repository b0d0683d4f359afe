package outputs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// kind is what a guarded path is to the invocation.
type kind int

const (
	// input: a file (or, when it is a folder, every file in it) the
	// invocation reads.
	input kind = iota
	// folder: a folder the invocation reads: nothing may be written in it.
	folder
	// record: a file the tool keeps for itself (a campaign's record).
	record
)

type guarded struct {
	path, what string
	kind       kind
}

// Guard holds what one invocation reads and keeps. The zero Guard guards
// nothing but Go source (see Check); add paths with Input, Folder and
// Record before checking an output.
type Guard struct {
	paths []guarded
}

// Input adds files the invocation reads; what names them in messages
// ("the input" when empty). "" and "-" (stdin) are skipped; a path that
// is a folder guards every file in it.
func (g *Guard) Input(what string, paths ...string) {
	g.add(input, what, paths)
}

// Folder adds folders the invocation reads (tests, a corpus, a benchmark,
// the module being processed): no output may be written in them; what
// names them ("the tests folder", "the module of example.com/p").
func (g *Guard) Folder(what string, dirs ...string) {
	g.add(folder, what, dirs)
}

// Record adds files the tool keeps for itself (a campaign directory's
// campaign.json): no output may replace them.
func (g *Guard) Record(what string, paths ...string) {
	g.add(record, what, paths)
}

func (g *Guard) add(k kind, what string, paths []string) {
	for _, p := range paths {
		if p == "" || p == "-" {
			continue
		}
		g.paths = append(g.paths, guarded{path: p, what: what, kind: k})
	}
}

// RefusedError is the error of an output that would destroy something
// the invocation reads or keeps.
type RefusedError struct {
	// Flag is the output's flag ("-o", "--html"), Out its path as given.
	Flag, Out string
	msg       string
}

func (e *RefusedError) Error() string { return e.msg }

func refused(flag, out, format string, args ...any) error {
	return &RefusedError{Flag: flag, Out: out, msg: flag + " " + out + " " + fmt.Sprintf(format, args...)}
}

// Check fails with a *RefusedError when writing the file out would
// replace or add to anything g guards: out is (through links, or as the
// same file) an input or a record, or lies inside an input folder or a
// folder read; an existing Go source file (.go, go.mod, go.sum) is never
// an output either. flag names the output in the message; "" and "-"
// (stdout) pass.
func (g *Guard) Check(flag, out string) error {
	if out == "" || out == "-" {
		return nil
	}
	oi, oerr := os.Stat(out)
	if oerr == nil && oi.IsDir() {
		return refused(flag, out, "is a folder; give a file name")
	}
	if oerr == nil && isGoSource(out) {
		return refused(flag, out, "would overwrite Go source; write the output elsewhere")
	}
	if oerr == nil && isCampaignRecord(out) {
		return refused(flag, out, "would overwrite the record of a campaign directory; write the output elsewhere")
	}
	for _, gp := range g.paths {
		ii, err := os.Stat(gp.path)
		if err != nil {
			continue
		}
		if oerr == nil && os.SameFile(oi, ii) {
			return refused(flag, out, "would overwrite %s; write the output elsewhere", g.name(gp))
		}
		if !ii.IsDir() {
			continue
		}
		if inside, _ := Within(gp.path, out); inside {
			if gp.kind != folder {
				return refused(flag, out, "would overwrite a file of %s; write the output elsewhere", g.name(gp))
			}
			return refused(flag, out, "is inside %s: the file written there would become part of what it reads; write the output elsewhere", g.name(gp))
		}
	}
	return nil
}

// CheckDir fails with a *RefusedError when the folder out, in which a
// verb writes files of its own choosing, is or lies inside a folder the
// invocation reads, or is or holds one of its inputs or records: the
// files written there would become part of the input or replace it.
// example is a folder to suggest instead (or "").
func (g *Guard) CheckDir(flag, out, example string) error {
	if out == "" {
		return nil
	}
	if oi, err := os.Stat(out); err == nil && !oi.IsDir() {
		return refused(flag, out, "is a file, not a folder")
	}
	hint := "; write them elsewhere"
	if example != "" {
		hint = fmt.Sprintf("; write them outside, e.g. %s %s", flag, example)
	}
	for _, gp := range g.paths {
		ii, err := os.Stat(gp.path)
		if err != nil {
			continue
		}
		if ii.IsDir() {
			if inside, _ := Within(gp.path, out); inside {
				return refused(flag, out, "is inside %s: the files written there would become part of the input%s", g.name(gp), hint)
			}
			continue
		}
		if filepath.Dir(mustResolve(gp.path)) == mustResolve(out) {
			// An input or record directly in the folder: the verb's
			// files would sit beside it, and could replace it.
			return refused(flag, out, "holds %s%s", g.name(gp), hint)
		}
	}
	return nil
}

// WriteFile writes data to path, as os.WriteFile does, after Check
// allows it.
func (g *Guard) WriteFile(flag, path string, data []byte, perm fs.FileMode) error {
	if err := g.Check(flag, path); err != nil {
		return err
	}
	return os.WriteFile(path, data, perm)
}

// Create creates path for writing, as os.Create does, after Check allows
// it.
func (g *Guard) Create(flag, path string) (*os.File, error) {
	if err := g.Check(flag, path); err != nil {
		return nil, err
	}
	return os.Create(path)
}

func (g *Guard) name(gp guarded) string {
	what := gp.what
	if what == "" {
		switch gp.kind {
		case input:
			what = "the input"
		case folder:
			what = "a folder read"
		case record:
			what = "labelcov's own record"
		}
	}
	return what + " " + gp.path
}

// CampaignRecord is the name of the record at the top of a campaign
// directory (the engine's OwnerFile, which says what the campaign belongs
// to); Check refuses to replace one, whoever asks.
const CampaignRecord = "campaign.json"

// isCampaignRecord reports whether path is a campaign directory's record:
// named CampaignRecord, a JSON object with a version and the owner's keys.
func isCampaignRecord(path string) bool {
	if filepath.Base(path) != CampaignRecord {
		return false
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var rec struct {
		Version int               `json:"version"`
		Keys    map[string]string `json:"keys"`
	}
	return json.Unmarshal(data, &rec) == nil && rec.Version > 0 && rec.Keys != nil
}

// isGoSource reports whether path names a file of a Go module's source.
func isGoSource(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(base, ".go") || base == "go.mod" || base == "go.sum"
}

// Within reports whether path is dir or lies under it, comparing absolute
// paths with symbolic links resolved as far as they exist.
func Within(dir, path string) (bool, error) {
	d, err := ResolvedAbs(dir)
	if err != nil {
		return false, err
	}
	p, err := ResolvedAbs(path)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(d, p)
	if err != nil {
		return false, nil
	}
	return rel == "." || (rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))), nil
}

func mustResolve(p string) string {
	r, err := ResolvedAbs(p)
	if err != nil {
		return p
	}
	return r
}

// ResolvedAbs is path made absolute with the symbolic links of its
// longest existing prefix resolved (the rest need not exist yet).
func ResolvedAbs(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var rest []string
	for p := abs; ; {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				r = filepath.Join(r, rest[i])
			}
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}
