package compare

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
)

// Version is the version of compare.json, result.json and report.json.
const Version = 1

// Instance is the fuzzdriver instance name inside each campaign directory.
const Instance = engine.DefaultInstance

// Spec is one campaign to run.
type Spec struct {
	Cell
	Seed   uint64
	Budget time.Duration
	// Dir is the campaign's sync directory (engine.Campaign.Out); the
	// campaign must live in Dir/Instance with its stats.json.
	Dir string
}

// RunFunc runs one campaign to its budget and returns its summary. A
// summary whose Stop is "budget", "runs" or "failure" (a Go campaign ends
// at its first failure, as go test -fuzz does) counts as finished;
// "canceled" leaves the cell unfinished.
type RunFunc func(ctx context.Context, spec Spec) (*engine.Summary, error)

// BenchInfo is what the report needs to know of a benchmark.
type BenchInfo struct {
	Name  string `json:"name"`
	Plan  string `json:"plan"`
	World string `json:"world,omitempty"`
	// Categories are the error categories of the benchmark's truth.json,
	// in its order.
	Categories []string `json:"categories"`
	// Package and Target name a Go fuzz target (Go grids; Plan is then
	// empty); Shape is its truth.json's description of the bug.
	Package string `json:"package,omitempty"`
	Target  string `json:"target,omitempty"`
	Shape   string `json:"shape,omitempty"`
	// LabelPkgs are the packages labelled and measured instead of the
	// target's (labels inside dependencies, --label-pkgs).
	LabelPkgs []string `json:"label_pkgs,omitempty"`
	// Fixed are the module versions (MODULE@VERSION) the campaigns built
	// against instead of the target's go.mod's: those with the fixes of
	// its known bugs (--on-fixed, Grid.OnFixed).
	Fixed []string `json:"fixed,omitempty"`
}

// Machine describes where campaigns ran.
type Machine struct {
	CPU   string `json:"cpu"`
	Cores int    `json:"cores"`
	OS    string `json:"os"`
	Go    string `json:"go"`
	// Load is /proc/loadavg's 1, 5 and 15 minute load averages when the
	// grid started (other work on the machine slows campaigns down).
	Load string `json:"load,omitempty"`
}

// ThisMachine describes the running machine (the CPU model from
// /proc/cpuinfo where there is one).
func ThisMachine() Machine {
	m := Machine{Cores: runtime.NumCPU(), OS: runtime.GOOS + "/" + runtime.GOARCH, Go: runtime.Version()}
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				m.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if m.CPU == "" {
		m.CPU = "unknown"
	}
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(data)); len(f) >= 3 {
			m.Load = strings.Join(f[:3], " ")
		}
	}
	return m
}

// Meta is compare.json: what an output directory holds.
type Meta struct {
	Version int     `json:"version"`
	Grid    Grid    `json:"grid"`
	BudgetS float64 `json:"budget_s"`
	Shard   string  `json:"shard"`   // "i/n"
	Workers int     `json:"workers"` // campaigns run in parallel
	Command string  `json:"command,omitempty"`
	// GridCommand runs the whole grid: Command without --shard and the
	// shard's --out (see Options.GridCommand).
	GridCommand string      `json:"grid_command,omitempty"`
	Machine     Machine     `json:"machine"`
	Benches     []BenchInfo `json:"benches"`
}

// Result is result.json, written when a campaign finished.
type Result struct {
	Version     int     `json:"version"`
	Cell        Cell    `json:"cell"`
	Seed        uint64  `json:"seed"`
	BudgetS     float64 `json:"budget_s"`
	Stop        string  `json:"stop"`
	Execs       int64   `json:"execs"`
	ElapsedS    float64 `json:"elapsed_s"`
	ExecsPerSec float64 `json:"execs_per_sec"`
	// FuzzS is the time ExecsPerSec is measured over (Execs /
	// ExecsPerSec): for go test -fuzz the fuzzing phase after the seeds'
	// baseline.
	FuzzS float64 `json:"fuzz_s,omitempty"`
	// CPUS is the campaign's CPU time (engine.Summary.CPUS), when known.
	CPUS     float64 `json:"cpu_s,omitempty"`
	Findings int     `json:"findings"`
}

