package campaign

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// AFLOptions configure the AFL++ engine of a plan campaign: afl-fuzz runs
// `Exe afl-target --setup DIR/worker.json`, the worker description of the
// setup written in labelcov's directory of the campaign.
type AFLOptions struct {
	// Fuzz is the afl-fuzz binary ("": afl-fuzz on PATH).
	Fuzz string
	// Exe is the labelcov binary with the afl-target command (required).
	Exe string
	// PlanPath and WorldPath are the files the worker reads: the setup's
	// plan and world (WorldPath "" without a world).
	PlanPath, WorldPath string
	// Args are extra afl-fuzz arguments (e.g. -t 500 overrides
	// Setup.RunTimeout).
	Args []string
	// Dir is labelcov's directory inside Out; default afl.Dir.
	Dir string
}

// WorkerVersion is the version of the worker description (WorkerFile).
const WorkerVersion = 1

// WorkerFile is the name of the worker description in labelcov's directory
// of an AFL++ campaign.
const WorkerFile = "worker.json"

// Worker describes a Setup for the AFL++ worker (`labelcov afl-target
// --setup FILE`), which rebuilds it: files by absolute path, the plan
// with its digest (a worker refuses a plan edited since), and every
// setting that decides what the worker runs. Its JSON is versioned.
type Worker struct {
	Version    int    `json:"version"`
	Plan       string `json:"plan"`
	PlanSHA256 string `json:"plan_sha256"`
	World      string `json:"world,omitempty"`
	// PlanName is the def-plan that runs ("": main, or the only plan).
	PlanName string `json:"plan_name,omitempty"`
	// Criteria guide the campaign ("none": the original plan).
	Criteria    string   `json:"criteria"`
	MCCMaxAtoms int      `json:"mcc_max_atoms,omitempty"`
	Pure        []string `json:"pure,omitempty"`
	MaxObjects  int      `json:"max_objects"`
	MaxSteps    int64    `json:"max_steps"`
	NoRetire    bool     `json:"no_retire,omitempty"`
}

