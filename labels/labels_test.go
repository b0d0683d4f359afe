package labels

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// normalized parses and normalizes src as t.plan.
func normalized(t *testing.T, src string) *normalize.Result {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := normalize.Plan(f, normalize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return nr
}

func enumerate(t *testing.T, src, crit string, maxAtoms int) *Set {
	t.Helper()
	nr := normalized(t, src)
	c, err := ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Enumerate(nr, Options{Criteria: c, MCCMaxAtoms: maxAtoms})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// byOp maps operator -> "predicate status" for the labels of one criterion.
func byOp(s *Set, k Key) map[string]string {
	out := map[string]string{}
	for _, l := range s.Labels {
		if l.Criterion == k {
			out[l.Operator] = l.Predicate + " " + string(l.Status)
		}
	}
	return out
}

func wantOps(t *testing.T, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("got %d labels %v, want %d %v", len(got), got, len(want), want)
	}
	for op, w := range want {
		if got[op] != w {
			t.Errorf("%s: got %q, want %q", op, got[op], w)
		}
	}
}

func TestRORSimplifiedForms(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b) (< a b))", "wm:ror", 0)
	wantOps(t, byOp(s, WMROR), map[string]string{
		"< -> <=": "(= a b) active",
		"< -> >":  "(/= a b) active",
		"< -> >=": "t trivial",
		"< -> =":  "(<= a b) active",
		"< -> /=": "(> a b) active",
	})
	s = enumerate(t, "(def-plan p (a b) (>= a b))", "wm:ror", 0)
	wantOps(t, byOp(s, WMROR), map[string]string{
		">= -> <":  "t trivial",
		">= -> <=": "(/= a b) active",
		">= -> >":  "(= a b) active",
		">= -> =":  "(> a b) active",
		">= -> /=": "(<= a b) active",
	})
	for _, l := range s.Labels {
		if l.Guard != "(and (numberp a) (numberp b))" {
			t.Errorf("guard %q", l.Guard)
		}
	}
}

// TestRORSemantics checks every operator pair: the label holds exactly
// when the mutant's value differs from the original's.
func TestRORSemantics(t *testing.T) {
	ops := []string{"<", "<=", ">", ">=", "=", "/="}
	eval := func(op string, a, b int) bool {
		switch op {
		case "<":
			return a < b
		case "<=":
			return a <= b
		case ">":
			return a > b
		case ">=":
			return a >= b
		case "=":
			return a == b
		}
		return a != b
	}
	for _, op := range ops {
		s := enumerate(t, "(def-plan p (a b) ("+op+" a b))", "wm:ror", 0)
		for _, l := range s.Labels {
			m := strings.TrimPrefix(l.Operator, op+" -> ")
			for a := -1; a <= 1; a++ {
				want := eval(op, a, 0) != eval(m, a, 0)
				var got bool
				switch l.Predicate {
				case "t":
					got = true
				case "nil":
					got = false
				default:
					f := strings.Fields(strings.Trim(l.Predicate, "()"))
					if len(f) != 3 || f[1] != "a" || f[2] != "b" {
						t.Fatalf("unexpected predicate %s", l.Predicate)
					}
					got = eval(f[0], a, 0)
				}
				if got != want {
					t.Errorf("%s vs %s at a=%d b=0: label %s says %v, want %v", op, m, a, l.Predicate, got, want)
				}
			}
		}
	}
}

func TestAOR(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b) (+ a b))", "wm:aor", 0)
	wantOps(t, byOp(s, WMAOR), map[string]string{
		"+ -> -": "(/= b 0) active",
		"+ -> *": "(/= (+ a b) (* a b)) active",
		"+ -> /": "(or (= b 0) (/= (+ a b) (/ a b))) active",
	})
	s = enumerate(t, "(def-plan p (a b) (/ a b))", "wm:aor", 0)
	wantOps(t, byOp(s, WMAOR), map[string]string{
		"/ -> +": "(or (= b 0) (/= (/ a b) (+ a b))) active",
		"/ -> -": "(or (= b 0) (/= (/ a b) (- a b))) active",
		"/ -> *": "(or (= b 0) (/= (/ a b) (* a b))) active",
	})
	s = enumerate(t, "(def-plan p (x) (- x))", "wm:aor", 0)
	wantOps(t, byOp(s, WMAOR), map[string]string{"(- x) -> x": "(/= x 0) active"})
	s = enumerate(t, "(def-plan p (x) (+ x 1) (- x 0))", "wm:aor", 0)
	var statuses []string
	for _, l := range s.Labels {
		if l.Operator == "+ -> -" || l.Operator == "- -> +" {
			statuses = append(statuses, string(l.Status)+":"+l.Reason)
		}
	}
	if strings.Join(statuses, ",") != "trivial:predicate is constant true,infeasible:predicate is constant false" {
		t.Errorf("literal operands: %v", statuses)
	}
	// (+ a b c) is not binary: no AOR label.
	if s := enumerate(t, "(def-plan p (a b c) (+ a b c))", "wm:aor", 0); len(s.Labels) != 0 {
		t.Errorf("n-ary +: %d labels", len(s.Labels))
	}
}

