package vm

import (
	"strings"
	"testing"
)

func TestKindTree(t *testing.T) {
	for _, c := range []struct {
		kind, ancestor string
		want           bool
	}{
		{"grasping-failure", "manipulation-failure", true},
		{"grasping-failure", "plan-failure", true},
		{"grasping-failure", "failure", true},
		{"grasping-failure", "error", false},
		{"placing-failure", "grasping-failure", false},
		{"division-by-zero", "error", true},
		{"division-by-zero", "arithmetic-error", true},
		{"type-error", "plan-failure", false},
		{"my-invented-kind", "plan-failure", true},
		{"my-invented-kind", "error", false},
		{"stack-overflow", "failure", true},
		{KindTimeout, "failure", false},
		{KindCanceled, "failure", false},
		{"failure", "failure", true},
	} {
		if got := IsKind(c.kind, c.ancestor); got != c.want {
			t.Errorf("IsKind(%s, %s) = %v, want %v", c.kind, c.ancestor, got, c.want)
		}
	}
}

func TestFailureHandling(t *testing.T) {
	runFormCases(t, []formCase{
		{"handled-value", "", "(with-failure-handling ((grasping-failure (f) 'recovered)) (fail 'grasping-failure \"slipped\") 'not-here)", "recovered"},
		{"no-failure", "", "(with-failure-handling ((failure (f) 'handler)) 1 2)", "2"},
		{"kind-descent", "", "(with-failure-handling ((manipulation-failure (f) (desig-prop f 'kind))) (fail 'object-unreachable \"far\"))", "object-unreachable"},
		{"first-matching-clause", "", "(with-failure-handling ((navigation-failure (f) 'nav) (plan-failure (f) 'plan) (failure (f) 'any)) (fail 'placing-failure))", "plan"},
		{"message", "", "(with-failure-handling ((failure (f) (desig-prop f 'message))) (fail 'oops \"~a items at ~s\" 3 'table))", `"3 items at table"`},
		{"failure-value-prints", "", "(with-failure-handling ((failure (f) f)) (fail 'oops \"m\"))", `(a failure (kind oops) (message "m"))`},
		{"no-var", "", "(with-failure-handling ((failure () 'caught)) (fail 'x))", "caught"},
		{"nil-var", "", "(with-failure-handling ((failure nil 'caught)) (fail 'x))", "caught"},
		{"unmatched-propagates", "", "(with-failure-handling ((navigation-failure (f) 'nav)) (fail 'grasping-failure))", "FAIL grasping-failure"},
		{"error-not-plan-failure", "", "(with-failure-handling ((plan-failure (f) 'plan)) (car 1))", "FAIL type-error"},
		{"error-caught-as-error", "", "(with-failure-handling ((error (f) (desig-prop f 'kind))) (/ 1 0))", "division-by-zero"},
		{"invented-kind-is-plan-failure", "", "(with-failure-handling ((plan-failure (f) 'ok)) (fail 'cup-is-hot))", "ok"},
		{"nested-inner", "", "(with-failure-handling ((failure (f) 'outer)) (with-failure-handling ((grasping-failure (f) 'inner)) (fail 'grasping-failure)))", "inner"},
		{"nested-outer", "", "(with-failure-handling ((failure (f) 'outer)) (with-failure-handling ((grasping-failure (f) 'inner)) (fail 'navigation-failure)))", "outer"},
		{"handler-failure-goes-out", "", "(with-failure-handling ((failure (f) (list 'outer (desig-prop f 'kind)))) (with-failure-handling ((failure (f) (fail 'from-handler))) (fail 'first)))", "(outer from-handler)"},
		{"handler-not-reentered", "", "(with-failure-handling ((failure (f) (fail 'again))) (fail 'first))", "FAIL again"},
		{"across-calls", "(defun grasp (n) (if (> n 0) (grasp (- n 1)) (fail 'grasping-failure \"deep\")))", "(list (with-failure-handling ((grasping-failure (f) 'caught)) (grasp 20)) 'after)", "(caught after)"},
		{"stack-restored", "(defun boom () (fail 'x))", "(list 1 2 (with-failure-handling ((failure (f) 3)) (list 9 9 (boom))) 4)", "(1 2 3 4)"},
		{"retry", "", "(let ((tries 0)) (with-failure-handling ((failure (f) (incf tries) (if (< tries 3) (retry) (list 'gave-up tries)))) (fail 'flaky)))", "(gave-up 3)"},
		{"retry-succeeds", "", "(let ((n 0)) (with-failure-handling ((grasping-failure (f) (retry))) (incf n) (when (< n 4) (fail 'grasping-failure)) (list 'ok n)))", "(ok 4)"},
		{"retry-in-expression", "", "(let ((n 0)) (with-failure-handling ((failure (f) (list 1 2 (when (< n 2) (retry))))) (incf n) (fail 'x)))", "(1 2 nil)"},
		{"retry-through-inner-handler", "", "(let ((n 0)) (with-failure-handling ((failure (f) (with-failure-handling ((navigation-failure (g) 'inner)) (when (< n 2) (retry)) (list 'done n)))) (incf n) (fail 'x)))", "(done 2)"},
		{"retry-after-inner-unhandle", "", "(let ((n 0)) (with-failure-handling ((failure (f) (if (< n 3) (retry) n))) (incf n) (with-failure-handling ((navigation-failure (g) 'no)) (fail 'grasp))))", "3"},
		{"retry-forever-times-out", "", "(with-failure-handling ((failure (f) (retry))) (fail 'x))", "TIMEOUT"},
		{"return-out-of-handler-body", "", "(dotimes (i 5 'end) (with-failure-handling ((failure (f) 'h)) (when (= i 2) (return (list 'left i)))))", "(left 2)"},
		{"return-then-fail-uses-outer", "", "(with-failure-handling ((failure (f) 'outer)) (dotimes (i 1) (with-failure-handling ((navigation-failure (f) 'inner)) (return 1))) (fail 'x))", "outer"},
		{"loop-in-handler", "", "(with-failure-handling ((failure (f) (let ((s 0)) (dotimes (i 3) (incf s i)) s))) (fail 'x))", "3"},
		{"stack-overflow-caught", "(defun down (n) (+ 1 (down (+ n 1))))", "(with-failure-handling ((stack-overflow (f) 'deep)) (down 0))", "deep"},
		{"fail-bad-kind", "", "(fail \"kind\")", "FAIL type-error"},
		{"fail-no-message", "", "(with-failure-handling ((failure (f) (desig-prop f 'message))) (fail 'x))", `""`},
	})
}

