package normalize

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

func mustNormalize(t testing.TB, src string) *Result {
	t.Helper()
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Plan(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// outcome is everything observable about one run.
type outcome struct {
	Outcome vm.Outcome
	Value   string
	Output  string
	Failure string
}

func runPlan(t testing.TB, src []byte, args ...int64) outcome {
	t.Helper()
	f, err := syntax.Parse("t.plan", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, src)
	}
	var out bytes.Buffer
	m, err := vm.New(p, vm.Config{Stdout: &out, MaxSteps: 200_000})
	if err != nil {
		t.Fatal(err)
	}
	vs := make([]value.Value, len(args))
	for i, a := range args {
		vs[i] = value.Int(a)
	}
	res := m.Run(context.Background(), p.Plan("main"), vs)
	o := outcome{Outcome: res.Outcome, Value: res.Value.String(), Output: out.String()}
	if res.Failure != nil {
		o.Failure = res.Failure.Kind + ": " + res.Failure.Message
		o.Value = ""
	}
	return o
}

func TestPureConditionsAreByteIdentical(t *testing.T) {
	src := `; warehouse helpers
(defparameter *seen* 0)
(defun weight-ok (w) #| pure |# (and (> w 0) (< w 10)))
(defun count-pos (a b) ; local counting is not an effect
  (let ((n 0)) (when (> a 0) (incf n)) (when (> b 0) (incf n)) n))
(def-plan main (x)
  (print x)               ; effects in statements are fine
  (incf *seen*)
  (if (and (weight-ok x) (> (count-pos x 1) 1))
      (print "ok")
      (format t "no ~a~%" x))
  (while (< x 3) (incf x))
  x)
`
	r := mustNormalize(t, src)
	if r.Changed() || string(r.Source) != src {
		t.Fatalf("changed a plan without effects in conditions:\n%s", r.Source)
	}
}

// TestOrderPreserved runs hand-written plans with effects inside label
// sites before and after normalization: value, output and failure must
// match, and match what the language defines.
func TestOrderPreserved(t *testing.T) {
	cases := []struct {
		name, src string
		args      []int64
		want      string // printed value
		wantOut   string
		temps     bool
	}{
		{"old x is read", `(def-plan main (x) (if (= (+ x (incf x)) 3) (list 'yes x) 'no))`,
			[]int64{1}, "(yes 2)", "", true},
		{"and short-circuits", `(def-plan main (x) (let ((n 0)) (if (and (> x 0) (progn (incf n) t)) n (- n 1))))`,
			[]int64{0}, "-1", "", true},
		{"or evaluates until true", `(defun f (v) (print v) v)
(def-plan main (x) (or (f nil) (f x) (f 3)) (if (or (f nil) (f x) (f 3)) 'a 'b))`,
			[]int64{7}, "a", "nil\n7\nnil\n7\n", true},
		{"later cond clause not reached", `(defun f (v) (print v) v)
(def-plan main (x) (cond ((> x 0) 1) ((f x) 2) (t 3)))`,
			[]int64{5}, "1", "", true},
		{"later cond clause reached", `(defun f (v) (print v) v)
(def-plan main (x) (cond ((> x 0) 1) ((= (f x) 0) 2) (t 3)))`,
			[]int64{0}, "2", "0\n", true},
		{"while test runs every iteration", `(def-plan main (x) (let ((i 0) (acc nil)) (while (< (incf i) x) (push i acc)) acc))`,
			[]int64{4}, "(3 2 1)", "", true},
		{"operand read before a later effect", `(def-plan main (x) (if (< x (progn (setq x 10) 5)) (list 'lt x) (list 'ge x)))`,
			[]int64{1}, "(lt 10)", "", true},
		{"failure in a hoisted operand", `(def-plan main (x) (when (> (/ 10 x) (incf x)) 'big))`,
			[]int64{0}, "", "", true},
		{"recursive pure function is hoisted for cost", `(defun fact (n) (if (<= n 1) 1 (* n (fact (- n 1)))))
(def-plan main (x) (if (> (fact x) 10) 'big 'small))`,
			[]int64{4}, "big", "", true},
		{"looping pure helper is hoisted under and", `(defun count-pos (l) (let ((n 0)) (dolist (e l) (when (> e 0) (incf n))) n))
(def-plan main (x) (if (and (> x 0) (> (count-pos (list x -1 2)) 1)) 'two 'fewer))`,
			[]int64{3}, "two", "", true},
		{"impure mutual recursion is hoisted", `(defun a1 (n) (if (> n 0) (b1 (- n 1)) (print n)))
(defun b1 (n) (a1 n))
(def-plan main (x) (if (a1 x) 'y 'n))`,
			[]int64{2}, "y", "0\n", true},
		{"global assignment is an effect", `(defparameter *g* 0)
(defun bump () (incf *g*))
(def-plan main (x) (list (< *g* (bump)) *g*))`,
			[]int64{0}, "(t 1)", "", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := mustNormalize(t, c.src)
			if r.Changed() != c.temps {
				t.Errorf("Changed() = %v, want %v:\n%s", r.Changed(), c.temps, r.Source)
			}
			before := runPlan(t, []byte(c.src), c.args...)
			after := runPlan(t, r.Source, c.args...)
			if before != after {
				t.Fatalf("behaviour changed:\noriginal   %+v\nnormalized %+v\n%s", before, after, r.Source)
			}
			if before.Value != c.want || before.Output != c.wantOut {
				t.Errorf("got %+v, want value %q output %q", before, c.want, c.wantOut)
			}
		})
	}
}