// digest is the hex SHA-256 of a plan's source.
func digest(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// Worker describes the setup for an AFL++ worker that reads the plan from
// planPath and the world from worldPath ("" without a world).
func (p *Fuzzer) Worker(planPath, worldPath string) (*Worker, error) {
	s := p.Setup
	if planPath == "" {
		return nil, errors.New("campaign: the AFL++ worker reads the plan from a file: give its path")
	}
	plan, err := filepath.Abs(planPath)
	if err != nil {
		return nil, err
	}
	w := &Worker{Version: WorkerVersion, Plan: plan, PlanSHA256: digest(s.Plan.Src), PlanName: s.PlanName,
		Criteria: CriteriaName(s.Criteria), MCCMaxAtoms: s.MCCMaxAtoms, Pure: s.PureFuncs,
		MaxObjects: s.MaxObjects, MaxSteps: s.MaxSteps, NoRetire: s.NoRetire}
	if s.World != nil {
		if worldPath == "" {
			return nil, errors.New("campaign: the setup has a world but no world file is given for the AFL++ worker")
		}
		if w.World, err = filepath.Abs(worldPath); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// LoadWorker reads a worker description and the files it names and
// returns the setup it describes (without a yardstick: a worker does not
// measure). A plan changed since the description was written is an error.
func LoadWorker(path string) (Setup, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Setup{}, fmt.Errorf("reading the worker description: %w", err)
	}
	var w Worker
	if err := json.Unmarshal(data, &w); err != nil {
		return Setup{}, fmt.Errorf("%s: %w", path, err)
	}
	if w.Version != WorkerVersion {
		return Setup{}, fmt.Errorf("%s: worker description version %d, this labelcov reads version %d", path, w.Version, WorkerVersion)
	}
	src, err := os.ReadFile(w.Plan)
	if err != nil {
		return Setup{}, fmt.Errorf("reading plan: %w", err)
	}
	if digest(src) != w.PlanSHA256 {
		return Setup{}, fmt.Errorf("%s changed since the campaign described in %s started", w.Plan, path)
	}
	f, err := syntax.Parse(w.Plan, src)
	if err != nil {
		return Setup{}, err
	}
	s := Setup{Plan: f, PlanName: w.PlanName, MCCMaxAtoms: w.MCCMaxAtoms, PureFuncs: w.Pure,
		MaxObjects: w.MaxObjects, MaxSteps: w.MaxSteps, NoRetire: w.NoRetire, NoMeasure: true}
	if w.Criteria != "none" {
		if s.Criteria, err = labels.ParseCriteria(w.Criteria); err != nil {
			return Setup{}, fmt.Errorf("%s: %w", path, err)
		}
	}
	if w.World != "" {
		if s.World, err = sim.LoadWorld(w.World); err != nil {
			return Setup{}, err
		}
	}
	return s, nil
}

// extraMeter is a Meter whose figures add the label coverage of every
// measuring criterion as "labels:KEY" (Options.ExtraCoverage).
type extraMeter struct{ *Meter }

func (m extraMeter) Figures() map[string]engine.Figure {
	fig := m.Meter.Figures()
	for k, v := range m.ByCriterion() {
		fig[labels.FigureName(labels.Key(k))] = v
	}
	return fig
}

// fuzzAFL runs an afl.Campaign on `labelcov afl-target --setup` with the
// setup's meter, targets and hooks, and writes summary.json beside its
// stats.
func (p *Fuzzer) fuzzAFL(ctx context.Context, o Options) (*Summary, error) {
	if o.Budget == 0 && o.Runs == 0 {
		return nil, errors.New("campaign: the afl engine needs a budget or a run count")
	}
	aflFuzz, err := afl.FindFuzz(o.AFL.Fuzz)
	if err != nil {
		return nil, err
	}
	if o.AFL.Exe == "" {
		return nil, errors.New("campaign: AFLOptions.Exe (the labelcov binary) is empty")
	}
	worker, err := p.Worker(o.AFL.PlanPath, o.AFL.WorldPath)
	if err != nil {
		return nil, err
	}
	out, err := p.campaignDir(o)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(out, cmp.Or(o.AFL.Dir, afl.Dir))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	desc := filepath.Join(dir, WorkerFile)
	if err := afl.WriteJSONFile(desc, worker); err != nil {
		return nil, err
	}
	if desc, err = filepath.Abs(desc); err != nil {
		return nil, err
	}
	meter, err := p.NewMeter()
	if err != nil {
		return nil, err
	}
	var am afl.Meter = meter
	if o.ExtraCoverage {
		am = extraMeter{meter}
	}
	seeds := o.Seeds
	if len(seeds) == 0 {
		n := 8 * max(p.Plan().NumParams(), 1)
		if w := p.Setup.World; w != nil {
			n = w.BytesPerObject()
		}
		seeds = [][]byte{make([]byte, n)}
	}
	c := afl.Campaign{Fuzz: aflFuzz, Target: []string{o.AFL.Exe, "afl-target", "--setup", desc},
		Out: out, Dir: o.AFL.Dir, Workers: o.Workers, Seed: o.Seed, Budget: o.Budget, Runs: o.Runs,
		RunTimeout: p.Setup.RunTimeout, Args: o.AFL.Args, Seeds: seeds, Dict: p.Dict(), Meter: am, NewTarget: p.NewTarget,
		Objects: p.Objects(), SaveFinding: p.SaveFinding(), Progress: o.Progress, ProgressInterval: o.ProgressInterval}
	res, err := c.Run(ctx)
	if res == nil {
		return nil, err
	}
	sum := p.summary(o, res.Summary)
	sum.Workers = max(o.Workers, 1) // the instances started
	sum.AFL = res.Instances
	if len(res.Instances) > 0 {
		sum.ByCriteria = meter.ByCriterion()
	}
	if !res.Complete {
		return sum, err
	}
	return sum, errors.Join(err, afl.WriteJSONFile(filepath.Join(res.DirPath, "summary.json"), sum))
}
