package afl_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// targetPath is the synthetic target (testdata/synthtarget), built once per
// test run: a program shaped like `labelcov afl-target`, linking only the
// adapter and the synthetic executor, so that what afl-fuzz inspects and
// runs is what a real target would be.
var targetPath string

// Environment understood by the synthetic target.
const (
	countersEnv = "AFLTEST_COUNTERS"
	tricksEnv   = "AFLTEST_TRICKS"
	noSizerEnv  = "AFLTEST_NOSIZER"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "afl-synthtarget-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	targetPath = filepath.Join(dir, "synthtarget")
	args := []string{"build", "-o", targetPath}
	if raceEnabled {
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, "./testdata/synthtarget")...)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the synthetic target:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
