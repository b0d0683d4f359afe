// Package guards holds guards the Go labels' range analysis must not
// trust — a shadowed variable, a reassigned one, one whose address is
// taken, a field, a loop variable — beside guards it may trust, for the
// tests of transform/golang (TestGuardFacts) and fuzzdriver/gofuzz
// (TestInfeasibleNeverCoveredGo).
package guards

type box struct{ n int }

func bump(p *int) { *p += 100 }

// F exercises guards on its inputs.
func F(n int, k uint8, s string) int {
	out := 0
	if n < 0 {
		return -1
	}
	if n > 0 {
		n := -n // shadows: n < 0 here
		if n < 0 {
			out++
		}
	}
	m := n
	if m > 10 {
		return 0
	}
	m = m + 50 // reassigned: m <= 10 says nothing of it now
	if m > 40 {
		out++
	}
	a := n
	if a > 5 {
		return 1
	}
	bump(&a) // address taken: a > 5 is possible again
	if a > 50 {
		out++
	}
	b := box{n}
	if b.n == 3 {
		b.n = -b.n
		if b.n < 0 {
			out++
		}
	}
	for i := 0; i < int(k); i++ {
		if i > 5 {
			out++
		}
	}
	if k > 200 {
		if k < 250 && k != 0 {
			out++
		}
	}
	if len(s) < 2 {
		return out
	}
	if s < "" || s[0] == 'x' {
		out++
	}
	return out
}

type counter int

func (c *counter) inc(by int) { *c += counter(by) }

// G guards a named integer that a method with a pointer receiver changes
// (no & in sight), and a map's length.
func G(n int) int {
	c := counter(n)
	if c > 5 {
		return 0
	}
	c.inc(100)
	if c > 50 {
		return 1
	}
	m := map[int]bool{}
	if len(m) > 0 {
		return 2
	}
	m[n] = true
	if len(m) > 0 {
		return 3
	}
	return 4
}
