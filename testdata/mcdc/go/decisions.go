// Package decisions holds the MC/DC cross-check's decisions in Go: the same
// logic as ../decisions.c and ../decisions.plan, decision for decision,
// condition for condition, in the same order.
package decisions

var sink int

func use(v bool) bool {
	if v {
		sink++
	}
	return v
}

func D1(a, b int) bool { return a > 0 && b > 0 }
func D2(a, b, c int) int {
	if (a > 0 && b > 0) || c > 0 {
		return 1
	}
	return 0
}
func D3(a, b, c int) int {
	if a > 0 && (b > 0 || c > 0) {
		return 1
	}
	return 0
}
func D4(a, b int) bool    { x := a > b || b > 10; return x }
func D5(a, b, c int) bool { return use(a > 0 && b < c) }
func D6(a, b, c, d int) int {
	if !(a > b) && (c > 0 || d > 0) {
		return 1
	}
	return 0
}
func D7(a, b, c int) int {
	n := 0
	for a > n && (b > n || c > n) && n < 3 {
		n = n + 1
	}
	return n
}
func D8(a, b, c, d int) int {
	if (a > 0 || b > 0) && (c > 0 || d > 0) {
		return 1
	}
	return 0
}
func D9(a, b, c, d int) int {
	if a == b || (c < d && a < c) || d == 0 {
		return 1
	}
	return 0
}
func D10(a, b int) int {
	if a > 0 && b > 0 {
		if a > b || b > 100 {
			return 2
		}
		return 1
	}
	return 0
}
func D11(a, b, c int) bool {
	if a > 0 && b > 0 {
		return b > 5 || c > 0
	}
	return a < -5 && c < -5
}
func D12(a, b, c, d int) int {
	if a > 0 && b > 0 && c > 0 && d > 0 {
		return 1
	}
	return 0
}
func D13(a, b, c, d int) int {
	if a > 0 || b > 0 || c > 0 || d > 0 {
		return 1
	}
	return 0
}
func D14(a, b, c int) bool { ok := (a+b > c) && !(c == 0) && !(a == b); return ok }

// Run calls every function with one test input, as the C and plan
// versions' main do.
func Run(a, b, c, d int) []any {
	return []any{D1(a, b), D2(a, b, c), D3(a, b, c), D4(a, b), D5(a, b, c), D6(a, b, c, d), D7(a, b, c),
		D8(a, b, c, d), D9(a, b, c, d), D10(a, b), D11(a, b, c), D12(a, b, c, d), D13(a, b, c, d), D14(a, b, c), sink}
}
