package campaign

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/labels"
)

// Engines a plan campaign can run on.
const (
	EngineBuiltin = "builtin"
	EngineAFL     = "afl"
)

// Options describe a campaign on a plan, with either engine.
type Options struct {
	Engine  string        // EngineBuiltin (default) or EngineAFL
	Workers int           // builtin: goroutines; afl: afl-fuzz instances; default 1
	Seed    uint64        // random seed
	Budget  time.Duration // wall-clock budget of this session (0: none)
	Runs    int64         // run budget (0: none); afl: afl-fuzz -E split over instances
	// Seeds are the first inputs (nil: the engines' defaults).
	Seeds [][]byte
	// Out is the campaign directory (AFL's sync directory); "" makes a new
	// temporary one, named on Progress.
	Out string
	// Instance and Main: the built-in engine's directory inside Out and
	// whether it is AFL++'s main node (builtin only).
	Instance string
	Main     bool
	// Progress receives status lines every ProgressInterval (nil: silent).
	Progress         io.Writer
	ProgressInterval time.Duration
	// AFL configures the AFL++ engine.
	AFL AFLOptions
	// ForceOut resumes in an Out that belongs to another campaign (another
	// plan, world or criteria: engine.ClaimDir), rewriting its record.
	ForceOut bool
	// ExtraCoverage, when true, adds the label coverage of every measuring
	// criterion as "labels:KEY" figures to progress lines and stats.json,
	// as compare's analysis wants.
	ExtraCoverage bool
}

// Summary is the result of a plan campaign of either engine: the engine's
// summary and what the setup adds. It is `labelcov fuzz --json`'s object and
// the content of an AFL++ campaign's summary.json.
type Summary struct {
	// Version versions the shape of the JSON object (SummaryVersion).
	Version int `json:"version"`
	*engine.Summary
	Engine string `json:"engine"`
	// Criteria and Measure are the guiding and the measuring criteria, as
	// the label manifest lists them (["mcc", "wm-ror", ...]; [] for none).
	Criteria   []labels.Key             `json:"criteria"`
	Measure    []labels.Key             `json:"measure"`
	Workers    int                      `json:"workers"`
	Seed       uint64                   `json:"seed"`
	ByCriteria map[string]engine.Figure `json:"labels_by_criterion"`
	// AFL is what afl-fuzz's fuzzer_stats said (engine afl only).
	AFL []afl.InstanceStats `json:"afl,omitempty"`
}

// CriteriaName names criteria as the flags spell them ("none" for zero).
func CriteriaName(c labels.Criteria) string {
	if c == 0 {
		return "none"
	}
	return c.String()
}

// Fuzz runs a campaign on the plan. A campaign that ran returns its summary
// even with an error (Summary.Stop "error"); cancelling ctx ends it
// normally (Stop "canceled"). Findings are not errors: see
// Summary.Findings.
func (p *Fuzzer) Fuzz(ctx context.Context, o Options) (*Summary, error) {
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.Budget < 0 || o.Runs < 0 {
		return nil, errors.New("fuzzdriver: negative budget or runs")
	}
	if o.Engine == "" {
		o.Engine = EngineBuiltin
	}
	if err := p.NeedsWorld(); err != nil {
		return nil, err
	}
	switch o.Engine {
	case EngineBuiltin:
		return p.fuzzBuiltin(ctx, o)
	case EngineAFL:
		return p.fuzzAFL(ctx, o)
	}
	return nil, fmt.Errorf("fuzzdriver: unknown engine %q (want %s or %s)", o.Engine, EngineBuiltin, EngineAFL)
}

// summary starts the plan summary of a campaign.
func (p *Fuzzer) summary(o Options, s *engine.Summary) *Summary {
	return &Summary{Version: SummaryVersion, Summary: s, Engine: o.Engine, Criteria: criteriaKeys(p.Setup.Criteria),
		Measure: p.measureKeys(), Workers: o.Workers, Seed: o.Seed}
}

