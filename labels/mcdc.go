package labels

import (
	"fmt"
	"sort"
	"strings"
)

// MC/DC (modified condition/decision coverage) as clang's llvm-cov
// measures it (-fcoverage-mcdc, llvm-cov show --show-mcdc): a decision is
// a boolean expression of two or more conditions joined by and/or (not
// passes through); a test vector is one evaluation of it, giving each
// condition true, false or "don't care" (short-circuited: not evaluated),
// and an outcome. A condition is covered when two executed test vectors
// with different outcomes differ in exactly that condition among the
// conditions evaluated in both (an independence pair).
//
// The MC/DC labels (criterion mcdc) are one label per test vector of a
// decision: the conjunction of the evaluated conditions with their values,
// in evaluation order, so that a label evaluates only conditions the plan
// evaluated itself on that path. The covered MC/DC labels are the executed
// test vectors; everything else here is arithmetic on them.

// BoolOp is the kind of a node of a decision's shape.
type BoolOp uint8

// The kinds of BoolExpr nodes.
const (
	BoolCond  BoolOp = iota // a condition (leaf)
	BoolConst               // a constant (folded: not a condition)
	BoolNot
	BoolAnd
	BoolOr
)

// BoolExpr is the shape of a decision: and/or/not over conditions, each
// occurrence of a condition its own leaf, numbered in evaluation order.
type BoolExpr struct {
	Op BoolOp
	// Cond is the condition index of a BoolCond leaf (0-based, in
	// evaluation order); Value the value of a BoolConst.
	Cond  int
	Value bool
	Args  []*BoolExpr
}

// Tri is a condition's value in a test vector.
type Tri uint8

// Values of a condition in a test vector.
const (
	DontCare Tri = iota
	False
	True
)

// TestVector is one short-circuit evaluation of a decision.
type TestVector struct {
	Values  []Tri
	Outcome bool
}

// String writes the values as T, F and - (don't care), one per condition.
func (v TestVector) String() string {
	var b strings.Builder
	for _, t := range v.Values {
		b.WriteByte("-FT"[t])
	}
	return b.String()
}

// ParseValues reads the values written by TestVector.String.
func ParseValues(s string) ([]Tri, error) {
	out := make([]Tri, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case 'T':
			out[i] = True
		case 'F':
			out[i] = False
		case '-':
			out[i] = DontCare
		default:
			return nil, fmt.Errorf("test vector %q: want T, F or - per condition", s)
		}
	}
	return out, nil
}

// Vectors enumerates the test vectors of decision e over n conditions in
// llvm-cov's order: depth first, each condition false before true. It
// stops (ok false) after max vectors (max <= 0: no bound).
//
// A not around the whole decision is outside it: clang's decision is the
// and/or, so the outcomes are the and/or's (a negated loop condition, as
// Go's normalization writes `for c` as `if !(c) { break }`, keeps the
// vectors of c).
func Vectors(e *BoolExpr, n, max int) (vs []TestVector, ok bool) {
	for e.Op == BoolNot {
		e = e.Args[0]
	}
	vals := make([]Tri, n)
	ok = true
	var walk func(e *BoolExpr, k func(bool))
	walk = func(e *BoolExpr, k func(bool)) {
		if !ok {
			return
		}
		switch e.Op {
		case BoolCond:
			for _, v := range []bool{false, true} {
				vals[e.Cond] = triOf(v)
				k(v)
			}
			vals[e.Cond] = DontCare
		case BoolConst:
			k(e.Value)
		case BoolNot:
			walk(e.Args[0], func(v bool) { k(!v) })
		case BoolAnd, BoolOr:
			stop := e.Op == BoolOr // the value that decides
			var seq func(i int)
			seq = func(i int) {
				walk(e.Args[i], func(v bool) {
					if v == stop || i == len(e.Args)-1 {
						k(v)
						return
					}
					seq(i + 1)
				})
			}
			seq(0)
		}
	}
	walk(e, func(out bool) {
		if max > 0 && len(vs) >= max {
			ok = false
			return
		}
		vs = append(vs, TestVector{Values: append([]Tri(nil), vals...), Outcome: out})
	})
	return vs, ok
}

