package vm

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// probePlans pairs plans with the same plans carrying label probes,
// (when (ignore-errors P)) for effect, in the places transform puts them:
// failing predicates, predicates that call functions that carry probes of
// their own (nested probes), predicates that allocate, loops.
var probePlans = []struct{ orig, annotated string }{
	{
		`(defun f (x) (if (< x 3) (* x 2) (- x 1)))
(def-plan main () (let ((s 0) (l nil)) (dotimes (i 200) (setq s (+ s (f i))) (push s l)) (list s (length l))))`,
		`(defun f (x) (if (progn (when (ignore-errors (< x 3))) (when (ignore-errors (not (< x 3)))) (< x 3))
  (* x 2) (progn (when (ignore-errors (/= x 0))) (when (ignore-errors (car x))) (- x 1))))
(def-plan main () (let ((s 0) (l nil)) (dotimes (i 200) (when (ignore-errors (= (f i) (f (+ i 1))))) (when (ignore-errors (list s s s)))
  (setq s (+ s (f i))) (push s l)) (list s (length l))))`,
	},
	{
		`(defun deep (n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))
(def-plan main () (let ((r 0)) (dotimes (i 50) (setq r (+ r (deep i)))) (cons r (list 1 2 3))))`,
		`(defun deep (n) (if (progn (when (ignore-errors (= n 0))) (when (ignore-errors (cons n n))) (= n 0)) 0 (+ 1 (deep (- n 1)))))
(def-plan main () (let ((r 0)) (dotimes (i 50) (when (ignore-errors (> (deep i) 3))) (setq r (+ r (deep i)))) (cons r (list 1 2 3))))`,
	},
	{
		`(def-plan main () (let ((n 0)) (while (< n 100000) (setq n (+ n 1))) n))`,
		`(def-plan main () (let ((n 0)) (while (progn (when (ignore-errors (= n 5))) (when (ignore-errors (car n))) (< n 100000)) (setq n (+ n 1))) n))`,
	},
}

// runProbe runs plan main of src, on the plain code (no
// superinstructions) if unfused.
func runProbe(t *testing.T, src string, cfg Config, unfused bool) (Result, *Machine) {
	t.Helper()
	p := compileSrc(t, src)
	m, err := New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if unfused {
		m.fused = m.plain
	}
	return m.Run(context.Background(), p.Plan("main"), nil), m
}

func resultString(r Result) string {
	f := ""
	if r.Failure != nil {
		f = r.Failure.Kind + " " + r.Failure.Message
	}
	return fmt.Sprintf("%s %s steps=%d %s", r.Outcome, r.Value, r.Steps, f)
}

// failurePos is where r's failure is, for comparing runs of one program.
func failurePos(r Result) string {
	if r.Failure == nil {
		return ""
	}
	return r.Failure.File + ":" + r.Failure.Pos.String()
}

// TestProbeExactSteps: an annotated plan is charged exactly the original's
// steps and allocations, so it ends the same way under every step and
// allocation budget: a timeout at exactly N steps, an allocation-limit
// failure at the same allocation.
func TestProbeExactSteps(t *testing.T) {
	for i, pp := range probePlans {
		full, _ := runProbe(t, pp.orig, Config{}, false)
		ann, _ := runProbe(t, pp.annotated, Config{}, false)
		if resultString(full) != resultString(ann) || ann.LabelSteps == 0 || full.LabelSteps != 0 {
			t.Fatalf("plan %d: original %s (label %d), annotated %s (label %d)", i, resultString(full), full.LabelSteps, resultString(ann), ann.LabelSteps)
		}
		budgets := []int64{1, 2, 3, full.Steps / 3, full.Steps/2 + 1, full.Steps - 1, full.Steps, full.Steps + 1}
		for n := int64(4); n < 400; n += 7 {
			budgets = append(budgets, n)
		}
		for _, n := range budgets {
			for _, unfused := range []bool{false, true} {
				cfg := Config{MaxSteps: n}
				o, _ := runProbe(t, pp.orig, cfg, unfused)
				a, _ := runProbe(t, pp.annotated, cfg, unfused)
				if resultString(o) != resultString(a) {
					t.Errorf("plan %d, MaxSteps %d, unfused %v:\noriginal  %s\nannotated %s", i, n, unfused, resultString(o), resultString(a))
				}
			}
		}
		for _, n := range []int64{1, 2, 5, 20, 60, 100, 150, 199, 200, 201, 400} {
			cfg := Config{MaxAlloc: n}
			o, _ := runProbe(t, pp.orig, cfg, false)
			a, _ := runProbe(t, pp.annotated, cfg, false)
			if resultString(o) != resultString(a) {
				t.Errorf("plan %d, MaxAlloc %d:\noriginal  %s\nannotated %s", i, n, resultString(o), resultString(a))
			}
		}
	}
}

