;;; warehouse-cpl-idioms.lisp -- the warehouse sorting plan once more, in
;;; the CPL idioms the first version does not use: backquoted property
;;; lists built for make-designator, a ?variable as a whole designator
;;; property, many desig:when properties, loop with into, maximize and
;;; append, remove/find with :key and :test, labels, &key with supplied-p,
;;; keyword-headed macro syntax passed through, and a global of another
;;; file that the plan sets before reading it.

(in-package :cram-warehouse-demo)

(defparameter *homes* '((milk board-1) (cereal board-2) (bowl board-3))
  "The home board of each object type.")

(defun home-of (type)
  (second (find type *homes* :key #'first)))

;; CPL's retry macros take an option list headed by a keyword: only the
;; macro knows what it means, so this definition is passed through.
(defun retrying-fetch (?obj)
  (common-fail:retry-with-list-solutions
      '(left right) 2
      (:error-object-or-string "no grasp" :rethrow-failure 'grasping-failure)
    (fetch ?obj)))

(defun stand-for (region col)
  (let ((side (cond ((< col 6) 0) ((< col 11) 1) (t 2))))
    (nth side (if (eq region 'table)
                  '(table-left table-center table-right)
                  '(shelf-left shelf-center shelf-right)))))

(cpl:def-cram-function go-to (?loc &key (region 'table) (park t park-p))
  "Drive to ?LOC; park first when told so or by default."
  (let ((?torso (case region (board-1 'low) (board-3 'high) (otherwise 'middle))))
    (cpl:par
      (when (or park (not park-p))
        (exe:perform (desig:make-designator :action `((type parking-arms)))))
      (exe:perform (desig:an action
                             (type navigating)
                             (location (desig:a location (name ?loc))))))
    (exe:perform (desig:make-designator 'action `((type moving-torso) (height ,?torso))))))

(defun fetch (?obj)
  (multiple-value-bind (?region ?cell)
      (values (object-region ?obj) (object-cell ?obj))
    (go-to (stand-for ?region (first ?cell)) :region ?region)
    (let* ((seen (exe:perform (desig:an action
                                        (type detecting)
                                        (object (desig:an object (name (object-name ?obj)))))))
           (?arm-property (when seen '(arm right))))
      (exe:perform (desig:an action (type picking-up) ?arm-property (object (first seen)))))))

(defun deliver (?obj col)
  (let ((?target (home-of (object-type ?obj))))
    (go-to (stand-for ?target col) :region ?target :park (> col 0))
    (exe:perform (desig:an action
                           (type placing)
                           (arm right)
                           (desig:when (eq ?target 'board-1) (target (desig:a location (on board-1))))
                           (desig:when (eq ?target 'board-2) (target (desig:a location (on board-2))))
                           (desig:when (eq ?target 'board-3) (target (desig:a location (on board-3))))
                           (desig:when (> col 10) (note far))
                           (desig:when (< col 4) (note near))
                           (desig:when (= col 8) (note middle))))))

(cpl:def-plan main ()
  ;; *delivered* belongs to another file of the system: set before use.
  (setf *delivered* nil)
  (labels ((misplaced (objs)
             (remove-if-home objs))
           (remove-if-home (objs)
             (remove nil objs :test (lambda (ignored o)
                                      (declare (ignore ignored))
                                      (eq (object-region o) (home-of (object-type o)))))))
    (loop for ?obj in (misplaced (all-objects))
          for col = (first (object-cell ?obj))
          maximize col into widest
          do (cpl:with-failure-handling ((plan-failure () (return nil)))
               (cpl:try-in-order
                 (progn (fetch ?obj) (deliver ?obj 8) (push ?obj *delivered*))
                 (roslisp:ros-warn (warehouse) "could not move ~a" ?obj)))
          append (list ?obj) into tried
          finally (return (list (length *delivered*) (length tried) widest)))))

;; Every object must end on the board for its type.
(def-check unsorted ()
  (dolist (?obj (all-objects))
    (unless (eq (object-region ?obj) (home-of (object-type ?obj)))
      (return 'object-not-sorted))))
