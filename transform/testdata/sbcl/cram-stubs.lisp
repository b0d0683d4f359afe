;;;; cram-stubs.lisp -- just enough of CRAM's packages for SBCL to compile
;;;; CPL-style plans (labelcov's tests: annotated plans compile with no new
;;;; warning). Macros expand as CRAM's do where it matters to what is code
;;;; and what is data: a designator's property values are data, except its
;;;; nested designators and the tests of its desig:when properties.
;;;; Everything else is a function that signals, or a progn.

(defpackage :cram-language
  (:nicknames :cpl :cpl-impl :cram-language-implementation)
  (:use :common-lisp)
  (:export #:def-plan #:def-check #:def-policy #:def-cram-function
           #:def-top-level-cram-function #:par #:seq #:pursue #:try-in-order
           #:top-level #:with-simulated-robot #:with-real-robot
           #:with-failure-handling #:retry #:with-retry-counters #:do-retry
           #:while #:fail #:fl #:fl< #:fl> #:wait-for #:plan-failure
           #:with-tags))

(defpackage :cram-designators
  (:nicknames :desig)
  (:use :common-lisp)
  (:export #:a #:an #:when #:make-designator #:desig-prop #:desig-prop-value))

(defpackage :cram-executive
  (:nicknames :exe)
  (:use :common-lisp)
  (:export #:perform))

(defpackage :roslisp
  (:use :common-lisp)
  (:export #:ros-info #:ros-warn #:ros-error #:ros-debug))

(defpackage :cram-prolog
  (:nicknames :prolog)
  (:use :common-lisp)
  (:export #:prolog #:<- #:def-fact-group))

(defpackage :cram-common-failures
  (:nicknames :common-fail)
  (:use :common-lisp)
  (:export #:retry-with-list-solutions #:navigation-low-level-failure))

(in-package :cram-language)

(defmacro def-plan (name params &body body) `(defun ,name ,params ,@body))
(defmacro def-check (name params &body body) `(defun ,name ,params ,@body))
(defmacro def-policy (name params &body body) `(defun ,name ,params ,@body))
(defmacro def-cram-function (name params &body body) `(defun ,name ,params ,@body))
(defmacro def-top-level-cram-function (name params &body body) `(defun ,name ,params ,@body))
(defmacro par (&body body) `(progn ,@body))
(defmacro seq (&body body) `(progn ,@body))
(defmacro pursue (&body body) `(progn ,@body))
(defmacro try-in-order (&body body) `(progn ,@body))
(defmacro top-level (&body body) `(progn ,@body))
(defmacro with-simulated-robot (&body body) `(progn ,@body))
(defmacro with-real-robot (&body body) `(progn ,@body))
(defmacro with-tags (&body body) `(progn ,@body))
(defmacro while (test &body body) `(loop (unless ,test (return)) ,@body))
(define-condition plan-failure (error) ())
(defun fail (&rest args) (error "plan failure: ~s" args))
(defun fl (x) x)
(defun fl< (a b) (< a b))
(defun fl> (a b) (> a b))
(defun wait-for (x) x)

;; (with-failure-handling ((TYPE (VAR) BODY...)...) BODY...): a handler may
;; (retry) the body or leave with (return ...).
(defmacro with-failure-handling (clauses &body body)
  (let ((again (gensym "RETRY")) (done (gensym "DONE")))
    `(block ,done
       (tagbody
          ,again
          (return-from ,done
            (flet ((retry () (go ,again)))
              (declare (ignorable #'retry))
              (handler-bind
                  ,(mapcar (lambda (c)
                             (let ((g (gensym "C")) (vars (second c)))
                               `(,(first c) (lambda (,g &aux ,@(mapcar (lambda (v) `(,v ,g)) vars))
                                              (declare (ignorable ,g ,@vars))
                                              ,@(cddr c)))))
                           clauses)
                ,@body)))))))

(defmacro with-retry-counters (bindings &body body) `(let ,bindings ,@body))
(defmacro do-retry (counter &body body) `(when (>= (decf ,counter) 0) ,@body))

(in-package :cram-designators)

(defun make-designator (type props) (list* type props))
(defun desig-prop-value (d key) (getf (cdr d) key))
(defun desig-prop (d key) (getf (cdr d) key))

;; CRAM's property parser: a symbol is a keyword unless it is a ?variable;
;; a list headed by a, an, the, all or some is a nested designator (code); a
;; (when TEST PROP...) list has TEST as code; any other list is data.
(defun parse-props (x)
  (cond ((symbolp x)
         (if (and (plusp (length (symbol-name x))) (char= (char (symbol-name x) 0) #\?))
             x
             (intern (symbol-name x) :keyword)))
        ((atom x) x)
        ((and (symbolp (first x))
              (member (symbol-name (first x)) '("A" "AN" "ALL" "SOME" "THE") :test #'string=))
         x)
        ((and (eq (first x) 'when) (= (length x) 3))
         `(when ,(if (symbolp (second x)) (parse-props (second x)) (second x))
            ,(parse-props (third x))))
        (t `(list ,@(mapcar #'parse-props x)))))

(defmacro a (type &rest props)
  `(make-designator ,(intern (symbol-name type) :keyword)
                    (remove nil ,(parse-props props))))

(defmacro an (type &rest props) `(a ,type ,@props))

(in-package :cram-executive)

(defun perform (designator) designator)

(in-package :roslisp)

(defmacro ros-info (name format &rest args) (declare (ignore name)) `(format nil ,format ,@args))
(defmacro ros-warn (name format &rest args) (declare (ignore name)) `(format nil ,format ,@args))
(defmacro ros-error (name format &rest args) (declare (ignore name)) `(format nil ,format ,@args))
(defmacro ros-debug (name format &rest args) (declare (ignore name)) `(format nil ,format ,@args))

(in-package :cram-common-failures)

(define-condition navigation-low-level-failure (cpl:plan-failure) ())

;; (retry-with-list-solutions SOLUTIONS RETRIES (OPTIONS...) BODY...).
(defmacro retry-with-list-solutions (solutions retries options &body body)
  (declare (ignore options))
  `(progn ,solutions ,retries ,@body))
