//go:build race

package afl_test

// raceEnabled makes TestMain build the target with -race too, so that
// `go test -race` checks the front and the worker, not only the tests.
const raceEnabled = true
