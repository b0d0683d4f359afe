package vm

import (
	"bytes"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// TestAnnotatedBenchmarksFusedMatchesPlain runs the world-less benchmark
// plans annotated with every criterion, with the built-in engine's labels
// (fired only, silent retirement: the fused code skipping more and more
// dead probes as labels retire) and the AFL++ worker's, on the fused and
// on the plain code, input after input: results, failure positions,
// steps, label steps and counters must be identical.
//
// Every one-dispatch form of opThenSkip (dead.go thenSkip), and
// opSetTLoadT, must have been in the fused code the runs compared.
func TestAnnotatedBenchmarksFusedMatchesPlain(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	skipName := map[compile.Op]string{opThenSkip: "opThenSkip", opLoadLoadSkip: "opLoadLoadSkip", opLoadSkip: "opLoadSkip",
		opSetTKeep: "opSetTKeep", opJmpIfNotKSkip: "opJmpIfNotKSkip", opSetTLoadT: "opSetTLoadT"}
	skips := map[compile.Op]int{}
	for _, name := range []string{"battery", "docking", "gripper", "temperature"} {
		f, err := syntax.ParseFile(filepath.Join("..", "..", "testdata", "bench", name, name+".plan"))
		if err != nil {
			t.Fatal(err)
		}
		for _, crit := range []string{"mcc,wm", "all", "dist"} {
			c, err := labels.ParseCriteria(crit)
			if err != nil {
				t.Fatal(err)
			}
			res, err := transform.Plan(f, transform.Options{Labels: labels.Options{Criteria: c, MCCMaxAtoms: labels.DefaultMCCMaxAtoms}})
			if err != nil {
				t.Fatal(err)
			}
			af, err := syntax.Parse(name+".annotated", res.Source)
			if err != nil {
				t.Fatal(err)
			}
			p, err := compile.Compile(af)
			if err != nil {
				t.Fatal(err)
			}
			plan := p.Plans()[0]
			for _, lm := range []LabelMode{{Retire: true, FiredOnly: true, SilentRetire: true}, {Retire: true, FiredOnly: true}} {
				fused, plain := fusedAndPlain(t, p, Config{MaxSteps: 5000, Labels: lm})
				rng := rand.New(rand.NewPCG(uint64(len(name)), 7))
				args := make([]value.Value, plan.NumParams())
				for i := 0; i < n; i++ {
					for j := range args {
						args[j] = value.Int(int64(rng.IntN(5000)) - 500)
					}
					res, cnt := runPlanPair(p, plan, [2]*Machine{fused, plain}, args...)
					if res[0] != res[1] || !bytes.Equal(cnt[0], cnt[1]) {
						t.Fatalf("%s %s %+v, input %d %v: fused %s, plain %s, counters equal %v", name, crit, lm, i, args, res[0], res[1], bytes.Equal(cnt[0], cnt[1]))
					}
				}
				if lm.SilentRetire && fused.deadEnd == nil {
					t.Errorf("%s %s: no label retired", name, crit)
				}
				for _, in := range fused.fused {
					if skipName[in.op] != "" {
						skips[in.op]++
					}
				}
			}
		}
	}
	for op, name := range skipName {
		if skips[op] == 0 {
			t.Errorf("no %s in the fused code compared: its differential test proves nothing", name)
		}
	}
}