func TestCOR(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b c) (and a b) (or a b c) (and t c))", "wm:cor", 0)
	var got []string
	for _, l := range s.Labels {
		got = append(got, l.Operator+" "+l.Predicate)
	}
	want := []string{
		"and -> or (not (eq (null a) (null b)))",
		"or -> and (and (or a b c) (not (and a b c)))",
		"and -> or (not c)",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestABS(t *testing.T) {
	s := enumerate(t, "(def-plan p (x) (< x 10) (+ 1 2) (abs t))", "wm:abs", 0)
	wantOps(t, byOp(s, WMABS), map[string]string{
		"x -> (abs x)":     "(< x 0) active",
		"x -> (- (abs x))": "(> x 0) active",
		"x -> 0":           "(= x 0) active",
	})
	for _, l := range s.Labels {
		if l.Pos.Line != 1 || l.Pos.Col != 20 || l.Guard != "(numberp x)" {
			t.Errorf("label at %v guard %q, want 1:20 (numberp x)", l.Pos, l.Guard)
		}
	}
}

func TestMCCAndCC(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b c) (if (and a (or b (not c))) 1 2))", "mcc,cc", 0)
	var mcc, cc []string
	for _, l := range s.Labels {
		if l.Criterion == MCC {
			mcc = append(mcc, l.Operator+"="+l.Predicate)
		} else {
			cc = append(cc, l.Operator+"="+l.Predicate)
		}
	}
	wantMCC := "TTT=(and a b c) TTF=(and a b (not c)) TFT=(and a (not b) c) TFF=(and a (not b) (not c)) " +
		"FTT=(and (not a) b c) FTF=(and (not a) b (not c)) FFT=(and (not a) (not b) c) FFF=(and (not a) (not b) (not c))"
	if strings.Join(mcc, " ") != wantMCC {
		t.Errorf("mcc:\n%s\nwant\n%s", strings.Join(mcc, " "), wantMCC)
	}
	if strings.Join(cc, " ") != "true=a false=(not a) true=b false=(not b) true=c false=(not c)" {
		t.Errorf("cc: %v", cc)
	}
}

func TestMCCFallbackWarns(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b c)\n  (when (or a b c) 1))", "mcc", 2)
	if len(s.Warnings) != 1 || !strings.HasPrefix(s.Warnings[0].Error(), "t.plan:2:9: warning: decision has 3 atoms") {
		t.Fatalf("warnings %v", s.Warnings)
	}
	if len(s.Labels) != 6 {
		t.Fatalf("%d labels, want 6 (CC on 3 atoms)", len(s.Labels))
	}
	for _, l := range s.Labels {
		if l.Criterion != MCC || !strings.HasPrefix(l.Operator, "cc fallback: ") {
			t.Errorf("fallback label %+v", l)
		}
	}
	if s := enumerate(t, "(def-plan p (a b c) (when (or a b c) 1))", "mcc", 3); len(s.Warnings) != 0 || len(s.Labels) != 8 {
		t.Errorf("at the bound: %d warnings, %d labels", len(s.Warnings), len(s.Labels))
	}
}

func TestDedupAndConstants(t *testing.T) {
	// The atom (> x 0) appears twice: one condition, so CC has 4 labels and
	// MCC 4, not 6 and 8.
	s := enumerate(t, "(def-plan p (x y) (if (or (> x 0) (and y (> x 0))) 1 2))", "mcc,cc", 0)
	sum := s.StatusCounts()
	if sum[CC].Active != 4 || sum[MCC].Active != 4 {
		t.Errorf("summary cc %+v mcc %+v", sum[CC], sum[MCC])
	}
	// Constant decisions and constant atoms carry no labels.
	s = enumerate(t, "(def-plan p (x) (if t 1 2) (when (< 1 2) 3) (cond ((and x nil) 1) (t 2)))", "mcc,cc", 0)
	sum = s.StatusCounts()
	if sum[CC].Active != 2 || sum[MCC].Active != 2 {
		t.Errorf("constants: cc %+v mcc %+v (labels %d)", sum[CC], sum[MCC], len(s.Labels))
	}
}

