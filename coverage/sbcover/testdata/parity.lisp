;;; parity.lisp -- a plain Common Lisp plan (its one labelcov form is
;;; def-plan, which SBCL gets as a macro for defun) for checking that
;;; sb-cover's "then" coverage of each injected label equals labelcov's.
;;; Decisions of every shape: cond clauses, and/or, when/unless, a side
;;; effect in a condition (hoisted into a temporary), a decision whose
;;; atoms call a function (shared atoms in globals), arithmetic and loops,
;;; and strings compared with string= and equal (dist's prefix stones),
;;; built with code-char and format, non-ASCII too.

(defparameter *calls* 0)

(defun bump (n)
  (incf *calls*)
  (+ n *calls*))

(defun weight (x y)
  (if (and (> x 0) (or (< y 10) (= (mod x 3) 0)))
      (* x 2)
      (- y x)))

(defun classify (x y)
  (cond ((and (> x 0) (< y 10)) 'a)
        ((or (= x y) (< x -5)) 'b)
        ((> (bump x) (* 2 y)) 'c)
        (t 'd)))

(defun steps (n)
  (let ((acc 0))
    (dotimes (i (min (abs n) 8) acc)
      (when (or (evenp i) (> (+ acc i) 10))
        (setq acc (+ acc i))))))

(defun tag-of (x y)
  (format nil "~a~a~a" (code-char (+ 99 (mod x 3))) (code-char (+ 97 (mod y 2)))
          (if (> x 0) "lé" "l")))

(defun token (x y)
  (cond ((string= (tag-of x y) "calé") 'calibrate)
        ((equal "cb" (subseq (tag-of y x) 0 2)) 'cb)
        ((string= (tag-of x y) (tag-of y x)) 'same)
        (t (mismatch (tag-of x y) "cal"))))

(def-plan main (x y)
  (setq *calls* 0)
  (let ((w (weight x y)))
    (unless (< w -20)
      (list (classify x y) w (steps (- x y)) (token x y)
            (if (and (> (bump y) x) (/= x 0)) 'up 'down)))))