// TestProbeCountsLikeWhen: a probe records its when's branch as the
// general compilation of the same when (with a body, so not a probe)
// counts it, as a bit: label counters say covered or not, never how often.
func TestProbeCountsLikeWhen(t *testing.T) {
	const body = `(dotimes (i 10) (when (ignore-errors (< (nth i '(1 a 2 b 3 c 4 d 5 e)) 3))%s) (setq s (+ s i)))`
	probe := fmt.Sprintf("(def-plan main () (let ((s 0)) "+body+" s))", "")
	plain := fmt.Sprintf("(def-plan main () (let ((s 0)) "+body+" s))", " nil")
	rp, mp := runProbe(t, probe, Config{}, false)
	rw, mw := runProbe(t, plain, Config{}, false)
	if rp.Value.String() != "45" || rw.Value.String() != "45" {
		t.Fatalf("values %s, %s", rp.Value, rw.Value)
	}
	pp, pw := mp.Program(), mw.Program()
	if pp.NumBranches() != pw.NumBranches() {
		t.Fatalf("%d branches with the probe, %d without", pp.NumBranches(), pw.NumBranches())
	}
	for b := 0; b < pp.NumBranches(); b++ {
		bp, bw := pp.Branch(b), pw.Branch(b)
		if bp.Form != bw.Form || bp.Test != bw.Test || bp.Head != bw.Head {
			t.Errorf("branch %d: probe %+v, when %+v", b, bp, bw)
		}
		for _, outcome := range []bool{true, false} {
			cp, cw := mp.Counters()[pp.BranchCounter(b, outcome)], mw.Counters()[pw.BranchCounter(b, outcome)]
			if cp != min(cw, 1) {
				t.Errorf("branch %d (%s) %v: probe counted %d, when %d", b, bp.Head, outcome, cp, cw)
			}
		}
	}
	// The when branch: 3 true (1 2 ... < 3: 1, 2), failures on symbols count false.
	var dis bytes.Buffer
	pp.Disasm(&dis)
	for _, op := range []string{"PROBE ", "PROBEOK ", "PROBEFAIL "} {
		if !strings.Contains(dis.String(), op) {
			t.Errorf("disassembly lacks %s:\n%s", op, dis.String())
		}
	}
	if strings.Contains(dis.String(), "HANDLER") {
		t.Errorf("the probe compiled as a handler:\n%s", dis.String())
	}
}

// TestProbeLabelBudget: probe instructions go to the label budget; a probe
// that does not end exhausts it as a timeout naming the label budget,
// charged the plan's steps only.
func TestProbeLabelBudget(t *testing.T) {
	src := `(def-plan main () (let ((n 0)) (setq n 1) (when (ignore-errors (while t (setq n (+ n 1))))) n))`
	for _, unfused := range []bool{false, true} {
		r, m := runProbe(t, src, Config{MaxSteps: 1000}, unfused)
		if r.Outcome != OutcomeTimeout || !strings.Contains(r.Failure.Message, "label budget of 16000 ") {
			t.Fatalf("unfused %v: %s", unfused, resultString(r))
		}
		if r.Steps > 10 || r.LabelSteps != 16000 {
			t.Errorf("unfused %v: steps %d, label steps %d", unfused, r.Steps, r.LabelSteps)
		}
		if m.probeDepth != 0 || len(m.handlers) != 0 || m.maxSteps != 1000 {
			t.Errorf("state left behind: depth %d, %d handlers, maxSteps %d", m.probeDepth, len(m.handlers), m.maxSteps)
		}
	}
	// Many short probes: the sum is bounded.
	src = `(def-plan main () (let ((s 0)) (dotimes (i 100) (when (ignore-errors (list i i i i))) (setq s (+ s i))) s))`
	r, _ := runProbe(t, src, Config{}, false)
	if r.Outcome != OutcomeOK || r.Value.String() != "4950" {
		t.Fatal(resultString(r))
	}
	per := r.LabelSteps / 100
	r2, _ := runProbe(t, src, Config{MaxLabelSteps: 50 * per}, false)
	if r2.Outcome != OutcomeTimeout || !strings.Contains(r2.Failure.Message, "label budget") || r2.LabelSteps < 50*per || r2.LabelSteps > 50*per+1 {
		t.Errorf("label budget %d: %s, label steps %d", 50*per, resultString(r2), r2.LabelSteps)
	}
}

