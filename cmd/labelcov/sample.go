package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/spf13/cobra"
)

type sampleOptions struct {
	world      string
	plan       string
	n          int
	seed       uint64
	lenMin     int
	lenMax     int
	workers    int
	maxObjects int
	maxSteps   int64
	examples   string
	json       bool
}

// newSampleCmd is `labelcov sample`: uniformly random inputs, counted per
// error category. It measures how hard each category is to find by chance,
// the baseline a guided fuzzer must beat.
func newSampleCmd() *cobra.Command {
	var o sampleOptions
	cmd := &cobra.Command{
		Use:   "sample PLAN",
		Short: "Run uniformly random inputs and count how many trigger each error category",
		Long: `Sample runs --n uniformly random byte strings through PLAN and counts, per error
category, how many inputs triggered it. Categories are what the def-check oracles
return, "failure:KIND" for an unhandled failure of the plan, "timeout" for a run
that exhausted its step budget, and "check-failed:CHECK" for a check that did not
return normally.

With --world, every input decodes into an environment of that world (the byte
layout of docs/environment.md); input lengths are uniform in [--len-min, --len-max],
by default enough bytes for 1 to 6 objects. Without --world the plan's parameters
come from the input, 8 bytes per parameter read as little-endian int64 (a short
input leaves the last parameters 0); lengths default to exactly 8 bytes per
parameter.

Input i depends only on --seed and i, so the counts are the same for any number
of --workers. --examples DIR writes the first input of each category to
DIR/CATEGORY.bin (and, with a world, the environment as DIR/CATEGORY.env).`,
		Example: `  labelcov sample testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world
  labelcov sample testdata/bench/temperature/temperature.plan --n 1000000 --json
  labelcov sample kitchen.plan --world kitchen.world --len-min 4 --len-max 16 --examples /tmp/found`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return sampleFile(cmd.Context(), cmd.OutOrStdout(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.world, "world", "", "world file; without it the input gives the plan's int parameters")
	f.StringVar(&o.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.IntVar(&o.n, "n", 100000, "number of random inputs")
	f.Uint64Var(&o.seed, "seed", 1, "random seed; the same seed gives the same inputs and counts")
	f.IntVar(&o.lenMin, "len-min", 0, "shortest input in bytes (default: one object, or 8 bytes per parameter)")
	f.IntVar(&o.lenMax, "len-max", 0, "longest input in bytes (default: six objects, or 8 bytes per parameter)")
	f.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "parallel runners")
	f.IntVar(&o.maxObjects, "max-objects", sim.DefaultMaxObjects, "object slots read from an input (with --world)")
	f.Int64Var(&o.maxSteps, "max-steps", 1000000, "step budget per run (and per check)")
	f.StringVar(&o.examples, "examples", "", "directory to write the first input of each category to")
	f.BoolVar(&o.json, "json", false, "print one JSON object instead of the table")
	return cmd
}

// sampleTarget runs one input and appends the categories it triggered
// (each at most once).
type sampleTarget interface {
	run(ctx context.Context, input []byte, cats []string) []string
}

type worldTarget struct{ r *sim.Runner }

func (t *worldTarget) run(ctx context.Context, input []byte, cats []string) []string {
	res := t.r.RunBytes(ctx, input)
	cats = appendOutcome(cats, res.VM)
	cats = append(cats, res.Errors...)
	for _, ce := range res.CheckErrors {
		cats = append(cats, "check-failed:"+ce.Check)
	}
	return cats
}

type argsTarget struct {
	m      *vm.Machine
	plan   *compile.Func
	checks []*compile.Func
	args   []value.Value
}

func (t *argsTarget) run(ctx context.Context, input []byte, cats []string) []string {
	for i, a := range fuzzdriver.DecodeArgs(input, len(t.args)) {
		t.args[i] = value.Int(a)
	}
	t.m.ResetCounters()
	cats = appendOutcome(cats, t.m.Run(ctx, t.plan, t.args))
	for _, c := range t.checks {
		cr := t.m.Call(ctx, c, nil)
		switch {
		case cr.Outcome != vm.OutcomeOK:
			cats = append(cats, "check-failed:"+c.Name)
		case !cr.Value.IsNil():
			cats = append(cats, categoryOf(cr.Value))
		}
	}
	return cats
}

func appendOutcome(cats []string, r vm.Result) []string {
	switch r.Outcome {
	case vm.OutcomeTimeout:
		return append(cats, "timeout")
	case vm.OutcomeFailure:
		return append(cats, "failure:"+r.Failure.Kind)
	}
	return cats
}

func categoryOf(v value.Value) string {
	switch v.Kind() {
	case value.KSymbol, value.KKeyword, value.KString:
		return v.Str()
	}
	return v.String()
}

// sampleInput fills buf with input i of the campaign seeded with seed.
func sampleInput(seed uint64, i, lenMin, lenMax int, buf []byte) []byte {
	rng := rand.New(rand.NewPCG(seed, uint64(i)))
	n := lenMin + rng.IntN(lenMax-lenMin+1)
	buf = buf[:0]
	for len(buf) < n {
		w := rng.Uint64()
		for k := 0; k < 8 && len(buf) < n; k++ {
			buf = append(buf, byte(w>>(8*k)))
		}
	}
	return buf
}

// sampleCount is one category's row in the report.
type sampleCount struct {
	Category string  `json:"category"`
	Inputs   int     `json:"inputs"`
	Percent  float64 `json:"percent"`
	First    int     `json:"first"` // index of the first input that triggered it
}

type sampleReport struct {
	Version    int           `json:"version"`
	Plan       string        `json:"plan"`
	World      string        `json:"world,omitempty"`
	N          int           `json:"n"`
	Seed       uint64        `json:"seed"`
	LenMin     int           `json:"len_min"`
	LenMax     int           `json:"len_max"`
	Clean      int           `json:"clean"` // inputs with no category at all
	Seconds    float64       `json:"seconds"`
	RunsPerSec float64       `json:"runs_per_sec"`
	Categories []sampleCount `json:"categories"`
}

func sampleFile(ctx context.Context, stdout io.Writer, path string, o sampleOptions) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.n <= 0 {
		return fmt.Errorf("--n must be positive, got %d", o.n)
	}
	if o.workers <= 0 {
		o.workers = 1
	}
	p, err := loadProgram(path)
	if err != nil {
		return err
	}
	fn, err := sim.SelectPlan(p, o.plan)
	if err != nil {
		return err
	}
	var w *sim.World
	newTarget := func() (sampleTarget, error) {
		if w != nil {
			r, err := sim.NewRunner(p, w, sim.Options{Plan: o.plan, MaxSteps: o.maxSteps, MaxObjects: o.maxObjects})
			if err != nil {
				return nil, err
			}
			return &worldTarget{r}, nil
		}
		m, err := vm.New(p, vm.Config{MaxSteps: o.maxSteps, Builtins: sim.NoWorldBuiltins()})
		if err != nil {
			return nil, err
		}
		return &argsTarget{m: m, plan: fn, checks: p.Checks(), args: make([]value.Value, fn.NumParams())}, nil
	}
	if o.world != "" {
		if w, err = sim.LoadWorld(o.world); err != nil {
			return err
		}
		b := w.BytesPerObject()
		if o.lenMin == 0 {
			o.lenMin = b
		}
		if o.lenMax == 0 {
			o.lenMax = max(6*b, o.lenMin)
		}
	} else {
		if fn.NumParams() == 0 {
			return fmt.Errorf("plan %s takes no parameters: give --world to sample environments", fn.Name)
		}
		if o.lenMin == 0 {
			o.lenMin = 8 * fn.NumParams()
		}
		if o.lenMax == 0 {
			o.lenMax = max(8*fn.NumParams(), o.lenMin)
		}
	}
	if o.lenMin < 0 || o.lenMax < o.lenMin {
		return fmt.Errorf("need 0 <= --len-min <= --len-max, got %d and %d", o.lenMin, o.lenMax)
	}
	targets := make([]sampleTarget, o.workers)
	for i := range targets {
		if targets[i], err = newTarget(); err != nil {
			return err
		}
	}

	// Workers take inputs in chunks; each keeps its own counts, merged at
	// the end, so the result does not depend on scheduling.
	type tally struct {
		count map[string]int
		first map[string]int
		clean int
	}
	const chunk = 256
	var next int
	var mu sync.Mutex
	tallies := make([]tally, o.workers)
	start := time.Now()
	var wg sync.WaitGroup
	for k := range targets {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			t := &tallies[k]
			t.count, t.first = map[string]int{}, map[string]int{}
			var buf []byte
			var cats []string
			for ctx.Err() == nil {
				mu.Lock()
				lo := next
				next += chunk
				mu.Unlock()
				if lo >= o.n {
					return
				}
				for i := lo; i < min(lo+chunk, o.n); i++ {
					buf = sampleInput(o.seed, i, o.lenMin, o.lenMax, buf)
					cats = targets[k].run(ctx, buf, cats[:0])
					if len(cats) == 0 {
						t.clean++
					}
					for j, c := range cats {
						if slices.Index(cats[:j], c) >= 0 {
							continue
						}
						t.count[c]++
						if f, ok := t.first[c]; !ok || i < f {
							t.first[c] = i
						}
					}
				}
			}
		}(k)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	elapsed := time.Since(start).Seconds()
	rep := sampleReport{Version: 1, Plan: path, World: o.world, N: o.n, Seed: o.seed, LenMin: o.lenMin, LenMax: o.lenMax,
		Seconds: elapsed, RunsPerSec: float64(o.n) / elapsed}
	count, first := map[string]int{}, map[string]int{}
	for _, t := range tallies {
		rep.Clean += t.clean
		for c, n := range t.count {
			count[c] += n
			if f, ok := first[c]; !ok || t.first[c] < f {
				first[c] = t.first[c]
			}
		}
	}
	for c, n := range count {
		rep.Categories = append(rep.Categories, sampleCount{Category: c, Inputs: n, Percent: 100 * float64(n) / float64(o.n), First: first[c]})
	}
	sort.Slice(rep.Categories, func(i, j int) bool {
		a, b := rep.Categories[i], rep.Categories[j]
		if a.Inputs != b.Inputs {
			return a.Inputs > b.Inputs
		}
		return a.Category < b.Category
	})
	if rep.Categories == nil {
		rep.Categories = []sampleCount{}
	}
	if o.examples != "" {
		if err := writeSampleExamples(o, w, rep.Categories); err != nil {
			return err
		}
	}
	if o.json {
		return writeJSON(stdout, rep)
	}
	return writeSampleTable(stdout, &rep)
}

func writeSampleExamples(o sampleOptions, w *sim.World, cats []sampleCount) error {
	if err := os.MkdirAll(o.examples, 0o755); err != nil {
		return err
	}
	for _, c := range cats {
		data := sampleInput(o.seed, c.First, o.lenMin, o.lenMax, nil)
		base := filepath.Join(o.examples, safeName(c.Category))
		if err := os.WriteFile(base+".bin", data, 0o644); err != nil {
			return err
		}
		if w != nil {
			if err := os.WriteFile(base+".env", w.FormatEnv(w.DecodeEnv(data, o.maxObjects)), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// safeName turns a category into a file name.
func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			b[i] = '_'
		}
	}
	return string(b)
}

func writeSampleTable(wr io.Writer, rep *sampleReport) error {
	src := rep.Plan
	if rep.World != "" {
		src += " on " + rep.World
	}
	fmt.Fprintf(wr, "%s: %d random inputs of %d..%d bytes, seed %d\n", src, rep.N, rep.LenMin, rep.LenMax, rep.Seed)
	width := len("category")
	for _, c := range rep.Categories {
		width = max(width, len(c.Category))
	}
	fmt.Fprintf(wr, "%-*s  %9s  %8s  %s\n", width, "category", "inputs", "percent", "first")
	for _, c := range rep.Categories {
		fmt.Fprintf(wr, "%-*s  %9d  %7.3f%%  %d\n", width, c.Category, c.Inputs, c.Percent, c.First)
	}
	fmt.Fprintf(wr, "%-*s  %9d  %7.3f%%\n", width, "(no category)", rep.Clean, 100*float64(rep.Clean)/float64(rep.N))
	_, err := fmt.Fprintf(wr, "%s runs in %.2fs: %s runs/s\n", strconv.Itoa(rep.N), rep.Seconds, strconv.FormatFloat(rep.RunsPerSec, 'f', 0, 64))
	return err
}
