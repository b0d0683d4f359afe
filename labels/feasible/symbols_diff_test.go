package feasible_test

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// genSymPlan writes a random plan whose variables hold symbols (nil and
// t among them), small sets of integers and lists of such, chosen by
// comparisons of the arguments: case, cond, if without else, when,
// dolist over literal lists with return, push, closures that assign,
// and the conditions eq, eql, equal, member, not, null and bare
// variables in and/or decisions, so that the verdicts of the symbol and
// set analyses (and a conjunction's assumptions) meet runs that try them.
func genSymPlan(rng *rand.Rand) string {
	syms := []string{"'left", "'right", "'up", "nil", "t", ":k", "'nil", "3", "8", "13", "0", "-1", "2.5"}
	vars := []string{"s1", "s2", "s3", "l1", "*gs*", "(first l1)", "(second l1)", "(first (first l2))", "(helper a)", "n1", "n2",
		"(tbl s1)", "(pick3 n1)", "(tbl (helper b))"}
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	cmp := func() string {
		args := []string{"a", "b", "c", "(mod a 4)", "(mod b 3)"}
		ops := []string{"<", "<=", "=", ">"}
		return "(" + pick(ops) + " " + pick(args) + " " + pick([]string{"0", "1", "2", "-3", "b"}) + ")"
	}
	var val func(d int) string
	val = func(d int) string {
		if d <= 0 {
			return pick(syms)
		}
		switch rng.IntN(10) {
		case 0:
			return "(if " + cmp() + " " + val(d-1) + " " + val(d-1) + ")"
		case 1:
			return "(if " + cmp() + " " + val(d-1) + ")"
		case 2:
			return "(when " + cmp() + " " + val(d-1) + ")"
		case 3:
			return "(case (mod a 3) (0 " + val(d-1) + ") (1 " + val(d-1) + "))"
		case 4:
			return "(cond (" + cmp() + " " + val(d-1) + ") (" + cmp() + " " + val(d-1) + "))"
		case 5:
			return "(list " + val(d-1) + " " + val(d-1) + ")"
		case 6:
			return pick(vars)
		case 7:
			return "(" + pick([]string{"+", "-", "*"}) + " " + pick([]string{"n1", "n2", "3", "8"}) + " " + pick([]string{"n1", "n2", "1", "5"}) + ")"
		case 8:
			return "(dolist (x '(3 8 13) nil) (when " + cmp() + " (return x)))"
		default:
			return "(or " + val(d-1) + " " + val(d-1) + ")"
		}
	}
	cond := func() string {
		x := pick(vars)
		switch rng.IntN(10) {
		case 9:
			return "(isdir " + x + ")"
		case 0:
			return "(eq " + x + " " + pick(syms) + ")"
		case 1:
			return "(eql " + x + " " + pick(vars) + ")"
		case 2:
			return "(equal " + x + " " + pick(syms) + ")"
		case 3:
			return "(member " + x + " '(left up 3 13 nil))"
		case 4:
			return "(not " + x + ")"
		case 5:
			return "(null " + x + ")"
		case 6:
			return "(= " + pick([]string{"n1", "n2", "(+ n1 n2)", "(* n1 2)"}) + " " + pick([]string{"4", "9", "8", "16", "26"}) + ")"
		case 7:
			return "(eq " + x + " " + pick(vars) + ")"
		default:
			return x
		}
	}
	decision := func() string {
		switch rng.IntN(6) {
		case 4:
			return "(and (member " + pick(vars[:5]) + " '(left up nil)) " + cond() + ")"
		case 5:
			return "(and (not (member " + pick(vars[:5]) + " '(left :k))) " + cond() + ")"
		case 0:
			return "(and " + cond() + " " + cond() + ")"
		case 1:
			return "(or " + cond() + " " + cond() + ")"
		case 2:
			return "(and (not " + pick(vars[:5]) + ") " + cond() + ")"
		}
		return cond()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "(defparameter *gs* %s)\n", val(1))
	fmt.Fprintf(&b, "(defun helper (x) (if (< x 0) %s %s))\n", val(1), val(1))
	// Values per call, sure conses, one-test predicates (precise.go).
	fmt.Fprintf(&b, "(defun tbl (x) (let ((e (assoc x '((left 3) (up %s) (nil 13))))) (if e (second e) %s)))\n", pick(syms), pick(syms))
	fmt.Fprintf(&b, "(defun pick3 (k) (let ((s (rest (assoc %s '((1 left up nil) (2 t %s t)))))) (nth (mod k (length s)) s)))\n",
		pick([]string{"1", "2", "k"}), pick(syms))
	b.WriteString("(defun isdir (x) (member x '(left right)))\n")
	b.WriteString("(def-plan main (a b c)\n")
	fmt.Fprintf(&b, "  (let ((s1 %s) (s2 %s) (s3 nil) (l1 (list %s %s)) (l2 nil) (n1 %s) (n2 (dolist (x '(3 8 13) 0) (when (> a x) (return x)))))\n",
		val(2), val(2), val(1), val(1), pick([]string{"3", "(if (< a 0) 3 8)", "(case (mod b 3) (0 3) (1 8) (otherwise 13))"}))
	for k := 0; k < 7; k++ {
		switch rng.IntN(9) {
		case 8:
			// A cond's earlier clause (condguard.go).
			fmt.Fprintf(&b, "    (ignore-errors (cond ((eq %s (tbl %s)) (setq s3 %s)) (%s (setq s2 %s))))\n", pick(vars[:5]), pick(vars[:3]), val(1), decision(), val(1))
		case 0:
			fmt.Fprintf(&b, "    (ignore-errors (setq s3 %s))\n", val(2))
		case 1:
			fmt.Fprintf(&b, "    (ignore-errors (when %s (push (list %s %s) l2)))\n", decision(), val(1), val(1))
		case 2:
			fmt.Fprintf(&b, "    (ignore-errors (funcall (lambda () (setq s1 %s))))\n", val(1))
		case 3:
			fmt.Fprintf(&b, "    (ignore-errors (if %s (setq *gs* %s) (setq n1 %s)))\n", decision(), val(1), val(1))
		case 4:
			fmt.Fprintf(&b, "    (ignore-errors (setq n2 (+ n2 %s)))\n", pick([]string{"1", "n1", "5"}))
		default:
			fmt.Fprintf(&b, "    (ignore-errors (when %s (setq s2 %s)))\n", decision(), val(2))
		}
	}
	b.WriteString("    (list s1 s2 s3 l1 l2 n1 n2)))\n")
	return b.String()
}

