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

// retryCountPlan serves three items whose steps fail while the item's
// tries are below its budget (the arguments a, b and a-b), retrying on
// a global count of failures as fetch-deliver does, and reads the report
// in main (line 21: the and at column 11, the < at column 45). POLICY
// may define a policy, RESET
// goes into step, MORE after the clause's (incf tries), GUARD is the
// retry's test, BODY the body's last three forms.
const retryCountPlan = `(defparameter *max* 3) POLICY
(defparameter *attempts* 0)
(defparameter *report* nil)
(defun step (n budget)
  RESET (when (< n budget) (fail 'plan-failure "again")))
(defun serve (kind budget)
  (let ((tries 0))
    (with-failure-handling ((object-not-found (e) (list kind 'not-found tries))
                            (plan-failure (e)
                              (incf *attempts*)
                              (incf tries) MORE
                              (if GUARD (retry) (list kind 'gave-up tries))))
      (when (and (> tries 0) (= budget 2)) (fail 'object-not-found "none"))
      BODY)))
(def-plan main (a b)
  (dolist (budget (list a b (- a b)))
    (push (if (= budget 0) (list 'x 'skipped 0) (serve 'x budget)) *report*))
  (dolist (entry *report*)
    (when (and (eq (second entry) 'gave-up) (< (third entry) *max*))
      (print 'early))))
`

const retryCountBody = `(step tries budget)
      (setq *attempts* 0)
      (list kind 'served tries)`

// TestRetryCountVerdicts: a count of tries kept next to the global count
// of failures the retry tests never passes the bound, so no entry is
// given up with more than *max* tries (the < -> /= label) nor stored
// otherwise with *max* or more (mcc FF), and the arguments -1..7 never
// cover either; the other combinations stay (TF holds). The look-alikes
// keep both labels and the arguments cover what they let through: a
// reset of the global count in a function the body calls, a reset
// followed by a step that may fail, tries counted twice per failure, a
// retry that tests the tries themselves against a larger bound; a reset
// in a policy keeps them too.
func TestRetryCountVerdicts(t *testing.T) {
	c, _ := labels.ParseCriteria("mcc,wm-ror")
	const guard = "(< *attempts* *max*)"
	for _, tc := range []struct {
		name, reset, more, guard, body string
		ruled                          bool
		held                           []string // operators of line 21 the arguments cover
	}{
		{"fetch-deliver's shape", "", "", guard, retryCountBody, true, []string{"TT", "TF", "FT"}},
		{"the test reversed", "", "", "(> *max* *attempts*)", retryCountBody, true, []string{"TF"}},
		{"a reset in a called function", "(setq *attempts* 0)", "", guard, retryCountBody, false, []string{"FF"}},
		{"a reset before a step that may fail", "", "", guard,
			"(setq *attempts* 0)\n      (step tries budget)\n      (list kind 'served tries)", false, []string{"FF"}},
		// A policy runs after every action: none runs here, so only the
		// verdict is checked.
		{"a reset in a policy", "", "", guard, retryCountBody, false, nil},
		{"tries counted twice", "", "(incf tries)", guard, retryCountBody, false, []string{"FF", "< -> /="}},
		{"a retry on the tries", "", "", "(< tries 5)", retryCountBody, false, []string{"FF", "< -> /="}},
	} {
		policy := ""
		if strings.Contains(tc.name, "policy") {
			policy = "(def-policy calm () (setq *attempts* 0) nil)"
		}
		src := strings.NewReplacer("POLICY", policy, "RESET", tc.reset, "MORE", tc.more, "GUARD", tc.guard, "BODY", tc.body).Replace(retryCountPlan)
		f, err := syntax.Parse("t.plan", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		p, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, feasible.Options{Entry: "main"}, normalize.Options{PureFuncs: sim.QueryNames()})
		for _, at := range [][2]string{{"t.plan:21:11", "FF"}, {"t.plan:21:45", "< -> /="}} {
			reason := reasonAt(verdicts, at[0], at[1])
			if tc.ruled != (reason != "") {
				t.Errorf("%s: %s %s ruled out %v (%q), want %v", tc.name, at[0], at[1], reason != "", reason, tc.ruled)
			}
			if tc.ruled && (!strings.Contains(reason, "tries <= 2 in the body and the other clauses, <= 3 in the clause") ||
				!strings.Contains(reason, "entry is an element of *report*") ||
				!strings.Contains(reason, "(list kind 'gave-up tries) t.plan:12:") ||
				!strings.Contains(reason, "after which the body cannot fail")) {
				t.Errorf("%s: reason %q", tc.name, reason)
			}
		}
		if r := reasonAt(verdicts, "t.plan:21:11", "TF"); r != "" {
			t.Errorf("%s: TF ruled out: %s", tc.name, r)
		}
		hits := runMain(t, p, pairGrid(-1, 7))
		checkVerdicts(t, tc.name, p, verdicts, hits, "arguments -1..7")
		for _, op := range tc.held {
			at := "t.plan:21:11"
			if strings.Contains(op, "->") {
				at = "t.plan:21:45"
			}
			lookAlikesHold(t, p, hits, op, at)
		}
	}
}

// TestRetryCountOnBenchmarks: fetch-deliver's gave-up-early check never
// sees an entry given up with more than *max-attempts* tries, nor one
// kept otherwise with as many; TestValueVerdictsSoundOnBenchmarks runs
// it on random environments.
func TestRetryCountOnBenchmarks(t *testing.T) {
	path, verdicts := benchVerdicts(t, "fetch-deliver", "mcc,wm-ror")
	for _, at := range [][2]string{{path + ":157:11", "FF"}, {path + ":157:45", "< -> /="}} {
		if r := reasonAt(verdicts, at[0], at[1]); !strings.Contains(r, "tries <= 2 in the body and the other clauses, <= 3 in the clause") {
			t.Errorf("%s %s: reason %q", at[0], at[1], r)
		}
	}
}

// benchVerdicts judges the labels of criteria of a benchmark plan on the
// warehouse world, through its def-plan main; it returns the plan's path.
func benchVerdicts(t *testing.T, bench, criteria string) (string, map[int]*labels.Label) {
	t.Helper()
	world, err := sim.LoadWorld("../../testdata/worlds/warehouse.world")
	if err != nil {
		t.Fatal(err)
	}
	c, err := labels.ParseCriteria(criteria)
	if err != nil {
		t.Fatal(err)
	}
	path := "../../testdata/bench/" + bench + "/" + bench + ".plan"
	f, err := syntax.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fo := feasible.Options{Domains: sim.LabelDomains(world), Signals: sim.LabelSignals(world), Entry: "main"}
	_, verdicts := valueVerdicts(t, f, labels.Options{Criteria: c}, fo, normalize.Options{PureFuncs: sim.QueryNames()})
	return path, verdicts
}