func TestLabelSitesBecomePure(t *testing.T) {
	src := `(defun f (v) (print v) v)
(def-plan main (x) (when (and (> x 0) (f x) (< x 9)) (print (+ x (f 1)))))`
	r := mustNormalize(t, src)
	want := `(def-plan main (x) (when (let* ((%lc1 (> x 0)) (%lc2 (if %lc1 (f x) nil))) (and %lc1 %lc2 (< x 9))) (print (let* ((%lc3 x) (%lc4 (f 1))) (+ %lc3 %lc4)))))
;; labelcov: normalize's temporaries cost no step (read by labelcov only)
#+labelcov (declaim (labelcov-temporaries "%lc"))
`
	if got := string(r.Source); !strings.HasSuffix(got, want) {
		t.Errorf("got\n%s\nwant suffix\n%s", got, want)
	}
	// Every residue is pure and stands for an original node.
	if !strings.HasPrefix(string(r.Source), "(defun f (v) (print v) v)\n") {
		t.Errorf("text outside the rewritten forms changed")
	}
}

// TestCostlyCallsLeaveLabelSites: labels must not re-evaluate a call of
// a function that loops or recurses (in fib, a label re-evaluating
// (fib (- n 1)) would make the annotated plan exponential), so such calls
// are hoisted even though they are pure; cheap pure helpers stay.
func TestCostlyCallsLeaveLabelSites(t *testing.T) {
	src := `(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(defun sq (x) (* x x))
(def-plan main (n) (if (< (sq n) (fib n)) 'a 'b))`
	r := mustNormalize(t, src)
	want := `(defun fib (n) (if (< n 2) n (let* ((%lc1 (fib (- n 1))) (%lc2 (fib (- n 2)))) (+ %lc1 %lc2))))
(defun sq (x) (* x x))
(def-plan main (n) (if (let* ((%lc3 (fib n))) (< (sq n) %lc3)) 'a 'b))
;; labelcov: normalize's temporaries cost no step (read by labelcov only)
#+labelcov (declaim (labelcov-temporaries "%lc"))
`
	if string(r.Source) != want {
		t.Errorf("got\n%s\nwant\n%s", r.Source, want)
	}
	for n := int64(0); n < 12; n++ {
		if a, b := runPlan(t, []byte(src), n), runPlan(t, r.Source, n); a != b {
			t.Errorf("n=%d: %+v vs %+v", n, a, b)
		}
	}
}

