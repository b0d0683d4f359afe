package sample

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/vm"
)

// Options control Categories: uniformly random inputs, no feedback.
type Options struct {
	Program *compile.Program
	// Plan names the def-plan to run ("": see sim.SelectPlan).
	Plan string
	// World decodes every input into an environment; nil: the input gives
	// the plan's parameters (DecodeArgs).
	World *sim.World
	// N is the number of inputs (at least 1); Seed makes them.
	N    int
	Seed uint64
	// LenMin and LenMax bound input lengths (uniform in between); 0 picks
	// the default: with a world one to six objects, without exactly 8
	// bytes per parameter.
	LenMin, LenMax int
	// Workers run inputs in parallel (0 = 1); the counts do not depend on
	// how many.
	Workers    int
	MaxSteps   int64
	MaxObjects int
}

// Count is how many inputs triggered one category.
type Count struct {
	Category string  `json:"category"`
	Inputs   int     `json:"inputs"`
	Percent  float64 `json:"percent"`
	// First is the index of the first input that triggered it (see
	// Input).
	First int `json:"first"`
}

// Report is what Categories counted; its JSON ("version": 1) is the
// output of `labelcov sample --json`. Plan and World name the files for
// the reader (Categories leaves them empty).
type Report struct {
	Version int    `json:"version"`
	Plan    string `json:"plan"`
	World   string `json:"world,omitempty"`
	N       int    `json:"n"`
	Seed    uint64 `json:"seed"`
	LenMin  int    `json:"len_min"`
	LenMax  int    `json:"len_max"`
	// Clean counts the inputs with no category at all.
	Clean      int     `json:"clean"`
	Seconds    float64 `json:"seconds"`
	RunsPerSec float64 `json:"runs_per_sec"`
	// Categories, most frequent first (ties by name).
	Categories []Count `json:"categories"`
}

// appendCategories adds what one run triggered: "timeout" or
// "failure:KIND" for a run that did not end normally, the categories of
// the checks and policies, and "check-failed:CHECK" per check that did not
// return normally.
func appendCategories(cats []string, res *sim.Result) []string {
	switch r := res.VM; r.Outcome {
	case vm.OutcomeTimeout:
		cats = append(cats, "timeout")
	case vm.OutcomeFailure:
		kind := ""
		if r.Failure != nil {
			kind = r.Failure.Kind
		}
		cats = append(cats, "failure:"+kind)
	}
	cats = append(cats, res.Errors...)
	for _, ce := range res.CheckErrors {
		cats = append(cats, "check-failed:"+ce.Check)
	}
	return cats
}

// Input returns input i of the sample seeded with seed, in buf's
// storage: uniformly random bytes, its length uniform in [lenMin, lenMax].
// It depends only on its arguments.
func Input(seed uint64, i, lenMin, lenMax int, buf []byte) []byte {
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

// Categories runs o.N uniformly random inputs and counts, per error
// category, how many triggered it: the categories def-checks return, "failure:KIND"
// for an unhandled plan failure, "timeout" for an exhausted step budget and
// "check-failed:CHECK" for a check that did not return normally. It is the
// baseline a guided fuzzer must beat. The report's LenMin and LenMax are
// the lengths used (defaults filled in); Seconds and RunsPerSec are the
// only parts that depend on the machine.
func Categories(ctx context.Context, o Options) (*Report, error) {
	if o.N <= 0 {
		return nil, fmt.Errorf("sample: n must be positive, got %d", o.N)
	}
	o.Workers = max(o.Workers, 1)
	fn, err := sim.SelectPlan(o.Program, o.Plan)
	if err != nil {
		return nil, err
	}
	if w := o.World; w != nil {
		b := w.BytesPerObject()
		if o.LenMin == 0 {
			o.LenMin = b
		}
		if o.LenMax == 0 {
			o.LenMax = max(6*b, o.LenMin)
		}
	} else {
		if fn.NumParams() == 0 {
			return nil, fmt.Errorf("plan %s takes no parameters: give a world to sample environments", fn.Name)
		}
		if o.LenMin == 0 {
			o.LenMin = 8 * fn.NumParams()
		}
		if o.LenMax == 0 {
			o.LenMax = max(8*fn.NumParams(), o.LenMin)
		}
	}
	if o.LenMin < 0 || o.LenMax < o.LenMin {
		return nil, fmt.Errorf("sample: need 0 <= len-min <= len-max, got %d and %d", o.LenMin, o.LenMax)
	}
	runners := make([]*runner.Runner, o.Workers)
	for i := range runners {
		if runners[i], err = runner.New(runner.Options{Program: o.Program, Plan: o.Plan, World: o.World,
			Limits: runner.Limits{MaxSteps: o.MaxSteps, MaxObjects: o.MaxObjects}}); err != nil {
			return nil, err
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
	tallies := make([]tally, o.Workers)
	start := time.Now()
	var wg sync.WaitGroup
	for k := range runners {
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
				if lo >= o.N {
					return
				}
				for i := lo; i < min(lo+chunk, o.N); i++ {
					buf = Input(o.Seed, i, o.LenMin, o.LenMax, buf)
					res, err := runners[k].Run(ctx, runner.Input{Bytes: buf})
					if err != nil {
						return // ctx ended: reported below
					}
					cats = appendCategories(cats[:0], res.Sim)
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
		return nil, err
	}
	elapsed := time.Since(start).Seconds()
	rep := &Report{Version: 1, N: o.N, Seed: o.Seed, LenMin: o.LenMin, LenMax: o.LenMax,
		Seconds: elapsed, RunsPerSec: float64(o.N) / elapsed}
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
		rep.Categories = append(rep.Categories, Count{Category: c, Inputs: n, Percent: 100 * float64(n) / float64(o.N), First: first[c]})
	}
	sort.Slice(rep.Categories, func(i, j int) bool {
		a, b := rep.Categories[i], rep.Categories[j]
		if a.Inputs != b.Inputs {
			return a.Inputs > b.Inputs
		}
		return a.Category < b.Category
	})
	if rep.Categories == nil {
		rep.Categories = []Count{}
	}
	return rep, nil
}

// WriteExamples writes the first input of each category of rep to
// dir/CATEGORY.bin and, with a world, its environment to dir/CATEGORY.env.
func WriteExamples(dir string, w *sim.World, maxObjects int, rep *Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, c := range rep.Categories {
		data := Input(rep.Seed, c.First, rep.LenMin, rep.LenMax, nil)
		base := filepath.Join(dir, safeName(c.Category))
		if err := os.WriteFile(base+".bin", data, 0o644); err != nil {
			return err
		}
		if w != nil {
			if err := os.WriteFile(base+".env", w.FormatEnv(w.DecodeEnv(data, maxObjects)), 0o644); err != nil {
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
