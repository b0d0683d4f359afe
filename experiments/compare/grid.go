// Package compare runs grids of fuzzing campaigns — every (benchmark plan,
// guiding criterion, run) — and compares the guiding criteria: time to
// first find per error category, final coverage on every measuring
// criterion, errors found after a criterion saturated, throughput, and
// Mann-Whitney U / Vargha-Delaney Â12 statistics against the unguided
// baseline (p-values Holm-adjusted per benchmark), rendered as Markdown, HTML, JSON and plots.
//
// Guiding a campaign by a criterion means fuzzing the plan annotated with
// that criterion's labels: the engine itself stays label-blind. Coverage is
// always measured on one yardstick (the original plan's instructions,
// branches and action buckets, and the labels of all criteria), whatever
// guided the campaign. Campaigns run on either engine through
// campaign.Fuzzer.Fuzz (PlanRunner); the statistics are in package
// experiments/compare/significance.
//
// A Go grid (Grid.Kind KindGo) compares the same way on Go fuzz targets:
// its benchmarks are (package, FuzzX) pairs (LoadGoBenches) and its
// campaigns `go test -fuzz` runs by GoRunner (package fuzzdriver/gofuzz),
// which write the same stats.json; both runners are a RunFunc.
//
// Layout of an output directory:
//
//	OUT/compare.json                             the grid, shard, command and machine
//	OUT/campaigns/BENCH/CRITERION/run-NN/        a fuzzdriver campaign directory (--out)
//	OUT/campaigns/BENCH/CRITERION/run-NN/labelcov/stats.json
//	OUT/campaigns/BENCH/CRITERION/run-NN/result.json   written when the campaign finished
//	OUT/report.md, report.html, report.json, *.png, *.svg
//
// A campaign with a result.json is finished and skipped when the grid runs
// again; one without is removed and restarted from scratch with the same
// seed (see Run).
package compare

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
)

// Cell is one campaign of the grid.
type Cell struct {
	Bench     string `json:"bench"`
	Criterion string `json:"criterion"`
	Run       int    `json:"run"` // 1-based
}

func (c Cell) String() string { return fmt.Sprintf("%s/%s/run-%02d", c.Bench, c.Criterion, c.Run) }

// Dir is the cell's campaign directory relative to an output directory.
func (c Cell) Dir() string {
	return filepath.Join("campaigns", c.Bench, c.Criterion, fmt.Sprintf("run-%02d", c.Run))
}

// Grid is the set of campaigns of a comparison.
type Grid struct {
	Benches  []string      `json:"benches"`
	Criteria []string      `json:"criteria"` // guiding criteria; "none" is the baseline
	Runs     int           `json:"runs"`
	Budget   time.Duration `json:"-"`
	Seed     uint64        `json:"seed"`
	// Kind is KindGo for Go fuzz targets (go test -fuzz campaigns), ""
	// for plan benchmarks.
	Kind string `json:"kind,omitempty"`
	// MinimizeTime is the -test.fuzzminimizetime of every campaign of a
	// Go grid ("" = go test's default, 60s; "0s" turns minimization off).
	MinimizeTime string `json:"minimize_time,omitempty"`
	// OnFixed: a Go grid whose targets build against the module versions
	// with the fixes of their known bugs (truth.json's "fixed";
	// GoBench.PinFixed), so that no campaign ends at a known bug and
	// execs/s measure whole budgets.
	OnFixed bool `json:"on_fixed,omitempty"`
}

// KindGo marks a grid of Go fuzz targets.
const KindGo = "go"

// Cells lists the grid run-major (all benches and criteria of run 1, then
// run 2, ...), so that an interrupted grid has balanced samples.
func (g Grid) Cells() []Cell {
	var out []Cell
	for r := 1; r <= g.Runs; r++ {
		for _, b := range g.Benches {
			for _, c := range g.Criteria {
				out = append(out, Cell{Bench: b, Criterion: c, Run: r})
			}
		}
	}
	return out
}

