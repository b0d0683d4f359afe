package transform

import (
	"testing"
)

// cplPlans are plans written the way CRAM's CPL plans are (package header,
// qualified CPL forms, &key parameters, local functions, loop, designators
// with conditional properties), with side effects inside conditions so
// that normalize has to hoist them. Each has a plan main of two integers.
var cplPlans = map[string]string{
	"key-params": `(in-package :cpl-demo)
(defparameter *tries* 0 "Attempts so far.")
(defun approach (x &key (speed 1) (margin (* speed 2)) (side 'left side-p))
  "Approach an object."
  (declare (ignore side))
  (if (and (> (incf *tries*) 1) (< x margin))
      (list 'close speed side-p)
      (list 'far margin)))
(def-plan main (x y)
  (list (approach x) (approach y :speed x) (approach x :side 'right :margin y) *tries*))`,

	"flet-labels": `(in-package :cpl-demo)
(defparameter *g* 0)
(def-plan main (x y)
  (flet ((bump (n) (incf *g* n) *g*))
    (labels ((walk (n acc)
               (if (or (<= n 0) (> (bump 1) 20))
                   acc
                   (walk (- n 1) (+ acc n)))))
      (list (walk (abs x) 0) (bump y) (when (> (bump 0) y) 'over)))))`,

	"values": `(in-package :cpl-demo)
(defparameter *g* 0)
(defun split (n) (values (floor n 2) (mod n 2)))
(def-plan main (x y)
  (multiple-value-bind (q r) (values (incf *g* x) (- y *g*))
    (destructuring-bind (a &optional (b 5)) (list q)
      (list q r a b (split y) (if (> (incf *g*) r) 'up 'down)))))`,

	"loop": `(in-package :cpl-demo)
(defparameter *seen* 0)
(def-plan main (x y)
  (list (loop for i from 0 below (abs x) when (> (incf *seen*) y) collect i)
        (loop for v in (list x y 3) sum (if (< v 0) (- v) v))
        (loop for i from 1 to 5 until (> (* i i) (abs y)) count (oddp i))
        (if (> *seen* y) 'more 'fewer)))`,

	"designator-data": `(in-package :cpl-demo)
(defparameter *n* 0)
(def-plan main (x y)
  (let ((?s (if (> x y) 'fast 'slow)))
    (list (desig:an action (type going) (speed ?s) (effort (if (< x y) (incf *n*) 2))
                   (target (desig:a location (near (+ x y))))
                   (desig:when (> (incf *n*) y) (margin (* x 2))))
          ` + "`" + `(k ,(if (> x 2) 1 2) ,@(list (and (> y 0) y)))
          (mapcar #'(lambda (v) (if (> v 1) v 0)) (list x y))
          (loop for i from 0 below 4 when (> i x) collect (if (= i y) i 0) while (< i 3))
          *n*)))`,

	"par-and-designators": `(in-package :cpl-demo)
(defparameter *log* nil)
(defun note (x) (push x *log*) x)
(def-plan main (x y)
  (let ((?speed (cpl:par (note x) (note y))))
    (cpl:top-level
      (cpl:with-simulated-robot
        (let ((d (desig:a motion
                          (type going)
                          (speed ?speed)
                          (desig:when (> (note (+ x y)) 0)
                            (fast t)))))
          (list (desig-prop d 'fast)
                (cpl:pursue (note 'first) (note 'never))
                (cpl:try-in-order (if (< x y) (fail 'navigation-failure) 'direct) 'fallback)
                *log*))))))`,

	"many-whens-and-free-globals": `(in-package :cpl-demo)
(defun note (x) (push x *log*) x)
(defun extra-property (x)
  (when (> x 1) (list 'range x)))
(def-plan main (x y)
  (setf *log* nil)
  (let* ((?extra (extra-property (note x)))
         (d (desig:a motion
                     (type going)
                     (desig:when (> (note x) 0) (w1 1))
                     (desig:when (and (> x 1) (< y 2)) (w2 2))
                     (desig:when (or (= x y) (> y 2)) (w3 3) (w3b 33))
                     ?extra
                     (desig:when (< (note y) 0) (w4 4))
                     (desig:when (= x 3) (w5 5))
                     (desig:when (/= y 1) (w6 6))
                     (desig:when (> (+ x y) 2) (w7 7)))))
    (list d (length *log*)
          (remove 2 (list 1 2 3 x y) :test #'=)
          (member (abs y) (list '(1) '(2) '(3)) :key #'car))))`,

	"local-lambda-lists": `(in-package :cpl-demo)
(defparameter *g* 0)
(def-plan main (x y)
  (flet ((approach (d &key (speed (if (> d 2) 2 1)) (margin 0 margin-p))
           (list (if (and margin-p (< (incf *g*) margin)) 'careful 'plain) speed))
         (grip (arm &optional (force (* 2 y)) &rest more)
           (list arm (when (> force x) 'hard) more)))
    (labels ((count-down (n &optional acc)
               (if (or (<= n 0) (> (length acc) 5)) acc (count-down (- n 1) (cons n acc)))))
      (list (approach x) (approach y :margin x) (grip 'left) (grip 'right x y)
            (count-down (abs x)) (funcall #'approach (+ x y) :margin y) (funcall #'grip 'up y) *g*))))`,

	"handlers": `(in-package :cpl-demo)
(defparameter *n* 0)
(def-plan main (x y)
  (with-retry-counters ((retries 2))
    (with-failure-handling ((navigation-failure (e)
                              (ros-warn (demo) "failed: ~a" (desig-prop e 'message))
                              (do-retry retries (retry))
                              (return (list 'gave-up *n*))))
      (unwind-protect
           (when (< (incf *n*) (+ 3 x))
             (fail 'navigation-failure "try ~a of ~a" *n* y))
        (ros-info (demo) "attempt ~a done" *n*))
      (ecase (if (> x y) 1 2) (1 'bigger) (2 'smaller)))))`,
}

// TestDifferentialCPL: the original, normalized and annotated versions of
// each CPL-style plan give the same outcome, value, output, failure and
// (unless normalize hoisted effects) steps.
func TestDifferentialCPL(t *testing.T) {
	for name, src := range cplPlans {
		t.Run(name, func(t *testing.T) {
			orig := newMachine(t, []byte(src))
			r := annotate(t, name+".lisp", src, "all")
			if len(r.Labels.Active()) == 0 {
				t.Fatalf("no labels")
			}
			variants := map[string]*machine{
				"normalized": newMachine(t, r.Normalized.Source),
				"annotated":  newMachine(t, r.Source),
			}
			outcomes := map[string]int{}
			for x := int64(-3); x <= 4; x++ {
				for y := int64(-2); y <= 3; y++ {
					want := orig.run(x, y)
					outcomes[string(want.Outcome)]++
					norm := variants["normalized"].run(x, y)
					for vname, mc := range variants {
						got := mc.run(x, y)
						if vname == "annotated" && got.Steps != norm.Steps {
							t.Fatalf("args (%d %d): annotated takes %d steps, normalized %d", x, y, got.Steps, norm.Steps)
						}
						if got != want {
							t.Fatalf("args (%d %d): %s differs\noriginal: %+v\n%s: %+v\n%s", x, y, vname, want, vname, got, mc.out)
						}
					}
				}
			}
			if outcomes["ok"] == 0 {
				t.Errorf("no run succeeded: %v", outcomes)
			}
		})
	}
}
