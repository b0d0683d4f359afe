package engine

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Directory and file names of a campaign, as AFL++ lays them out. See
// docs/fuzzing.md: these names are a file format.
const (
	QueueDir     = "queue"
	FindingsDir  = "crashes" // AFL++'s name, so scripts that collect crashes/ work
	SyncedDir    = ".synced"
	StatsName    = "stats.json"
	FindingsName = "findings.json"
	MainNodeFile = "is_main_node"
)

// maxQueueFile bounds what is read from another instance's queue, as AFL's
// MAX_FILE does: a huge file is someone else's mistake, not an input.
const maxQueueFile = 1 << 20

// store is the instance directory <out>/<instance>.
type store struct {
	sync     string // the sync directory (AFL's -o)
	instance string
	dir      string
}

func openStore(out, instance string, main bool) (*store, error) {
	if instance == "" || strings.ContainsAny(instance, `/\`) || instance[0] == '.' {
		return nil, fmt.Errorf("fuzzdriver: bad instance name %q", instance)
	}
	s := &store{sync: out, instance: instance, dir: filepath.Join(out, instance)}
	for _, d := range []string{QueueDir, FindingsDir, SyncedDir} {
		if err := os.MkdirAll(filepath.Join(s.dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("fuzzdriver: campaign directory: %w", err)
		}
	}
	if main {
		// AFL++ secondaries (-S) only import from instances that carry this
		// file, so a built-in main lets AFL++ secondaries learn from it.
		if err := os.WriteFile(filepath.Join(s.dir, MainNodeFile), nil, 0o644); err != nil {
			return nil, fmt.Errorf("fuzzdriver: campaign directory: %w", err)
		}
	}
	return s, nil
}

// writeFile writes data under the instance directory atomically (temporary
// file + rename), so that another fuzzer syncing from our queue never reads
// half an input.
func (s *store) writeFile(rel string, data []byte) (string, error) {
	path := filepath.Join(s.dir, rel)
	f, err := os.CreateTemp(s.dir, tempPattern)
	if err != nil {
		return "", fmt.Errorf("fuzzdriver: write %s: %w", rel, err)
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("fuzzdriver: write %s: %w", rel, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return "", fmt.Errorf("fuzzdriver: write %s: %w", rel, err)
	}
	return path, nil
}

// tempPattern names writeFile's temporary files.
const tempPattern = ".tmp-*"

// removeTemps deletes temporary files a killed session left behind (a
// SIGKILL between CreateTemp and Rename). Call it with the directory locked:
// then no other writer of this instance can own one.
func (s *store) removeTemps() error {
	temps, err := filepath.Glob(filepath.Join(s.dir, tempPattern))
	if err != nil {
		return fmt.Errorf("fuzzdriver: campaign directory: %w", err)
	}
	for _, t := range temps {
		if err := os.Remove(t); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("fuzzdriver: campaign directory: %w", err)
		}
	}
	return nil
}

func (s *store) writeJSON(rel string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("fuzzdriver: encode %s: %w", rel, err)
	}
	_, err = s.writeFile(rel, append(data, '\n'))
	return err
}

// readJSON reads rel into v; a missing file leaves v alone and is not an error.
func (s *store) readJSON(rel string, v any) (bool, error) {
	data, err := os.ReadFile(filepath.Join(s.dir, rel))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("fuzzdriver: read %s: %w", rel, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("fuzzdriver: read %s: %w", rel, err)
	}
	return true, nil
}

// queueFile is an "id:NNNNNN,..." file of some instance's queue.
type queueFile struct {
	id   int
	name string
	path string
}

// parseID reads the number of an AFL file name "id:000123,...".
func parseID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "id:")
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, ",")
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// listIDs lists the id: files of dir in id order, skipping dot files,
// directories and names that are not AFL ids.
func listIDs(dir string) ([]queueFile, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: list %s: %w", dir, err)
	}
	var out []queueFile
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		id, ok := parseID(e.Name())
		if !ok {
			continue
		}
		out = append(out, queueFile{id: id, name: e.Name(), path: filepath.Join(dir, e.Name())})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].id != out[j].id {
			return out[i].id < out[j].id
		}
		return out[i].name < out[j].name
	})
	return out, nil
}

// readInput reads a queue or seed file, refusing absurdly large ones.
func readInput(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: %w", err)
	}
	if st.Size() > maxQueueFile {
		return nil, fmt.Errorf("fuzzdriver: %s: %d bytes, more than %d", path, st.Size(), maxQueueFile)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: %w", err)
	}
	return data, nil
}

// peers lists the other instances in the sync directory that have a queue.
func (s *store) peers() ([]string, error) {
	ents, err := os.ReadDir(s.sync)
	if err != nil {
		return nil, fmt.Errorf("fuzzdriver: list sync directory: %w", err)
	}
	var out []string
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() || name[0] == '.' || name == s.instance {
			continue
		}
		if st, err := os.Stat(filepath.Join(s.sync, name, QueueDir)); err == nil && st.IsDir() {
			out = append(out, name)
		}
	}
	return out, nil
}

// synced returns the first id of peer's queue not imported yet, as AFL++
// keeps it: a 4-byte little-endian number in .synced/<peer>.
func (s *store) synced(peer string) uint32 {
	data, err := os.ReadFile(filepath.Join(s.dir, SyncedDir, peer))
	if err != nil || len(data) < 4 {
		return 0
	}
	return binary.LittleEndian.Uint32(data)
}

func (s *store) setSynced(peer string, next uint32) error {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], next)
	_, err := s.writeFile(filepath.Join(SyncedDir, peer), b[:])
	return err
}
