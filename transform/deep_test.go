package transform

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
)

// nest writes open n times around mid, then close n times.
func nest(open, mid, close string, n int) string {
	return strings.Repeat(open, n) + mid + strings.Repeat(close, n)
}

// deepPlans are legal plans that nest close to the reader's limit, or are
// wide, in the shapes that make labels copy operands or wrap points.
func deepPlans() map[string]string {
	const d = syntax.MaxDepth - 8
	main := func(body string) string { return "(def-plan main ()\n  (let ((x 3) (y 4))\n    " + body + "))\n" }
	wide := make([]string, 1000)
	for i := range wide {
		wide[i] = fmt.Sprintf("((= x %d) (+ x %d))", i, i)
	}
	return map[string]string{
		"arith":        main(nest("(+ 1 ", "x", ")", d)),
		"arith-l":      main(nest("(* ", "x", " 2)", d)),
		"minus":        main(nest("(- ", "x", ")", d)),
		"mixed":        main(nest("(+ y (max 1 ", "x", "))", d/2)),
		"and":          main(nest("(and (> x 0) ", "y", ")", d)),
		"or-cmp":       main(nest("(or (< x (+ y ", "1", ")))", d/3)),
		"not":          main("(if " + nest("(not ", "(< x y)", ")", d-2) + " 1 2)"),
		"if-arith":     main(nest("(+ 1 (if (< x 2) 0 ", "x", "))", d/2)),
		"let":          main(nest("(let ((y (+ y 1))) (+ x ", "y", "))", d/3)),
		"quote":        main("(if (eq x 3) " + nest("'(", "a", ")", d/2-1) + " 0)"),
		"cmp-deep":     main("(< " + nest("(+ 1 ", "x", ")", d-2) + " " + nest("(- ", "y", ")", 3) + ")"),
		"impure-args":  main(nest("(+ (incf x) ", "x", ")", d)),
		"impure-if":    main(nest("(+ 1 (if (> x 0) (progn (incf x) ", "x", ")))", d/3)),
		"impure-tests": main(nest("(when (< (incf x) 10000) ", "x", ")", d)),
		"wide":         main("(cond " + strings.Join(wide, "\n") + " (t 0))"),
		"wide-+":       main("(+ " + strings.Repeat("(* x (- y 1)) ", 1000) + ")"),
	}
}

// TestAnnotateDeepAndWide: on plans within the reader's limits, every
// criterion's annotated plan reads back, compiles and behaves like the
// original; its size stays linear in the input.
func TestAnnotateDeepAndWide(t *testing.T) {
	for name, src := range deepPlans() {
		t.Run(name, func(t *testing.T) {
			f, err := syntax.Parse(name+".plan", []byte(src))
			if err != nil {
				t.Fatalf("test plan does not parse: %v", err)
			}
			po, err := compile.Compile(f)
			if err != nil {
				t.Fatalf("test plan does not compile: %v", err)
			}
			for _, c := range []string{"wm:aor", "all"} {
				crit, _ := labels.ParseCriteria(c)
				// NoValues: x and y are constants, so the value analysis
				// would decide every label and inject none.
				r, err := Plan(f, Options{Labels: labels.Options{Criteria: crit}, Feasible: feasible.Options{NoValues: true}})
				if err != nil {
					t.Fatalf("%s: %v", c, err)
				}
				af, err := readBack(r)
				if err != nil {
					t.Fatalf("%s: annotated plan does not read back: %v", c, err)
				}
				if len(r.Source) > 200*len(src)+10_000 {
					t.Errorf("%s: annotated plan is %d bytes for %d of plan", c, len(r.Source), len(src))
				}
				pa, err := compile.Compile(af)
				if err != nil {
					t.Fatalf("%s: annotated plan does not compile: %v", c, err)
				}
				run := func(p *compile.Program) string {
					var out bytes.Buffer
					m, err := vm.New(p, vm.Config{Stdout: &out})
					if err != nil {
						t.Fatal(err)
					}
					res := m.Run(context.Background(), p.Plan("main"), nil)
					s := fmt.Sprint(res.Outcome, " ", res.Value.String(), " ", out.String())
					if res.Failure != nil {
						s += " " + res.Failure.Kind + ": " + res.Failure.Message
					}
					return s
				}
				if o, a := run(po), run(pa); o != a {
					t.Errorf("%s: original %s, annotated %s", c, o, a)
				}
				if c == "all" && len(r.Labels.Active()) == 0 && name != "impure-if" {
					t.Errorf("%s: no active labels", c)
				}
				if name == "impure-if" && len(r.Labels.Warnings) == 0 {
					// Each site's effects need a let* deeper: the deepest
					// part stays as written, with a warning.
					t.Errorf("%s: no warning for the part left without labels", c)
				}
			}
		})
	}
}
