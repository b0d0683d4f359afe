package subject

import (
	"context"
	"testing"
	"time"
)

// TestPlanDeadline: a plan's --budget bounds gentests as a whole: the
// campaign gets 19/20 of it (half when z3 solves) and the work after it a
// context that ends with the budget; without a budget nothing is bounded.
func TestPlanDeadline(t *testing.T) {
	for _, c := range []struct {
		budget, campaign time.Duration
		solve            bool
	}{
		{30 * time.Second, 28500 * time.Millisecond, false},
		{30 * time.Second, 15 * time.Second, true},
		{0, 0, true},
	} {
		before := time.Now()
		ctx, cancel := planDeadline(context.Background(), c.budget)
		if campaign := campaignBudget(c.budget, c.solve); campaign != c.campaign {
			t.Errorf("budget %s, solve %v: campaign %s, want %s", c.budget, c.solve, campaign, c.campaign)
		}
		d, ok := ctx.Deadline()
		if ok != (c.budget > 0) || ok && (d.Before(before.Add(c.budget)) || d.After(time.Now().Add(c.budget))) {
			t.Errorf("budget %s: deadline %v (%v), want %s from now", c.budget, d, ok, c.budget)
		}
		cancel()
	}
}
