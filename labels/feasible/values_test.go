package feasible

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// analyze runs the value analysis on src.
func analyze(t *testing.T, src string) *valueAnalysis {
	t.Helper()
	a := analyzeValues(normalized(t, src), nil)
	if !a.ok {
		t.Fatalf("no fixpoint for\n%s", src)
	}
	return a
}

// rangeText renders what the analysis knows of a value for tests.
func rangeText(v aval) string {
	var b strings.Builder
	if v.num {
		b.WriteString("[" + fmtBound(v.lo, v.intOnly()) + ", " + fmtBound(v.hi, v.intOnly()) + "]")
		if v.frac {
			b.WriteString(" float")
		}
		if v.nan {
			b.WriteString(" nan")
		}
	}
	if v.other {
		b.WriteString(" other")
	}
	if !v.num && !v.other {
		b.WriteString("none")
	}
	return strings.TrimSpace(b.String())
}

// TestValueTransfer checks each transfer function on x in [-7, 5]
// (integers: f is only called with -7 and 5) and on the floats and
// unknowns a def-plan parameter brings.
func TestValueTransfer(t *testing.T) {
	for expr, want := range map[string]string{
		"x":                               "[-7, 5]",
		"(mod x 4)":                       "[0, 3]",
		"(mod x -4)":                      "[-3, 0]",
		"(mod x 100)":                     "[0, 99]",
		"(mod (+ x 7) 100)":               "[0, 12]", // a remainder of itself
		"(rem x 4)":                       "[-3, 3]",
		"(rem (abs x) 4)":                 "[0, 3]",
		"(mod x 0)":                       "none", // always divides by zero
		"(abs x)":                         "[0, 7]",
		"(- x)":                           "[-5, 7]",
		"(min x 2)":                       "[-7, 2]",
		"(max x 2 -1)":                    "[2, 5]",
		"(+ x 10)":                        "[3, 15]",
		"(- x 10)":                        "[-17, -5]",
		"(* x -3)":                        "[-15, 21]",
		"(/ x 2)":                         "[-3, 2]", // truncated; widened by one for float rounding
		"(/ 100 x)":                       "[-100, 100]",
		"(floor x 2)":                     "[-4, 2]",
		"(floor x)":                       "[-7, 5]",
		"(round x)":                       "[-7, 5]",
		"(1+ x)":                          "[-6, 6]",
		"(1- x)":                          "[-8, 4]",
		"(+ x 9223372036854775807)":       "[-9223372036854775808, 9223372036854775807]", // wraps
		"(* x 4611686018427387904)":       "[-9223372036854775808, 9223372036854775807]",
		"(abs (- x 9223372036854775807))": "[-9223372036854775808, 9223372036854775807]",
		"(length x)":                      "[0, 9223372036854775807]",
		"(+ x 0.5)":                       "[-6.5, 5.5] float",
		"(sqrt (+ x 7))":                  "[0, 3.4641016151377544] float",
		"(mod (* x 1.5) 4)":               "[0, 4] float",
		"(< x 3)":                         "other",
		"(if (< x 0) x nil)":              "[-7, 5] other",
		"(when (> x 0) 42)":               "[42, 42] other",
		"(cond ((< x 0) 1) (t 2))":        "[1, 2]",
		"(let ((y (* x x))) y)":           "[-35, 49]",
		"(block b (when (< x 0) (return-from b 100)) 1)": "[1, 100]",
		"(unknown-fn x)": "[-inf, inf] float nan other",
	} {
		a := analyze(t, "(defun f (x) (let ((v "+expr+")) v))\n(def-plan p () (f 5) (f -7))")
		if got := rangeText(a.varVal("v")); got != want {
			t.Errorf("%s: got %s, want %s", expr, got, want)
		}
	}
	// A def-plan parameter is anything: floats, infinities, NaN, lists.
	a := analyze(t, "(def-plan p (raw) (let ((v (mod raw 4096)) (w (floor raw 8))) (list v w)))")
	if got := rangeText(a.varVal("v")); got != "[0, 4096] float nan" {
		t.Errorf("(mod raw 4096): got %s", got)
	}
	if got := rangeText(a.varVal("w")); got != "[-9223372036854775808, 9223372036854775807]" {
		t.Errorf("(floor raw 8): got %s", got)
	}
	// Loop variables, assignments and widening.
	a = analyze(t, "(def-plan p (n) (let ((s 0) (k 0)) (dotimes (i 10) (incf s i)) (loop-free k) (setq k (+ k 1)) (list s k)))")
	if got := rangeText(a.varVal("i")); got != "[0, 10]" {
		t.Errorf("dotimes i: got %s", got)
	}
	// s and k grow without bound: widened to the end of int64, where
	// they may wrap around.
	for _, v := range []string{"s", "k"} {
		if got := rangeText(a.varVal(v)); got != "[-9223372036854775808, 9223372036854775807]" {
			t.Errorf("%s: got %s, want any integer after widening", v, got)
		}
	}
}

