package runner

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/engine"
	"github.com/labelcov/labelcov/internal/cputime"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
)

const warehouseWorld = "../../testdata/worlds/warehouse.world"

func planCampaign(t testing.TB, runs int64) (engine.Campaign, *sim.World) {
	t.Helper()
	world, err := sim.LoadWorld(warehouseWorld)
	if err != nil {
		t.Fatal(err)
	}
	p := compileFile(t, "../../interp/sim/testdata/sort.plan")
	newTarget := func() (engine.Target, error) {
		r, err := New(Options{Program: p, World: world, Limits: Limits{MaxObjects: 6}})
		if err != nil {
			return nil, err
		}
		return &Target{R: r}, nil
	}
	objects := func(input []byte) int { return len(world.DecodeEnv(input, 6).Objects) }
	// No wall-clock limit per run: on a loaded machine a run may exceed
	// the default second, and a hang finding would then depend on the
	// load, not on the plan (its steps are bounded anyway).
	return engine.Campaign{NewTarget: newTarget, Seed: 1, Runs: runs, MaxLen: 32, Objects: objects, RunTimeout: -1}, world
}

// End to end on the simulator: findings are check categories, saved inputs
// replay to their key, and minimization keeps the fewest objects.
func TestPlanTargetCampaign(t *testing.T) {
	c, world := planCampaign(t, 3000)
	c.Out = t.TempDir()
	c.SaveFinding = func(path string, input []byte, _ engine.FindingRecord) error {
		return os.WriteFile(path+".env", world.FormatEnv(world.DecodeEnv(input, 6)), 0o644)
	}
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Findings) == 0 {
		t.Fatalf("no findings in %d execs (corpus %d)", sum.Execs, sum.Corpus)
	}
	tgt, err := c.NewTarget()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sum.Findings {
		out, err := tgt.Run(context.Background(), f.Data)
		if err != nil {
			t.Fatal(err)
		}
		if !out.HasKey(f.Key) {
			t.Errorf("saved input of %s does not reproduce it", f.Key)
		}
		if f.Original.Less(f.Size) {
			t.Errorf("%s: minimized %+v larger than original %+v", f.Key, f.Size, f.Original)
		}
		env, err := world.LoadEnv(f.Input + ".env")
		if err != nil {
			t.Errorf("%s: .env beside %s: %v", f.Key, filepath.Base(f.Input), err)
		} else if len(env.Objects) != f.Size.Objects {
			t.Errorf("%s: .env has %d objects, saved input %d", f.Key, len(env.Objects), f.Size.Objects)
		}
		t.Logf("%s after %d execs: %d objects, %d bytes (from %d objects)", f.Key, f.Execs, f.Size.Objects, f.Size.Bytes, f.Original.Objects)
	}
	t.Logf("%d execs, %.0f execs/s, corpus %d, features %d", sum.Execs, sum.ExecsPerSec, sum.Corpus, sum.Features)
}

func args(vals ...int64) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

// compileFile reads and compiles a plan, named by its base name.
func compileFile(t testing.TB, path string) *compile.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse(filepath.Base(path), src)
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A plan without a world takes its parameters from the input: 8 bytes each,
// little-endian, missing bytes zero.
func TestArgsTarget(t *testing.T) {
	r, err := New(Options{Program: compileFile(t, "../campaign/testdata/range.plan")})
	if err != nil {
		t.Fatal(err)
	}
	tgt := &Target{R: r}
	out, err := tgt.Run(context.Background(), args(10, 17, 12))
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Findings) != 1 || out.Findings[0].Category != "range-bug" || out.Findings[0].Pos.String() != "range.plan:6:7" {
		t.Fatalf("findings %+v", out.Findings)
	}
	for _, in := range [][]byte{nil, args(10, 18, 12), args(10, 17)[:12]} {
		out, err := tgt.Run(context.Background(), in)
		if err != nil || len(out.Findings) != 0 {
			t.Fatalf("input %x: %+v %v", in, out.Findings, err)
		}
	}
	if n := len(tgt.Counters()); n == 0 {
		t.Fatal("no counters")
	}
	// A cancelled run is an error, not a timeout finding.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tgt.Run(ctx, nil); err == nil {
		t.Fatal("cancelled run reported no error")
	}
}

// BenchmarkPlanTarget: engine plus simulator on the pick-and-place plan
// with up to six objects; ns/op is ns per exec.
func BenchmarkPlanTarget(b *testing.B) {
	c, _ := planCampaign(b, 0)
	c.MinimizeRuns = -1
	c.Runs = int64(b.N)
	cputime.Measure(b, func() error {
		_, err := c.Run(context.Background())
		return err
	})
}