func TestTempPrefixAvoidsUserNames(t *testing.T) {
	r := mustNormalize(t, `(defun f (v) (print v) v)
(def-plan main (%lc1) (if (f %lc1) %lc1 nil))`)
	if r.Prefix != "%lc%" || !strings.Contains(string(r.Source), "(let* ((%lc%1 (f %lc1))) %lc%1)") {
		t.Errorf("prefix %q:\n%s", r.Prefix, r.Source)
	}
}

func TestIdempotent(t *testing.T) {
	src := `(defun f (v) (print v) v)
(def-plan main (x) (while (or (f nil) (< (f x) 3)) (incf x)) (cond ((= (incf x) 4) 1)))`
	r := mustNormalize(t, src)
	r2 := mustNormalize(t, string(r.Source))
	if !bytes.Equal(r.Source, r2.Source) {
		t.Errorf("not idempotent:\n%s\n%s", r.Source, r2.Source)
	}
	if _, err := r.Reparse(); err != nil {
		t.Error(err)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		`(def-plan main (x) (if (< (+ x (incf x)) 10) 1 2))`,
		`(defun f (v) (print v) v) (def-plan main (x) (cond ((or (f 1) (f 2)) 1) ((> (f x) 3) 2)))`,
		`(def-plan main (x) (while (and (< (incf x) 3) (print x)) (setq x (- x (f (decf x))))))`,
		`(def-plan main (x) (when (a action (k (incf x)) (v left)) (perform (an action (type pick)))))`,
		"(defun g (a) ; c\n (let ((n 0)) (dolist (e a) (push (and e (incf n)) a)) n))",
		`(x (y) '(z (incf q)) #| b |# (lambda (q) (< q (funcall q))))`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, err := syntax.Parse("fuzz.plan", []byte(src))
		if err != nil {
			return
		}
		r, err := Plan(file, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Changed() && string(r.Source) != src {
			t.Fatalf("unchanged plan not byte-identical:\n%q\n%q", src, r.Source)
		}
		f2, err := r.Reparse()
		if err != nil {
			t.Fatalf("%v\ninput: %q\noutput: %q", err, src, r.Source)
		}
		r2, err := Plan(f2, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(r.Source, r2.Source) {
			t.Fatalf("not idempotent:\n%q\n%q", r.Source, r2.Source)
		}
	})
}

// HoistCalls binds calls of pure user functions and externals in label
// sites to temporaries, evaluated once; a call in a lazy and/or operand
// stays in place; behaviour is kept.
func TestHoistCalls(t *testing.T) {
	src := `(defun sq (v) (* v v))
(def-plan main (x y)
  (list (if (< (sq x) (+ (sq y) 1)) 'a 'b)
        (when (and (sq x) (> (sq y) 3)) 'c)
        (when (query x) 'd)
        (+ x y)))`
	f, err := syntax.Parse("t.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Plan(f, Options{HoistCalls: true, PureFuncs: []string{"query"}})
	if err != nil {
		t.Fatal(err)
	}
	got := string(r.Source)
	for _, want := range []string{
		"(if (let* ((%lc1 (sq x)) (%lc2 (sq y))) (< %lc1 (+ %lc2 1))) 'a 'b)",
		"(when (let* ((%lc3 (sq x))) (and %lc3 (> (sq y) 3))) 'c)",
		"(when (let* ((%lc4 (query x))) %lc4) 'd)",
		"(+ x y)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("normalized plan lacks %s:\n%s", want, got)
		}
	}
	// query is unknown to the VM: compare on a plan without it.
	src2 := strings.Replace(src, "(when (query x) 'd)", "(when (sq x) 'd)", 1)
	// Without HoistCalls the plan is pure and comes back unchanged.
	if plain := mustNormalize(t, src2); string(plain.Source) != src2 {
		t.Errorf("without HoistCalls:\n%s", plain.Source)
	}
	f2, _ := syntax.Parse("t.plan", []byte(src2))
	r2, err := Plan(f2, Options{HoistCalls: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]int64{{0, 0}, {1, 2}, {3, 1}, {-2, 5}} {
		if a, b := runPlan(t, []byte(src2), args...), runPlan(t, r2.Source, args...); a != b {
			t.Errorf("args %v: original %+v, normalized %+v", args, a, b)
		}
	}
}