func TestStableIDsInSourceOrder(t *testing.T) {
	src := "(def-plan p (a b)\n (if (< a b) (+ a 1) (- b a))\n (when (and a b) (* a b)))"
	s1 := enumerate(t, src, "all", 0)
	s2 := enumerate(t, src, "all", 0)
	last, id := -1, 0
	for i, l := range s1.Labels {
		if l.Pos.Offset < last {
			t.Fatalf("label %d out of source order", i)
		}
		last = l.Pos.Offset
		if l.Status == Active {
			id++
			if l.ID != id {
				t.Fatalf("label %d has id %d, want %d", i, l.ID, id)
			}
		} else if l.ID != 0 {
			t.Fatalf("non-active label with id %d", l.ID)
		}
		m := s2.Labels[i]
		if m.ID != l.ID || m.Predicate != l.Predicate || m.Operator != l.Operator {
			t.Fatalf("enumeration is not deterministic at %d", i)
		}
	}
}

func TestScaffoldingCarriesNoLabels(t *testing.T) {
	// f prints, so (f x) is hoisted under a generated (if %lc1 (f x) nil):
	// that if must not get decision labels, and the temporaries stand for
	// the two atoms.
	s := enumerate(t, "(defun f (x) (print x))\n(def-plan p (x) (when (and (> x 0) (f x)) 1))", "cc", 0)
	var got []string
	for _, l := range s.Labels {
		got = append(got, l.Pos.String()+" "+l.Predicate)
	}
	want := "t.plan:2:28 %lc1|t.plan:2:28 (not %lc1)|t.plan:2:36 %lc2|t.plan:2:36 (not %lc2)"
	if strings.Join(got, "|") != want {
		t.Errorf("got %s\nwant %s", strings.Join(got, "|"), want)
	}
}

func TestParseCriteria(t *testing.T) {
	for in, want := range map[string]string{
		"mcc":              "mcc",
		"cc, mcc":          "mcc,cc",
		"wm":               "wm-abs,wm-aor,wm-cor,wm-ror",
		"wm:ror,WM-ABS":    "wm-abs,wm-ror",
		"all":              "mcc,cc,wm-abs,wm-aor,wm-cor,wm-ror",
		"mcc,cc,wm,wm:ror": "mcc,cc,wm-abs,wm-aor,wm-cor,wm-ror",
	} {
		c, err := ParseCriteria(in)
		if err != nil || c.String() != want {
			t.Errorf("ParseCriteria(%q) = %v, %v; want %s", in, c, err, want)
		}
	}
	for _, bad := range []string{"", "wm:xyz", "mc"} {
		if _, err := ParseCriteria(bad); err == nil {
			t.Errorf("ParseCriteria(%q) accepted", bad)
		}
	}
}

func TestHillAndCoverage(t *testing.T) {
	h := HillNumbers([]int{3, 3, 3, 0})
	if h.D0 != 3 || math.Abs(h.D1-3) > 1e-9 || math.Abs(h.D2-3) > 1e-9 {
		t.Errorf("even: %+v", h)
	}
	h = HillNumbers([]int{9, 1})
	p, q := 0.9, 0.1
	if h.D0 != 2 || math.Abs(h.D1-math.Exp(-(p*math.Log(p)+q*math.Log(q)))) > 1e-9 || math.Abs(h.D2-1/(p*p+q*q)) > 1e-9 {
		t.Errorf("uneven: %+v", h)
	}
	if h := HillNumbers(nil); h != (Hill{}) {
		t.Errorf("empty: %+v", h)
	}
	ls := []*Label{
		{ID: 1, Criterion: CC, Status: Active}, {ID: 2, Criterion: CC, Status: Active},
		{ID: 3, Criterion: MCC, Status: Active}, {Criterion: MCC, Status: Infeasible},
	}
	hits := CountTraces([][]int{{1, 1, 3}, {1}})
	if hits[1] != 2 || hits[3] != 1 || hits[2] != 0 {
		t.Fatalf("hits %v", hits)
	}
	cov, err := Figures(ls, nil, hits)
	if err != nil {
		t.Fatal(err)
	}
	if c := cov[CC]; c.Covered != 1 || c.Total != 2 || c.Ratio() != 0.5 {
		t.Errorf("cc %+v", c)
	}
	if c := cov[MCC]; c.Covered != 1 || c.Total != 1 {
		t.Errorf("mcc %+v (infeasible labels do not count)", c)
	}
	if c := cov["all"]; c.Covered != 2 || c.Total != 3 || c.Diversity.D0 != 2 {
		t.Errorf("all %+v", c)
	}
}

