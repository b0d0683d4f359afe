package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// desigLabels lists the wm-abs labels of src with the world's cell domain
// ([0, 15] × [0, 15]), by position and operator.
func desigLabels(t *testing.T, src string) map[string]string {
	t.Helper()
	doms := map[string]domain.Domain{"object-cell": {Elems: []domain.Range{{Lo: 0, Hi: 15}, {Lo: 0, Hi: 15}}, Why: "grids"}}
	return enumerated(t, src, "wm:abs", normalize.Options{PureFuncs: []string{"object-cell"}, HoistCalls: true}, Options{Domains: doms})
}

const desigPlan = `(defparameter *slots* '(3 8 13))
(defun obj-col (d) (first (desig-prop d 'cell)))
(defun table-stand (col) (if (<= col 5) 'a 'b))
(defun free-slot () (dolist (col *slots* nil) (when (ok-p col) (return col))))
(def-plan p ()
  (dolist (d (perform (an action (type detecting))))
    (table-stand (obj-col d)))
  (let ((?col (free-slot)))
    (perform (an action (type placing) (target (a location (cell (list ?col 5))))))))
`

// TestDesigPropPruning: the cell of a designator is the world's or one
// the plan built, and a dolist over a global literal list binds its
// elements: col is in [0, 15], never negative.
func TestDesigPropPruning(t *testing.T) {
	got := desigLabels(t, desigPlan)
	if v := got["t.plan:3:34 x -> (abs x)"]; !strings.HasPrefix(v, "infeasible") {
		t.Errorf("(< col 0) in table-stand: %q (%v)", v, got)
	}
}

// TestDesigPropPruningGivesUp: a designator the analysis cannot see
// (make-designator), a cell held in a variable, or the literal list
// assigned elsewhere keep the labels active.
func TestDesigPropPruningGivesUp(t *testing.T) {
	for name, src := range map[string]string{
		"make-designator": desigPlan + "(defun other () (make-designator 'location (list (list 'cell (list -1 0)))))\n",
		"cell variable":   strings.Replace(desigPlan, "(cell (list ?col 5))", "(cell ?c)", 1) + "(defparameter ?c (list -1 0))\n",
		"list assigned":   desigPlan + "(defun reset () (setq *slots* (list -4)))\n",
		"negative slot":   strings.Replace(desigPlan, "'(3 8 13)", "'(3 -8 13)", 1),
		"return":          strings.Replace(desigPlan, "(return col)", "(return (- col 20))", 1),
	} {
		got := desigLabels(t, src)
		if v := got["t.plan:3:34 x -> (abs x)"]; v != "active " {
			t.Errorf("%s: (< col 0) in table-stand: %q", name, v)
		}
	}
}

const shapePlan = `(defparameter *cells* '((3 4) (5 8)))
(defun obj-col (d) (first (desig-prop d 'cell)))
(defun table-stand (col) (if (<= col 5) 'a 'b))
(defun put-at (?cell) (perform (an action (type placing) (target (a location (cell ?cell))))))
(def-plan p (k)
  (dolist (d (perform (an action (type detecting))))
    (table-stand (obj-col d)))
  (put-at (nth (mod k 2) *cells*))
  (put-at (second (assoc 'x '((x (1 2)) (y (6 7))))))
  (put-at (rest (cons 9 (reverse (list 2 3))))))
`

// TestDesigShapePruning: a cell held in a variable, taken out of literal
// tables (nth, assoc, second, rest, cons, reverse, list), keeps its
// elements' ranges: col is in [0, 15], never negative.
func TestDesigShapePruning(t *testing.T) {
	got := desigLabels(t, shapePlan)
	if v := got["t.plan:3:34 x -> (abs x)"]; !strings.HasPrefix(v, "infeasible") {
		t.Errorf("(< col 0) in table-stand: %q (%v)", v, got)
	}
}

// TestDesigShapePruningGivesUp: a negative element anywhere in the lists
// the cell may come from, or a list the analysis cannot see into, keeps
// the label active.
func TestDesigShapePruningGivesUp(t *testing.T) {
	for name, src := range map[string]string{
		"negative in table": strings.Replace(shapePlan, "'((3 4) (5 8))", "'((3 4) (-5 8))", 1),
		// (assoc 'x ...) takes the x entry only: a key the analysis
		// does not know may take the y entry (precise.go).
		"negative in assoc":  strings.Replace(strings.Replace(shapePlan, "(y (6 7))", "(y (-6 7))", 1), "(assoc 'x", "(assoc k", 1),
		"negative consed":    strings.Replace(shapePlan, "(list 2 3)", "(list 2 -3)", 1),
		"cell from argument": shapePlan + "(defun other (j) (put-at (list (- j) 0)))\n(def-plan q (j) (other j))\n",
		"external list":      shapePlan + "(defun other () (put-at (ext-cell)))\n",
		"pushed list":        shapePlan + "(defun other (c) (let ((l nil)) (push c l) (put-at (first l))))\n(def-plan q (j) (other (list (- j) 0)))\n",
	} {
		got := desigLabels(t, src)
		if v := got["t.plan:3:34 x -> (abs x)"]; v != "active " {
			t.Errorf("%s: (< col 0) in table-stand: %q", name, v)
		}
	}
}
