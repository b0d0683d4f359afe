// Package testenv decides which optional parts of the test suite run on this
// machine. `go test ./...` must pass on a fresh clone with no network and
// neither AFL++ nor SBCL installed, so tests that need one are opt-in
// through an environment variable; .ci/run installs what they need and
// opts in.
//
// Slurm's tests submit to a cluster, one they start themselves when none
// is named (slurm.go).
//
// Opting in is a promise: a test that was asked to run and finds its tool
// missing fails instead of skipping, so a CI that lost afl++ says so.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

const (
	// AFLVar opts in to tests that exec AFL++'s programs (afl-fuzz,
	// afl-showmap, afl-cc).
	AFLVar = "LABELCOV_AFL_TESTS"
	// NetworkVar opts in to tests that reach the network (the Go module
	// proxy).
	NetworkVar = "LABELCOV_NETWORK_TESTS"
	// ClangVar opts in to tests that exec clang-19 and its llvm-cov
	// (MC/DC cross-checks).
	ClangVar = "LABELCOV_CLANG_TESTS"
	// FormatsVar opts in to tests that read labelcov's reports back with
	// the tools CI services use (diff-cover for Cobertura XML) and validate
	// them against their formats' schemas (SARIF with Microsoft's SARIF
	// Multitool and ajv, npm packages installed globally).
	FormatsVar = "LABELCOV_FORMAT_TESTS"
	// SBCLVar opts in to tests that run SBCL (compile-file, ASDF,
	// sb-cover) on annotated plans.
	SBCLVar = "LABELCOV_SBCL_TESTS"
	// LongVar opts in to the long forms of tests whose default form is a
	// sample: soundness sweeps over many generated plans, documented
	// campaigns at their full length, end-to-end grids that build and fuzz
	// several Go overlays. The default `go test ./...` stays within two
	// minutes on two cores; .ci/run sets LongVar, so every check still runs
	// in CI.
	LongVar = "LABELCOV_LONG_TESTS"
)

// enabled reports whether the environment variable name asks for its tests.
func enabled(name string) bool {
	v := os.Getenv(name)
	return v != "" && v != "0" && v != "false"
}

// Long skips t unless LongVar is set: for tests that have no meaningful
// short form (a whole `go test -fuzz` grid, a campaign that must run for
// its documented minute).
func Long(t testing.TB) {
	t.Helper()
	if !enabled(LongVar) {
		t.Skipf("long test: set %s=1 to run (.ci/run does)", LongVar)
	}
}

// Sized returns n normally and long when LongVar is set: the number of
// generated cases a sweep checks. The default run checks a sample from the
// same generator and seeds as the long run (its first n cases), so what
// the long run would catch first the default run catches too.
func Sized(short, long int) int {
	if enabled(LongVar) {
		return long
	}
	return short
}

// IsLong reports whether LongVar is set.
func IsLong() bool { return enabled(LongVar) }

// AFL skips t unless AFLVar is set; when it is set, it returns the paths of
// the named AFL++ programs and fails t if one is not on PATH.
func AFL(t testing.TB, programs ...string) []string {
	t.Helper()
	if !enabled(AFLVar) {
		t.Skipf("needs AFL++: set %s=1 to run (Debian: apt-get install afl++; .ci/run does both)", AFLVar)
	}
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("%s=1 but %s is not on PATH (Debian: apt-get install afl++): %v", AFLVar, p, err)
		}
		paths[i] = path
	}
	return paths
}

// Network skips t unless NetworkVar is set.
func Network(t testing.TB) {
	t.Helper()
	if !enabled(NetworkVar) {
		t.Skipf("needs the network: set %s=1 to run", NetworkVar)
	}
}

// Clang skips t unless ClangVar is set; when it is set, it returns the
// paths of the named programs (clang-19, llvm-profdata-19, llvm-cov-19) and
// fails t if one is not on PATH.
func Clang(t testing.TB, programs ...string) []string {
	t.Helper()
	if !enabled(ClangVar) {
		t.Skipf("needs clang-19 and llvm-19: set %s=1 to run (Debian: apt-get install clang-19 llvm-19; .ci/run does both)", ClangVar)
	}
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("%s=1 but %s is not on PATH (Debian: apt-get install clang-19 llvm-19): %v", ClangVar, p, err)
		}
		paths[i] = path
	}
	return paths
}

// formatsInstall says how to install what FormatsVar's tests run.
const formatsInstall = "Debian: apt-get install diff-cover nodejs npm; npm install -g @microsoft/sarif-multitool@5.7.0 ajv@8 ajv-formats@3"

// Formats skips t unless FormatsVar is set; when it is set, it returns the
// paths of the named programs and fails t if one is not on PATH.
func Formats(t testing.TB, programs ...string) []string {
	t.Helper()
	if !enabled(FormatsVar) {
		t.Skipf("needs report consumers: set %s=1 to run (%s; .ci/run does both)", FormatsVar, formatsInstall)
	}
	paths := make([]string, len(programs))
	for i, p := range programs {
		path, err := exec.LookPath(p)
		if err != nil {
			t.Fatalf("%s=1 but %s is not on PATH (%s): %v", FormatsVar, p, formatsInstall, err)
		}
		paths[i] = path
	}
	return paths
}

// SBCL skips t unless SBCLVar is set; when it is set, it returns the path
// of sbcl and fails t if it is not on PATH.
func SBCL(t testing.TB) string {
	t.Helper()
	if !enabled(SBCLVar) {
		t.Skipf("needs SBCL: set %s=1 to run (Debian: apt-get install sbcl; .ci/run does both)", SBCLVar)
	}
	path, err := exec.LookPath("sbcl")
	if err != nil {
		t.Fatalf("%s=1 but sbcl is not on PATH (Debian: apt-get install sbcl): %v", SBCLVar, err)
	}
	return path
}
