package feasible_test

import (
	"context"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/sim"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/labels/feasible"
	"github.com/labelcov/labelcov/normalize"
)

// detectValsPlan tests the regions of detected objects through plan
// functions and let bindings in the warehouse world, whose table stands
// see only the table and whose shelf stands only the boards: lines 12
// and 17 are decided (on-table-p is never false after the table stands,
// level never 0 after the shelf stands); lines 20, 23 and 28 are their
// look-alikes (a stand of each kind, a move to a shelf stand in between
// that the objects decide, levels read from a stand of each kind), whose
// labels must stay and hold both ways.
const detectValsPlan = `(defun obj-region (d) (desig-prop d 'region))
(defun on-table-p (d) (eq (obj-region d) 'table))
(defun board-level (region) (case region (board-1 1) (board-2 2) (board-3 3) (otherwise 0)))
(defun look () (perform (an action (type detecting))))
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(def-plan main ()
  (with-failure-handling ((plan-failure (e) nil))
    (dolist (stand '(table-left table-center table-right)) (go-to stand)
      (dolist (d (look)) (when (on-table-p d) (print 1)))))
  (with-failure-handling ((plan-failure (e) nil))
    (dolist (stand '(shelf-left shelf-center shelf-right)) (go-to stand)
      (dolist (d (look))
        (let ((level (board-level (obj-region d))))
          (when (> level 0) (print 2))))))
  (with-failure-handling ((plan-failure (e) nil))
    (dolist (stand '(table-center shelf-center)) (go-to stand)
      (dolist (d (look)) (when (on-table-p d) (print 3)))))
  (with-failure-handling ((plan-failure (e) nil))
    (dolist (stand '(table-left)) (go-to stand) (when (> (length (look)) 1) (go-to 'shelf-center))
      (dolist (d (look)) (when (on-table-p d) (print 4)))))
  (with-failure-handling ((plan-failure (e) nil))
    (dolist (stand '(table-left shelf-left)) (go-to stand)
      (dolist (d (look))
        (let ((level (board-level (obj-region d))))
          (when (> level 0) (print 5)))))))
`

// TestDetectValueVerdicts: the decided labels are ruled out with the
// reason, no look-alike's is, and random environments of the warehouse
// world never cover a label ruled out while they cover the look-alikes'.
func TestDetectValueVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse("t.plan", []byte(detectValsPlan))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("mcc,cc,wm")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
	ruled := map[string]string{}
	for _, l := range verdicts {
		if l.Status == labels.Infeasible && strings.Contains(l.Reason, "for any region the detected object may be in") {
			ruled[l.Pos.String()+" "+l.Operator] = l.Reason
		}
	}
	for _, k := range []string{"t.plan:12:32 false", "t.plan:12:32 F", "t.plan:17:17 false", "t.plan:17:17 > -> >=", "t.plan:17:20 x -> 0"} {
		if ruled[k] == "" {
			t.Errorf("%s: not ruled out (have %v)", k, ruled)
		}
	}
	if r := ruled["t.plan:12:32 false"]; !strings.Contains(r, "(on-table-p d) is never false") || !strings.Contains(r, "(look)") {
		t.Errorf("reason: %q", r)
	}
	if r := ruled["t.plan:17:17 false"]; !strings.Contains(r, "level is (board-level (obj-region d))") {
		t.Errorf("reason: %q", r)
	}
	for k := range ruled {
		if line := strings.Split(k, ":")[1]; line >= "18" {
			t.Errorf("%s: a look-alike ruled out", k)
		}
	}
	hits := runWorld(t, p, world, 150)
	checkVerdicts(t, "detect-values", p, verdicts, hits, "random warehouse environments")
	lookAlikesHold(t, p, hits, "false", "t.plan:20:32", "t.plan:23:32", "t.plan:28:17")
	lookAlikesHold(t, p, hits, "true", "t.plan:20:32", "t.plan:23:32", "t.plan:28:17")
	lookAlikesHold(t, p, hits, "x -> 0", "t.plan:28:20")
}

// runWorld runs the def-plan of p in world on n seeded random
// environments of one to eight objects and returns the counters any run
// set.
func runWorld(t *testing.T, p *pipeline.Annotated, world *sim.World, n int) []bool {
	t.Helper()
	r, err := runner.New(runner.Options{Program: p.Program, World: world, Stdout: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	tg := &runner.Target{R: r}
	rng := rand.New(rand.NewPCG(7, 0xd37ec7))
	hits := make([]bool, p.Program.NumCounters())
	for i := 0; i < n; i++ {
		input := make([]byte, world.BytesPerObject()*(1+rng.IntN(8)))
		for j := range input {
			input[j] = byte(rng.Uint32())
		}
		if _, err := tg.Run(context.Background(), input); err != nil {
			t.Fatal(err)
		}
		collect(hits, tg.Counters())
	}
	return hits
}
