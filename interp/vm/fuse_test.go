package vm

import (
	"bytes"
	"fmt"
	"testing"
)

// fusePrograms exercise every instruction fast runs, on its fast and its
// bail-out paths (wrong kinds, failures, budgets, growth of the stack,
// frames and handler records).
var fusePrograms = []string{
	`(defun fib (n) (if (< n 2) n (+ (fib (- n 1)) (fib (- n 2)))))
(def-plan main () (fib 15))`,
	`(def-plan main () (let ((s 0)) (dotimes (i 3000) (setq s (+ s (* i 2)))) s))`,
	`(defun f (n acc) (if (<= n 0) acc (f (- n 1) (+ acc n))))
(def-plan main () (list (f 100 0) (f 3000 0)))`,
	`(defparameter *g* 10)
(defparameter *h* '(a b c))
(defun k (x) (case x (a 1) (b 2) ((c d) 3) (1 'one) (:k 'kw) (otherwise 'other)))
(def-plan main ()
  (let ((r nil) (i 0))
    (dolist (x (list 'a 'b 'c 'd 1 2 2.5 "s" :k nil t 'zz (list 1)))
      (push (k x) r))
    (dotimes (j 5) (setq *g* (+ *g* j)) (incf i))
    (while (< i 20) (setq i (+ i 3)))
    (list r *g* i (eq 'a 'a) (eq 'a 'b) (eq "x" "x") (eq 1 1) (eq 1.0 1.0) (eq nil nil) (eq :k :k)
          (eq *h* *h*) (eq (list 1) (list 1)) (eql 2.0 2.0) (not nil) (not 3)
          (car *h*) (cdr *h*) (car nil) (cdr nil)
          (1+ 4) (1- 4) (+ 1 2) (- 1 2) (* 3 4) (mod -7 3) (< 1 2) (<= 2 2) (> 1 2) (>= 3 2) (= 2 2)
          (+ 1.5 2) (< 1.5 2) (+ i 1) (- i 1) (> i 100) (and i *g*) (or nil i) (and nil i) (or i nil))))`,
	`(defun thrower (x) (fail 'navigation-failure "no ~a" x))
(def-plan main ()
  (let ((n 0) (log nil))
    (dotimes (i 40)
      (with-failure-handling ((navigation-failure (e) (push (desig-prop e 'message) log) (incf n)))
        (with-failure-handling ((grasping-failure (e) nil))
          (when (oddp i) (thrower i))
          (incf n))))
    (list n (length log))))`,
	`(defparameter *al* '((a 1) (b 2) (1 one) (2.5 f) ("s" str) (:k kw) nil (c 3)))
(defparameter *l* (list 'a 1 2.5 "s" :k nil t (list 1) 'b))
(defun probe (d) (list (desig-prop d 'x) (desig-prop d :y) (desig-prop d 'zz) (desig-prop d 'z)))
(def-plan main ()
  (let ((d (an action (type go) (x 1) (y (a location (name n))) (x 2))) (r nil))
    (dotimes (i 3)
      (push (list (probe d) (/= 1 2 3) (/= 1 2 1) (/= 5) (/= 1 2.0) (abs -3) (abs 3) (abs -2.5)
                  (length *l*) (length nil) (length "abc") (car *l*) (first nil) (cdr nil) (rest *l*)
                  (second *l*) (third *l*) (second '(1)) (nth 0 *l*) (nth 4 *l*) (nth 20 *l*)
                  (member 'b *l*) (member 2.5 *l*) (member "s" *l*) (member :k *l*) (member nil *l*)
                  (member t *l*) (member 'zz *l*) (member 1 nil)
                  (assoc 'b *al*) (assoc 1 *al*) (assoc 2.5 *al*) (assoc "s" *al*) (assoc :k *al*) (assoc 'q *al*))
            r))
    r))`,
	`(def-plan main () (desig-prop 1 'x))`,
	`(def-plan main () (desig-prop (an action (type go)) 1))`,
	`(def-plan main () (/= 1 1 'x))`,
	`(def-plan main () (/= 1 2 'x))`,
	`(def-plan main () (/= 'x))`,
	`(def-plan main () (abs 'x))`,
	`(def-plan main () (length (cons 1 2)))`,
	`(def-plan main () (length 5))`,
	`(def-plan main () (second (cons 1 2)))`,
	`(def-plan main () (third 7))`,
	`(def-plan main () (nth -1 '(1)))`,
	`(def-plan main () (nth 2 (cons 1 2)))`,
	`(def-plan main () (member 3 (cons 1 2)))`,
	`(def-plan main () (member 1 (cons 1 2)))`,
	`(def-plan main () (assoc 'a (cons '(b 1) 3)))`,
	`(defun f () 1) (def-plan main () (member (function f) (list (function f))))`,
	`(def-plan main () (car 1))`,
	`(def-plan main () (+ 'a 1))`,
	`(def-plan main () (< 1 'b))`,
	`(def-plan main () (let ((x 'q)) (1+ x)))`,
	`(defparameter *late* *early*) (defparameter *early* 1) (def-plan main () *late*)`,
	`(def-plan main () (dotimes (i 'x) i))`,
	`(defun deep (n) (if (= n 0) 0 (+ 1 (deep (- n 1)))))
(def-plan main () (deep 100000))`,
	`(defun spin (n) (while t (setq n (+ n 1))))
(def-plan main () (spin 0))`,
	`(defun mk (n) (lambda (x) (+ x n)))
(def-plan main () (let ((f (mk 3)) (s 0)) (dotimes (i 10) (setq s (funcall f s))) s))`,
	// Label probes: refunded steps, failing predicates, nested probes,
	// a probe that exhausts the label budget.
	`(defun g (x) (when (ignore-errors (< x 0))) (when (ignore-errors (car x))) (* x 2))
(def-plan main () (let ((s 0)) (dotimes (i 2000) (when (ignore-errors (= (g i) 4))) (setq s (+ s (g i)))) s))`,
	`(def-plan main () (let ((s 0)) (dotimes (i 3000) (when (ignore-errors (list (cons i i)))) (when (ignore-errors (+ 'a i))) (setq s (+ s i))) s))`,
	`(def-plan main () (let ((n 0)) (when (ignore-errors (while t (setq n (+ n 1))))) n))`,
}

