package compare

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/labelcov/labelcov/fuzzdriver/campaign"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Bench is a benchmark folder: NAME/NAME.plan and NAME/truth.json, whose
// "world" (relative to the folder) names the world, if any.
type Bench struct {
	Info  BenchInfo
	Plan  *syntax.File
	World *sim.World
	// PlanPath and WorldPath are the files (WorldPath "" without a world):
	// an AFL++ campaign's afl-target reads them again.
	PlanPath, WorldPath string
}

// LoadBench reads the benchmark folder dir (its base name is the
// benchmark's name). The plan is parsed under the name NAME.plan, so that
// finding positions (NAME.plan:line:col) do not depend on where the folder
// lives.
func LoadBench(dir string) (*Bench, error) {
	name := filepath.Base(filepath.Clean(dir))
	planPath := filepath.Join(dir, name+".plan")
	src, err := os.ReadFile(planPath)
	if err != nil {
		return nil, fmt.Errorf("benchmark %s: %w", name, err)
	}
	f, err := syntax.Parse(name+".plan", src)
	if err != nil {
		return nil, err
	}
	var truth struct {
		Categories []struct {
			Name string `json:"name"`
		} `json:"categories"`
	}
	tpath := filepath.Join(dir, "truth.json")
	data, err := os.ReadFile(tpath)
	if err != nil {
		return nil, fmt.Errorf("benchmark %s: %w", name, err)
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		return nil, fmt.Errorf("%s: %w", tpath, err)
	}
	b := &Bench{Plan: f, PlanPath: planPath, Info: BenchInfo{Name: name, Plan: name + ".plan", Categories: []string{}}}
	for _, c := range truth.Categories {
		b.Info.Categories = append(b.Info.Categories, c.Name)
	}
	wp, w, err := sim.OpenWorld(planPath, "")
	if err != nil {
		return nil, err
	}
	if w != nil {
		b.World, b.Info.World, b.WorldPath = w, filepath.Base(wp), wp
	}
	return b, nil
}

// ErrActionGuide explains why "action" cannot guide a campaign.
var ErrActionGuide = errors.New(`guiding criterion "action" is not available: guiding by action-coverage ` +
	`buckets would need the engine to look at the simulator's buckets, and the engine must stay label-blind ` +
	`(guiding by a criterion means fuzzing the plan annotated with it; action buckets are not plan labels). ` +
	`Action coverage is still measured for every campaign; leave "action" out of --criteria`)

// ParseGuide reads a guiding criterion: "none" (the original plan), or
// label criteria joined by "+" or "," (mcc, cc, wm, wm:ror, ..., all), e.g.
// "mcc+wm".
func ParseGuide(s string) (labels.Criteria, error) {
	switch strings.ToLower(s) {
	case "none":
		return 0, nil
	case "action", "actions":
		return 0, ErrActionGuide
	}
	c, err := labels.ParseCriteria(strings.ReplaceAll(s, "+", ","))
	if err != nil {
		return 0, fmt.Errorf("criterion %q: %w", s, err)
	}
	return c, nil
}

// RunnerOptions choose the engine of PlanRunner's campaigns.
type RunnerOptions struct {
	// Engine is campaign.EngineBuiltin (default) or campaign.EngineAFL.
	Engine string
	// Exe is the labelcov binary afl-fuzz runs as its target (engine afl).
	Exe string
}

// PlanRunner runs the campaigns of benches with one fuzzing worker per
// campaign (the built-in engine is then deterministic for its seed), the
// plan annotated with the guiding criterion, coverage measured on the
// original plan's yardstick plus label coverage per criterion ("labels:mcc",
// "labels:cc", "labels:wm" besides "labels", all in stats.json). With
// Engine afl each campaign is one afl-fuzz instance whose labelcov files
// (stats.json included) live in the campaign's Instance directory.
func PlanRunner(benches []*Bench, o RunnerOptions) RunFunc {
	byName := map[string]*Bench{}
	for _, b := range benches {
		byName[b.Info.Name] = b
	}
	var mu sync.Mutex
	built := map[string]*campaign.Fuzzer{}
	build := func(bench, crit string) (*campaign.Fuzzer, *Bench, error) {
		mu.Lock()
		defer mu.Unlock()
		b := byName[bench]
		if b == nil {
			return nil, nil, fmt.Errorf("unknown benchmark %s", bench)
		}
		k := bench + "\x00" + crit
		if pf := built[k]; pf != nil {
			return pf, b, nil
		}
		guide, err := ParseGuide(crit)
		if err != nil {
			return nil, nil, err
		}
		pf, err := campaign.Setup{Plan: b.Plan, World: b.World, Criteria: guide}.Build()
		if err != nil {
			return nil, nil, err
		}
		built[k] = pf
		return pf, b, nil
	}
	return func(ctx context.Context, s Spec) (*engine.Summary, error) {
		pf, b, err := build(s.Bench, s.Criterion)
		if err != nil {
			return nil, err
		}
		co := campaign.Options{Engine: o.Engine, Workers: 1, Seed: s.Seed, Budget: s.Budget,
			Out: s.Dir, Instance: Instance, ExtraCoverage: true,
			AFL: campaign.AFLOptions{Exe: o.Exe, PlanPath: b.PlanPath, WorldPath: b.WorldPath, Dir: Instance}}
		sum, err := pf.Fuzz(ctx, co)
		if sum == nil {
			return nil, err
		}
		return sum.Summary, err
	}
}

// CheckSetup annotates and compiles b's plan for the guiding criterion crit,
// so that a plan the criterion cannot annotate fails before any campaign.
func CheckSetup(b *Bench, crit string) error {
	guide, err := ParseGuide(crit)
	if err != nil {
		return err
	}
	_, err = campaign.Setup{Plan: b.Plan, World: b.World, Criteria: guide}.Build()
	return err
}
