package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/labels"
)

const fibPlan = "../../testdata/plans/fib.plan"

func TestLabelsTextAndJSON(t *testing.T) {
	code, out, errs := execLabelcov("labels", fibPlan, "--criteria", "mcc,wm:ror")
	if code != 0 || errs != "" {
		t.Fatalf("code %d err %q", code, errs)
	}
	// (< n 2) at 3:7 is fib's only decision: two MCC labels, and ROR's
	// "< vs >=" mutant always differs, so it is listed as trivial.
	for _, want := range []string{"fib.plan:3:7", "(not (< n 2))", "(= n 2)", "trivial"} {
		if !strings.Contains(out, want) {
			t.Errorf("labels output lacks %q:\n%s", want, out)
		}
	}
	code, out, _ = execLabelcov("labels", fibPlan, "--criteria", "mcc,wm:ror", "--json")
	var rep struct {
		Version int `json:"version"`
		Summary map[string]struct {
			Active, Trivial, Infeasible int
		} `json:"summary"`
		Labels []struct {
			ID        int    `json:"id"`
			Criterion string `json:"criterion"`
			Predicate string `json:"predicate"`
			Status    string `json:"status"`
		} `json:"labels"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 {
		t.Fatalf("code %d, bad JSON %v:\n%s", code, err, out)
	}
	if rep.Version != labels.ManifestVersion || rep.Summary["mcc"].Active != 2 || rep.Summary["wm-ror"].Active != 4 || rep.Summary["wm-ror"].Trivial != 1 {
		t.Errorf("summary %+v", rep.Summary)
	}
	if _, ok := rep.Summary["cc"]; ok {
		t.Error("cc was not requested but is summarised")
	}
	active := 0
	for _, l := range rep.Labels {
		if l.Status == "active" {
			active++
			if l.ID != active {
				t.Errorf("active label ids must be 1..n in source order, got %d at position %d", l.ID, active)
			}
		}
	}
	if active != 6 {
		t.Errorf("%d active labels, want 6", active)
	}
}

func TestLabelsBadInput(t *testing.T) {
	if code, _, errs := execLabelcov("labels", fibPlan, "--criteria", "mcc,bogus"); code != exitUsage || !strings.Contains(errs, "bogus") {
		t.Errorf("unknown criterion: code %d err %q", code, errs)
	}
	malformed := tempPlan(t, "(def-plan main ()\n  (if))")
	if code, _, errs := execLabelcov("labels", malformed, "--criteria", "mcc"); code != exitUsage || !strings.Contains(errs, malformed+":2:3: if: expected") {
		t.Errorf("malformed form: code %d err %q", code, errs)
	}
	// In a file of a Lisp system (in-package), a definition that does
	// not compile is passed through with a note; the rest is labelled.
	system := tempPlan(t, "(in-package :demo)\n(def-plan broken ()\n  (if))\n(defun f (x) (if (< x 1) x 0))")
	code, out, errs := execLabelcov("labels", system, "--criteria", "cc")
	if code != 0 || !strings.Contains(errs, system+":2:1: note: (def-plan broken ...) is not compiled") || !strings.Contains(errs, "if: expected (if TEST THEN [ELSE]) at 3:3") ||
		!strings.Contains(out, system+":4:18") || strings.Contains(out, ":3:") {
		t.Errorf("passed through: code %d out %q err %q", code, out, errs)
	}
	code, out, _ = execLabelcov("annotate", system, "--criteria", "cc")
	if code != 0 || !strings.Contains(out, "(def-plan broken ()\n  (if))") || !strings.Contains(out, "; label 1 cc true") {
		t.Errorf("annotate passes it through: code %d out %q", code, out)
	}
	if code, _, errs := execLabelcov("run", system, "--plan", "broken"); code != exitUsage || !strings.Contains(errs, system+":3:3: if: expected") {
		t.Errorf("run stays strict: code %d err %q", code, errs)
	}
	p := tempPlan(t, "(defun f (x)\n  (if (< x 1) x))\n)")
	if code, _, errs := execLabelcov("labels", p, "--criteria", "cc"); code != exitUsage || !strings.Contains(errs, p+":3:1: unbalanced ')'") {
		t.Errorf("syntax error: code %d err %q", code, errs)
	}
}

// An annotated plan runs like the original, carries its labels as
// comments, and is refused as input to annotate.
func TestAnnotateRoundTrip(t *testing.T) {
	dir := t.TempDir()
	out, manifest := filepath.Join(dir, "fib.annotated.plan"), filepath.Join(dir, "fib.manifest.json")
	if code, _, errs := execLabelcov("annotate", fibPlan, "--criteria", "mcc,cc,wm", "-o", out, "--manifest", manifest); code != 0 {
		t.Fatalf("annotate: code %d err %q", code, errs)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "; label 1 ") || !strings.Contains(string(src), "(when (ignore-errors") {
		t.Errorf("annotated plan lacks label comments or empty whens:\n%s", src)
	}
	for _, n := range []string{"0", "1", "2", "12"} {
		_, orig, _ := execLabelcov("run", fibPlan, "--arg", n, "--json")
		_, ann, _ := execLabelcov("run", out, "--arg", n, "--json")
		if result(t, orig) != result(t, ann) {
			t.Errorf("fib %s: original %s, annotated %s", n, result(t, orig), result(t, ann))
		}
	}
	var m struct {
		Version int `json:"version"`
		Labels  []struct {
			Status    string          `json:"status"`
			Annotated json.RawMessage `json:"annotated"`
		} `json:"labels"`
	}
	data, _ := os.ReadFile(manifest)
	if err := json.Unmarshal(data, &m); err != nil || m.Version != labels.ManifestVersion || len(m.Labels) == 0 {
		t.Fatalf("manifest: %v, %d labels", err, len(m.Labels))
	}
	code, _, errs := execLabelcov("annotate", out, "--criteria", "mcc")
	if code != exitUsage || !strings.Contains(errs, "already annotated") {
		t.Errorf("re-annotation: code %d err %q", code, errs)
	}
}

func result(t *testing.T, runJSON string) string {
	t.Helper()
	var r struct {
		Outcome string  `json:"outcome"`
		Result  *string `json:"result"`
	}
	if err := json.Unmarshal([]byte(runJSON), &r); err != nil {
		t.Fatalf("bad run JSON %v: %s", err, runJSON)
	}
	if r.Result == nil {
		return r.Outcome
	}
	return r.Outcome + " " + *r.Result
}

// TestLabelsTableClipsLongCells: the table cuts long expressions and
// predicates; --json keeps them whole.
func TestLabelsTableClipsLongCells(t *testing.T) {
	const plan = "../../testdata/bench/temperature/temperature.plan"
	long := "(/= (- (/ (* (mod raw 1024) 125) 1024) 40) (* (/ (* (mod raw 1024) 125) 1024) 40))"
	code, out, errs := execLabelcov("labels", plan, "--criteria", "wm:aor")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, long) || !strings.Contains(out, long[:subject.MaxCell-1]+"…") {
		t.Errorf("the table should clip %q to %d characters:\n%s", long, subject.MaxCell, out)
	}
	code, js, _ := execLabelcov("labels", plan, "--criteria", "wm:aor", "--json")
	if code != exitOK || !strings.Contains(js, long) {
		t.Errorf("--json should hold the whole predicate %q", long)
	}
}

// listedLabel is a label of labels' and cover's --json as the tests below
// compare them: cover prints a predicate as the annotated plan evaluates
// it (normalize's temporaries in it), labels as the plan reads, so a label
// is its id, criterion and operator.
type listedLabel struct {
	ID                          int
	Criterion, Operator, Status string
	Reason                      string
}

// listedLabels reads the labels of a --json report.
func listedLabels(t *testing.T, out string) []listedLabel {
	t.Helper()
	var rep struct{ Labels []listedLabel }
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep.Labels
}

// coverActive is the set of labels cover's --json report lists (its active
// labels), each by id, criterion and operator.
// labelsActive runs labels --json with args and returns its active labels
// and how many it ruled infeasible for a reason containing reason.
func labelsActive(t *testing.T, reason string, args ...string) (active map[listedLabel]bool, ruled int) {
	t.Helper()
	code, out, errs := execLabelcov(append([]string{"labels", "--json"}, args...)...)
	if code != 0 {
		t.Fatalf("labels %v: code %d: %s", args, code, errs)
	}
	active = map[listedLabel]bool{}
	for _, l := range listedLabels(t, out) {
		if l.Status == "active" {
			active[listedLabel{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator}] = true
		}
		if l.Status == "infeasible" && strings.Contains(l.Reason, reason) {
			ruled++
		}
	}
	return active, ruled
}

func coverActive(t *testing.T, args ...string) map[listedLabel]bool {
	t.Helper()
	out, errs, err := execCover(args...)
	if err != nil {
		t.Fatalf("cover: %v: %s", err, errs)
	}
	set := map[listedLabel]bool{}
	for _, l := range listedLabels(t, out) {
		set[listedLabel{ID: l.ID, Criterion: l.Criterion, Operator: l.Operator}] = true
	}
	return set
}

// labels --world judges a world plan's labels as the verbs that run it
// do: its active labels are exactly cover's (which reads the world from
// the benchmark's truth.json), and the world rules out labels that
// labels without it keeps.
func TestLabelsWorldAsCover(t *testing.T) {
	plan := "../../testdata/bench/kitchen/kitchen.plan"
	inWorld, worldReasons := labelsActive(t, "in the world", plan, "--criteria", "all", "--world", "../../testdata/worlds/kitchen.world")
	without, noWorldReasons := labelsActive(t, "in the world", plan, "--criteria", "all")
	if len(inWorld) >= len(without) || worldReasons == 0 || noWorldReasons != 0 {
		t.Errorf("%d active labels with the world (%d infeasible in it), %d without (%d): the world rules out none",
			len(inWorld), worldReasons, len(without), noWorldReasons)
	}
	covers := coverActive(t, plan, "--criteria", "all", "--tests", "../../testdata/bench/kitchen/reproducers", "--json")
	if len(covers) != len(inWorld) {
		t.Errorf("cover has %d active labels, labels --world %d", len(covers), len(inWorld))
	}
	for l := range covers {
		if !inWorld[l] {
			t.Errorf("cover's label %+v is not active in labels --world", l)
		}
	}
	// Go packages take no world.
	if code, _, errs := execLabelcov("annotate", "./testdata/nothing", "--world", "w.world", "-o", t.TempDir()); code != 2 || !strings.Contains(errs, "--world is for plans") {
		t.Errorf("annotate of Go packages with --world: code %d, %q", code, errs)
	}
}

// retryPlan keeps a count of tries next to a global count of failures, as
// fetch-deliver does: with its def-plan as the entry the analyses rule out
// its report check's FF combination (line 21) and the < -> /= mutant.
const retryPlan = `(defparameter *max* 3)
(defparameter *attempts* 0)
(defparameter *report* nil)
(defun step (n budget)
  (when (< n budget) (fail 'plan-failure "again")))
(defun serve (kind budget)
  (let ((tries 0))
    (with-failure-handling ((object-not-found (e) (list kind 'not-found tries))
                            (plan-failure (e)
                              (incf *attempts*)
                              (incf tries)
                              (if (< *attempts* *max*) (retry) (list kind 'gave-up tries))))
      (when (and (> tries 0) (= budget 2)) (fail 'object-not-found "none"))
      (step tries budget)
      (setq *attempts* 0)
      (list kind 'served tries))))
(def-plan main (a b)
  (dolist (budget (list a b (- a b)))
    (push (if (= budget 0) (list 'x 'skipped 0) (serve 'x budget)) *report*))
  (dolist (entry *report*)
    (when (and (eq (second entry) 'gave-up) (< (third entry) *max*))
      (print 'early))))
`

// labels --plan without a world judges an argument plan's labels as cover
// does (cover runs the def-plan): the same active labels, and the verdicts
// that need the entry, which labels without --plan does not give; a
// --plan that names no def-plan is refused.
func TestLabelsPlanAsCover(t *testing.T) {
	dir := t.TempDir()
	plan := filepath.Join(dir, "retry.plan")
	if err := os.WriteFile(plan, []byte(retryPlan), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "one.args"), []byte("3 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	withPlan, ruled := labelsActive(t, "tries <= 2", plan, "--criteria", "mcc,wm-ror", "--plan", "main")
	without, ruledWithout := labelsActive(t, "tries <= 2", plan, "--criteria", "mcc,wm-ror")
	if ruled != 2 || ruledWithout != 0 || len(withPlan) != len(without)-2 {
		t.Errorf("labels --plan main: %d active, %d ruled out by the retry count; without --plan: %d, %d; want 2 ruled out with it, none without",
			len(withPlan), ruled, len(without), ruledWithout)
	}
	covers := coverActive(t, plan, "--criteria", "mcc,wm-ror", "--tests", dir, "--json")
	if len(covers) != len(withPlan) {
		t.Errorf("cover has %d active labels, labels --plan main %d", len(covers), len(withPlan))
	}
	for l := range covers {
		if !withPlan[l] {
			t.Errorf("cover's label %+v is not active in labels --plan main", l)
		}
	}
	if code, _, errs := execLabelcov("labels", plan, "--plan", "nope"); code != 2 || !strings.Contains(errs, `no plan named "nope"`) {
		t.Errorf("labels --plan nope: code %d, %q", code, errs)
	}
}
