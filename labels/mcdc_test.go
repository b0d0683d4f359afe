package labels

import (
	"reflect"
	"strings"
	"testing"
)

func cond(i int) *BoolExpr           { return &BoolExpr{Op: BoolCond, Cond: i} }
func band(xs ...*BoolExpr) *BoolExpr { return &BoolExpr{Op: BoolAnd, Args: xs} }
func bor(xs ...*BoolExpr) *BoolExpr  { return &BoolExpr{Op: BoolOr, Args: xs} }

func vectorStrings(vs []TestVector) []string {
	var out []string
	for _, v := range vs {
		s := v.String() + "=F"
		if v.Outcome {
			s = v.String() + "=T"
		}
		out = append(out, s)
	}
	return out
}

func TestVectorsShortCircuit(t *testing.T) {
	// (a && b) || c: llvm-cov's enumeration, false before true, depth first.
	vs, ok := Vectors(bor(band(cond(0), cond(1)), cond(2)), 3, 0)
	want := []string{"F-F=F", "F-T=T", "TFF=F", "TFT=T", "TT-=T"}
	if !ok || !reflect.DeepEqual(vectorStrings(vs), want) {
		t.Fatalf("vectors = %v, want %v", vectorStrings(vs), want)
	}
	// An and chain of n conditions has n+1 vectors; a not inside flips
	// outcomes, a not around the whole decision is outside it.
	vs, _ = Vectors(bor(&BoolExpr{Op: BoolNot, Args: []*BoolExpr{band(cond(0), cond(1), cond(2))}}, cond(3)), 4, 0)
	want = []string{"F---=T", "TF--=T", "TTF-=T", "TTTF=F", "TTTT=T"}
	if !reflect.DeepEqual(vectorStrings(vs), want) {
		t.Fatalf("not-and vectors = %v, want %v", vectorStrings(vs), want)
	}
	vs, _ = Vectors(&BoolExpr{Op: BoolNot, Args: []*BoolExpr{band(cond(0), cond(1), cond(2))}}, 3, 0)
	want = []string{"F--=F", "TF-=F", "TTF=F", "TTT=T"}
	if !reflect.DeepEqual(vectorStrings(vs), want) {
		t.Fatalf("not-and vectors = %v, want %v", vectorStrings(vs), want)
	}
	// A constant is folded: no condition, no branching.
	vs, _ = Vectors(band(cond(0), &BoolExpr{Op: BoolConst, Value: true}, cond(1)), 2, 0)
	if got := vectorStrings(vs); !reflect.DeepEqual(got, []string{"F-=F", "TF=F", "TT=T"}) {
		t.Fatalf("const vectors = %v", got)
	}
	if _, ok := Vectors(bor(band(cond(0), cond(1)), band(cond(2), cond(3))), 4, 3); ok {
		t.Fatal("the bound on vectors was not enforced")
	}
}

func TestIndependencePairs(t *testing.T) {
	vs, _ := Vectors(bor(band(cond(0), cond(1)), cond(2)), 3, 0)
	// F-F=F 0, F-T=T 1, TFF=F 2, TFT=T 3, TT-=T 4
	exec := func(idx ...int) []bool {
		b := make([]bool, len(vs))
		for _, i := range idx {
			b[i] = true
		}
		return b
	}
	r := IndependencePairs(vs, 3, exec(0, 2, 4), nil)
	// Executed, llvm-cov numbering: 1 F-F, 2 TFF, 3 TT-.
	if !reflect.DeepEqual(r.Executed, []int{0, 2, 4}) {
		t.Fatalf("executed = %v", r.Executed)
	}
	// a: TT-=T vs F-F=F differ in a only (b, c don't care in one of them).
	if p := r.Pairs[0]; p == nil || *p != (Pair{False: 0, True: 4}) {
		t.Fatalf("pair of a = %+v", r.Pairs[0])
	}
	if p := r.Pairs[1]; p == nil || *p != (Pair{False: 2, True: 4}) {
		t.Fatalf("pair of b = %+v", r.Pairs[1])
	}
	if r.Pairs[2] != nil || r.Covered() != 2 {
		t.Fatalf("c covered by %+v", r.Pairs[2])
	}
	// c needs F-T=T (pairs with F-F) or TFT=T (pairs with TFF): the first.
	if !reflect.DeepEqual(r.Suggest[2], []int{1}) {
		t.Fatalf("suggestion for c = %v", r.Suggest[2])
	}
	// Not feasible: the other one.
	feas := []bool{true, false, true, true, true}
	r = IndependencePairs(vs, 3, exec(0, 2, 4), feas)
	if !reflect.DeepEqual(r.Suggest[2], []int{3}) {
		t.Fatalf("suggestion for c without F-T = %v", r.Suggest[2])
	}
	// Nothing executed: a whole pair is suggested (false vector first).
	r = IndependencePairs(vs, 3, exec(), nil)
	if r.Covered() != 0 || len(r.Suggest[0]) != 2 || vs[r.Suggest[0][0]].Outcome || !vs[r.Suggest[0][1]].Outcome {
		t.Fatalf("suggestion for a with nothing executed = %v", r.Suggest[0])
	}
	// Differences in two conditions evaluated in both are no pair.
	vs2, _ := Vectors(band(cond(0), cond(1)), 2, 0) // F-=F TF=F TT=T
	r = IndependencePairs(vs2, 2, []bool{true, false, true}, nil)
	if r.Pairs[0] == nil || r.Pairs[1] != nil {
		t.Fatalf("a&&b with F- and TT: pairs %+v %+v", r.Pairs[0], r.Pairs[1])
	}
}

func TestDecisionFromPlan(t *testing.T) {
	src := `(defun f (x y z) (if (and (> x 0) (or (< y 5) (= z 1))) 1 2))
(defun g (x) (if (and (> x 0) t) 1 2))`
	set := enumerate(t, src, "mcdc", 0)
	if len(set.Decisions) != 1 {
		t.Fatalf("decisions = %d, want 1 (a single-condition decision is none)", len(set.Decisions))
	}
	d := set.Decisions[0]
	var got []string
	for _, v := range d.Vectors {
		got = append(got, v.Values+"="+v.Label.Predicate)
	}
	want := []string{"F--=(not (> x 0))", "TFF=(and (> x 0) (not (< y 5)) (not (= z 1)))",
		"TFT=(and (> x 0) (not (< y 5)) (= z 1))", "TT-=(and (> x 0) (< y 5))"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("vectors:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d.ID != 1 || len(d.Conditions) != 3 || d.Conditions[1].Source != "(< y 5)" {
		t.Fatalf("decision = %+v", d)
	}
	for _, v := range d.Vectors {
		if v.LabelID != v.Label.ID || v.LabelID == 0 {
			t.Fatalf("vector %s: label id %d, label %d", v.Values, v.LabelID, v.Label.ID)
		}
	}
}
