// Package fuzzdriver fuzzes plans: it turns a plan, a world and criteria into
// targets (bytes -> environment or parameters -> run -> counters and
// findings), and runs campaigns on them with either engine — the built-in
// one (package fuzzdriver/engine) or AFL++ (afl-fuzz driving `labelcov
// afl-target`, package fuzzdriver/afl) — both returning an engine.Summary.
// It also replays inputs (Replay), measures the label coverage of kept
// inputs on the yardstick criteria (Meter), and samples outcome categories
// of random inputs (SampleCategories).
//
// The sub-packages keep fuzzing, measuring, reporting and comparing apart:
//
//	fuzzdriver/engine        the built-in engine (label-blind: counters only)
//	fuzzdriver/afl           AFL++ fork-server front and worker (counters only)
//	fuzzdriver/measure       runs tests on original + annotated plans: coverage
//	fuzzdriver/report        renders a measurement (text, JSON, HTML, LCOV)
//	fuzzdriver/gofuzz        go test -fuzz campaigns on Go fuzz targets, measured alike
//	fuzzdriver/compare       grids of campaigns on benchmarks, analysis, plots
//	fuzzdriver/compare/significance  Mann-Whitney U, Vargha-Delaney A12
package fuzzdriver
