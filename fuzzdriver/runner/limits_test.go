package runner

import "testing"

func TestLimitsCheck(t *testing.T) {
	for _, c := range []struct {
		l    Limits
		want string
	}{
		{Limits{MaxSteps: 1, MaxObjects: 1}, ""},
		{Limits{MaxSteps: 0, MaxObjects: 1}, "--max-steps must be positive, got 0"},
		{Limits{MaxSteps: -5, MaxObjects: 0}, "--max-steps must be positive, got -5"},
		{Limits{MaxSteps: 10, MaxObjects: -1}, "--max-objects must be positive, got -1"},
	} {
		err := c.l.Check()
		if got := ""; err != nil {
			got = err.Error()
			if got != c.want {
				t.Errorf("%+v: %q, want %q", c.l, got, c.want)
			}
		} else if c.want != "" {
			t.Errorf("%+v: accepted, want %q", c.l, c.want)
		}
	}
}
