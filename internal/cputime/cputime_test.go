package cputime

import (
	"runtime"
	"testing"
)

func TestProcessAdvances(t *testing.T) {
	t0, ok := Process()
	if !ok {
		t.Skip("no CPU time on " + runtime.GOOS)
	}
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i ^ x
	}
	if t1, _ := Process(); t1 < t0 {
		t.Errorf("CPU time went back: %v then %v (%d)", t0, t1, x)
	}
}