// TestProbeOpcodesNotInGeneralForms: a when with a body, or one whose
// value is used, or a predicate that returns from a loop, compiles as
// before.
func TestProbeOpcodesNotInGeneralForms(t *testing.T) {
	for _, src := range []string{
		`(def-plan main () (when (ignore-errors 1)))`,
		`(def-plan main () (list (when (ignore-errors 1))))`,
		`(def-plan main () (when (ignore-errors 1) 2) 3)`,
		`(def-plan main () (dolist (x '(1 2)) (when (ignore-errors (return x)))))`,
	} {
		p := compileSrc(t, src)
		for _, op := range p.Code {
			if op == compile.PROBE {
				t.Errorf("%s compiled a probe", src)
			}
		}
	}
	r, _ := runProbe(t, `(def-plan main () (dolist (x '(1 2)) (when (ignore-errors (return x)))))`, Config{}, false)
	if r.Value.String() != "1" {
		t.Errorf("return from ignore-errors: %s", resultString(r))
	}
}

// TestCompareProbe: one-instruction compare probes count like the when
// they stand for, on integers, floats, names and non-numbers, in fast and
// in loop, and are charged to the label budget only.
func TestCompareProbe(t *testing.T) {
	preds := []string{"(< x 3)", "(<= x 3)", "(> x -2)", "(>= x 0)", "(= x 3)", "(/= x 3)",
		"(not (< x 3))", "(not (/= x 3))", "(eq x 'a)", "(eq x :k)", "(eq x nil)", "(eq x t)", "(not (eq x 3))",
		"x", "(not x)", "(null x)", "(< x y)", "(not (>= x y))", "(eq x y)", "(/= x y)", "(= y x)"}
	const vals = `'(1 3 -2 2.5 3.0 a :k nil t "s" (1))`
	for _, pred := range preds {
		probe := fmt.Sprintf("(def-plan main () (let ((n 0) (y 3)) (dolist (x %s) (when (ignore-errors %s)) (setq n (+ n 1)) (setq y x)) n))", vals, pred)
		plain := fmt.Sprintf("(def-plan main () (let ((n 0) (y 3)) (dolist (x %s) (when (ignore-errors %s) nil) (setq n (+ n 1)) (setq y x)) n))", vals, pred)
		hasCmp := false
		for _, op := range compileSrc(t, probe).Code {
			hasCmp = hasCmp || op == compile.PROBECMP
		}
		if !hasCmp {
			t.Errorf("%s: no PROBECMP", pred)
		}
		for _, unfused := range []bool{false, true} {
			rp, mp := runProbe(t, probe, Config{}, unfused)
			rw, mw := runProbe(t, plain, Config{}, unfused)
			if rp.Value.String() != "11" || rp.LabelSteps != 11 {
				t.Errorf("%s: %s, label steps %d", pred, resultString(rp), rp.LabelSteps)
			}
			pp, pw := mp.Program(), mw.Program()
			for b := 0; b < pp.NumBranches(); b++ {
				for _, outcome := range []bool{true, false} {
					if cp, cw := mp.Counters()[pp.BranchCounter(b, outcome)], mw.Counters()[pw.BranchCounter(b, outcome)]; cp != min(cw, 1) {
						t.Errorf("%s (unfused %v): branch %d %v: probe %d, when %d", pred, unfused, b, outcome, cp, cw)
					}
				}
			}
			if rw.Steps <= rp.Steps {
				t.Errorf("%s: probe charged %d steps, when %d", pred, rp.Steps, rw.Steps)
			}
		}
	}
}

