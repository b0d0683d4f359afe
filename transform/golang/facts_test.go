package golang

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// TestGuardFacts: on testdata/goguards, labels contradicted by the guards
// around them and by their operands' types are infeasible with a reason
// naming both; guards on a shadowed, reassigned or address-taken variable,
// on a field, a loop variable, a named integer or a map's length are not
// trusted (those labels stay
// active). TestInfeasibleNeverCoveredGo (fuzzdriver/gofuzz) runs inputs
// through the same package to check the verdicts.
func TestGuardFacts(t *testing.T) {
	needGo(t)
	dir, err := filepath.Abs("../../testdata/goguards")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, "all"), Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	status := func(line int, k labels.Key, op string) (labels.Status, string) {
		for _, l := range res.Labels {
			if l.Pos.Line == line && l.Criterion == k && l.Operator == op {
				return l.Status, l.Reason
			}
		}
		t.Fatalf("no %s %s label on line %d", k, op, line)
		return "", ""
	}
	for _, c := range []struct {
		line   int
		k      labels.Key
		op     string
		want   labels.Status
		reason string
	}{
		// After `if n < 0 { return -1 }`, in `if n > 0`: the outer n.
		{18, labels.WMROR, "> -> !=", labels.Infeasible, "no number satisfies n < 0 and n >= 0 (where it is evaluated, !(n < 0))"},
		{19, labels.WMABS, "x -> 0", labels.Infeasible, "no number satisfies n == 0 and n >= 0 and n > 0 (where it is evaluated, !(n < 0) and n > 0)"},
		// The shadowing n := -n.
		{20, labels.CC, "true", labels.Active, ""},
		// m reassigned after its guard; a's address taken; a field.
		{29, labels.CC, "true", labels.Active, ""},
		{37, labels.CC, "true", labels.Active, ""},
		{43, labels.CC, "true", labels.Active, ""},
		// A loop variable: i > 5 and its ABS labels.
		{48, labels.WMABS, "x -> abs(x)", labels.Active, ""},
		// k > 200 around k < 250 && k != 0; k is a uint8.
		{53, labels.MCC, "FF", labels.Infeasible, "no number satisfies k >= 250 and k == 0"},
		{53, labels.WMROR, "!= -> >=", labels.Infeasible, "no number satisfies k < 250 and k <= 0 and k >= 0 (uint8 is unsigned) and k <= 255 (the greatest uint8) and k > 200 (where it is evaluated, k > 200)"},
		{53, labels.MCC, "TT", labels.Active, ""},
		{53, labels.WMROR, "!= -> >", labels.Infeasible, "k < 0"},
		// A named integer a pointer method changes; a map's length.
		{78, labels.CC, "true", labels.Active, ""},
		{86, labels.CC, "true", labels.Active, ""},
		// No string is less than "".
		{60, labels.CC, "true", labels.Infeasible, `no string is less than "": s < ""`},
		{60, labels.CC, "false", labels.Active, ""},
	} {
		st, why := status(c.line, c.k, c.op)
		if st != c.want || !strings.Contains(why, c.reason) {
			t.Errorf("line %d %s %s: %s %q, want %s with %q", c.line, c.k, c.op, st, why, c.want, c.reason)
		}
	}
}
