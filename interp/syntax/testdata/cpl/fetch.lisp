;;; Copyright and license: written for labelcov's reader tests, in the
;;; style of CRAM's plan files (package header, qualified designators,
;;; #', backquote, &key, reader conditionals).

(in-package :labelcov-tests)

(defparameter *arms*
  '(:left :right)
  "The arms a fetch may use.")

#+sbcl
(declaim (optimize (speed 1) (safety 3)))

#|
A block comment, #| nested |#, as CL allows.
|#

(defun arm-goal (arm &key (offset 0.05d0) (frame "base_footprint"))
  `(:arm ,arm :offset ,offset :frame ,frame ,@(when (eq arm :left) '(:mirrored t))))

(defun pick-order (objects)
  (sort (copy-list objects) #'string< :key #'symbol-name))

(cpl:def-cram-function fetch (?object &optional (?arm :left))
  (let ((retries 3)
        (grip #\g)
        (ratio 1/2))
    (cpl:with-failure-handling
        ((common-fail:object-unreachable (e)
           (roslisp:ros-warn (fetch) "unreachable: ~a" e)
           (when (plusp (decf retries))
             (cpl:retry))))
      (exe:perform (desig:an action
                     (type picking-up)
                     (arm ?arm)
                     (object ?object)
                     (grip ,grip)
                     (effort ratio))))))

#-(or sbcl ccl)
(error "Unsupported Lisp")

(defun |Odd Name| (x) (CL:1+ X))

(defun escapes () (list "say \"hi\"" #\Space #\( 'cram-tf::*robot-base-frame* #:uninterned))