// TestCompareProbeGlobals: compare and conjunction probes on globals
// (defparameter), also unbound ones (a failing predicate: false), count
// like the when they stand for.
func TestCompareProbeGlobals(t *testing.T) {
	preds := []string{"(< x *g*)", "(= *g* 3)", "(/= *g* x)", "(eq *s* 'a)", "(not (eq x *s*))", "*s*", "(not *g*)",
		"(< *late* 1)", "(eq x *late*)", "*late*",
		// Conjunctions of truths, the MCC labels over atoms in temporaries.
		"(and x *g*)", "(and (not x) *s*)", "(not (and x (null *s*)))", "(and x *late*)", "(and *late* x)",
		"(not (and *late*))", "(and x)", "(and *s* (not *g*) x)"}
	const tmpl = `(defparameter *g* 3)
(defparameter *s* 'a)
(defparameter *early* (let ((x 1)) (when (ignore-errors %[1]s)%[2]s) 1))
(defparameter *late* 0)
(def-plan main () (let ((n 0)) (dolist (x '(1 3 5 a :k nil 2.5)) (when (ignore-errors %[1]s)%[2]s) (setq *g* (+ *g* 1)) (setq n (+ n 1))) n))`
	for _, pred := range preds {
		probe := fmt.Sprintf(tmpl, pred, "")
		plain := fmt.Sprintf(tmpl, pred, " nil")
		n := 0
		for _, op := range compileSrc(t, probe).Code {
			if op == compile.PROBECMP {
				n++
			}
		}
		if n != 2 {
			t.Errorf("%s: %d PROBECMP, want 2", pred, n)
		}
		probeMatchesWhen(t, pred, probe, plain, "7")
	}
}

// probeMatchesWhen runs plan main of probe (whose two whens are label
// probes) and of plain (the same whens with a body, general
// conditionals), on the fused and the plain code: both must return
// want, and each when's branch must count as a probe (as bits) what it
// counts as a conditional. The whens' branches are matched in order: a
// probe has none of the branches its predicate's and/or has in the
// general compilation.
func probeMatchesWhen(t *testing.T, pred, probe, plain, want string) {
	t.Helper()
	for _, unfused := range []bool{false, true} {
		rp, mp := runProbe(t, probe, Config{}, unfused)
		rw, mw := runProbe(t, plain, Config{}, unfused)
		if rp.Value.String() != want || rw.Value.String() != want {
			t.Fatalf("%s: %s, %s", pred, resultString(rp), resultString(rw))
		}
		pp, pw := mp.Program(), mw.Program()
		wp, ww := whenBranches(pp), whenBranches(pw)
		if len(wp) != 2 || len(ww) != 2 {
			t.Fatalf("%s: %d and %d when branches", pred, len(wp), len(ww))
		}
		for i := range wp {
			for _, outcome := range []bool{true, false} {
				if cp, cw := mp.Counters()[pp.BranchCounter(wp[i], outcome)], mw.Counters()[pw.BranchCounter(ww[i], outcome)]; cp != min(cw, 1) {
					t.Errorf("%s (unfused %v): when %d %v: probe %d, when %d", pred, unfused, i, outcome, cp, cw)
				}
			}
		}
	}
}

// whenBranches are the branches of p's when forms, in order.
func whenBranches(p *compile.Program) []int {
	var out []int
	for b := 0; b < p.NumBranches(); b++ {
		if p.Branch(b).Head == "when" {
			out = append(out, b)
		}
	}
	return out
}

// guardedBody has probes whose predicates are conjunctions led by a
// compare probe's predicate (compiled to PROBEGUARD and the block of the
// rest): a comparison of two locals, eq with a constant whose rest fails
// (car of an integer), a local's truth before two more conjuncts, and
// member of a constant list; and member compare probes (on integers,
// symbols, keywords and a float, negated too); %s is the when's body.
const guardedBody = `(def-plan main (x)
  (let ((s 0) (l (if (> x 4) (list 1) nil)) (k (if (> x 4) 'a :k)) (f (* x 0.5)))
    (dotimes (i 10)
      (when (ignore-errors (and (< i x) (> (nth i '(1 a 2 b 3 c 4 d 5 e)) 2)))%[1]s)
      (when (ignore-errors (and (eq i 3) (car i)))%[1]s)
      (when (ignore-errors (and l (< i 5) (oddp i)))%[1]s)
      (when (ignore-errors (and (member s '(0 1 3 6 a :k)) (> i 2) (oddp i)))%[1]s)
      (when (ignore-errors (member k '(b a)))%[1]s)
      (when (ignore-errors (member f '(0 1 2)))%[1]s)
      (when (ignore-errors (not (member i '(2 4 :k))))%[1]s)
      (setq s (+ s i)))
    s))`