// Options configure Run.
type Options struct {
	Grid  Grid
	Shard Shard // zero: All
	// Workers is the number of campaigns run in parallel (each campaign
	// runs one fuzzing worker); default runtime.NumCPU().
	Workers int
	Out     string
	Benches []BenchInfo // recorded in compare.json for the report
	Runner  RunFunc
	Command string // recorded in compare.json and shown in the report
	// GridCommand is the command that runs the whole grid: Command
	// without --shard and without the shard's --out (a shard's folder
	// holds its share only). A merged report shows it; "" when the shard
	// is All (Command runs the whole grid then).
	GridCommand string
	Machine     *Machine
	// Progress receives a line per campaign started, finished or skipped.
	Progress io.Writer
}

// Outcome counts what Run did.
type Outcome struct {
	Ran, Skipped, Restarted, Unfinished int
}

// Run runs the shard's campaigns that have not finished, Workers at a time,
// each into its own directory under Out. A finished campaign (one with a
// result.json) is skipped. An unfinished one — interrupted, so its time
// series would mix sessions — is removed and restarted from scratch with
// its seed: a campaign of --workers 1 with the same seed replays the same
// inputs in the same order, so only the time spent is lost. Cancelling ctx
// stops the running campaigns; they stay unfinished (Outcome.Unfinished).
func Run(ctx context.Context, o Options) (Outcome, error) {
	var res Outcome
	if o.Shard == (Shard{}) {
		o.Shard = All
	}
	if o.Workers <= 0 {
		o.Workers = runtime.NumCPU()
	}
	if err := o.Grid.Validate(); err != nil {
		return res, err
	}
	if o.Runner == nil {
		return res, errors.New("compare: Options.Runner is nil")
	}
	if o.Out == "" {
		return res, errors.New("compare: Options.Out is empty")
	}
	if err := os.MkdirAll(o.Out, 0o755); err != nil {
		return res, err
	}
	meta := Meta{Version: Version, Grid: o.Grid, BudgetS: o.Grid.Budget.Seconds(), Shard: o.Shard.String(),
		Workers: o.Workers, Command: o.Command, GridCommand: o.GridCommand, Benches: o.Benches}
	if o.Machine != nil {
		meta.Machine = *o.Machine
	} else {
		meta.Machine = ThisMachine()
	}
	if old, err := ReadMeta(o.Out); err == nil {
		if !old.Grid.same(o.Grid) || old.Shard != meta.Shard {
			return res, fmt.Errorf("%s holds another comparison (%s, shard %s); use another --out or the same flags",
				o.Out, describe(old.Grid), old.Shard)
		}
		// The machine (and its load) is the one the grid started on.
		if o.Machine == nil {
			meta.Machine = old.Machine
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return res, err
	}
	if err := checkShardCells(o.Out, o.Grid, o.Shard); err != nil {
		return res, err
	}
	if err := writeJSON(filepath.Join(o.Out, "compare.json"), meta); err != nil {
		return res, err
	}

	var todo []Spec
	for _, c := range o.Shard.Cells(o.Grid) {
		dir := filepath.Join(o.Out, c.Dir())
		if _, err := readResult(dir); err == nil {
			res.Skipped++
			continue
		}
		if _, err := os.Stat(dir); err == nil {
			if err := os.RemoveAll(dir); err != nil {
				return res, err
			}
			res.Restarted++
		}
		todo = append(todo, Spec{Cell: c, Seed: o.Grid.SeedOf(c), Budget: o.Grid.Budget, Dir: dir})
	}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, format+"\n", args...)
		}
	}
	if res.Skipped > 0 {
		progress("compare: %d campaign(s) already finished, %d to run (%d restarted)", res.Skipped, len(todo), res.Restarted)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu   sync.Mutex
		errs []error
		done int
		wg   sync.WaitGroup
	)
	jobs := make(chan Spec)
	for w := 0; w < min(o.Workers, len(todo)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range jobs {
				if ctx.Err() != nil {
					// Stopped while this job was on its way: the feed's
					// select may hand out one more job after cancel.
					continue
				}
				if err := os.MkdirAll(s.Dir, 0o755); err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					cancel()
					continue
				}
				sum, err := o.Runner(ctx, s)
				mu.Lock()
				switch {
				case err != nil:
					errs = append(errs, fmt.Errorf("campaign %s: %w", s.Cell, err))
					cancel()
				case sum == nil || (sum.Stop != "budget" && sum.Stop != "runs" && sum.Stop != "failure"):
					// Interrupted: no result.json, so it reruns next time.
				default:
					r := Result{Version: Version, Cell: s.Cell, Seed: s.Seed, BudgetS: s.Budget.Seconds(), Stop: sum.Stop,
						Execs: sum.Execs, ElapsedS: sum.ElapsedS, ExecsPerSec: sum.ExecsPerSec, CPUS: sum.CPUS, Findings: len(sum.Findings)}
					if sum.ExecsPerSec > 0 {
						r.FuzzS = float64(sum.Execs) / sum.ExecsPerSec
					}
					if werr := writeJSON(filepath.Join(s.Dir, "result.json"), r); werr != nil {
						errs = append(errs, werr)
						cancel()
						break
					}
					res.Ran++
					done++
					progress("compare: [%d/%d] %s: %.0f execs/s, %d finding(s)", done, len(todo), s.Cell, r.ExecsPerSec, r.Findings)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for _, s := range todo {
		select {
		case jobs <- s:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	// Cells never handed out count as unfinished too.
	res.Unfinished = len(todo) - res.Ran
	if len(errs) > 0 {
		return res, errors.Join(errs...)
	}
	return res, nil
}

// checkShardCells refuses an output directory that holds campaigns
// (finished or not) of cells outside shard's share of g: a folder made
// when shards were dealt otherwise (an older partition of the same "i/n")
// would otherwise be resumed with other shards' campaigns in it, and
// Load would count them here and again in their own shard's folder.
func checkShardCells(out string, g Grid, shard Shard) error {
	mine := map[Cell]bool{}
	for _, c := range shard.Cells(g) {
		mine[c] = true
	}
	var others []string
	for _, c := range g.Cells() {
		if mine[c] {
			continue
		}
		if _, err := os.Stat(filepath.Join(out, c.Dir())); err == nil {
			others = append(others, c.String())
		} else if !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	if len(others) == 0 {
		return nil
	}
	show := others
	if len(show) > 5 {
		show = append(show[:5:5], "...")
	}
	return fmt.Errorf("%s holds %d campaign(s) that are not shard %s's (%s): made by another partition of the grid into shards (an older labelcov dealt shards otherwise)? Move them to their shard's folder or away, or use another --out",
		out, len(others), shard, strings.Join(show, ", "))
}

func describe(g Grid) string {
	return fmt.Sprintf("benches %s, criteria %s, %d runs of %s, seed %d",
		strings.Join(g.Benches, ","), strings.Join(g.Criteria, ","), g.Runs, g.Budget, g.Seed)
}

// ReadMeta reads OUT/compare.json.
func ReadMeta(out string) (*Meta, error) {
	data, err := os.ReadFile(filepath.Join(out, "compare.json"))
	if err != nil {
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(out, "compare.json"), err)
	}
	if m.Version != Version {
		return nil, fmt.Errorf("%s: version %d, want %d", filepath.Join(out, "compare.json"), m.Version, Version)
	}
	m.Grid.Budget = time.Duration(m.BudgetS * float64(time.Second))
	return &m, nil
}

func readResult(dir string) (*Result, error) {
	data, err := os.ReadFile(filepath.Join(dir, "result.json"))
	if err != nil {
		return nil, err
	}
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "result.json"), err)
	}
	return &r, nil
}

// writeJSON writes v indented, through a temporary file and a rename.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(data, '\n'))
}

func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
