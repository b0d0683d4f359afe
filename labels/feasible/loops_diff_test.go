package feasible_test

import (
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
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
	hits := gridHits(t, p, -1, 7)
	checkVerdicts(t, "loops", p, verdicts, hits, "arguments -1..7")
	for _, at := range []string{"t.plan:14:19", "t.plan:19:11", "t.plan:27:5", "t.plan:35:5", "t.plan:39:13"} {
		held := false
		for _, l := range p.Active {
			if l.Pos.String() == at && l.Operator == "= -> >=" && hits[p.Counter(l.ID, true)] {
				held = true
			}
		}
		if !held {
			t.Errorf("%s: the look-alike's (= X K) -> >= label never held: the plan no longer tests what the rules refuse", at)
		}
	}
}
