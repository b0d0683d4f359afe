package transform_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/srcpos"
	"github.com/labelcov/labelcov/normalize"
	"github.com/labelcov/labelcov/transform"
)

// TestDifferentialBenchmarkPlans is the semantic-preservation proof on the
// bundled benchmark plans: for every plan and every criterion, the original
// and the annotated plan give the same outcome, result, failure, printed
// output, action trace, check verdicts and final world on many seeded
// generated environments (or argument vectors, for plans without a world).
func TestDifferentialBenchmarkPlans(t *testing.T) {
	n := 600 // per plan and criterion: 2,400 inputs per plan
	if testing.Short() {
		n = 60
	}
	dirs, err := filepath.Glob("../testdata/bench/*/truth.json")
	if err != nil || len(dirs) < 5 {
		t.Fatalf("benchmark folders: %v (%d)", err, len(dirs))
	}
	for _, truth := range dirs {
		dir := filepath.Dir(truth)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			planPath := filepath.Join(dir, name+".plan")
			f := parsePlanFile(t, planPath)
			diffAgainstOriginal(t, planPath, f, benchWorld(t, truth), []string{"mcc", "cc", "wm", "all"}, n)
		})
	}
}

// annotateAsFuzz annotates f with the criteria crit as labelcov fuzz
// does (simulator queries pure).
func annotateAsFuzz(t *testing.T, f *syntax.File, crit string) *transform.Result {
	t.Helper()
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	res, err := transform.Plan(f, transform.Options{
		Labels:    labels.Options{Criteria: c, MCCMaxAtoms: labels.DefaultMCCMaxAtoms},
		Normalize: normalize.Options{PureFuncs: sim.QueryNames()},
	})
	if err != nil {
		t.Fatalf("%s: %v", crit, err)
	}
	return res
}

// parsePlanFile reads and parses the plan file at path.
func parsePlanFile(t *testing.T, path string) *syntax.File {
	t.Helper()
	f, err := syntax.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// diffAgainstOriginal annotates f (read from planPath) for each criterion
// and checks on n generated inputs that the original, the normalized and
// the annotated plan give the same run (see diffRunner.run).
func diffAgainstOriginal(t *testing.T, planPath string, f *syntax.File, world *sim.World, crits []string, n int) {
	t.Helper()
	name := strings.TrimSuffix(filepath.Base(planPath), filepath.Ext(planPath))
	for _, crit := range crits {
		res := annotateAsFuzz(t, f, crit)
		af, err := syntax.Parse(planPath+"."+crit+".annotated", res.Source)
		if err != nil {
			t.Fatalf("%s: annotated plan does not parse: %v", crit, err)
		}
		orig, ann := newDiffRunner(t, f, world), newDiffRunner(t, af, world)
		ann.positions = res.Positions
		// The annotated plan as the fuzzers run it: labels fire only,
		// retire (silently for the built-in engine), and the fused
		// code skips them (interp/vm, "Label probes in fuzzing
		// processes"): still the original's run, input after input.
		fuzzing := []*diffRunner{
			newDiffRunnerLabels(t, af, world, vm.LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}),
			newDiffRunnerLabels(t, af, world, vm.LabelMode{Retire: true, FiredOnly: true}),
		}
		// Label probes are not charged steps, nor are normalize's
		// temporaries (compile.SETT, LOADT), so the annotated and
		// the normalized plan take exactly the original's steps;
		// the rendered runs below include them.
		var norm *diffRunner
		if res.Normalized.Changed() {
			nf, err := syntax.Parse(planPath+".normalized", res.Normalized.Source)
			if err != nil {
				t.Fatal(err)
			}
			norm = newDiffRunner(t, nf, world)
		}
		rng := rand.New(rand.NewPCG(uint64(len(name)), 0x5eed))
		differ := 0
		for i := 0; i < n && differ < 3; i++ {
			input := orig.input(rng)
			a, b := orig.run(input), ann.run(input)
			if norm != nil {
				if c := norm.run(input); c != b {
					differ++
					t.Errorf("%s, criteria %s, input %x: normalized and annotated differ\n--- normalized\n%s\n--- annotated\n%s",
						name, crit, input, c, b)
				}
			}
			if a != b {
				differ++
				t.Errorf("%s, criteria %s, input %x: original and annotated differ\n--- original\n%s\n--- annotated\n%s",
					name, crit, input, a, b)
			} else if !slices.Equal(orig.where, ann.where) {
				// The annotation's map names the original's positions.
				differ++
				t.Errorf("%s, criteria %s, input %x: failures at %v in the original, mapped from the annotated plan to %v",
					name, crit, input, orig.where, ann.where)
			}
			for k, fz := range fuzzing {
				if c := fz.run(input); c != a {
					differ++
					t.Errorf("%s, criteria %s, input %x: original and annotated (fuzzing labels %d) differ\n--- original\n%s\n--- annotated\n%s",
						name, crit, input, k, a, c)
				}
			}
		}
	}
}