func triOf(v bool) Tri {
	if v {
		return True
	}
	return False
}

// independent reports the condition in which a and b differ among the
// conditions evaluated in both, when there is exactly one.
func independent(a, b []Tri) (int, bool) {
	c := -1
	for i := range a {
		if a[i] != DontCare && b[i] != DontCare && a[i] != b[i] {
			if c >= 0 {
				return -1, false
			}
			c = i
		}
	}
	return c, c >= 0
}

// Pair is an independence pair: two vectors (indices into a decision's
// vectors), the one with outcome false and the one with outcome true.
type Pair struct{ False, True int }

// MCDCResult is the MC/DC of one decision.
type MCDCResult struct {
	// Executed lists the executed vectors (indices into the decision's
	// vectors) in llvm-cov's order: outcome false first, then true, each
	// in enumeration order. Reports number them 1, 2, ... in this order.
	Executed []int
	// Pairs holds, per condition, the independence pair covering it (the
	// first llvm-cov finds), nil when the condition is not covered.
	Pairs []*Pair
	// Suggest holds, per uncovered condition, vectors (indices) that would
	// complete a pair: one not yet executed that pairs with an executed
	// vector, or else two forming a pair; nil when no feasible pair exists
	// (the condition cannot be shown to matter on its own). Nil for a
	// covered condition.
	Suggest [][]int
}

// Covered counts the covered conditions.
func (r *MCDCResult) Covered() int {
	n := 0
	for _, p := range r.Pairs {
		if p != nil {
			n++
		}
	}
	return n
}

// IndependencePairs computes the MC/DC of a decision with n conditions from its test
// vectors, which of them were executed and which are feasible (may run;
// nil: all). It follows llvm-cov's MCDCRecordProcessor: for each executed
// vector with outcome true, in order, against each executed vector with
// outcome false, in order, the first pair differing in exactly one
// condition evaluated in both covers that condition.
func IndependencePairs(vs []TestVector, n int, executed, feasible []bool) *MCDCResult {
	r := &MCDCResult{Pairs: make([]*Pair, n), Suggest: make([][]int, n)}
	var fs, ts []int
	for i, v := range vs {
		if !executed[i] {
			continue
		}
		if v.Outcome {
			ts = append(ts, i)
		} else {
			fs = append(fs, i)
		}
	}
	r.Executed = append(fs, ts...)
	for _, t := range ts {
		for _, f := range fs {
			if c, ok := independent(vs[t].Values, vs[f].Values); ok && r.Pairs[c] == nil {
				r.Pairs[c] = &Pair{False: f, True: t}
			}
		}
	}
	ok := func(i int) bool { return feasible == nil || feasible[i] }
	for c := 0; c < n; c++ {
		if r.Pairs[c] != nil {
			continue
		}
		// One more vector pairing with an executed one.
		for _, a := range r.Executed {
			for b, v := range vs {
				if executed[b] || !ok(b) || v.Outcome == vs[a].Outcome {
					continue
				}
				if d, ind := independent(vs[a].Values, v.Values); ind && d == c {
					r.Suggest[c] = []int{b}
					break
				}
			}
			if r.Suggest[c] != nil {
				break
			}
		}
		if r.Suggest[c] != nil {
			continue
		}
		// Else any feasible pair.
	pairs:
		for a, va := range vs {
			if !ok(a) || !va.Outcome {
				continue
			}
			for b, vb := range vs {
				if !ok(b) || vb.Outcome {
					continue
				}
				if d, ind := independent(va.Values, vb.Values); ind && d == c {
					r.Suggest[c] = []int{b, a}
					break pairs
				}
			}
		}
	}
	return r
}

// DefaultMCDCMaxVectors bounds the test vectors (MC/DC labels) of one
// decision; a decision with more gets no MC/DC labels, with a warning.
// An and/or chain of n conditions has n+1 vectors; only deeply mixed
// and/or nests approach the bound.
const DefaultMCDCMaxVectors = 256