// TestGuardedProbeCountsLikeWhen: a guarded probe counts its when's
// branch as the general compilation does (as bits), fused and plain, and
// skips its block when the guard is false.
func TestGuardedProbeCountsLikeWhen(t *testing.T) {
	pp := compileSrc(t, fmt.Sprintf(guardedBody, ""))
	pw := compileSrc(t, fmt.Sprintf(guardedBody, " nil"))
	var dis bytes.Buffer
	pp.Disasm(&dis)
	if n := strings.Count(dis.String(), "PROBEGUARD "); n != 4 {
		t.Fatalf("%d PROBEGUARDs, want 4:\n%s", n, dis.String())
	}
	if n := strings.Count(dis.String(), "(member "); n != 4 {
		t.Fatalf("%d member compare probes, want 4:\n%s", n, dis.String())
	}
	// The guard's conjunct is no branch of its own (nothing inside a
	// predicate counts): the branches are matched by position.
	byPos := map[string]int{}
	for b := 0; b < pw.NumBranches(); b++ {
		br := pw.Branch(b)
		byPos[fmt.Sprint(br.Form, br.Test, br.Head)] = b
	}
	for _, x := range []int64{0, 3, 5, 9} {
		args := []value.Value{value.Int(x)}
		mw, err := New(pw, Config{})
		if err != nil {
			t.Fatal(err)
		}
		rw := mw.Run(context.Background(), pw.Plan("main"), args)
		for _, unfused := range []bool{false, true} {
			mp, err := New(pp, Config{})
			if err != nil {
				t.Fatal(err)
			}
			if unfused {
				mp.fused = mp.plain
			}
			rp := mp.Run(context.Background(), pp.Plan("main"), args)
			if rp.Outcome != OutcomeOK || rp.Value.String() != rw.Value.String() {
				t.Fatalf("x=%d: %s, the when with a body %s", x, resultString(rp), resultString(rw))
			}
			for b := 0; b < pp.NumBranches(); b++ {
				br := pp.Branch(b)
				if br.Head != "when" {
					continue // inside a predicate: counts nothing in a probe
				}
				bw, ok := byPos[fmt.Sprint(br.Form, br.Test, br.Head)]
				if !ok {
					t.Fatalf("branch %d (%s at %s) is not in the general compilation", b, br.Head, br.Test)
				}
				for _, outcome := range []bool{true, false} {
					cp, cw := mp.Counters()[pp.BranchCounter(b, outcome)], mw.Counters()[pw.BranchCounter(bw, outcome)]
					if cp != min(cw, 1) {
						t.Errorf("x=%d unfused=%v: branch %d (%s at %s) %v: probe counted %d, when %d", x, unfused, b, pp.Branch(b).Head, pp.Branch(b).Test, outcome, cp, cw)
					}
				}
			}
		}
	}
}

// TestGuardedProbeRetires: a guarded probe that fired retires whole (its
// guard becomes the retired instruction jumping over the block), and
// writes its true counter on every later run.
func TestGuardedProbeRetires(t *testing.T) {
	p := compileSrc(t, fmt.Sprintf(guardedBody, ""))
	m, err := New(p, Config{Labels: LabelMode{Retire: true}})
	if err != nil {
		t.Fatal(err)
	}
	var guards []int
	for pc, op := range p.Code {
		if op == compile.PROBEGUARD {
			guards = append(guards, pc)
		}
	}
	first := guards[0] // (and (< i x) (> (nth i ...) 2)): fires for x=9
	for i, x := range []int64{0, 9, 0, 0} {
		m.ResetCounters()
		if r := m.Run(context.Background(), p.Plan("main"), []value.Value{value.Int(x)}); r.Outcome != OutcomeOK {
			t.Fatal(resultString(r))
		}
		retired := m.plain[first].op == opRetired
		if retired != (i >= 2) {
			t.Errorf("run %d (x=%d): guard retired %v", i, x, retired)
		}
		b := p.B[first]
		if got := m.Counters()[p.BranchCounter(int(b), true)]; got != uint8(min(i, 1)) {
			t.Errorf("run %d (x=%d): label true counter %d", i, x, got)
		}
	}
}
