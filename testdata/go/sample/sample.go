// Package sample exercises the Go front end of labelcov: decisions with
// calls, else-if chains, loops, switches, indexing, pointers and division.
package sample

import (
	"errors"
	"strings"
)

// Counter counts calls, so tests see when a condition's call runs twice.
type Counter struct {
	N    int
	Next *Counter
}

// Inc counts and returns the new count.
func (c *Counter) Inc() int {
	c.N++
	return c.N
}

// Classify is a temperature-range style decision.
func Classify(t, lo, hi int) string {
	// comments survive annotation
	if t < lo {
		return "cold"
	} else if t > hi && hi-lo > 10 {
		return "hot"
	} else if t == (lo+hi)/2 {
		return "mid"
	}
	return "ok"
}

// Drain calls Inc in conditions: the calls must run exactly as often.
func Drain(c *Counter, limit int) int {
	steps := 0
	for c.Inc() < limit && steps < 100 {
		steps++
	}
	if x := c.Inc(); x%2 == 0 || c.Inc() > limit*2 {
		steps += x
	}
	return steps
}

// Pick indexes and dereferences under guards.
func Pick(xs []int, i int, p *Counter) int {
	if i >= 0 && i < len(xs) && xs[i] > 3 {
		return xs[i]
	}
	if p != nil && p.N > 0 && p.Next != nil && p.Next.N < 0 {
		return -p.Next.N
	}
	return 0
}

// Ratio divides, guarding the divisor itself.
func Ratio(a, b int) (int, error) {
	if b == 0 {
		return 0, errors.New("zero")
	}
	q := a / b
	r := a - q*b
	return q + r, nil
}

// Kind switches with a tag and without.
func Kind(s string, n int) string {
	switch strings.ToLower(s) {
	case "a", "b":
		return "ab"
	case "c":
		return "c"
	}
	switch {
	case n < 0 && -n > 10:
		return "very negative"
	case n < 0:
		return "negative"
	case n > 100:
		fallthrough
	case n > 10:
		return "big"
	}
	return "small"
}

// Sum adds floats and checks them.
func Sum(xs []float64) (float64, bool) {
	var s float64
	for i := 0; i < len(xs); i++ {
		s += xs[i] * 1.5
	}
	return s, s > 10.0
}

// Words counts words longer than n, using a closure.
func Words(text string, n int) int {
	long := func(w string) bool { return len(w) > n && !strings.HasPrefix(w, "#") }
	count := 0
	for _, w := range strings.Fields(text) {
		if long(w) {
			count++
		}
	}
	return count
}

// Any reports whether a value equals an interface value (comparisons of
// interfaces can panic, so they are hoisted, not re-evaluated).
func Any(a, b any) bool {
	if a == b || a == nil {
		return true
	}
	return false
}

// Route switches on calls: each case's call runs only when the case is
// reached, and break leaves the switch.
func Route(c *Counter, s string) string {
	out := ""
	switch s {
	case "inc" + strings.Repeat("!", c.Inc()%2):
		out = "inc"
	case strings.ToUpper(s):
		out = "upper"
		if c.N > 100 {
			break
		}
		out += "!"
	default:
		out = "other"
	}
	switch {
	case c.Inc() > 5 && len(s) > 1:
		return out + ">5"
	case c.N == 3:
		return out + "=3"
	}
	return out
}

// Weekday has a long switch: its labels read "an earlier case matched"
// temporaries instead of repeating every earlier case.
func Weekday(d int) string {
	switch d {
	case 0, 7:
		return "sun"
	case 1:
		return "mon"
	case 2:
		return "tue"
	case 3:
		return "wed"
	case 4:
		return "thu"
	case 5:
		return "fri"
	case 6:
		return "sat"
	case 8, 9, 10:
		return "far"
	}
	return "?"
}
