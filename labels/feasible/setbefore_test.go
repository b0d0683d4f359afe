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

// setBeforePlan sets ?target from find-one, which looks from each stand of
// STANDS in turn (popped under the while's test) and fails with
// object-not-found when it sees nothing; the handler's plan-failure
// clause (which placing with the empty right arm enters) tests ?target
// (line 16).
const setBeforePlan = `(defparameter *stands* STANDS)
(defun go-to (?loc)
  (unless (eq (robot-location) ?loc)
    (perform (an action (type parking-arms)))
    (perform (an action (type navigating) (location (a location (name ?loc)))))))
(defun find-one ()
  (let ((stands *stands*) (found nil))
    (while WHILE
      (go-to (pop stands))
      (setq found (first (perform (an action (type detecting))))))
    LAST))
(def-plan main ()
  (let ((?target nil) (tries 0))
    (with-failure-handling ((object-not-found (e) nil)
                            (plan-failure (e) RESET
                              (incf tries) (when ?target (print 'x))
                              (when (< tries 3) (retry))))
      (setq ?target (find-one))
      (perform (an action (type picking-up) (arm left) (object ?target)))
      (perform (an action (type placing) (arm right) (target (a location (on table))))))))
`

// TestSetBeforeVerdicts: ?target is never nil in the plan-failure clause,
// with the reason, and random warehouse environments never make it so;
// the look-alikes (a stand the simulator does not know, so that
// navigating fails before target is set; the pop no while test guards,
// which may go to nil; find-one returning found, which may be nil; the
// handler resetting ?target) keep the label, and those that can make it
// hold do.
func TestSetBeforeVerdicts(t *testing.T) {
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := labels.ParseCriteria("cc")
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	const at = "t.plan:16:50"
	for _, tc := range []struct {
		name, stands, while, last, reset string
		ruled, holds                     bool
	}{
		{"set before", "'(table-center table-left table-right)", "(and stands (not found))", `(or found (fail 'object-not-found "none"))`, "", true, false},
		{"an unknown stand", "'(nowhere table-center)", "(and stands (not found))", `(or found (fail 'object-not-found "none"))`, "", false, true},
		{"an unguarded pop", "'(table-left table-center)", "(not found)", `(or found (fail 'object-not-found "none"))`, "", false, true},
		{"found may be nil", "'(table-left table-center)", "(and stands (not found))", "found", "", false, false},
		{"reset in the handler", "'(table-center table-left)", "(and stands (not found))", `(or found (fail 'object-not-found "none"))`, "(setq ?target nil) ", false, true},
	} {
		r := strings.NewReplacer("STANDS", tc.stands, "WHILE", tc.while, "LAST", tc.last, "RESET", tc.reset)
		src := r.Replace(setBeforePlan)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
		reason := reasonAt(verdicts, at, "false")
		if tc.ruled != (reason != "") {
			t.Errorf("%s: ruled out %v (%q), want %v", tc.name, reason != "", reason, tc.ruled)
		}
		if tc.ruled && (!strings.Contains(reason, "only after (setq ?target (find-one)) returned") || !strings.Contains(reason, "never returns")) {
			t.Errorf("%s: reason %q", tc.name, reason)
		}
		hits := runWorld(t, p, world, 300)
		checkVerdicts(t, tc.name, p, verdicts, hits, "random warehouse environments")
		if tc.holds {
			lookAlikesHold(t, p, hits, "false", at)
		}
		if tc.ruled {
			lookAlikesHold(t, p, hits, "true", at) // the clause runs
		}
	}
}

// reasonAt is the reason of the verdict on the label at pos with
// operator op ("" when none rules it out).
func reasonAt(verdicts map[int]*labels.Label, pos, op string) string {
	reason := ""
	for _, l := range verdicts {
		if l.Pos.String() == pos && l.Operator == op {
			reason = l.Reason
		}
	}
	return reason
}
