package labels

import (
	"strconv"
	"strings"

	"github.com/labelcov/labelcov/interp/syntax"
)

// The dist criterion's ladder. A rung is a label |a-b| < 2^k on a
// relation between numbers; a branch-coverage fuzzer keeps every input
// that gets one rung closer, so it climbs towards the exact boundary of
// the relation the way laf-intel's split comparisons and IJON_CMP guide
// AFL. The rungs span the operands' type, from its top down to |a-b| < 1
// (on integers a = b):
//
//   - every bit from 2^16 down to 2^0, so that below 2^16 the next rung is
//     one bit flip away, and the last few within the ±35 of AFL's and the
//     built-in engine's arithmetic and the ±100 of Go's integer mutator
//     (rungs three bits apart stalled the built-in engine for 200k+
//     executions above 2^8 on battery; the Go measurement had the
//     next rung 745 away from a seed 1,000 below the bound);
//   - above 2^16 every fourth bit up to the type's top, so that a byte
//     overwritten at random (Go's XOR and overwrite mutations, AFL's havoc)
//     reaches a new rung whichever of its nibbles carried the difference;
//   - floats besides 2^64 and, for float64, 2^128, 2^256 and 2^512: the
//     rungs one flip of an exponent bit apart.
//
// A far value (an integer argument of a Go fuzz target that Go moves by
// ±100 a step) is brought close by the constants offered to the fuzzer,
// not by the ladder (see docs/go.md).

// DistType is the type of a relation's operands, for its ladder: Bits is
// 8, 16, 32 or 64 (an int, uint or uintptr has 64: rungs beyond 32 bits
// are written on a widened operand), Float a float32 (Bits 32) or float64.
type DistType struct {
	Bits  int
	Float bool
}

// PlanDist is the operand type of plan relations: int64 or float64, whose
// differences the plan VM computes in int64 (wrapping) or float64. The top
// rung is 2^62, the largest power of two an integer literal of a plan
// holds (and which an int64 difference that did not wrap can reach).
var PlanDist = DistType{Bits: 63}

// ladder is top, every fourth exponent below it down to 20, and 16 ... 0.
func ladder(top int) []int {
	var out []int
	if top > 16 {
		out = append(out, top)
		for k := (top - 1) / 4 * 4; k > 16; k -= 4 {
			out = append(out, k)
		}
		top = 16
	}
	for k := top; k >= 0; k-- {
		out = append(out, k)
	}
	return out
}

// DistRungs returns the exponents k of the rungs |a-b| < 2^k for operands
// of type t, farthest first. Rungs no pair of values of t can miss (2^8
// and beyond on 8-bit integers) are not part of the ladder.
func DistRungs(t DistType) []int {
	switch {
	case t.Float && t.Bits == 32:
		return append([]int{64}, ladder(63)...)
	case t.Float:
		return append([]int{512, 256, 128, 64}, ladder(63)...)
	case t == PlanDist:
		return ladder(62)
	}
	return ladder(t.Bits - 1)
}

// DistOperator is the operator field of the dist label |a-b| < 2^k, the
// same for every front end: the bound in decimal up to 2^62, as 2^k
// beyond.
func DistOperator(k int) string {
	if k > 62 {
		return "|a-b| < 2^" + strconv.Itoa(k)
	}
	return "|a-b| < " + strconv.Itoa(1<<k)
}

