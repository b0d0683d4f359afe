;;; The script runner (script_test.go) appends this file to every script,
;;; as starlark-go's runner provides assert.star.

;; (failure-kind THUNK) is the kind of the failure calling THUNK signals,
;; or no-failure when THUNK returns. Scripts check an expected failure with
;; (assert (eq (failure-kind (lambda () FORM)) 'KIND)).
(defun failure-kind (thunk)
  (with-failure-handling ((failure (f) (desig-prop f 'kind)))
    (funcall thunk)
    'no-failure))