// TestFusedMatchesPlain runs programs on the fused and on the plain code: results,
// failures, step counts and coverage counters must be identical.
func TestFusedMatchesPlain(t *testing.T) {
	for i, src := range fusePrograms {
		for _, cfg := range []Config{{MaxSteps: 300_000}, {MaxSteps: 1000}, {MaxSteps: 1_000_000, MaxDepth: 500}, {MaxSteps: 37}, {MaxAlloc: 30, MaxSteps: 50_000}} {
			var res [2]string
			var counters [2][]uint8
			for k, unfused := range []bool{true, false} {
				r, m := runProbe(t, src, cfg, unfused)
				f := ""
				if r.Failure != nil {
					f = fmt.Sprintf("%s %s %s:%s", r.Failure.Kind, r.Failure.Message, r.Failure.File, r.Failure.Pos)
				}
				res[k] = fmt.Sprintf("%s %s steps=%d label=%d %s frames=%d handlers=%d", r.Outcome, r.Value, r.Steps, r.LabelSteps, f, len(m.frames), len(m.handlers))
				counters[k] = append([]uint8(nil), m.Counters()...)
			}
			if res[0] != res[1] || !bytes.Equal(counters[0], counters[1]) {
				t.Errorf("program %d, %+v:\nplain %s\nfused %s\ncounters equal: %v", i, cfg, res[0], res[1], bytes.Equal(counters[0], counters[1]))
			}
		}
		// With the built-in engine's labels, run after run as labels
		// retire and the fused code skips them (dead.go).
		p := compileSrc(t, src)
		for _, steps := range []int64{300_000, 1000, 37} {
			fuzzRun(t, p, Config{MaxSteps: steps, MaxDepth: 500, Labels: LabelMode{Retire: true, FiredOnly: true, SilentRetire: true}})
		}
	}
}

func init() {
	// Compare probes nested in a probe (a predicate calling a function
	// that carries labels), near the label budget.
	fusePrograms = append(fusePrograms,
		`(defun h (x) (when (ignore-errors (< x 3))) (when (ignore-errors (not (eq x 'a)))) (* x 2))
(def-plan main () (let ((s 0)) (dotimes (i 3000) (when (ignore-errors (= (h i) (h (+ i 1))))) (setq s (+ s (h i)))) s))`,
		`(defun h (x) (when (ignore-errors (and (< x 3) (car x)))) (* x 2))
(def-plan main () (let ((s 0)) (dotimes (i 3000) (when (ignore-errors (and (> i 5) (= (h i) (h (+ i 1)))))) (setq s (+ s (h i)))) s))`)
}
