package testenv

import (
	"os/exec"
	"strings"
	"testing"
)

// NeedGo skips t when the go command is not on PATH (the Go front end's
// tests run it).
func NeedGo(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
}

// RunGoTest runs go test -count=1 in dir with args and returns its
// combined output.
func RunGoTest(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", append([]string{"test", "-count=1"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// GoTest is RunGoTest that fails t when the tests fail.
func GoTest(t testing.TB, dir string, args ...string) string {
	t.Helper()
	out, err := RunGoTest(dir, args...)
	if err != nil {
		t.Fatalf("go test %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}
