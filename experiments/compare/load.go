package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

// RunData is one finished campaign as found on disk.
type RunData struct {
	Result Result
	Stats  engine.StatsFile
}

// Data is what one or more output directories (shards) hold.
type Data struct {
	Grid    Grid
	Metas   []Meta
	Benches []BenchInfo
	Runs    map[Cell]*RunData
	// Missing lists the grid's cells no directory finished, in grid order
	// (LoadShard: those of the shard's share).
	Missing []Cell
}

// Load reads the finished campaigns of one or more output directories: a
// single run's --out, or the --out of every shard of a grid. The
// directories must describe the same grid; a campaign finished in two of
// them is an error.
func Load(dirs ...string) (*Data, error) {
	if len(dirs) == 0 {
		return nil, errors.New("compare: no directory to load")
	}
	d := &Data{Runs: map[Cell]*RunData{}}
	from := map[Cell]string{}
	shards := map[string]string{}
	for i, dir := range dirs {
		m, err := ReadMeta(dir)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				return nil, fmt.Errorf("%s is not a compare output directory (no compare.json)", dir)
			}
			return nil, err
		}
		if i == 0 {
			d.Grid = m.Grid
			d.Benches = m.Benches
		} else if !m.Grid.same(d.Grid) {
			return nil, fmt.Errorf("%s holds another grid (%s) than %s (%s)", dir, describe(m.Grid), dirs[0], describe(d.Grid))
		}
		if prev, ok := shards[m.Shard]; ok && m.Shard != All.String() {
			return nil, fmt.Errorf("%s and %s are both shard %s", prev, dir, m.Shard)
		}
		shards[m.Shard] = dir
		d.Metas = append(d.Metas, *m)
		for _, c := range d.Grid.Cells() {
			cdir := filepath.Join(dir, c.Dir())
			r, err := readResult(cdir)
			if errors.Is(err, os.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if prev, ok := from[c]; ok {
				return nil, fmt.Errorf("campaign %s finished in both %s and %s", c, prev, dir)
			}
			from[c] = dir
			rd := &RunData{Result: *r}
			spath := filepath.Join(cdir, Instance, "stats.json")
			data, err := os.ReadFile(spath)
			if err != nil {
				return nil, err
			}
			if err := readStats(data, &rd.Stats); err != nil {
				return nil, fmt.Errorf("%s: %w", spath, err)
			}
			d.Runs[c] = rd
		}
	}
	d.Missing = d.missing(d.Grid.Cells())
	return d, nil
}

// readStats reads a campaign's stats.json (data) into st. A version 1
// file, which wrote findings' positions as text, is read without them:
// comparisons need only the findings' keys and times.
func readStats(data []byte, st *engine.StatsFile) error {
	var v struct {
		Version int `json:"version"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return err
	}
	if v.Version != 1 {
		return json.Unmarshal(data, st)
	}
	var old struct {
		engine.StatsFile
		Findings []struct {
			engine.FindingRecord
			Pos json.RawMessage `json:"pos"` // text: left out
		} `json:"findings"`
	}
	if err := json.Unmarshal(data, &old); err != nil {
		return err
	}
	*st = old.StatsFile
	st.Findings = make([]engine.FindingRecord, len(old.Findings))
	for i, f := range old.Findings {
		st.Findings[i] = f.FindingRecord
	}
	return nil
}

// LoadShard reads one output directory as the report of its own shard:
// as Load, but Missing lists only the cells of that shard's share (a
// shard that finished its share misses nothing, though the rest of the
// grid is elsewhere).
func LoadShard(dir string) (*Data, error) {
	d, err := Load(dir)
	if err != nil {
		return nil, err
	}
	sh, err := ParseShard(d.Metas[0].Shard)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "compare.json"), err)
	}
	d.Missing = d.missing(sh.Cells(d.Grid))
	return d, nil
}

// missing is the cells of cells no directory finished, in their order.
func (d *Data) missing(cells []Cell) []Cell {
	var out []Cell
	for _, c := range cells {
		if d.Runs[c] == nil {
			out = append(out, c)
		}
	}
	return out
}