// SummaryVersion is the version of Summary's JSON (fuzz --json, an AFL++
// campaign's summary.json).
const SummaryVersion = 1

// criteriaKeys lists c's keys as the manifest does, [] for none.
func criteriaKeys(c labels.Criteria) []labels.Key {
	return append([]labels.Key{}, c.Keys()...)
}

// measureKeys lists the yardstick's criteria, [] without one.
func (p *Fuzzer) measureKeys() []labels.Key {
	if p.Setup.NoMeasure {
		return []labels.Key{}
	}
	return criteriaKeys(p.Setup.Measure)
}

// campaignDir returns o.Out, or a new temporary directory named on
// o.Progress, claimed for this campaign (engine.ClaimDir): a directory
// that holds another plan's, world's or criteria's campaign is refused
// unless o.ForceOut.
func (p *Fuzzer) campaignDir(o Options) (string, error) {
	out := o.Out
	if out == "" {
		var err error
		if out, err = os.MkdirTemp("", "labelcov-"+o.Engine+"-"); err != nil {
			return "", err
		}
		if o.Progress != nil {
			fmt.Fprintf(o.Progress, "fuzz: campaign directory %s (use --out to choose one)\n", out)
		}
	}
	if err := engine.ClaimDir(out, p.Owner(), o.ForceOut); err != nil {
		return "", err
	}
	return out, nil
}

// Owner is what a campaign directory of this setup belongs to: the plan
// (digest of its source, and the def-plan), the world (by name) and the
// guiding criteria. Inputs of one mean something else, or nothing, to
// another; the measuring criteria and limits may change between sessions.
func (p *Fuzzer) Owner() engine.Owner {
	world := "none"
	if p.Setup.World != nil {
		world = p.Setup.World.Name
	}
	sum := sha256.Sum256(p.Setup.Plan.Src)
	return engine.Owner{
		Keys: map[string]string{
			"plan_sha256": hex.EncodeToString(sum[:]),
			"plan":        p.Plan().Name,
			"world":       world,
			"criteria":    CriteriaName(p.Setup.Criteria),
		},
		About: map[string]string{"plan_file": p.Setup.Plan.Name},
	}
}

// withCriteria makes a CoverageFunc that adds "labels:KEY" figures.
func withCriteria(m *Meter) engine.CoverageFunc {
	return func(snap engine.Snapshot) map[string]engine.Figure {
		m.Coverage(snap)
		return extraMeter{m}.Figures()
	}
}

func (p *Fuzzer) fuzzBuiltin(ctx context.Context, o Options) (*Summary, error) {
	c, meter, err := p.Campaign()
	if err != nil {
		return nil, err
	}
	if o.ExtraCoverage {
		c.Coverage = withCriteria(meter)
	}
	c.Workers, c.Seed, c.Budget, c.Runs = o.Workers, o.Seed, o.Budget, o.Runs
	// Findings are always saved: without Out they go to a fresh temporary
	// campaign directory, as with AFL++.
	if c.Out, err = p.campaignDir(o); err != nil {
		return nil, err
	}
	c.Instance, c.Main = o.Instance, o.Main
	if o.Progress != nil {
		c.Progress, c.ProgressInterval = o.Progress, o.ProgressInterval
	}
	c.Seeds = o.Seeds
	s, err := c.Run(ctx)
	if s == nil {
		return nil, err
	}
	if merr := meter.Err(); merr != nil {
		err = errors.Join(err, fmt.Errorf("measuring coverage: %w", merr))
	}
	sum := p.summary(o, s)
	sum.ByCriteria = meter.ByCriterion()
	return sum, err
}

// NeedsWorld fails, as a *syntax.Error, when the setup has no world but the
// plan acts on one (sim.NeedsWorld): every run would only fail with
// no-world.
func (p *Fuzzer) NeedsWorld() error {
	if p.Setup.World != nil {
		return nil
	}
	return sim.NeedsWorld(p.Setup.Plan)
}
