// Package conditions holds the decisions the Go front end must count
// right: atoms behind calls, decisions outside if conditions, goto,
// equivalent arithmetic mutants and for post statements.
package conditions

func id(x int) int { return x }

func pos(x int) bool { return x > 0 }

func not(b bool) bool { return !b }

// Calls has three atoms, each behind a call.
func Calls(a, b, c int) int {
	if id(a) == 0 && id(b) == 0 && id(c) == 0 {
		return 1
	}
	return 0
}

// Five has five atoms, four of them behind calls.
func Five(a, b, c, d, e int) bool {
	if pos(a) && (pos(b) || id(c) > 2) && !pos(d) && e > 0 {
		return true
	}
	return false
}

// Ret returns a decision.
func Ret(a, b int) bool {
	return a > 0 && b > 0
}

// Assign assigns one with a call in its second operand.
func Assign(a, b int) bool {
	x := a > 0 || id(b) > 0
	return x
}

// Arg passes one to a call.
func Arg(a, b int) bool {
	return not(a > 0 && b > 0)
}

// Init has one in an if's init statement.
func Init(a, b bool) int {
	if x := not(a || b); x {
		return 1
	}
	return 0
}

// Post computes in a for post statement.
func Post(n, step int) int {
	s := 0
	for i := 0; i < n; i = i + step*2 {
		s++
	}
	return s
}

// Goto loops with goto.
func Goto(xs []int, limit int) int {
	i := 0
loop:
	if i < len(xs) && xs[i] < limit {
		i++
		goto loop
	}
	if id(i) > 2 && id(limit) > 0 {
		goto done
	}
	i = -1
done:
	return i
}

// Same holds equivalent mutants: x + 0 is x - 0, f * 1 is f / 1.
func Same(x int, f float64) bool {
	return (x+0) > 3 || f*1 > 2
}

// Retry jumps back to a decision behind a call: what is hoisted out of it
// must run again after goto.
func Retry(n int) int {
	tries := 0
again:
	if id(tries) < n && tries < 10 {
		tries++
		goto again
	}
	return tries
}
