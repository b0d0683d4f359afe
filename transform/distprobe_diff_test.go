package transform

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// TestCompareProbesMatchBlocks is the differential test of the compare
// probes (compile.ProbeCmp: the dist rung's, Cmp 'd', the ladder sharing
// one distance in a probe group; the expression probe, Cmp 'x'; the
// others): random plans annotated with dist and with all the other
// criteria run as compiled and with every label's predicate P written
// (progn P), which the compiler does not recognise and compiles as a
// general PROBE block.
// Both must give the same outcome, value, output, failure and steps,
// cover the same labels and leave the same counters on the plan's own
// instructions and branches, run after run, with every label mode (the
// built-in engine's retiring labels as they fire).
func TestCompareProbesMatchBlocks(t *testing.T) {
	plans, argsPer := 10, 25 // about a second
	if testing.Short() {
		plans = 6
	}
	engine := vm.LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}
	modes := []vm.LabelMode{{}, {Retire: true}, {FiredOnly: true}, engine}
	rungs, exprs, compared := 0, 0, 0
	for seed := range plans {
		g := &planGen{r: rand.New(rand.NewPCG(uint64(seed), 29))}
		src := g.plan()
		crit := "dist"
		if seed%2 == 1 {
			crit = "all"
		}
		r := annotate(t, "gen.plan", src, crit)
		fused := parseCompile(t, r.Source, false)
		blocks := parseCompile(t, r.Source, true)
		for pc, op := range fused.Code {
			if op == compile.PROBECMP && fused.Probes[fused.A[pc]].Cmp == 'd' {
				rungs++
			}
			if op == compile.PROBECMP && fused.Probes[fused.A[pc]].Cmp == 'x' {
				exprs++
			}
		}
		for _, op := range blocks.Code {
			if op == compile.PROBECMP || op == compile.PROBEGUARD {
				t.Fatalf("seed %d: a predicate written (progn P) compiled to a compare probe", seed)
			}
		}
		for _, lm := range modes {
			ms := [2]*vm.Machine{}
			outs := [2]*bytes.Buffer{{}, {}}
			for i, p := range []*compile.Program{fused, blocks} {
				m, err := vm.New(p, vm.Config{Stdout: outs[i], MaxSteps: 1_000_000, Labels: lm})
				if err != nil {
					t.Fatal(err)
				}
				ms[i] = m
			}
			ar := rand.New(rand.NewPCG(uint64(seed), 30))
			for range argsPer {
				args := []value.Value{value.Int(ar.Int64N(41) - 20), value.Int(ar.Int64N(41) - 20)}
				var got [2]string
				for i, p := range []*compile.Program{fused, blocks} {
					ms[i].ResetCounters()
					outs[i].Reset()
					res := ms[i].Run(context.Background(), p.Plan("main"), args)
					f := ""
					if res.Failure != nil {
						f = res.Failure.Kind + ": " + res.Failure.Message
					}
					got[i] = fmt.Sprintf("%s %s %q %s steps=%d counters=%v", res.Outcome, res.Value, outs[i].String(), f, res.Steps, planCounters(p, ms[i].Counters()))
				}
				compared++
				if got[0] != got[1] {
					t.Fatalf("seed %d, %+v, args %v:\ncompare probes %s\nPROBE blocks   %s\nplan:\n%s", seed, lm, args, got[0], got[1], r.Source)
				}
			}
		}
	}
	if rungs == 0 || exprs == 0 {
		t.Fatalf("%d dist rungs and %d expression probes compiled to compare probes", rungs, exprs)
	}
	t.Logf("%d plans, %d dist rungs and %d expression probes, %d runs compared", plans, rungs, exprs, compared)
}

// parseCompile compiles src; with blocks, every label's predicate P in
// (when (ignore-errors P)) is first written (progn P), so that it
// compiles to a PROBE block.
func parseCompile(t *testing.T, src []byte, blocks bool) *compile.Program {
	t.Helper()
	f, err := syntax.Parse("gen.plan", src)
	if err != nil {
		t.Fatal(err)
	}
	if blocks {
		for _, form := range f.Forms {
			syntax.Walk(form, func(n syntax.Node) bool {
				if l, ok := n.(*syntax.List); ok && syntax.Head(l) == "ignore-errors" && len(l.Elems) == 2 {
					p := l.Elems[1]
					l.Elems[1] = &syntax.List{Open: l.Open, Close: l.Close, Elems: []syntax.Node{&syntax.Symbol{Name: "progn"}, p}}
					return false
				}
				return true
			})
		}
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// planCounters are the counters a label-blind reader compares: the
// label branches' (PROBECMP, PROBEOK) and the plan's own instructions'
// and branches', in code order, without the instructions of the probes
// and the branches inside a PROBE block's predicate.
func planCounters(p *compile.Program, cnt []uint8) []uint8 {
	inBlock := make([]bool, len(p.Code))
	probe := make([]bool, len(p.Code))
	open := false
	for pc, op := range p.Code {
		switch op {
		case compile.PROBE:
			open = true
		case compile.PROBEOK:
			open = false
		}
		inBlock[pc] = open && op != compile.PROBE
		probe[pc] = open || slices.Contains([]compile.Op{compile.PROBE, compile.PROBEOK, compile.PROBEFAIL, compile.PROBECMP, compile.PROBEGUARD}, op)
	}
	branchAt := map[int]int{}
	for b := 0; b < p.NumBranches(); b++ {
		branchAt[p.Branch(b).PC] = b
	}
	var out []uint8
	for pc := range p.Code {
		if !probe[pc] {
			out = append(out, cnt[pc])
		}
		if b, ok := branchAt[pc]; ok && !inBlock[pc] {
			out = append(out, cnt[p.BranchCounter(b, true)], cnt[p.BranchCounter(b, false)])
		}
	}
	return out
}
