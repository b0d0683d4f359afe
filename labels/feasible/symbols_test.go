package feasible

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/domain"
	"github.com/labelcov/labelcov/normalize"
)

// verdicts enumerates src's labels of crit with the world domains doms
// (queries pure, calls hoisted, as the pipeline does) and maps
// "CRITERION OPERATOR PREDICATE" to "STATUS REASON".
func verdicts(t *testing.T, src, crit string, doms map[string]domain.Domain) map[string]string {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var pure []string
	for q := range doms {
		pure = append(pure, q)
	}
	nr, err := normalize.Plan(f, normalize.Options{PureFuncs: pure, HoistCalls: true})
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria(crit)
	s, err := Enumerate(nr, labels.Options{Criteria: c}, Options{Domains: doms})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range s.Labels {
		out[string(l.Criterion)+" "+l.Operator+" "+l.Predicate] = strings.TrimSpace(string(l.Status) + " " + l.Reason)
	}
	return out
}

func checkVerdictMap(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %q\nwant %q", k, got[k], w)
		}
	}
	if t.Failed() {
		t.Logf("all: %v", got)
	}
}

// TestSmallSets: a column taken from the slots (3 8 13) is one of them,
// not any number in [3, 13]; + of two sets applies to every pair; the
// guard analysis meets a set with the bounds on the way.
func TestSmallSets(t *testing.T) {
	src := `(defparameter *slots* '(3 8 13))
(defun free-slot (a) (dolist (col *slots* nil) (when (> a col) (return col))))
(defun stand (col) (cond ((<= col 4) 'left) ((<= col 9) 'center) (t 'right)))
(defun level-of (r) (case r (b1 1) (b2 2) (b3 3) (otherwise 0)))
(def-plan main (a r)
  (let ((c (free-slot a)) (level (level-of r)) (n (+ (if (< a 0) 1 2) (if (< r 0) 10 20))))
    (when c (stand c))
    (when (= n 12) (print n))
    (when (> level 0) (cond ((= level 1) 'one) ((= level 2) 'two) (t 'three)))))`
	checkVerdictMap(t, verdicts(t, src, "wm:ror", nil), map[string]string{
		"wm-ror <= -> < (= col 4)":   "infeasible cannot hold: col is one of 3, 8, 13 (from 3 t.plan:1:25, 13 t.plan:1:29, ...)",
		"wm-ror <= -> < (= col 9)":   "infeasible cannot hold: col is one of 3, 8, 13 (from 3 t.plan:1:25, 13 t.plan:1:29, ...)",
		"wm-ror = -> < (<= n 12)":    "active",
		"wm-ror = -> <= (< level 2)": "infeasible no integer satisfies level < 2 and level /= 1 and level > 0: level is one of 0, 1, 2, 3 (from 0 t.plan:4:61, 3 t.plan:4:47, ...): only reached where (= level 1) is false, (> level 0) is true",
		"wm-ror = -> <= (< level 1)": "infeasible no integer satisfies level < 1 and level > 0: level is one of 0, 1, 2, 3 (from 0 t.plan:4:61, 3 t.plan:4:47, ...): only reached where (> level 0) is true",
	})
	got := verdicts(t, src, "wm:ror", nil)
	// n is one of 11, 12, 21, 22: (= n 12) may hold.
	for k, v := range got {
		if strings.Contains(k, " n ") && !strings.HasPrefix(v, "active") {
			t.Errorf("%s: %s", k, v)
		}
	}
}

// TestSymbols: which symbols a value may be decides eq, member, not and
// truth; a conjunction's (not load) makes load nil in the others; an
// object query fails on nil; the world names the symbols its queries
// return.
func TestSymbols(t *testing.T) {
	src := `(defun arm-for (col) (if (< col 8) 'left 'right))
(defun pick (todo)
  (let ((load nil))
    (dolist (col todo)
      (let ((want (arm-for col)))
        (if (and load (eq (first (first load)) want)) (push (list 'right col) load) (push (list want col) load))))
    load))
(def-plan main (a r)
  (let ((side (if (< a 0) 'left (when (> a 5) 'right))) (where (object-region r)))
    (when (eq side 'up) (print 1))
    (when (member side '(up down)) (print 2))
    (when (and (not (eq where 'table)) (eq where 'board)) (print 3))
    (when (eq (robot-location) :k) (print 4))
    (when (or (not r) (object-cell r)) (print 5))
    (when (and (not (member side '(left right))) (eq side 'left)) (print 6))
    (pick (list a r))))`
	doms := map[string]domain.Domain{
		"object-region":  {Symbols: []string{"table", "shelf", "nil"}, Why: "the world's regions, or nil", FailsOnNil: true},
		"robot-location": {Symbols: []string{"home", "nil"}, Why: "the world's locations, or nil"},
		"object-cell":    {Elems: []domain.Range{{Lo: 0, Hi: 9}, {Lo: 0, Hi: 9}}, Why: "grids", FailsOnNil: true},
	}
	got := verdicts(t, src, "cc,mcc", doms)
	checkVerdictMap(t, got, map[string]string{
		"mcc FT (and (not load) (eq (first (first load)) want))":         "infeasible cannot hold: (eq (first (first load)) want) is never true: (first (first load)) is nil and want is one of left, right, where load is nil by (not load)",
		"mcc TT (and load (eq (first (first load)) want))":               "active",
		"cc true (eq side 'up)":                                          "infeasible cannot hold: side is one of left, nil, right",
		"cc false (not (eq side 'up))":                                   "active",
		"cc true (member side '(up down))":                               "infeasible cannot hold: side is one of left, nil, right",
		"cc true (eq where 'board)":                                      "infeasible cannot hold: where is one of nil, shelf, table (the world's regions, or nil)",
		"mcc FT (and (not (eq where 'table)) (eq where 'board))":         "infeasible cannot hold: no value of where satisfies both: where is one of nil, shelf (the world's regions, or nil) by (not (eq where 'table)) and where is board by (eq where 'board)",
		"mcc TT (and (eq where 'table) (eq where 'board))":               "infeasible cannot hold: no value of where satisfies both: where is table by (eq where 'table) and where is board by (eq where 'board)",
		"mcc FT (and (not r) (object-cell r))":                           "infeasible cannot hold: (object-cell r) signals a failure: r is nil and object-cell fails on nil (no object), where r is nil by (not r)",
		"mcc TF (and (eq where 'table) (not (eq where 'board)))":         "active",
		"mcc FT (and (not (member side '(left right))) (eq side 'left))": "infeasible cannot hold: no value of side satisfies both: side is nil by (not (member side '(left right))) and side is left by (eq side 'left)",
		"mcc TT (and (member side '(left right)) (eq side 'left))":       "active",
	})
	found := false
	for k, v := range got {
		if strings.Contains(k, "(eq") && strings.Contains(k, ":k)") && strings.HasPrefix(k, "cc true") {
			found = true
			if !strings.HasPrefix(v, "infeasible cannot hold") || !strings.Contains(v, "home, nil") {
				t.Errorf("%s: %s", k, v)
			}
		}
	}
	if !found {
		t.Errorf("no label of (eq (robot-location) :k): %v", got)
	}
	// Without the world's symbols the region is anything.
	for k, v := range verdicts(t, src, "cc,mcc", nil) {
		if strings.HasPrefix(k, "cc") && strings.Contains(k, "where") && strings.HasPrefix(v, "infeasible") {
			t.Errorf("no domains: %s: %s", k, v)
		}
	}
}