func TestManifestRoundTrip(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b) (if (< a b) 1 2))", "all", 0)
	var b bytes.Buffer
	if err := s.Manifest().Write(&b); err != nil {
		t.Fatal(err)
	}
	m, err := ReadManifest(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var b2 bytes.Buffer
	if err := m.Write(&b2); err != nil {
		t.Fatal(err)
	}
	if b.String() != b2.String() {
		t.Errorf("round trip changed the manifest:\n%s\n%s", b.String(), b2.String())
	}
	if !strings.Contains(b.String(), `"summary": {`) || !strings.Contains(b.String(), `"wm-ror": {`) {
		t.Errorf("manifest lacks summary keys:\n%s", b.String())
	}
	for _, bad := range []string{`{"version": 3}`, `{"version": 0}`, `{"version": 1, "labels": [{"status": "active", "id": 0}]}`, `not json`} {
		if _, err := ReadManifest(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadManifest(%s) accepted", bad)
		}
	}
}

// TestManifestDigest: a version 2 manifest accepts only the plan (and the
// annotated plan) it was made from; a version 1 manifest, without
// digests, is still read and accepts any.
func TestManifestDigest(t *testing.T) {
	plan, ann := []byte("(def-plan p (x) (if (< x 1) 1 2))\n"), []byte("annotated")
	m := &Manifest{Version: ManifestVersion, File: "p.plan", Annotated: "p.ann.plan", SHA256: Digest(plan), AnnotatedSHA256: Digest(ann)}
	if err := m.CheckSource("p.plan", plan, false); err != nil {
		t.Error(err)
	}
	if err := m.CheckSource("p.ann.plan", ann, true); err != nil {
		t.Error(err)
	}
	if err := m.CheckSource("other.plan", []byte("(def-plan q () 1)\n"), false); err == nil || !strings.Contains(err.Error(), "other.plan is not the plan the label manifest was made from (p.plan") {
		t.Errorf("another plan: %v", err)
	}
	if err := m.CheckSource("p.plan", plan, true); err == nil || !strings.Contains(err.Error(), "not the annotated plan") {
		t.Errorf("the plan as the annotated plan: %v", err)
	}
	old, err := ReadManifest(strings.NewReader(`{"version": 1, "file": "p.plan", "labels": []}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := old.CheckSource("other.plan", []byte("x"), false); err != nil {
		t.Errorf("version 1 manifest: %v", err)
	}
}

func TestShortCircuitInfeasible(t *testing.T) {
	s := enumerate(t, "(defun f (v) (print v))\n(def-plan p (x) (when (and (> x 0) (f x)) 1) (when (or (< x 0) (f x)) 2))", "mcc", 0)
	var got []string
	for _, l := range s.Labels {
		if l.Status == Infeasible {
			got = append(got, l.Predicate+": "+l.Reason)
		}
	}
	want := []string{
		"(and (not %lc1) %lc2): %lc2 is only evaluated when %lc1 is true (short-circuit)",
		"(and %lc3 %lc4): %lc4 is only evaluated when %lc3 is false (short-circuit)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRedefinedBuiltinsAreNotUsedByLabels(t *testing.T) {
	s := enumerate(t, "(defun + (v) v)\n(def-plan p (x) (if (< (* x 2) 1) 1 2))", "wm:aor,wm:ror,cc", 0)
	for _, l := range s.Labels {
		if strings.Contains(l.Predicate, "(+ ") {
			t.Errorf("label calls the plan's +: %s", l.Predicate)
		}
	}
	if len(s.Warnings) != 1 || s.Warnings[0].Error() != "t.plan:1:8: warning: the plan redefines the builtin +, so 1 labels that need it are left out" {
		t.Errorf("warnings %v", s.Warnings)
	}
	if got := byOp(s, WMAOR); got["* -> -"] == "" || got["* -> +"] != "" {
		t.Errorf("aor labels %v", got)
	}
}

// TestDuplicatesMerged: identical labels at points evaluated together
// (one pure expression, no binding form in between) are one label that
// lists every position; points that are not always evaluated together keep
// their own labels.
func TestDuplicatesMerged(t *testing.T) {
	s := enumerate(t, "(def-plan p (a) (> (+ a a) (* a 2)))", "wm:abs", 0)
	if len(s.Labels) != 3 {
		t.Fatalf("%d ABS labels, want 3: %v", len(s.Labels), byOp(s, WMABS))
	}
	for _, l := range s.Labels {
		var cols []int
		for _, p := range l.Also {
			cols = append(cols, p.Col)
		}
		if l.Pos.Col != 23 || len(cols) != 2 || cols[0] != 25 || cols[1] != 31 {
			t.Errorf("%s at col %d also %v, want 23 also [25 31]", l.Operator, l.Pos.Col, cols)
		}
	}
	// The same relation written twice in one pure expression: one set of
	// ROR and MCC labels.
	s = enumerate(t, "(def-plan p (a b) (+ (if (< a b) 1 0) (if (< a b) 2 0)))", "wm:ror,mcc", 0)
	if n := len(s.Active()); n != 2+4 {
		t.Errorf("relation written twice: %d active labels, want 6", n)
	}
	for src, want := range map[string]int{
		// Branches of an if are not evaluated together.
		"(def-plan p (a c) (if c (+ a 1) (+ a 2)))": 6,
		// A later and operand runs only when the first is true.
		"(def-plan p (a) (and (> a 1) (< a 5)))": 6,
		// A let may rebind the variable.
		"(def-plan p (a) (+ a (let ((a 2)) (* a 3))))": 6,
		// An assignment between the reads changes the value.
		"(def-plan p (a) (list (+ a 1) (setq a 5) (+ a 1)))": 6,
	} {
		if s := enumerate(t, src, "wm:abs", 0); len(s.Labels) != want {
			t.Errorf("%s: %d ABS labels, want %d", src, len(s.Labels), want)
		}
	}
}

// TestExprResolvesTemporaries: a label on normalize's temporaries also
// carries its predicate written with the source expressions.
func TestExprResolvesTemporaries(t *testing.T) {
	f, err := syntax.Parse("t.plan", []byte("(defun lvl (r) (* r 2))\n(def-plan p (a) (when (> (lvl a) (lvl (+ a 1))) 1))"))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := normalize.Plan(f, normalize.Options{HoistCalls: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Enumerate(nr, Options{Criteria: bit(WMROR)})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, l := range s.Labels {
		got[l.Predicate] = l.Expr
	}
	if got["(/= %lc1 %lc2)"] != "(/= (lvl a) (lvl (+ a 1)))" || got["t"] != "" {
		t.Errorf("expr of labels: %v", got)
	}
	// Without temporaries there is nothing to resolve.
	for _, l := range enumerate(t, "(def-plan p (a) (< a 1))", "wm:ror", 0).Labels {
		if l.Expr != "" {
			t.Errorf("%s: expr %q, want empty", l.Predicate, l.Expr)
		}
	}
}

// TestDistLadder: the dist criterion puts |a-b| < 2^k on each numeric
// relation, shared by relations on the same operands in one expression,
// folded when both operands are literals; all does not select it.
func TestDistLadder(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b) (and (< a b) (> (+ b 0) a) (= 1 2)))", "dist", 0)
	var got []string
	for _, l := range s.Labels {
		got = append(got, l.Operator+" "+l.Predicate+" "+string(l.Status))
	}
	var ladder []string
	for _, k := range DistRungs(PlanDist) {
		ladder = append(ladder, fmt.Sprintf("|a-b| < %d (and (< (abs (- a b)) %d) (<= 0 (abs (- a b))) (eq (< a b) (< (- a b) 0))) active", 1<<k, 1<<k))
	}
	// (> (+ b 0) a) is a later and operand: its own ladder. Both literals:
	// folded; identical trivial labels are one.
	want := append(append(ladder, ladder...), "|a-b| < 4611686018427387904 t trivial", "|a-b| < 1 nil infeasible")
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// (< a b) and (> b a) evaluated together: one ladder.
	if s := enumerate(t, "(def-plan p (a b) (list (< a b) (> b a)))", "dist", 0); len(s.Active()) != len(DistRungs(PlanDist)) {
		t.Errorf("(< a b) and (> b a): %d dist labels, want %d", len(s.Active()), len(DistRungs(PlanDist)))
	}
	c, err := ParseCriteria("all")
	if err != nil || c.Has(DIST) {
		t.Errorf("all: %v, %v; dist must be opt-in", c, err)
	}
	if c, err := ParseCriteria("mcc,dist"); err != nil || !c.Has(DIST) || !c.Has(MCC) {
		t.Errorf("mcc,dist: %v %v", c, err)
	}
}

// TestRelations: the relation algebra every front end shares agrees with
// the outcomes it stands for.
func TestRelations(t *testing.T) {
	for _, r := range Relations() {
		if back, ok := RelationOf(r.String()); !ok || back != r {
			t.Errorf("%s does not read back (%v)", r, back)
		}
		for _, m := range Relations() {
			for c := -1; c <= 1; c++ {
				if r.Mutant(m).Holds(c) != (r.Holds(c) != m.Holds(c)) {
					t.Errorf("%s vs %s at %d: mutant %s", r, m, c, r.Mutant(m))
				}
			}
		}
		for c := -1; c <= 1; c++ {
			if r.Swap().Holds(c) != r.Holds(-c) || r.Not().Holds(c) == r.Holds(c) {
				t.Errorf("%s at %d: swap %s, not %s", r, c, r.Swap(), r.Not())
			}
		}
	}
}

// TestCombinations: MCC's combinations in label order, all true first.
func TestCombinations(t *testing.T) {
	var got []string
	for op, vals := range Combinations(2) {
		got = append(got, fmt.Sprintf("%s%v", op, vals))
	}
	if want := "[TT[true true] TF[true false] FT[false true] FF[false false]]"; fmt.Sprint(got) != want {
		t.Errorf("got %v, want %s", got, want)
	}
	if MCCFallback(3, 3) != "" || MCCFallback(4, 3) == "" {
		t.Error("MCCFallback: the bound is inclusive")
	}
}

// TestFiguresMCDC: the mcdc row counts conditions (covered when an
// independence pair was executed), its D0 is its covered count and never
// exceeds its total, the vectors are counted apart, and all is the sum of
// the rows in their units.
func TestFiguresMCDC(t *testing.T) {
	s := enumerate(t, "(def-plan p (a b c) (if (and (< a 1) (or (< b 1) (< c 1))) 1 2))", "mcdc,cc", 0)
	if len(s.Decisions) != 1 || len(s.Decisions[0].Conditions) != 3 {
		t.Fatalf("decisions %+v", s.Decisions)
	}
	d := s.Decisions[0]
	vecs := map[string]int{}
	for _, v := range d.Vectors {
		vecs[v.Values] = v.Label.ID
	}
	// TT- (true) and F-- (false): a pair for the first condition only.
	// Every vector label hit by 3 traces, so that a vector count in
	// the mcdc row would show.
	hits := map[int]int{vecs["TT-"]: 3, vecs["F--"]: 2}
	for _, l := range s.Labels {
		if l.Criterion == CC && l.Status == Active {
			hits[l.ID] = 1
			break
		}
	}
	cov, err := Figures(s.Labels, s.Decisions, hits)
	if err != nil {
		t.Fatal(err)
	}
	mc := cov[MCDC]
	if mc.Covered != 1 || mc.Total != 3 {
		t.Errorf("mcdc %d/%d, want 1/3 conditions", mc.Covered, mc.Total)
	}
	if mc.Diversity.D0 != 1 || mc.Diversity.D0 > float64(mc.Total) {
		t.Errorf("mcdc D0 %v, want 1 (its covered conditions)", mc.Diversity.D0)
	}
	if v := MCDCVectors(s.Labels, hits); v.Covered != 2 || v.Total != len(d.Vectors) {
		t.Errorf("vectors %v, want 2/%d", v, len(d.Vectors))
	}
	cc, all := cov[CC], cov[All]
	if all.Covered != cc.Covered+mc.Covered || all.Total != cc.Total+mc.Total {
		t.Errorf("all %d/%d, want the sum of cc %d/%d and mcdc %d/%d", all.Covered, all.Total, cc.Covered, cc.Total, mc.Covered, mc.Total)
	}
	if all.Diversity.D0 != float64(all.Covered) {
		t.Errorf("all D0 %v, want %d", all.Diversity.D0, all.Covered)
	}
}
