package subject

import (
	"context"
	"testing"
	"time"
)

// TestPlanDeadline: a plan's --budget bounds gentests as a whole: the
// campaign gets what is left of it less a tenth (less half when z3
// solves), at least 0.1 s, and the solving a context that ends with the
// budget; without a budget nothing is bounded.
func TestPlanDeadline(t *testing.T) {
	for _, c := range []struct {
		budget, left, campaign time.Duration
		solve                  bool
	}{
		{30 * time.Second, 29 * time.Second, 26 * time.Second, false},
		{30 * time.Second, 29 * time.Second, 14 * time.Second, true},
		{30 * time.Second, 2 * time.Second, 100 * time.Millisecond, false},
		{0, 0, 0, true},
	} {
		before := time.Now()
		ctx, cancel := planDeadline(context.Background(), c.budget)
		if campaign := campaignBudget(c.budget, c.left, c.solve); campaign != c.campaign {
			t.Errorf("budget %s, solve %v: campaign %s, want %s", c.budget, c.solve, campaign, c.campaign)
		}
		d, ok := ctx.Deadline()
		if ok != (c.budget > 0) || ok && (d.Before(before.Add(c.budget)) || d.After(time.Now().Add(c.budget))) {
			t.Errorf("budget %s: deadline %v (%v), want %s from now", c.budget, d, ok, c.budget)
		}
		cancel()
	}
}