// TestValueUnknowns: what the analysis cannot see through makes values
// unknown: a function used as a value, a funcall of a computed function,
// loop, a closure's parameters, a global read before it is bound.
func TestValueUnknowns(t *testing.T) {
	for name, c := range map[string]struct{ src, v, want string }{
		"escaped": {"(defun f (x) (let ((v (mod x 8))) x))\n(def-plan p (a) (f 3) (mapcar #'f (list a)))", "x", "[-inf, inf] float nan other"},
		"quoted":  {"(defun f (x) x)\n(def-plan p (a) (f 3) (funcall 'f a))", "x", "[-inf, inf] float nan other"},
		"dynamic": {"(defun f (x) x)\n(def-plan p (a g) (f 3) (funcall g 1))", "x", "[-inf, inf] float nan other"},
		"direct":  {"(defun f (x) x)\n(def-plan p (a) (f 3) (f 4))", "x", "[3, 4]"},
		"loop":    {"(def-plan p () (let ((x 1)) (loop for x from 0 below 3 collect x)))", "x", "[-inf, inf] float nan other"},
		"lambda":  {"(def-plan p () (let ((y 1)) (funcall (lambda (y) y) 7)))", "y", "[-inf, inf] float nan other"},
		"flet":    {"(def-plan p () (let ((y 1)) (flet ((g (y) y)) (g 2))))", "y", "[-inf, inf] float nan other"},
		"special": {"(defparameter *s* 1)\n(defun r () *s*)\n(def-plan p () (let ((*s* 9)) (r)))", "*s*", "[1, 9]"},
		"free":    {"(defun r () *ext*)\n(def-plan p () (setq *ext* 3) (r))", "*ext*", "[3, 3] other"},
		"late":    {"(defparameter *a* (r))\n(defparameter *b* 2)\n(defun r () (+ *b* 1))\n(def-plan p () *b*)", "*b*", "[2, 2] other"},
		"push":    {"(def-plan p () (let ((l 0)) (push 1 l) l))", "l", "[0, 0] other"},
		"handler": {"(def-plan p () (let ((e 1)) (handler-case (fail 'x) (error (e) e))))", "e", "[-inf, inf] float nan other"},
	} {
		a := analyze(t, c.src)
		if got := rangeText(a.varVal(c.v)); got != c.want {
			t.Errorf("%s: %s is %s, want %s", name, c.v, got, c.want)
		}
	}
}