func TestUnhandledFailureReport(t *testing.T) {
	src := "(defun grasp ()\n  (fail 'grasping-failure \"cup slipped\"))\n(def-plan main () (grasp))"
	r, _, _ := runMain(t, src, Config{})
	if r.Outcome != OutcomeFailure {
		t.Fatalf("outcome %s", r.Outcome)
	}
	f := r.Failure
	if f.Kind != "grasping-failure" || f.Message != "cup slipped" {
		t.Errorf("failure %+v", f)
	}
	if f.File != "test.plan" || f.Pos.Line != 2 || f.Pos.Col != 3 {
		t.Errorf("position %s:%s, want test.plan:2:3", f.File, f.Pos)
	}
	if got := f.Error(); got != "test.plan:2:3: grasping-failure: cup slipped" {
		t.Errorf("Error() = %q", got)
	}
}

func TestRuntimeErrorPosition(t *testing.T) {
	r, _, _ := runMain(t, "(def-plan main ()\n  (let ((x 0))\n    (/ 10 x)))", Config{})
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "division-by-zero" {
		t.Fatalf("got %s %+v", r.Outcome, r.Failure)
	}
	if r.Failure.Pos.Line != 3 || r.Failure.Pos.Col != 5 {
		t.Errorf("position %s, want 3:5", r.Failure.Pos)
	}
	if !strings.Contains(r.Failure.Message, "10") {
		t.Errorf("message %q does not name the dividend", r.Failure.Message)
	}
}

func TestTimeoutKindNotCatchableByName(t *testing.T) {
	r, _, _ := runMain(t, "(def-plan main () (with-failure-handling ((timeout (f) 'caught)) (while t)))", Config{MaxSteps: 300})
	if r.Outcome != OutcomeTimeout {
		t.Errorf("got %s %v", r.Outcome, r.Value)
	}
	r, _, _ = runMain(t, "(def-plan main () (with-failure-handling ((timeout (f) 'caught)) (fail 'timeout)))", Config{MaxSteps: 300})
	if r.Outcome != OutcomeFailure || r.Failure.Kind != "type-error" {
		t.Errorf("a plan signalling timeout: got %s %+v", r.Outcome, r.Failure)
	}
}
