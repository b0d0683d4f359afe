package transform_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
)

// TestDifferentialCPLWarehouse runs CPL-style plans (testdata/cpl) in the
// simulator on generated warehouse environments: the original, normalized
// and annotated plans give the same outcome, output, action trace, check
// verdicts and final world. warehouse-cpl.lisp uses &key and &optional,
// flet, multiple-value-bind, loop, cpl:par, try-in-order and qualified
// designators; warehouse-cpl-idioms.lisp backquote, make-designator, a
// ?variable property, six desig:when properties, labels, loop into,
// maximize and append, find/remove with :key and :test, a global of
// another file and a keyword-headed macro form passed through.
func TestDifferentialCPLWarehouse(t *testing.T) {
	for _, planPath := range []string{"testdata/cpl/warehouse-cpl.lisp", "testdata/cpl/warehouse-cpl-idioms.lisp"} {
		t.Run(planPath, func(t *testing.T) {
			f := parsePlanFile(t, planPath)
			w, err := sim.LoadWorld("../testdata/worlds/warehouse.world")
			if err != nil {
				t.Fatal(err)
			}
			n := 200
			if testing.Short() {
				n = 30
			}
			// The plan must really work the world: some run moves objects.
			r := newDiffRunner(t, f, w)
			rng := rand.New(rand.NewPCG(7, 7))
			moved := false
			for i := 0; i < 50 && !moved; i++ {
				out := r.run(r.input(rng))
				moved = strings.Contains(out, "picking-up") && strings.Contains(out, "placing") && !strings.Contains(out, "value 0\n") &&
					!strings.Contains(out, "value (0 ")
			}
			if !moved {
				t.Fatalf("the plan never moved an object; last run:\n%s", r.run(r.input(rng)))
			}
			diffAgainstOriginal(t, planPath, f, w, []string{"mcc", "wm", "all"}, n)
		})
	}
}