// TestValueVerdictsAndReasons: labels on values that cannot satisfy them
// are infeasible, labels that always hold on numbers trivial, each with
// the range and the expressions it comes from.
func TestValueVerdictsAndReasons(t *testing.T) {
	src := `(defparameter *blind* 150)
(defun range-of (raw) (mod raw 4294967296))
(defun valid-p (mm) (>= mm *blind*))
(def-plan main (l r)
  (let ((left (range-of l)) (right (range-of r)))
    (list (valid-p left) (valid-p right))))`
	s := enumerate(t, src, "wm:abs", 0)
	got := map[string]string{}
	for _, l := range s.Labels {
		got[l.Predicate] = string(l.Status) + " " + l.Reason
	}
	for pred, want := range map[string]string{
		"(< mm 0)":      "infeasible cannot hold: mm is in [0, 4294967296] (from (mod raw 4294967296) t.plan:2:23)",
		"(= mm 0)":      "active ",
		"(< *blind* 0)": "infeasible cannot hold: *blind* is 150 (from 150 t.plan:1:23)",
		"(= *blind* 0)": "infeasible cannot hold: *blind* is 150 (from 150 t.plan:1:23)",
		"(> *blind* 0)": "trivial always holds: *blind* is 150 (from 150 t.plan:1:23)",
		"(< raw 0)":     "active ",
		"(> mm 0)":      "active ",
	} {
		if got[pred] != want {
			t.Errorf("%s: got %q, want %q", pred, got[pred], want)
		}
	}
	// NoValues turns it off.
	c, _ := labels.ParseCriteria("wm:abs")
	off, err := Enumerate(normalized(t, src), labels.Options{Criteria: c}, Options{NoValues: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range off.Labels {
		if l.Status != labels.Active {
			t.Errorf("NoValues: %s is %s (%s)", l.Predicate, l.Status, l.Reason)
		}
	}
	// ROR, CC and MCC: relations between two ranged operands; a NaN
	// possible keeps (/= ...) alive; a value that may be nil is never
	// trivial.
	for _, c := range []struct {
		arg  string
		want map[string]string
	}{
		{"(length a)", map[string]string{ // integers
			"cc (< x y)":       "trivial",
			"cc (not (< x y))": "infeasible",
			"wm-ror (= x y)":   "infeasible",
			"wm-ror (> x y)":   "infeasible",
			"wm-ror (/= x y)":  "trivial",
			"wm-ror (<= x y)":  "trivial",
		}},
		{"a", map[string]string{ // anything: x may be NaN
			"cc (< x y)":       "active",
			"cc (not (< x y))": "active",
			"wm-ror (= x y)":   "infeasible",
			"wm-ror (> x y)":   "infeasible",
			"wm-ror (/= x y)":  "trivial",
			"wm-ror (<= x y)":  "active",
		}},
	} {
		s = enumerate(t, "(defun f (x y) (if (< x y) 1 2))\n(def-plan main (a) (f (mod "+c.arg+" 10) (+ 20 (mod "+c.arg+" 5))) (f 3 40))", "cc,wm:ror", 0)
		got = map[string]string{}
		for _, l := range s.Labels {
			got[string(l.Criterion)+" "+l.Predicate] = string(l.Status)
		}
		for k, want := range c.want {
			if got[k] != want {
				t.Errorf("%s: %s: got %s, want %s", c.arg, k, got[k], want)
			}
		}
	}
}

// TestFmtBound: integers in full, the ends of int64 by value.
func TestFmtBound(t *testing.T) {
	for _, c := range []struct {
		x     float64
		isInt bool
		want  string
	}{{4294967295, true, "4294967295"}, {maxInt, true, "9223372036854775807"}, {minInt, true, "-9223372036854775808"},
		{math.Inf(1), false, "inf"}, {0.5, false, "0.5"}, {-3, false, "-3"}} {
		if got := fmtBound(c.x, c.isInt); got != c.want {
			t.Errorf("%g: got %s, want %s", c.x, got, c.want)
		}
	}
}

// TestValueDeepAndLongPlans: the analysis walks plans nesting near the
// reader's limit and long call chains (one round per call level) without
// a stack overflow, and still decides their labels.
func TestValueDeepAndLongPlans(t *testing.T) {
	d := syntax.MaxDepth - 8
	deep := "(def-plan main (x) (let ((y (mod (length x) 10))) " + strings.Repeat("(+ 1 ", d) + "y" + strings.Repeat(")", d) + "))"
	var long strings.Builder
	for i := 0; i < 40; i++ { // f0 calls f1 ... f40, each defined before its caller
		fmt.Fprintf(&long, "(defun f%d (x%d) (f%d (mod x%d 10)))\n", 39-i, 39-i, 40-i, 39-i)
	}
	long.WriteString("(defun f40 (y) (if (< y 0) 1 2))\n(def-plan main (a) (f0 a))\n")
	for name, c := range map[string]struct {
		src     string
		decided bool
	}{
		"deep": {deep, true},
		// 40 call levels, more than maxRounds: walking the plan in
		// both directions settles them anyway.
		"long": {long.String(), true},
	} {
		s := enumerate(t, c.src, "wm:abs", 0)
		decided := 0
		for _, l := range s.Labels {
			if l.Status == labels.Infeasible {
				decided++
			}
		}
		if (decided > 0) != c.decided {
			t.Errorf("%s: %d labels decided, want decided=%v", name, decided, c.decided)
		}
	}
}

// TestValueBuiltinArity checks the value analysis's builtins called with
// no arguments, whatever their callers check first: those the VM fails
// always fail (none), without indexing a missing operand; (+) and (*)
// are their identities.
func TestValueBuiltinArity(t *testing.T) {
	a := &valueAnalysis{}
	l := &syntax.List{}
	for h, want := range map[string]string{"-": "none", "/": "none", "1+": "none", "sqrt": "none", "abs": "none",
		"min": "none", "mod": "none", "floor": "none", "+": "[0, 0]", "*": "[1, 1]"} {
		if got := rangeText(a.builtin(h, l, nil)); got != want {
			t.Errorf("(%s) = %s, want %s", h, got, want)
		}
	}
	// Nor may a label be called always true on an operand the VM fails.
	one, two := &syntax.Int{Value: 1}, &syntax.Int{Value: 2}
	d := &domains{}
	for _, tc := range []struct {
		elems []syntax.Node
		want  bool
	}{
		{[]syntax.Node{sym("abs"), one}, true},
		{[]syntax.Node{sym("abs"), one, two}, false},
		{[]syntax.Node{sym("1+"), one, two}, false},
		{[]syntax.Node{sym("-")}, false},
		{[]syntax.Node{sym("+"), one, two}, true},
	} {
		l := &syntax.List{Elems: tc.elems}
		if got := d.cannotFail(l); got != tc.want {
			t.Errorf("cannotFail(%s) = %v, want %v", syntax.NodeString(l), got, tc.want)
		}
	}
}
