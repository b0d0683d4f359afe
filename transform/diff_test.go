package transform

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// planGen writes random plans full of side effects inside conditions:
// assignments, an impure user function that prints and bumps a global,
// divisions that may fail, loops whose tests have effects.
type planGen struct{ r *rand.Rand }

func (g *planGen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *planGen) leaf() string {
	if g.r.IntN(3) == 0 {
		return fmt.Sprint(g.r.IntN(7) - 3)
	}
	return g.pick("x", "y", "*g*")
}

func (g *planGen) expr(d int) string {
	if d <= 0 || g.r.IntN(4) == 0 {
		return g.leaf()
	}
	e := func() string { return g.expr(d - 1) }
	switch g.r.IntN(12) {
	case 0:
		return "(+ " + e() + " " + e() + ")"
	case 1:
		return "(- " + e() + " " + e() + ")"
	case 2:
		return "(* " + e() + " " + e() + ")"
	case 3:
		return "(- " + e() + ")"
	case 4:
		return g.pick("(incf x)", "(decf y 2)", "(incf *g*)")
	case 5:
		return "(setq " + g.pick("x", "y") + " " + e() + ")"
	case 6:
		return "(f " + e() + ")"
	case 7:
		return "(dbl " + e() + ")"
	case 8:
		return "(if " + g.cond(d-1) + " " + e() + " " + e() + ")"
	case 9:
		return "(/ " + e() + " " + e() + ")"
	case 10:
		return "(let ((k " + e() + ")) (* k " + e() + "))"
	}
	return "(max " + e() + " " + e() + ")"
}

func (g *planGen) cond(d int) string {
	e := func() string { return g.expr(d - 1) }
	c := func() string { return g.cond(d - 1) }
	if d <= 0 {
		return "(" + g.pick("<", ">", "=", "/=", "<=", ">=") + " " + g.leaf() + " " + g.leaf() + ")"
	}
	switch g.r.IntN(9) {
	case 0, 1, 2:
		return "(" + g.pick("<", ">", "=", "/=", "<=", ">=") + " " + e() + " " + e() + ")"
	case 3:
		return "(and " + c() + " " + c() + ")"
	case 4:
		return "(or " + c() + " " + c() + " " + c() + ")"
	case 5:
		return "(not " + c() + ")"
	case 6:
		return "(evenp " + e() + ")"
	case 7:
		return "(f " + c() + ")"
	}
	return g.pick("x", "(incf y)", "*g*")
}

func (g *planGen) stmt(d int) string {
	c := func() string { return g.cond(d) }
	e := func() string { return g.expr(d) }
	switch g.r.IntN(6) {
	case 0:
		return "(if " + c() + " (setq x " + e() + ") (setq y " + e() + "))"
	case 1:
		return "(when " + c() + " (incf *g*))"
	case 2:
		return "(unless " + c() + " (print " + e() + "))"
	case 3:
		return "(cond (" + c() + " " + e() + ") (" + c() + " (setq x " + e() + ")) (t " + e() + "))"
	case 4:
		return "(let ((k 0)) (while (and (< k 3) " + c() + ") (incf k) (setq x " + e() + ")))"
	}
	return "(setq y " + e() + ")"
}

func (g *planGen) plan() string {
	var b strings.Builder
	b.WriteString("(defparameter *g* 0)\n(defun f (v) (incf *g*) (format t \"f~a \" v) v)\n(defun dbl (v) (* v 2))\n(def-plan main (x y)\n")
	for i, n := 0, 2+g.r.IntN(4); i < n; i++ {
		b.WriteString("  " + g.stmt(3) + "\n")
	}
	b.WriteString("  (list x y *g*))\n")
	return b.String()
}

type runOutcome struct {
	Outcome vm.Outcome
	Value   string
	Output  string
	Failure string
	// Steps charged: label probes are free, so an annotated plan takes
	// exactly the steps of the plan it was annotated from (the normalized
	// plan when normalize hoisted effects).
	Steps int64
}

type machine struct {
	prog *compile.Program
	m    *vm.Machine
	out  *bytes.Buffer
	// at is where the last run's failure happened (in the program's
	// text); positions maps it to the original plan (annotated plans).
	at        srcpos.Pos
	positions *srcpos.Map
}

