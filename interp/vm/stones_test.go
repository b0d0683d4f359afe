package vm

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// distPreds returns the predicates of the active dist labels of plan src
// (one def-plan p of parameters a b) and their operators.
func distPreds(t *testing.T, src string) (preds, ops []string) {
	t.Helper()
	f, err := syntax.Parse("s.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	nr, err := normalize.Plan(f, normalize.Options{})
	if err != nil {
		t.Fatal(err)
	}
	crit, _ := labels.ParseCriteria("dist")
	set, err := labels.Enumerate(nr, labels.Options{Criteria: crit})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range set.Labels {
		if l.Criterion == labels.DIST && l.Status == labels.Active {
			preds = append(preds, l.Predicate)
			ops = append(ops, l.Operator)
		}
	}
	return preds, ops
}

// commonPrefix is the number of leading characters a and b share.
func commonPrefix(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	k := 0
	for k < len(ra) && k < len(rb) && ra[k] == rb[k] {
		k++
	}
	return k
}

// TestPlanPrefixStonesMatchPlainComparison: the prefix stones of
// (string= a C), (equal C a) and (string= a b), run by the VM, hold
// exactly when a (and b) are strings whose first k characters agree
// (with C, or with each other), never fail, and all hold whenever the
// comparison itself is true (between values: for k up to their length) — on edge inputs (empty strings, equal
// strings, prefixes of each other, one character off at each position,
// non-ASCII characters, non-string operands) and random ones.
func TestPlanPrefixStonesMatchPlainComparison(t *testing.T) {
	const c = "calibré!"
	n := len([]rune(c))
	cases := []struct {
		src   string
		konst bool // against c; else between a and b
		cmp   func(a, b value.Value) bool
	}{
		{`(def-plan p (a b) (string= a "calibré!"))`, true, nil},
		{`(def-plan p (a b) (equal "calibré!" a))`, true, nil},
		{`(def-plan p (a b) (string= b a))`, false, nil},
	}
	r := rand.New(rand.NewPCG(5, 6))
	alpha := []rune("cal ibré!xé日\x00")
	randStr := func() string {
		k := r.IntN(12)
		var b strings.Builder
		for range k {
			b.WriteRune(alpha[r.IntN(len(alpha))])
		}
		return b.String()
	}
	strs := []string{"", c, "c", "calibré", "calibré!!", "calibre!", "Calibré!", "日本語", "calibré!\x00"}
	rc := []rune(c)
	for i := range rc {
		s := append([]rune{}, rc...)
		s[i] = 'X'
		strs = append(strs, string(s), string(rc[:i]), string(rc[:i])+"é")
	}
	for range 200 {
		strs = append(strs, randStr())
	}
	vals := []value.Value{value.Int(5), value.Float(1.5), value.Nil, value.T, value.Symbol("calibré!"), value.Keyword("c"),
		value.List(value.String("c"), value.String("a")), value.List(value.Int(1))}
	for _, s := range strs {
		vals = append(vals, value.String(s))
	}
	for _, tc := range cases {
		preds, ops := distPreds(t, tc.src)
		steps := labels.PrefixSteps(-1)
		if tc.konst {
			steps = labels.PrefixSteps(n)
		}
		if len(preds) != len(steps) {
			t.Fatalf("%s: %d stones %v, want %d", tc.src, len(preds), ops, len(steps))
		}
		for i, k := range steps {
			if ops[i] != labels.PrefixOperator(k) {
				t.Fatalf("%s: stone %d is %q, want %q", tc.src, i, ops[i], labels.PrefixOperator(k))
			}
		}
		// The stones and the comparison itself, as ignore-errors would
		// see them: a failing predicate is nil.
		var b strings.Builder
		b.WriteString("(def-plan q (a b) (list")
		for _, p := range preds {
			b.WriteString(" (ignore-errors " + p + ")")
		}
		cmp := tc.src[strings.Index(tc.src, "(a b) ")+6 : len(tc.src)-1]
		b.WriteString(" (ignore-errors " + cmp + ")))")
		p := compileSrc(t, b.String())
		m, err := New(p, Config{})
		if err != nil {
			t.Fatal(err)
		}
		pairs := 0
		for _, x := range vals {
			others := []value.Value{value.String(c)}
			if !tc.konst {
				others = vals
			}
			for _, y := range others {
				pairs++
				res := m.Run(context.Background(), p.Plan("q"), []value.Value{x, y})
				if res.Outcome != OutcomeOK {
					t.Fatalf("%s a=%v b=%v: %v", tc.src, x, y, res.Failure)
				}
				got := res.Value
				var strings2 bool
				var prefix int
				if tc.konst {
					strings2 = x.Kind() == value.KString
					if strings2 {
						prefix = commonPrefix(x.Str(), c)
					}
				} else {
					strings2 = x.Kind() == value.KString && y.Kind() == value.KString
					if strings2 {
						prefix = commonPrefix(x.Str(), y.Str())
					}
				}
				held := make([]bool, len(steps))
				for i, k := range steps {
					want := strings2 && prefix >= k
					held[i] = !got.Car().IsNil()
					if held[i] != want {
						t.Fatalf("%s: stone %s, a=%v b=%v: %v, want %v", tc.src, ops[i], x, y, held[i], want)
					}
					got = got.Cdr()
				}
				if equal := !got.Car().IsNil(); equal && strings2 {
					for i, k := range steps {
						if !held[i] && k <= len([]rune(x.Str())) {
							t.Fatalf("%s: a=%v b=%v are equal but stone %s does not hold", tc.src, x, y, ops[i])
						}
					}
				}
			}
		}
		if pairs < 200 {
			t.Fatalf("only %d pairs", pairs)
		}
	}
}
