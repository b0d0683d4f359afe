package golang

import (
	"strings"
	"testing"
)

// TestExprParenthesizesTemporaries: a label's Expr writes each temporary
// as the expression it holds, in parentheses where an operator expression
// takes an operand's place (!(x%2 == 0), not !x % 2 == 0, which reads as
// (!x) % 2 == 0); Source, a whole decision, needs none.
func TestExprParenthesizesTemporaries(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": `package m

type C struct{ n int }

func (c *C) Inc() int { c.n++; return c.n }

func F(c *C, x, limit int) bool {
	if x%2 == 0 || c.Inc() > limit*2 {
		return true
	}
	return false
}
`})
	res := annotate(t, dir, "mcdc")
	found := false
	for _, l := range res.Labels {
		if l.Pos.Line != 8 || l.Operator != "FF" {
			continue
		}
		found = true
		if !strings.Contains(l.Predicate, "lc") {
			t.Fatalf("the decision was not normalized into temporaries: %q", l.Predicate)
		}
		if want := "!(x % 2 == 0) && !(c.Inc() > limit * 2)"; l.Expr != want {
			t.Errorf("Expr %q, want %q", l.Expr, want)
		}
		if want := "x % 2 == 0 || c.Inc() > limit * 2"; l.Source != want {
			t.Errorf("Source %q, want %q", l.Source, want)
		}
	}
	if !found {
		t.Fatalf("no mcdc FF label on line 8: %v", res.Labels)
	}
}
