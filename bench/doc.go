// Package bench holds labelcov's performance benchmarks against peer
// interpreters written in Go (gopher-lua and starlark-go).
//
// It is a separate module so that the peers never become dependencies of
// the main labelcov module. Every workload exists once per system in
// testdata/ (fib.plan, fib.lua, fib.star, ...); each benchmark is named
// Benchmark<Workload>/system=<system> so that
//
//	benchstat -col /system out.txt
//
// puts the systems side by side. BenchmarkReader compares the plan reader
// (and printer) with go/parser (and go/printer) on same-size inputs: MB/s,
// bytes allocated and peak RSS per source byte. See README.md and run.sh.
package bench