func newMachine(t testing.TB, src []byte) *machine {
	t.Helper()
	f, err := syntax.Parse("gen.plan", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	out := &bytes.Buffer{}
	m, err := vm.New(p, vm.Config{Stdout: out, MaxSteps: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	return &machine{prog: p, m: m, out: out}
}

func (mc *machine) run(args ...int64) runOutcome {
	mc.m.ResetCounters()
	vs := make([]value.Value, len(args))
	for i, a := range args {
		vs[i] = value.Int(a)
	}
	return mc.runValues(vs)
}

// coveredLabels reads label coverage from the VM's branch counters: a
// label is covered when the test of its when was true.
func (mc *machine) coveredLabels(m *labels.Manifest) map[int]bool {
	byOff := m.ByAnnotatedOffset()
	cov := map[int]bool{}
	cs := mc.m.Counters()
	for i := 0; i < mc.prog.NumBranches(); i++ {
		b := mc.prog.Branch(i)
		if ids, ok := byOff[b.Form.Offset]; ok && b.Head == "when" && cs[mc.prog.BranchCounter(i, true)] > 0 {
			for _, id := range ids {
				cov[id] = true
			}
		}
	}
	return cov
}

// TestDifferential: original, normalized and annotated plans (each
// criterion alone and all together) give the same outcome, value, output
// and failure on random plans and random arguments.
func TestDifferential(t *testing.T) {
	plans, argsPer := 40, 25
	if testing.Short() {
		plans = 8
	}
	crits := []string{"mcc", "cc", "wm:abs", "wm:aor", "wm:cor", "wm:ror", "dist", "all"}
	runs, steps, labelsSeen, printed, mapped := 0, 0, 0, 0, 0
	outcomes := map[vm.Outcome]int{}
	for seed := range plans {
		g := &planGen{r: rand.New(rand.NewPCG(uint64(seed), 4))}
		src := g.plan()
		orig := newMachine(t, []byte(src))
		// Each annotated plan with the normalized plan it was annotated
		// from: the normalized plan depends on the criteria when MCC
		// labels share atoms (labels.SharedAtoms declares globals).
		variants := map[string]*machine{}
		for _, c := range crits {
			r := annotate(t, "gen.plan", src, c)
			variants["annotated "+c] = newMachine(t, r.Source)
			variants["annotated "+c].positions = r.Positions
			variants["normalized "+c] = newMachine(t, r.Normalized.Source)
			labelsSeen += len(r.Labels.Active())
		}
		names := make([]string, 0, len(variants))
		for n := range variants {
			names = append(names, n)
		}
		sort.Strings(names)
		ar := rand.New(rand.NewPCG(uint64(seed), 99))
		for range argsPer {
			x, y := ar.Int64N(21)-10, ar.Int64N(21)-10
			want := orig.run(x, y)
			outcomes[want.Outcome]++
			if want.Output != "" {
				printed++
			}
			for _, n := range names {
				runs++
				// Steps included: normalize's temporaries cost none
				// (compile.SETT, LOADT, SKIPT, ...) and labels none
				// either. One exception: normalize binds a costly pure
				// call ahead of the cheap arguments before it, so when
				// one of those fails, the annotated plan has made the
				// call first (same outcome, output and trace; more
				// steps). Failures compare everything else.
				got := variants[n].run(x, y)
				if want.Outcome == vm.OutcomeFailure && got.Outcome == want.Outcome {
					got.Steps = want.Steps
				} else {
					steps++
				}
				if got != want {
					t.Fatalf("seed %d args (%d %d): %s differs\noriginal: %+v\n%s:  %+v\nplan:\n%s", seed, x, y, n, want, n, got, src)
				}
				// The annotation's map names the original's failure
				// position, without running the original.
				if v := variants[n]; v.positions != nil && want.Outcome != vm.OutcomeOK {
					mapped++
					if at := v.positions.Original(v.at); at != orig.at {
						t.Fatalf("seed %d args (%d %d): %s failed at %s (%s in the annotated plan), the original at %s\nplan:\n%s", seed, x, y, n, at, v.at, orig.at, src)
					}
				}
			}
		}
	}
	if steps < runs/2 {
		t.Errorf("only %d of %d runs compared steps", steps, runs)
	}
	t.Logf("%d plans, %d runs compared (%d with steps, %d failure positions mapped), %d active labels; original outcomes %v, %d runs printed", plans, runs, steps, mapped, labelsSeen, outcomes, printed)
	if mapped == 0 {
		t.Error("no failure position mapped")
	}
	if outcomes[vm.OutcomeOK] == 0 || outcomes[vm.OutcomeFailure] == 0 || printed == 0 {
		t.Errorf("generator too narrow: outcomes %v, printed %d", outcomes, printed)
	}
}

// TestBranchCountersShowLabelCoverage runs an annotated plan and reads
// each label's coverage back from the VM's branch counters.
func TestBranchCountersShowLabelCoverage(t *testing.T) {
	r := annotate(t, "t.plan", "(def-plan main (x) (if (< x 10) 1 2))", "all")
	m := r.Manifest("t.plan")
	mc := newMachine(t, r.Source)
	if o := mc.run(3); o.Value != "1" {
		t.Fatalf("run: %+v", o)
	}
	cov := mc.coveredLabels(m)
	var got []string
	for _, l := range m.Active() {
		if cov[l.ID] {
			got = append(got, string(l.Criterion)+" "+l.Predicate)
		}
	}
	want := []string{
		"cc (< x 10)", "mcc (< x 10)",
		"wm-ror (/= x 10)", "wm-ror (<= x 10)",
		"wm-abs (> x 0)",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("covered with x=3:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every active label is a when branch of the compiled plan.
	labelled := 0
	byOff := m.ByAnnotatedOffset()
	for i := 0; i < mc.prog.NumBranches(); i++ {
		labelled += len(byOff[mc.prog.Branch(i).Form.Offset])
	}
	if labelled != len(m.Active()) {
		t.Errorf("%d labels on branches for %d active labels", labelled, len(m.Active()))
	}
	// A second input covers the other side.
	mc.m.ResetCounters()
	mc.run(-10)
	cov = mc.coveredLabels(m)
	n := 0
	for _, l := range m.Active() {
		if cov[l.ID] {
			n++
		}
	}
	if n != 5 { // cc true, mcc T, (/= x 10), (<= x 10), (< x 0)
		t.Errorf("x=-10 covers %d labels, want 5", n)
	}
}

// TestDifferentialBundledPlans annotates the plans in testdata/plans (no
// world needed) with every criterion and compares runs.
func TestDifferentialBundledPlans(t *testing.T) {
	args := map[string][][]value.Value{
		"fib.plan":            {{value.Int(0)}, {value.Int(1)}, {value.Int(12)}},
		"loop.plan":           {{value.Int(0)}, {value.Int(50)}},
		"forms.plan":          {{}},
		"pick-and-place.plan": {{value.Symbol("box1"), value.Symbol("shelf")}, {value.Symbol("cup"), value.Keyword("table")}},
	}
	for name, argSets := range args {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "plans", name))
		if err != nil {
			t.Fatal(err)
		}
		orig := newMachine(t, src)
		r := annotate(t, name, string(src), "all")
		if len(r.Labels.Active()) == 0 && name != "forms.plan" {
			t.Errorf("%s: no labels", name)
		}
		for _, v := range []struct {
			kind string
			src  []byte
		}{{"normalized", r.Normalized.Source}, {"annotated", r.Source}} {
			mc := newMachine(t, v.src)
			for _, a := range argSets {
				want, got := orig.runValues(a), mc.runValues(a)
				if want != got {
					t.Errorf("%s %s %v:\noriginal %+v\n%s %+v", name, v.kind, a, want, v.kind, got)
				}
			}
		}
	}
}

func (mc *machine) runValues(args []value.Value) runOutcome {
	mc.out.Reset()
	res := mc.m.Run(context.Background(), mc.prog.Plan("main"), args)
	o := runOutcome{Outcome: res.Outcome, Value: res.Value.String(), Output: mc.out.String(), Steps: res.Steps}
	mc.at = res.Failure.At()
	if res.Failure != nil {
		o.Value, o.Failure = "", res.Failure.Kind+": "+res.Failure.Message
	}
	return o
}

// TestSharedAtomsCoverAlike: MCC labels that read their atoms from the
// globals one probe computes (labels.SharedAtoms, when calls are hoisted)
// are covered on exactly the runs where the same labels evaluating their
// atoms themselves (KeepCalls) are, on random plans whose decisions call
// functions in lazy and/or operands, some failing.
func TestSharedAtomsCoverAlike(t *testing.T) {
	plans := 30 // about a second; fewer plans may miss decisions that share atoms
	c, err := labels.ParseCriteria("mcc")
	if err != nil {
		t.Fatal(err)
	}
	shared, compared := 0, 0
	for seed := range plans {
		g := &planGen{r: rand.New(rand.NewPCG(uint64(seed), 7))}
		src := g.plan()
		f, err := syntax.Parse("gen.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var rs [2]*Result
		var ms [2]*machine
		for i, keep := range []bool{false, true} {
			rs[i], err = Plan(f, Options{Labels: labels.Options{Criteria: c}, KeepCalls: keep})
			if err != nil {
				t.Fatal(err)
			}
			ms[i] = newMachine(t, rs[i].Source)
		}
		for _, l := range rs[0].Labels.Labels {
			if l.Shared != nil {
				shared++
			}
		}
		if len(rs[0].Labels.Active()) != len(rs[1].Labels.Active()) {
			t.Fatalf("seed %d: %d labels with shared atoms, %d without", seed, len(rs[0].Labels.Active()), len(rs[1].Labels.Active()))
		}
		ar := rand.New(rand.NewPCG(uint64(seed), 11))
		for range 20 {
			x, y := ar.Int64N(21)-10, ar.Int64N(21)-10
			var cov [2]map[int]bool
			for i := range ms {
				ms[i].run(x, y)
				cov[i] = ms[i].coveredLabels(rs[i].Manifest("gen.plan"))
			}
			for _, l := range rs[0].Labels.Active() {
				compared++
				if cov[0][l.ID] != cov[1][l.ID] {
					t.Fatalf("seed %d args (%d %d): label %d %s covered %v with shared atoms, %v without\nplan:\n%s\nannotated:\n%s",
						seed, x, y, l.ID, l.Operator, cov[0][l.ID], cov[1][l.ID], src, rs[0].Source)
				}
			}
		}
	}
	if shared == 0 || compared == 0 {
		t.Fatalf("no label read shared atoms (%d compared): the generator misses the case", compared)
	}
	t.Logf("%d labels read shared atoms; %d label coverages compared", shared, compared)
}
