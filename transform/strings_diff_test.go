package transform

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
)

// strGen writes random plans that compare strings (string=, equal)
// against constants and against each other, with strings built from the
// arguments (code-char, format, subseq that may fail), an impure function
// that prints, and non-string operands (numbers, symbols) that make
// string= fail: the sites of dist's prefix stones.
type strGen struct{ planGen }

func (g *strGen) str(d int) string {
	if d <= 0 || g.r.IntN(3) == 0 {
		return g.pick(`"cab"`, `"ca"`, `""`, `"cé"`, "s", "s", "(code-char (+ 97 (mod x 3)))", "x", "'cab")
	}
	e := func() string { return g.str(d - 1) }
	switch g.r.IntN(6) {
	case 0:
		return `(format nil "~a~a" ` + e() + " " + e() + ")"
	case 1:
		return `(subseq "cabbage" 0 (mod ` + g.pick("x", "y") + " " + g.pick("8", "10") + "))"
	case 2:
		return "(g " + e() + ")"
	case 3:
		return "(if " + g.cond(d-1) + " " + e() + " " + e() + ")"
	case 4:
		return "(setq s " + e() + ")"
	}
	return "(code-char (+ 97 (mod " + g.pick("x", "y", "(incf y)") + " 3)))"
}

func (g *strGen) cond(d int) string {
	e := func() string { return g.str(d) }
	if d <= 0 {
		return "(" + g.pick("string=", "equal") + " " + e() + " " + e() + ")"
	}
	c := func() string { return g.cond(d - 1) }
	switch g.r.IntN(6) {
	case 0, 1, 2:
		return "(" + g.pick("string=", "equal", "string=") + " " + e() + " " + e() + ")"
	case 3:
		return "(and " + c() + " " + c() + ")"
	case 4:
		return "(or " + c() + " " + c() + ")"
	}
	return "(not " + c() + ")"
}

func (g *strGen) plan() string {
	var b strings.Builder
	b.WriteString("(defparameter *g* 0)\n(defun g (v) (incf *g*) (format t \"g~a \" v) v)\n(def-plan main (x y)\n  (let ((s (code-char (+ 97 (mod y 3)))))\n")
	for i, n := 0, 2+g.r.IntN(4); i < n; i++ {
		c := func() string { return g.cond(2) }
		switch g.r.IntN(4) {
		case 0:
			b.WriteString("    (if " + c() + " (setq s " + g.str(2) + ") (incf *g*))\n")
		case 1:
			b.WriteString("    (when " + c() + " (print s))\n")
		case 2:
			b.WriteString("    (cond (" + c() + " (setq x 1)) (" + c() + " (setq s \"cab\")) (t (incf y)))\n")
		default:
			b.WriteString("    (setq s " + g.str(2) + ")\n")
		}
	}
	b.WriteString("    (list x y s *g*)))\n")
	return b.String()
}

// TestDifferentialStrings: original, normalized and annotated plans (dist
// and every criterion with dist) give the same outcome, value, output,
// failure and steps on random plans comparing strings, and the prefix
// stones are reached and covered.
func TestDifferentialStrings(t *testing.T) {
	plans, argsPer := 24, 25
	if testing.Short() {
		plans = 8
	}
	crits := []string{"dist", "all,dist"}
	runs, stones, stonesCovered := 0, 0, 0
	outcomes := map[vm.Outcome]int{}
	for seed := range plans {
		g := &strGen{planGen{r: rand.New(rand.NewPCG(uint64(seed), 21))}}
		src := g.plan()
		orig := newMachine(t, []byte(src))
		variants := map[string]*machine{}
		manifests := map[string]*labels.Manifest{}
		for _, c := range crits {
			r := annotate(t, "gen.plan", src, c)
			variants["annotated "+c] = newMachine(t, r.Source)
			variants["normalized "+c] = newMachine(t, r.Normalized.Source)
			manifests["annotated "+c] = r.Manifest("gen.plan")
		}
		m := manifests["annotated dist"]
		isStone := map[int]bool{}
		for _, l := range m.Labels {
			if strings.HasPrefix(l.Operator, "prefix ") {
				isStone[l.ID] = true
			}
		}
		stones += len(isStone)
		covered := map[int]bool{}
		names := make([]string, 0, len(variants))
		for n := range variants {
			names = append(names, n)
		}
		sort.Strings(names)
		ar := rand.New(rand.NewPCG(uint64(seed), 98))
		for range argsPer {
			x, y := ar.Int64N(21)-10, ar.Int64N(21)-10
			want := orig.run(x, y)
			outcomes[want.Outcome]++
			for _, n := range names {
				runs++
				got := variants[n].run(x, y)
				if want.Outcome == vm.OutcomeFailure && got.Outcome == want.Outcome {
					got.Steps = want.Steps // see TestDifferential
				}
				if got != want {
					t.Fatalf("seed %d args (%d %d): %s differs\noriginal: %+v\n%s:  %+v\nplan:\n%s", seed, x, y, n, want, n, got, src)
				}
				if n == "annotated dist" {
					for id := range variants[n].coveredLabels(m) {
						if isStone[id] {
							covered[id] = true
						}
					}
				}
			}
		}
		stonesCovered += len(covered)
	}
	t.Logf("%d plans, %d runs compared, %d prefix stones, %d covered; original outcomes %v", plans, runs, stones, stonesCovered, outcomes)
	if outcomes[vm.OutcomeOK] == 0 || outcomes[vm.OutcomeFailure] == 0 {
		t.Errorf("generator too narrow: outcomes %v", outcomes)
	}
	if stones == 0 || stonesCovered == 0 {
		t.Errorf("%d prefix stones, %d covered: the generator does not exercise them", stones, stonesCovered)
	}
}