func checkSymPlan(t *testing.T, seed uint64, inputs int) int {
	rng := rand.New(rand.NewPCG(seed, 0x51b0))
	src := genSymPlan(rng)
	return checkPlanVerdicts(t, fmt.Sprintf("seed %d", seed), src, "mcc,cc,wm,mcdc", inputs, func(i int) []byte {
		if i%2 == 1 {
			return argInput(rng, 3)
		}
		// Small arguments reach every branch of the plan's comparisons.
		input := make([]byte, 24)
		for j, v := range []int{rng.IntN(40) - 20, rng.IntN(9) - 4, rng.IntN(9) - 4} {
			binary.LittleEndian.PutUint64(input[8*j:], uint64(int64(v)))
		}
		return input
	})
}

// TestValueVerdictsSoundOnSymbolPlans checks the verdicts of the symbol
// and small-set analyses on random plans of symbols, lists and sets of
// integers: no label called infeasible ever holds.
func TestValueVerdictsSoundOnSymbolPlans(t *testing.T) {
	plans, inputs := testenv.Sized(30, 600), testenv.Sized(120, 300)
	total := 0
	for seed := uint64(1); seed <= uint64(plans); seed++ {
		total += checkSymPlan(t, seed, inputs)
		if t.Failed() {
			return
		}
	}
	if total < 20 {
		t.Errorf("only %d verdicts over %d plans: is the symbol analysis wired in?", total, plans)
	}
}