// Shard is one slice i of n (1 <= i <= n) of a grid.
type Shard struct{ I, N int }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// All is the whole grid.
var All = Shard{1, 1}

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 1 <= i <= n", s)
	}
	return Shard{i, n}, nil
}

// Cells is the shard's slice of the grid, in the order the shard runs it.
// A slot is one (bench, run) with its campaigns of every criterion, in the
// grid's run-major order. Slots are dealt whole, round-robin: shard i takes
// slot i, i+n, i+2n, ... with all its criteria one after another, so every
// shard runs the criteria of a bench and run alternately on the same
// machine (dealing single cells every n-th would, when n is a multiple of
// the number of criteria, put each criterion in its own shard: the arms
// would then differ by machine as well as by criterion). The slots left
// over after the last full round of n are dealt cell by cell, every n-th,
// so shard sizes differ by at most one campaign (the first shards get the
// extra), as a batch system's time limit per task assumes. The shards
// 1/n .. n/n partition the grid; 1/1 is Grid.Cells in its order. A cell's
// campaign seed (Grid.SeedOf) does not depend on its shard.
func (s Shard) Cells(g Grid) []Cell {
	all := g.Cells()
	nc := len(g.Criteria)
	if nc == 0 {
		return nil
	}
	slots := len(all) / nc
	full := slots / s.N * s.N // slots dealt whole
	var out []Cell
	for k := s.I - 1; k < full; k += s.N {
		out = append(out, all[k*nc:(k+1)*nc]...)
	}
	for k, c := range all[full*nc:] {
		if k%s.N == s.I-1 {
			out = append(out, c)
		}
	}
	return out
}

// SeedOf derives the campaign seed of a cell from the grid seed: splitmix64
// of the seed and an FNV-1a hash of bench, criterion and run. Every cell gets
// an independent stream, and a cell's seed does not depend on the rest of the
// grid (adding a bench or a run leaves the other seeds alone).
func (g Grid) SeedOf(c Cell) uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s\x00%s\x00%d", c.Bench, c.Criterion, c.Run)
	z := g.Seed ^ h.Sum64()
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Validate checks the grid's shape.
func (g Grid) Validate() error {
	if len(g.Benches) == 0 {
		return fmt.Errorf("no benchmark given")
	}
	if len(g.Criteria) == 0 {
		return fmt.Errorf("no criterion given")
	}
	if g.Runs < 1 {
		return fmt.Errorf("runs must be at least 1, got %d", g.Runs)
	}
	if g.Budget <= 0 {
		return fmt.Errorf("budget must be positive, got %s", g.Budget)
	}
	if err := gofuzz.CheckMinimizeTime(g.MinimizeTime); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, b := range g.Benches {
		if b == "" || strings.ContainsAny(b, `/\`) || b == "." || b == ".." {
			return fmt.Errorf("bad benchmark name %q", b)
		}
		if seen["b:"+b] {
			return fmt.Errorf("benchmark %s given twice", b)
		}
		seen["b:"+b] = true
	}
	for _, c := range g.Criteria {
		if c == "" || strings.ContainsAny(c, `/\ `) {
			return fmt.Errorf("bad criterion name %q", c)
		}
		if seen["c:"+c] {
			return fmt.Errorf("criterion %s given twice", c)
		}
		seen["c:"+c] = true
	}
	return nil
}

// same reports whether two grids describe the same campaigns.
func (g Grid) same(h Grid) bool {
	return g.Runs == h.Runs && g.Budget == h.Budget && g.Seed == h.Seed && g.Kind == h.Kind && g.MinimizeTime == h.MinimizeTime && g.OnFixed == h.OnFixed &&
		strings.Join(g.Benches, ",") == strings.Join(h.Benches, ",") &&
		strings.Join(g.Criteria, ",") == strings.Join(h.Criteria, ",")
}