// Decision is one MC/DC decision: its conditions in evaluation (source)
// order and its test vectors, each with its MC/DC label.
type Decision struct {
	// ID numbers the decisions of a label set 1, 2, ... in source order.
	ID         int         `json:"id"`
	Pos        Position    `json:"pos"`
	Source     string      `json:"source,omitempty"`
	Conditions []Condition `json:"conditions"`
	Vectors    []Vector    `json:"vectors"`
}

// Condition is one condition of a decision.
type Condition struct {
	Pos    Position `json:"pos"`
	Source string   `json:"source,omitempty"`
}

// Vector is one test vector of a decision and its label.
type Vector struct {
	// Values is the vector as TestVector.String writes it; Outcome the
	// decision's value.
	Values  string `json:"values"`
	Outcome bool   `json:"outcome"`
	// LabelID is the id of the label when it is active (0 otherwise),
	// filled by the manifest; Label the label itself.
	LabelID int    `json:"label,omitempty"`
	Label   *Label `json:"-"`
}

// TestVectors parses the decision's vectors.
func (d *Decision) TestVectors() ([]TestVector, error) {
	vs := make([]TestVector, len(d.Vectors))
	for i, v := range d.Vectors {
		t, err := ParseValues(v.Values)
		if err != nil {
			return nil, fmt.Errorf("decision %d: %w", d.ID, err)
		}
		if len(t) != len(d.Conditions) {
			return nil, fmt.Errorf("decision %d: test vector %q has %d values for %d conditions", d.ID, v.Values, len(t), len(d.Conditions))
		}
		vs[i] = TestVector{Values: t, Outcome: v.Outcome}
	}
	return vs, nil
}

// fillIDs sets each vector's LabelID from its label.
func (d *Decision) fillIDs() {
	for i := range d.Vectors {
		v := &d.Vectors[i]
		if v.Label != nil {
			v.LabelID = 0
			if v.Label.Status == Active {
				v.LabelID = v.Label.ID
			}
		}
	}
}

// Measure computes the decision's MC/DC given which active labels
// (by id) were covered. A vector whose label is not active is feasible
// only when it is trivial (never when infeasible, skipped or missing).
func (d *Decision) Measure(covered func(id int) bool) (*MCDCResult, []TestVector, error) {
	d.fillIDs()
	vs, err := d.TestVectors()
	if err != nil {
		return nil, nil, err
	}
	executed := make([]bool, len(vs))
	feasible := make([]bool, len(vs))
	for i, v := range d.Vectors {
		executed[i] = v.LabelID > 0 && covered(v.LabelID)
		feasible[i] = v.LabelID > 0
		if v.Label != nil && v.Label.Status == Trivial {
			feasible[i] = true
		}
	}
	return IndependencePairs(vs, len(d.Conditions), executed, feasible), vs, nil
}

// Impossible reports, per condition, whether no independence pair can
// ever cover it: none exists among the vectors that may run, those of
// active labels not proven infeasible (infeasible, by id) and of trivial
// labels. A label the enumeration found infeasible, skipped or missing
// never runs, as in Measure.
func (d *Decision) Impossible(infeasible func(id int) bool) ([]bool, error) {
	d.fillIDs()
	vs, err := d.TestVectors()
	if err != nil {
		return nil, err
	}
	may := make([]bool, len(vs))
	for i, v := range d.Vectors {
		may[i] = v.LabelID > 0 && !infeasible(v.LabelID)
		if v.Label != nil && v.Label.Status == Trivial {
			may[i] = true
		}
	}
	r := IndependencePairs(vs, len(d.Conditions), may, may)
	out := make([]bool, len(d.Conditions))
	for c, p := range r.Pairs {
		out[c] = p == nil
	}
	return out, nil
}

// NumberDecisions sorts ds by position (file, then offset), numbers them
// 1, 2, ... and fills each vector's LabelID from its label.
func NumberDecisions(ds []*Decision) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Offset < b.Offset
	})
	for i, d := range ds {
		d.ID = i + 1
		d.fillIDs()
	}
}
