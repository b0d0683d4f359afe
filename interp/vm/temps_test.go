package vm

import (
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

// TestTemporariesCostNoSteps: in a plan declaring normalize's temporaries,
// binding and reading them and the guards of a short-circuited operand
// take the steps of the original and/or, whichever way it goes (a failure
// in a guarded operand included); a plan without the declaration, whose
// variables merely look like temporaries, keeps their steps.
func TestTemporariesCostNoSteps(t *testing.T) {
	// As normalize writes it (guarded by labelcov's feature), and as
	// older versions wrote it; both are read.
	decls := []string{"\n#+labelcov (declaim (labelcov-temporaries \"%lc\"))\n", "\n(declaim (labelcov-temporaries \"%lc\"))\n"}
	cases := []struct{ orig, norm string }{
		{`(def-plan main (x) (+ (+ x 1) 1))`,
			`(def-plan main (x) (let* ((%lc1 (+ x 1))) (+ %lc1 1)))`},
		{`(def-plan main (x) (if (and (> x 0) (< (/ 10 x) 4) (= x 3)) 'a 'b))`,
			`(def-plan main (x) (if (let* ((%lc1 (> x 0)) (%lc2 (if %lc1 (< (/ 10 x) 4) nil)) (%lc3 (if %lc2 (= x 3) nil))) (and %lc1 %lc2 %lc3)) 'a 'b))`},
		{`(def-plan main (x) (if (or (> x 0) (< (/ 10 x) 4) (= x -3)) 'a 'b))`,
			`(def-plan main (x) (if (let* ((%lc1 (> x 0)) (%lc2 (if %lc1 nil (< (/ 10 x) 4))) (%lc3 (if (or %lc1 %lc2) nil (= x -3)))) (or %lc1 %lc2 %lc3)) 'a 'b))`},
	}
	for _, c := range cases {
		for x := int64(-4); x <= 4; x++ {
			want, _, _ := runMain(t, c.orig, Config{}, value.Int(x))
			for _, decl := range decls {
				got, _, _ := runMain(t, c.norm+decl, Config{}, value.Int(x))
				if got.Steps != want.Steps || got.Outcome != want.Outcome || got.Value.String() != want.Value.String() {
					t.Errorf("x=%d %s%s\n  declared: %+v\n  original: %+v", x, c.norm, decl, got, want)
				}
			}
			plain, _, _ := runMain(t, c.norm, Config{}, value.Int(x))
			if plain.Steps <= want.Steps || plain.Value.String() != want.Value.String() {
				t.Errorf("x=%d %s undeclared: %d steps, want more than the original's %d", x, c.norm, plain.Steps, want.Steps)
			}
		}
	}
}
