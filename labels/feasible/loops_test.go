package feasible

import (
	"sort"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/normalize"
)

// loopsPlan has the bounds a loop keeps (retrying, capped, filled) and
// look-alikes that keep none (looping runs the handler's form in a loop,
// early counts after it retries, doubled changes its list twice a test,
// unguarded grows its counter outside the test's branch); it is also
// run by TestLoopVerdictsSound (package feasible_test).
const loopsPlan = `(defparameter *max* 3)
(defun retrying (n)
  (let ((tries 0))
    (with-failure-handling ((oops (e) (incf tries) (when (< tries *max*) (retry)) tries)
                            (other (e) (retry)))
      (when (< tries n) (fail 'oops))
      (when (> tries 3) (fail 'other))
      (list 'ok (= tries 3)))))
(defun looping (n)
  (let ((tries 0))
    (dotimes (i n)
      (with-failure-handling ((oops (e) (incf tries) (when (< tries 2) (retry)) nil))
        (fail 'oops)))
    (list 'looped (= tries 2))))
(defun early (n)
  (let ((k 0))
    (list (with-failure-handling ((oops (e) (when (< k 2) (incf k) (retry)) (incf k) k))
            (when (< k n) (fail 'oops)))
          (= k 2))))
(defun capped (n)
  (let ((c 0))
    (dotimes (i n) (when (< c 5) (incf c)))
    (= c 5)))
(defun unguarded (n)
  (let ((c 0))
    (dotimes (i n) (when (< c 5) 'small) (incf c))
    (= c 5)))
(defun filled (n)
  (let ((l nil))
    (while (and (< (length l) 3) (> n (length l))) (push n l))
    (= (length l) 3)))
(defun doubled (n)
  (let ((l nil))
    (while (and (< (length l) 3) (> n (length l))) (push n l) (push n l))
    (= (length l) 3)))
(def-plan main (a b)
  (list (retrying a) (looping b) (early a) (capped b) (unguarded a) (filled a) (doubled b)))
`

// TestLoopVerdicts: the bounds a retry loop or a guarded change keeps
// rule out the labels that pass them, with the change and its test in
// the reason; the look-alikes keep every label active.
func TestLoopVerdicts(t *testing.T) {
	got := enumerated(t, loopsPlan, "wm:ror", normalize.Options{HoistCalls: true}, Options{})
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	loopy := map[int]int{}
	for _, k := range keys {
		if strings.Contains(got[k], "changed only by") {
			var line int
			for _, c := range strings.TrimPrefix(k, "t.plan:") {
				if c < '0' || c > '9' {
					break
				}
				line = 10*line + int(c-'0')
			}
			loopy[line]++
		}
	}
	for k, want := range map[string]string{
		"t.plan:8:17 = -> >=":  "infeasible no number satisfies tries > 3 and tries <= 3: tries is bound to 0 and changed only by (incf tries) in the handlers of a with-failure-handling it runs once, which retry only where (< tries *max*) held after it: tries <= 3",
		"t.plan:8:17 = -> <=":  "active ",
		"t.plan:4:58 < -> /=":  "infeasible no number satisfies tries > 3 and tries <= 3",
		"t.plan:23:5 = -> >=":  "infeasible no number satisfies c > 5 and c <= 5: c is changed only by (incf c), which runs only right after (< c 5) held (one change per test, nothing loops in between): c <= 5",
		"t.plan:31:5 = -> >=":  "infeasible no number satisfies (length l) > 3 and (length l) <= 3: l is changed only by (push n l), which runs only right after (and (< (length l) 3) (> n (length l))) held (one change per test, nothing loops in between): (length l) <= 3",
		"t.plan:14:19 = -> >=": "active ",
		"t.plan:19:11 = -> >=": "active ",
		"t.plan:27:5 = -> >=":  "active ",
		"t.plan:35:5 = -> >=":  "active ",
	} {
		if g := got[k]; !strings.HasPrefix(g, want) {
			t.Errorf("%s: got %q, want %q...", k, g, want)
		}
	}
	// looping, early, unguarded and doubled keep no bound.
	for _, line := range []int{9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 24, 25, 26, 27, 32, 33, 34, 35} {
		if loopy[line] > 0 {
			t.Errorf("line %d: %d label(s) ruled out by a loop bound it does not keep", line, loopy[line])
		}
	}
}

// LoopsPlan is loopsPlan for TestLoopVerdictsSound.
const LoopsPlan = loopsPlan
