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

// A handler that always retries runs until the step budget ends it (the
// language tests of failure handling are in
// ../compile/testdata/scripts/failures.plan).
func TestRetryForeverTimesOut(t *testing.T) {
	if got := eval(t, "", "(with-failure-handling ((failure (f) (retry))) (fail 'x))"); got != "TIMEOUT" {
		t.Errorf("got %s, want TIMEOUT", got)
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
