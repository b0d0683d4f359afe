;;; warehouse-cpl.lisp -- the warehouse sorting plan of interp/sim's tests,
;;; written the way CRAM writes plans: a package header, qualified CPL
;;; forms, &key and &optional parameters, a local function, loop,
;;; multiple-value-bind, par and try-in-order, designators with a
;;; conditional property, and a macro the label passes leave alone.

(in-package :cram-warehouse-demo)

(defmacro with-logged-step ((name) &body body)
  `(progn (roslisp:ros-info (warehouse) "~a" ',name) ,@body))

(defparameter *targets* '((milk board-1) (cereal board-2) (bowl board-3))
  "The home board of each object type.")

(defun target-region (type)
  (second (assoc type *targets*)))

;; The location in front of REGION closest to column COL.
(defun stand-for (region col)
  (let ((side (cond ((< col 6) 0) ((< col 11) 1) (t 2))))
    (nth side (if (eq region 'table)
                  '(table-left table-center table-right)
                  '(shelf-left shelf-center shelf-right)))))

(cpl:def-cram-function go-to (?loc &key (region 'table) (park t))
  "Park the arms (unless told not to), drive to ?LOC and set the torso for REGION."
  (flet ((torso-for (r)
           (case r
             (board-1 'low)
             (board-3 'high)
             (otherwise 'middle))))
    (cpl:par
      (when park
        (exe:perform (desig:an action (type parking-arms))))
      (exe:perform (desig:an action
                             (type navigating)
                             (location (desig:a location (name ?loc))))))
    (let ((?height (torso-for region)))
      (exe:perform (desig:an action (type moving-torso) (height ?height))))))

(defun fetch (?obj)
  (multiple-value-bind (?region ?cell)
      (values (object-region ?obj) (object-cell ?obj))
    (go-to (stand-for ?region (first ?cell)) :region ?region)
    (let ((seen (exe:perform (desig:an action
                                       (type detecting)
                                       (object (desig:an object (name (object-name ?obj))))))))
      (exe:perform (desig:an action (type picking-up) (arm right) (object (first seen)))))))

(defun deliver (?obj &optional (col 8))
  (let ((?target (target-region (object-type ?obj))))
    (go-to (stand-for ?target col) :region ?target :park (> col 0))
    (exe:perform (desig:an action
                           (type placing)
                           (arm right)
                           (desig:when (eq ?target 'board-3)
                             (target (desig:a location (on ?target))))
                           (desig:when (not (eq ?target 'board-3))
                             (target (desig:a location (on ?target))))))))

(defun logged-delivery (?obj)
  (with-logged-step (delivery)
    (deliver ?obj)))

(cpl:def-plan main ()
  (let ((moved 0))
    (loop for ?obj in (all-objects)
          unless (eq (object-region ?obj) (target-region (object-type ?obj)))
            do (cpl:with-failure-handling ((plan-failure () (return nil)))
                 (cpl:try-in-order
                   (progn (fetch ?obj) (deliver ?obj) (incf moved))
                   (roslisp:ros-warn (warehouse) "could not move ~a" ?obj))))
    moved))

;; Every object must end on the board for its type.
(def-check unsorted ()
  (dolist (?obj (all-objects))
    (unless (eq (object-region ?obj) (target-region (object-type ?obj)))
      (return 'object-not-sorted))))