// benchWorld loads the world a benchmark's truth.json names, or nil.
func benchWorld(t *testing.T, truthPath string) *sim.World {
	data, err := os.ReadFile(truthPath)
	if err != nil {
		t.Fatal(err)
	}
	var truth struct {
		World string `json:"world"`
	}
	if err := json.Unmarshal(data, &truth); err != nil {
		t.Fatal(err)
	}
	if truth.World == "" {
		return nil
	}
	w, err := sim.LoadWorld(filepath.Join(filepath.Dir(truthPath), truth.World))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// diffRunner runs one plan on generated inputs and renders everything
// observable about a run as text.
type diffRunner struct {
	world  *sim.World
	runner *sim.Runner // with a world
	prog   *compile.Program
	plan   *compile.Func
	m      *vm.Machine // without a world
	out    bytes.Buffer
	// where are the positions of the last run's failure and failed
	// checks, mapped to the original plan through positions (set for an
	// annotated plan).
	where     []srcpos.Pos
	positions *srcpos.Map
}

func newDiffRunner(t *testing.T, f *syntax.File, w *sim.World) *diffRunner {
	return newDiffRunnerLabels(t, f, w, vm.LabelMode{})
}

// newDiffRunnerLabels is newDiffRunner with labels counting as lm says:
// with retirement, labels retire from one run to the next.
func newDiffRunnerLabels(t *testing.T, f *syntax.File, w *sim.World, lm vm.LabelMode) *diffRunner {
	t.Helper()
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	d := &diffRunner{world: w, prog: p}
	if w != nil {
		d.runner, err = sim.NewRunner(p, w, sim.Options{Stdout: &d.out, Labels: lm})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if d.plan, err = sim.SelectPlan(p, ""); err != nil {
		t.Fatal(err)
	}
	if d.m, err = vm.New(p, vm.Config{Stdout: &d.out, Builtins: sim.NoWorldBuiltins(), Labels: lm}); err != nil {
		t.Fatal(err)
	}
	return d
}

// input draws a byte string for one to eight objects, or argument values
// spread over a range where the temperature-style decisions change.
func (d *diffRunner) input(rng *rand.Rand) []byte {
	if d.world != nil {
		b := make([]byte, d.world.BytesPerObject()*(1+rng.IntN(8)))
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		return b
	}
	b := make([]byte, 8*d.plan.NumParams())
	for i := 0; i < d.plan.NumParams(); i++ {
		binary.LittleEndian.PutUint64(b[8*i:], uint64(int64(rng.IntN(200)-60)))
	}
	return b
}

func (d *diffRunner) run(input []byte) string {
	d.out.Reset()
	var b strings.Builder
	if d.world != nil {
		res := d.runner.RunBytes(context.Background(), input)
		writeVM(&b, res.VM)
		d.where = append(d.where[:0], d.positions.Original(res.VM.Failure.At()))
		for _, c := range res.CheckErrors {
			d.where = append(d.where, d.positions.Original(c.Pos))
		}
		fmt.Fprintf(&b, "output %q\nerrors %v\n", d.out.String(), res.Errors)
		for _, c := range res.CheckErrors {
			fmt.Fprintf(&b, "check %s failed: %s %s\n", c.Check, c.Kind, c.Message)
		}
		for i := range res.Actions {
			b.WriteString(res.Actions[i].String() + "\n")
		}
		b.WriteString(d.runner.State().Snapshot())
		return b.String()
	}
	args := make([]value.Value, d.plan.NumParams())
	for i := range args {
		args[i] = value.Int(int64(binary.LittleEndian.Uint64(input[8*i:])))
	}
	d.m.ResetCounters() // retires labels, as a fuzzing target does
	r := d.m.Run(context.Background(), d.plan, args)
	writeVM(&b, r)
	d.where = append(d.where[:0], d.positions.Original(r.Failure.At()))
	fmt.Fprintf(&b, "output %q\n", d.out.String())
	return b.String()
}

// writeVM renders a VM result with its step count (label probes are not
// charged) and without failure positions (they point into different
// files).
func writeVM(b *strings.Builder, r vm.Result) {
	fmt.Fprintf(b, "outcome %s\nsteps %d\n", r.Outcome, r.Steps)
	if r.Outcome == vm.OutcomeOK {
		fmt.Fprintf(b, "value %s\n", r.Value)
	} else if r.Failure != nil {
		fmt.Fprintf(b, "failure %s: %s\n", r.Failure.Kind, r.Failure.Message)
	}
}

// TestSharedAtomGlobalsCostNoSteps: the globals of labels' shared atoms
// are declared without initialisation, so the annotated plan's global
// initialiser takes the original's steps exactly (it used to take two or
// three more per global, every run).
func TestSharedAtomGlobalsCostNoSteps(t *testing.T) {
	planPath := filepath.Join("..", "testdata", "bench", "docking", "docking.plan")
	f := parsePlanFile(t, planPath)
	res := annotateAsFuzz(t, f, "mcc,wm")
	if len(res.Labels.Globals) == 0 {
		t.Fatal("docking's mcc labels share no atoms: the test proves nothing")
	}
	initSteps := func(name string, src []byte) int64 {
		af, err := syntax.Parse(name, src)
		if err != nil {
			t.Fatal(err)
		}
		p, err := compile.Compile(af)
		if err != nil {
			t.Fatal(err)
		}
		m, err := vm.New(p, vm.Config{})
		if err != nil {
			t.Fatal(err)
		}
		r := m.Call(context.Background(), p.Init, nil)
		if r.Outcome != vm.OutcomeOK {
			t.Fatalf("%s: initialiser: %v", name, r.Failure)
		}
		for _, g := range res.Labels.Globals {
			if _, bound := m.Global(g); bound && name != "original" {
				t.Errorf("%s: %s is bound before any probe assigned it", name, g)
			}
		}
		return r.Steps
	}
	orig := initSteps("original", f.Src)
	for name, src := range map[string][]byte{"annotated": res.Source, "normalized": res.Normalized.Source} {
		if got := initSteps(name, src); got != orig {
			t.Errorf("%s plan's initialiser takes %d steps, the original's %d", name, got, orig)
		}
	}
}
