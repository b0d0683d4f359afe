package testenv

import (
	"os/exec"
	"testing"
)

// SMTVar opts in to tests that run the z3 SMT solver (labels/solve,
// gentests --solve).
const SMTVar = "LABELCOV_SMT_TESTS"

// SMT skips t unless SMTVar is set; when it is set, it returns the path of
// z3 and fails t if it is not on PATH.
func SMT(t testing.TB) string {
	t.Helper()
	if !enabled(SMTVar) {
		t.Skipf("needs z3: set %s=1 to run (Debian: apt-get install z3; .ci/run does both)", SMTVar)
	}
	path, err := exec.LookPath("z3")
	if err != nil {
		t.Fatalf("%s=1 but z3 is not on PATH (Debian: apt-get install z3): %v", SMTVar, err)
	}
	return path
}
