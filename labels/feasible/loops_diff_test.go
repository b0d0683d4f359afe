package feasible_test

import (
	"context"
	"io"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// TestLoopVerdictsSound runs feasible.LoopsPlan on every pair of
// arguments from -1 to 7 with every label active: no label the loop
// bounds (or any analysis) rule out holds, and the look-alikes that keep
// no bound do pass it (their (= X K) -> >= labels hold), so the plan
// exercises what the rules refuse.
func TestLoopVerdictsSound(t *testing.T) {
	f, err := syntax.Parse("t.plan", []byte(feasible.LoopsPlan))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("mcc,cc,wm")
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{Entry: "main"}, normalize.Options{PureFuncs: sim.QueryNames()})
	loopy := 0
	for _, l := range verdicts {
		if l.Status == labels.Infeasible {
			loopy++
		}
	}
	if loopy < 3 {
		t.Fatalf("only %d infeasible verdicts on the loops plan", loopy)
	}
	// As the pipeline normalizes (a test wrapped in (let* () ...)), the
	// retry loop's bound holds.
	for _, l := range p.Active {
		if l.Pos.String() == "t.plan:4:63" && l.Operator == "< -> /=" && verdicts[l.ID] == nil {
			t.Errorf("(> tries *max*) at %s is not ruled out as the pipeline normalizes", l.Pos)
		}
	}
	hits := runMain(t, p, pairGrid(-1, 7))
	checkVerdicts(t, "loops", p, verdicts, hits, "arguments -1..7")
	lookAlikesHold(t, p, hits, "= -> >=", "t.plan:14:19", "t.plan:19:11", "t.plan:27:5", "t.plan:35:5", "t.plan:39:13")
}

// pairGrid is every pair of integer arguments in [lo, hi].
func pairGrid(lo, hi int64) [][]value.Value {
	var argv [][]value.Value
	for a := lo; a <= hi; a++ {
		for b := lo; b <= hi; b++ {
			argv = append(argv, []value.Value{value.Int(a), value.Int(b)})
		}
	}
	return argv
}

// runMain runs the def-plan main of p (no world) on each argument vector
// of argv and returns the counters any run set.
func runMain(t *testing.T, p *pipeline.Annotated, argv [][]value.Value) []bool {
	t.Helper()
	m, err := vm.New(p.Program, vm.Config{Stdout: io.Discard, Builtins: sim.NoWorldBuiltins(), MaxSteps: 1 << 24})
	if err != nil {
		t.Fatal(err)
	}
	fn, err := sim.SelectPlan(p.Program, "main")
	if err != nil {
		t.Fatal(err)
	}
	hits := make([]bool, p.Program.NumCounters())
	for _, args := range argv {
		m.ResetCounters()
		m.Run(context.Background(), fn, args)
		collect(hits, m.Counters())
	}
	return hits
}

// lookAlikesHold fails for each position of at where no active label
// with operator op held: the plan no longer tests what a rule refuses.
func lookAlikesHold(t *testing.T, p *pipeline.Annotated, hits []bool, op string, at ...string) {
	t.Helper()
	for _, pos := range at {
		held := false
		for _, l := range p.Active {
			if l.Pos.String() == pos && l.Operator == op && hits[p.Counter(l.ID, true)] {
				held = true
			}
		}
		if !held {
			t.Errorf("%s: the look-alike's %s label never held: the plan no longer tests what the rules refuse", pos, op)
		}
	}
}
