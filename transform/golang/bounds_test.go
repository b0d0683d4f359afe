package golang

import (
	"context"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
)

// TestBoundsPruneLikePlans: the Go front end prunes the MCC combinations
// of a range test as the plan front end does, with the same reason
// (issue: Go cover counted the FF of r.Temp > 500 && r.Temp < 530 as
// active and uncovered); a float operand keeps its FF (NaN), and so does a
// range that leaves an integer.
func TestBoundsPruneLikePlans(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": `package m

type Reading struct{ Temp int32 }

func F(temp int32, r Reading, f float64) int {
	if temp > 500 && temp < 530 {
		return 1
	}
	if r.Temp > 500 && r.Temp < 530 {
		return 2
	}
	if f > 500 && f < 530 {
		return 3
	}
	if temp < 5 || temp > 4 {
		return 4
	}
	return 0
}
`})
	res, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, "mcc"), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	mcc := func(line int) map[string]string {
		out := map[string]string{}
		for _, l := range res.Labels {
			if l.Pos.Line == line && l.Criterion == labels.MCC {
				out[l.Operator] = string(l.Status) + " " + l.Reason
			}
		}
		return out
	}
	plan := planMCC(t, "(def-plan p (temp) (when (and (> temp 500) (< temp 530)) 1))")
	goSide := mcc(6)
	if len(plan) != 4 || plan["FF"] != "infeasible no number satisfies temp <= 500 and temp >= 530" {
		t.Fatalf("plan side: %v", plan)
	}
	for op, want := range plan {
		if goSide[op] != want {
			t.Errorf("temp > 500 && temp < 530, %s: Go says %q, plans %q", op, goSide[op], want)
		}
	}
	if got := mcc(9)["FF"]; got != "infeasible no number satisfies r.Temp <= 500 and r.Temp >= 530" {
		t.Errorf("r.Temp FF: %q", got)
	}
	if got := mcc(12)["FF"]; got != "active " {
		t.Errorf("float FF (NaN satisfies it): %q", got)
	}
	// temp < 5 || temp > 4: TT is 4 < temp < 5, empty on integers but not
	// on the reals the bounds reason about: it stays active, FF (5 <= temp
	// <= 4) does not.
	if got := mcc(15); got["TT"] != "active " || got["FF"] != "infeasible no number satisfies temp >= 5 and temp <= 4" {
		t.Errorf("temp < 5 || temp > 4: %v", got)
	}
}

// planMCC is the MCC operator -> "status reason" map of plan src.
func planMCC(t *testing.T, src string) map[string]string {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := transform.Plan(f, transform.Options{Labels: labels.Options{Criteria: crit(t, "mcc")}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range res.Labels.Labels {
		out[l.Operator] = string(l.Status) + " " + l.Reason
	}
	return out
}