// distLadder adds the dist labels of relation (h a b). The operands are
// written in a canonical order, so (< a b) and (> b a) share a ladder. A
// rung reads (and (< (abs (- a b)) K) (<= 0 (abs (- a b))) (eq (< a b) (<
// (- a b) 0))): the plan VM's integer difference wraps, a wrapped one (a
// true difference of 2^63 or more) has the wrong sign, and the abs of
// -2^63 wraps to itself, so no rung holds by overflow; on floats the
// difference has the sign of a - b and NaN fails every comparison. The
// first conjunct is what the value analysis judges.
//
// A ladder costs about one rung. The rungs share every node but their
// bound and its comparison (only the judge reads the nodes of a label's
// predicate, and no pass writes them: the annotated plan and the manifest
// are rendered from Label.Predicate). The farthest rung is simplified and
// rendered, and the others are that rung with their bound in its place,
// which is what simplifying and rendering each gives: only (< D K)
// reads K, and it folds for no K when it does not fold for one (D is no
// number then). And the judge is asked about the farthest and the
// closest rung first: when it leaves both active, every rung between is
// active too, and is not judged (see Judge.Predicate).
func (e *enumerator) distLadder(l *syntax.List, a, b syntax.Node, at where) {
	a, b = Simplify(a), Simplify(b)
	if syntax.NodeString(b) < syntax.NodeString(a) {
		a, b = b, a
	}
	g := numberGuard(a, b)
	_, la := numOf(a)
	_, lb := numOf(b)
	lits := la && lb // folded: Simplify has no eq on booleans
	d := call("abs", call("-", a, b))
	rest := []syntax.Node{call("<=", zero(), d)}
	if !lits {
		rest = append(rest, call("eq", call("<", a, b), call("<", call("-", a, b), zero())))
	}
	ks := DistRungs(PlanDist)
	and, lt := sym("and"), sym("<")
	rung := func(c1 *syntax.List, rest []syntax.Node) syntax.Node {
		return &syntax.List{Elems: append(append(make([]syntax.Node, 0, 2+len(rest)), and, c1), rest...)}
	}
	// The rungs' nodes are allocated together, a few arrays a ladder
	// rather than a few objects a rung: they live as long as each other.
	bounds := make([]*syntax.Int, len(ks))
	ints := make([]syntax.Int, len(ks))
	for i, k := range ks {
		ints[i] = syntax.Int{Value: 1 << k, Raw: strconv.Itoa(1 << k)}
		bounds[i] = &ints[i]
	}
	preds := make([]syntax.Node, len(ks))
	preds[0] = Simplify(rung(&syntax.List{Elems: []syntax.Node{lt, d, bounds[0]}}, rest))
	var texts []string // each rung rendered; nil: rendered by add
	p0, ok := preds[0].(*syntax.List)
	var c0 *syntax.List
	if ok && syntax.Head(p0) == "and" && len(p0.Elems) >= 2 {
		c0, ok = p0.Elems[1].(*syntax.List)
	}
	var sh *shape // the rungs' shape, when they differ only in their bound
	if ok && c0 != nil && len(c0.Elems) == 3 && c0.Elems[2] == bounds[0] {
		sh = e.shapeOf(p0)
		s0, s1 := syntax.NodeString(p0), syntax.NodeString(c0)
		head, tail := s1[:len(s1)-len(bounds[0].Raw)-1], s0[len("(and ")+len(s1):] // "(< D ", " REST...)"
		texts = make([]string, len(ks))
		texts[0] = s0
		n := len(ks) - 1
		lists := make([]syntax.List, 2*n)
		per := 3 + len(p0.Elems) // (< D K), then (and C1 REST...)
		elems := make([]syntax.Node, 0, n*per)
		var all strings.Builder // every other rung's text, sliced below
		all.Grow(n * (len("(and ") + len(head) + len(bounds[len(ks)-1].Raw) + len(")") + len(tail)))
		ends := make([]int, len(ks))
		for i := 1; i < len(ks); i++ {
			c1, r := &lists[2*i-2], &lists[2*i-1]
			at := len(elems)
			elems = append(elems, c0.Elems[0], c0.Elems[1], bounds[i])
			c1.Elems = elems[at : at+3 : at+3]
			elems = append(elems, and, c1)
			elems = append(elems, p0.Elems[2:]...)
			r.Elems = elems[at+3 : len(elems) : len(elems)]
			preds[i] = r
			all.WriteString("(and ")
			all.WriteString(head)
			all.WriteString(bounds[i].Raw)
			all.WriteString(")")
			all.WriteString(tail)
			ends[i] = all.Len()
		}
		text := all.String()
		for i := 1; i < len(ks); i++ {
			texts[i] = text[ends[i-1]:ends[i]]
		}
	} else {
		for i := 1; i < len(ks); i++ {
			preds[i] = Simplify(rung(&syntax.List{Elems: []syntax.Node{lt, d, bounds[i]}}, rest))
		}
	}
	far, near := e.prejudge(preds[0]), e.prejudge(preds[len(preds)-1])
	var open *verdict // the verdict of every rung between far and near
	if far != nil && far.status == Active && near != nil && near.status == Active {
		open = &verdict{status: Active}
	}
	for i, k := range ks {
		kn := known{judged: open}
		switch i {
		case 0:
			kn.judged = far
		case len(ks) - 1:
			kn.judged = near
		}
		if texts != nil {
			kn.text, kn.shape = texts[i], sh
			// far was judged only if the rung calls no builtin the plan
			// redefines, and the rungs' calls are the same.
			kn.unshadowed = far != nil
		}
		e.addKnown(DIST, DistOperator(k), l, preds[i], g, at, kn)
	}
}
