package labels

import (
	"strconv"
	"unicode/utf8"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// Prefix stepping stones of dist: equality of strings has no ladder (no
// distance a fuzzer could climb), so dist splits it as laf-intel splits
// strcmp, into labels "the first k elements agree" for growing k. An input
// that gets one more character (a plan's) or byte (Go's) right covers a new
// label, so a branch-coverage fuzzer keeps it and climbs towards the
// constant one element at a time instead of guessing it whole.

// MaxPrefixStones bounds the prefix stones of one string constant.
const MaxPrefixStones = 32

// prefixSteps are the prefix lengths of the stones between two values.
var prefixSteps = []int{1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32}

// PrefixSteps returns the prefix lengths k of the stones of an equality of
// strings: against a constant of n elements (n >= 0), k = 1 ... n-1, at
// most MaxPrefixStones of them (k = n would be "starts with the constant",
// and equality itself is the decision's own branch); between two values
// (n < 0), 1 ... 8, 12, 16, 24 and 32. The stone for k implies every
// stone below it and is implied by equality (of strings k long or longer),
// so each is a strict step towards it.
func PrefixSteps(n int) []int {
	if n < 0 {
		return prefixSteps
	}
	out := make([]int, 0, max(0, min(n-1, MaxPrefixStones)))
	for k := 1; k < n && k <= MaxPrefixStones; k++ {
		out = append(out, k)
	}
	return out
}

// PrefixOperator is the operator field of the prefix stone for k, the
// same for every front end.
func PrefixOperator(k int) string { return "prefix " + strconv.Itoa(k) + " =" }

// prefixStones adds the prefix stones of (h a b) for h string= or equal:
// against a string constant of n characters (either operand) the stones k
// = 1 ... n-1; between two values (string= only: equal compares lists,
// numbers and symbols far more often than strings) the stones of
// PrefixSteps(-1). A stone reads
//
//	(and (stringp x) (>= (or (mismatch x "cal...") (length x)) k))
//
// (two values: (stringp b) too): mismatch is the length of the common
// prefix, or nil when the strings are equal (then x's length is). It is
// honest Common Lisp that cannot fail on strings and the stringp test
// keeps it from reading a list (mismatch takes any sequence) or failing on
// a symbol, which string= takes as its name. The value operands are
// written in a canonical order, so (string= a b) and (string= b a) share
// their stones.
func (e *enumerator) prefixStones(l *syntax.List, h string, a, b syntax.Node, at where) {
	a, b = Simplify(a), Simplify(b)
	if _, ok := a.(*syntax.String); ok {
		a, b = b, a
	}
	if normalize.IsConstant(a) {
		return
	}
	n := -1
	if s, ok := b.(*syntax.String); ok {
		n = utf8.RuneCountInString(s.Value)
	} else if h != "string=" || normalize.IsConstant(b) {
		return
	} else if syntax.NodeString(b) < syntax.NodeString(a) {
		a, b = b, a
	}
	g := call("stringp", a)
	if n < 0 {
		g = call("and", g, call("stringp", b))
	}
	for _, k := range PrefixSteps(n) {
		pre := call(">=", call("or", call("mismatch", a, b), call("length", a)), &syntax.Int{Value: int64(k), Raw: strconv.Itoa(k)})
		var pred syntax.Node
		if n < 0 {
			pred = call("and", call("stringp", a), call("stringp", b), pre)
		} else {
			pred = call("and", call("stringp", a), pre)
		}
		e.add(DIST, PrefixOperator(k), l, pred, g, at)
	}
}
