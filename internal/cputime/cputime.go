// Package cputime reads the CPU time of the running process, for
// benchmarks that report CPU time per operation: on a shared machine it is
// far less disturbed than wall time.
package cputime
