package feasible

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// Small sets of integers. An interval says a column taken from the slots
// (3 8 13) lies in [3, 13]; the value analysis also keeps, beside the
// interval, the integers themselves while there are at most maxSetSize of
// them (aval.set): integer literals are one-element sets, a join unions
// them, + - * of two sets apply to every pair (int64 arithmetic wraps as
// the VM's does), and anything else — a range from the world, a division,
// a widened bound, a set grown too large — falls back to the interval
// alone. A value with a set holds, when it is a number, an integer in the
// set and in [lo, hi]; so (= col 4) cannot hold for a col of {3, 8, 13}.

// maxSetSize bounds the integers a set keeps.
const maxSetSize = 16

// setOK reports whether v's numbers are those of its set (an integer set
// on an integer-only value).
func (v aval) setOK() bool { return v.num && v.set != nil && v.intOnly() }

// singleton is the set {x} of an integer literal (nil beyond 2^53, where
// float64 no longer holds every integer).
func singleton(x int64) []float64 {
	if x <= -int64(exact) || x >= int64(exact) {
		return nil
	}
	return []float64{float64(x)}
}

// unionSet unions two sets, or nil when either is unknown or the union
// grows past maxSetSize.
func unionSet(a, b []float64) []float64 {
	if a == nil || b == nil {
		return nil
	}
	return unionCapped(a, b, maxSetSize)
}

// unionCapped is the sorted union of a and b, or nil past max elements.
func unionCapped[T cmp.Ordered](a, b []T, max int) []T {
	out := append(slices.Clone(a), b...)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > max {
		return nil
	}
	return out
}

func sameSet(a, b []float64) bool {
	if (a == nil) != (b == nil) {
		return false
	}
	return slices.Equal(a, b)
}

// arithSet applies + - * to every pair of two sets as the VM does on
// int64; nil when either operand has no set or a result leaves the
// integers float64 holds exactly or the set grows too large.
func arithSet(op byte, a, b aval) []float64 {
	if !a.setOK() || !b.setOK() {
		return nil
	}
	var out []float64
	for _, x := range a.set {
		for _, y := range b.set {
			r := applyOp(op, int64(x), int64(y))
			s := singleton(r)
			if s == nil {
				return nil
			}
			out = append(out, s[0])
		}
	}
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) > maxSetSize {
		return nil
	}
	return out
}

// withSet gives v, an integer result of [lo, hi], the set s (nil: none),
// narrowing its bounds to the set's.
func withSet(v aval, s []float64) aval {
	if s == nil || !v.num || !v.intOnly() {
		return v
	}
	v.set = s
	v.lo, v.hi = s[0], s[len(s)-1]
	return v
}

// pieces are the intervals v's numbers lie in: each integer of its set
// within [lo, hi], or [lo, hi] itself.
func (v aval) pieces() [][2]float64 {
	if !v.setOK() {
		return [][2]float64{{v.lo, v.hi}}
	}
	var out [][2]float64
	for _, x := range v.set {
		if x >= v.lo && x <= v.hi {
			out = append(out, [2]float64{x, x})
		}
	}
	return out
}

// relMask is the outcomes (less 1, equal 2, greater 4: labels.Relation's
// bits) comparing a number of va with one of vb may give, NaN aside.
func relMask(va, vb aval) int {
	mask := 0
	for _, p := range va.pieces() {
		for _, q := range vb.pieces() {
			if p[0] < q[1] {
				mask |= 1
			}
			if p[0] <= q[1] && q[0] <= p[1] {
				mask |= 2
			}
			if p[1] > q[0] {
				mask |= 4
			}
		}
	}
	return mask
}

// setText writes a set for reasons: "one of 3, 8, 13".
func setText(v aval) string {
	var xs []string
	for _, p := range v.pieces() {
		xs = append(xs, strconv.FormatFloat(p[0], 'f', -1, 64))
	}
	return "one of " + strings.Join(xs, ", ")
}

// setContradiction reports, with a reason, when no integer of the set an
// operand of pred holds (the value analysis, sets.go) satisfies the
// bounds bs put on it: level in {0, 1, 2, 3} with level > 0, level /= 1
// and level < 2. (Bounds hold of the operand's numbers; a non-number
// makes the label fail.)
func (g *guardAnalysis) setContradiction(pred syntax.Node, bs []Bound) (string, bool) {
	by := map[string][]Bound{}
	var order []string
	for _, b := range bs {
		if by[b.Operand] == nil {
			order = append(order, b.Operand)
		}
		by[b.Operand] = append(by[b.Operand], b)
	}
	for _, name := range order {
		var ref *syntax.Symbol
		syntax.Walk(pred, func(n syntax.Node) bool {
			if s, ok := n.(*syntax.Symbol); ok && s.Name == name && ref == nil {
				ref = s
			}
			return ref == nil
		})
		if ref == nil {
			continue
		}
		v := g.a.ev(ref, 0)
		if !v.setOK() {
			continue
		}
		any := false
		for _, p := range v.pieces() {
			x, ok := p[0], true
			for _, b := range by[name] {
				out := labels.Equal
				if x < b.Value {
					out = labels.Less
				} else if x > b.Value {
					out = labels.Greater
				}
				ok = ok && b.Rel&out != 0
			}
			any = any || ok
		}
		if any {
			continue
		}
		var conds []string
		for _, b := range by[name] {
			conds = append(conds, fmt.Sprintf("%s %s %s", name, b.Rel, b.Const))
		}
		return fmt.Sprintf("no integer satisfies %s: %s is %s", strings.Join(conds, " and "), name, setText(v)) + srcText(g.a, v), true
	}
	return "", false
}

// srcText names where a value's bounds come from, for reasons.
func srcText(a *valueAnalysis, v aval) string {
	var from []string
	for _, s := range v.src {
		if s.n != nil && a.res.Origin(s.n) != nil {
			from = append(from, a.where(s.n))
		}
	}
	if len(from) == 0 {
		return ""
	}
	more := ""
	if v.more {
		more = ", ..."
	}
	return " (from " + strings.Join(from, ", ") + more + ")"
}
