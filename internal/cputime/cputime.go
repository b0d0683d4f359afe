// Package cputime reads the CPU time of the running process, for
// benchmarks that report CPU time per operation: on a shared machine it is
// far less disturbed than wall time.
package cputime

import "testing"

// Measure runs fn, which does b.N operations, as the timed part of a
// benchmark and reports CPU time per operation (cpu-ns/op) beside ns/op.
func Measure(b *testing.B, fn func() error) {
	t0, ok0 := Process()
	b.ResetTimer()
	if err := fn(); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	if t1, ok1 := Process(); ok0 && ok1 && b.N > 0 {
		b.ReportMetric(float64(t1-t0)/float64(b.N), "cpu-ns/op")
	}
}
