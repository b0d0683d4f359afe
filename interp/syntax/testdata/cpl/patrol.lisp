;;; A patrol plan in CPL style, written for labelcov's reader tests.

(defpackage :labelcov-patrol
  (:nicknames #:patrol)
  (:use #:common-lisp #:cram-prolog)
  (:export #:patrol #:*waypoints*))

(in-package :patrol)

(defvar *waypoints* `((0.0d0 1.5d0) (2 ,(/ 3 2)) (-1.5e0 0)))

(defmacro with-logging ((name) &body body)
  `(progn
     (roslisp:ros-info (patrol) "start ~a" ',name)
     (multiple-value-prog1 (progn ,@body)
       (roslisp:ros-info (patrol) "end ~a" ',name))))

(defun distance (a b)
  (destructuring-bind ((ax ay) (bx by)) (list a b)
    (sqrt (+ (expt (- ax bx) 2) (expt (- ay by) 2)))))

(cpl:def-top-level-cram-function patrol (&key (laps 2) (speed 1/4))
  (flet ((go-to (point)
           (exe:perform (desig:a motion (type going) (target (desig:a location (pose ,point)))))))
    (loop repeat laps
          do (cpl:par
               (cpl:seq
                 (mapc #'go-to *waypoints*))
               (cpl:pursue
                 (cpl:wait-for (cpl:fl< speed 0.1d0))
                 (multiple-value-bind (ok why) (values t nil)
                   (unless ok
                     (cpl:fail 'common-fail:navigation-low-level-failure :description why))))))))

;; A character table and odd literals.
(defparameter *names* (list #\Newline #\Tab #\a #\Z #x1F #b1010 '|MiXeD| :KEY 'CL-USER::Sym))
