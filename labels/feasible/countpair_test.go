package feasible_test

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// countPairPlan surveys from STAND, keeps the detected objects FILTER
// lets through, picks each and places it on the table, then counts per
// board the milk there now and the milk that started there (PASS is the
// loop's body) and asks whether fewer are there now (line 21, the < at
// column 13).
const countPairPlan = surveyPrelude + `(def-plan main ()
  (survey)
  (dolist (x (reverse *todo*))
    (with-failure-handling ((plan-failure (e) nil))
      (take x)
      (perform (an action (type placing) (arm left) (target (a location (on table)))))))
  (dolist (board '(board-1 board-2 board-3))
    (let ((now 0) (before 0))
      (dolist (?obj (all-objects)) PASS) AFTER
      (when (< now before) (print 'lost)))))
`

const countPairPass = `(when (eq (object-type ?obj) 'milk) (when (eq (object-region ?obj) board) (incf now)) (when (eq (initial-region ?obj) board) (incf before)))`

// TestCountPairVerdicts: when no picking-up takes an object that starts
// on a board, a pass that counts a milk that started on the board counts
// it as there now, so (< now before) after the loop is infeasible (CC
// true of line 21), and random warehouse environments never cover it;
// the look-alikes (board objects picked; the counts swapped; an early
// exit between the increments; now reset after the loop; a condition of
// before's increment that implies nothing of now's) keep it, and the
// first covers it.
func TestCountPairVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("cc")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	const table, boards = "(eq (obj-region d) 'table)", "(not (eq (obj-region d) 'table))"
	for _, tc := range []struct {
		name, stand, filter, pass, after string
		ruled                            bool
	}{
		{"table objects", "table-center", table, countPairPass, "", true},
		{"one when, through and", "table-center", table,
			"(progn (when (and (eq (object-type ?obj) 'milk) (eq board (object-region ?obj))) (incf now)) (when (and (eq (initial-region ?obj) board) (eq (object-type ?obj) 'milk)) (incf before)))", "", true},
		{"board objects", "shelf-center", boards, countPairPass, "", false},
		{"swapped", "table-center", table, strings.NewReplacer("object-region", "initial-region", "initial-region", "object-region").Replace(countPairPass), "", false},
		{"an early exit", "table-center", table,
			"(when (eq (object-type ?obj) 'milk) (when (eq (initial-region ?obj) board) (incf before)) (when (> before 0) (return nil)) (when (eq (object-region ?obj) board) (incf now)))", "", false},
		{"reset after", "table-center", table, countPairPass, "(setq now 0)", false},
		{"another type", "table-center", table,
			"(progn (when (and (eq (object-type ?obj) 'milk) (eq (object-region ?obj) board)) (incf now)) (when (eq (initial-region ?obj) board) (incf before)))", "", false},
	} {
		src := strings.NewReplacer("STAND", tc.stand, "FILTER", tc.filter, "PASS", tc.pass, "AFTER", tc.after).Replace(countPairPlan)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
		reason := reasonAt(verdicts, "t.plan:21:13", "true")
		if tc.ruled != (reason != "") {
			t.Errorf("%s: ruled out %v (%q), want %v", tc.name, reason != "", reason, tc.ruled)
		}
		if tc.ruled && (!strings.Contains(reason, "a pass that increments before increments now too") ||
			!strings.Contains(reason, "no read takes an object that starts in board-1, board-2 or board-3") ||
			!strings.Contains(reason, "so now >= before after the loop")) {
			t.Errorf("%s: reason %q", tc.name, reason)
		}
		hits := runWorld(t, p, world, 300)
		checkVerdicts(t, tc.name, p, verdicts, hits, "random warehouse environments")
		if tc.name == "board objects" || tc.name == "another type" {
			lookAlikesHold(t, p, hits, "true", "t.plan:21:13")
		}
	}
}

// TestCountPairOnBenchmarks: restock-quota's over-quota check cannot see
// fewer goods on a board than it started with (the wm-ror > -> /= label
// of (> now before)); TestValueVerdictsSoundOnBenchmarks runs it on
// random environments.
func TestCountPairOnBenchmarks(t *testing.T) {
	path, verdicts := benchVerdicts(t, "restock-quota", "wm-ror")
	if r := reasonAt(verdicts, path+":197:34", "> -> /="); !strings.Contains(r, "so now >= before after the loop") {
		t.Errorf("reason %q", r)
	}
}
