//go:build !race

package afl_test

const raceEnabled = false
