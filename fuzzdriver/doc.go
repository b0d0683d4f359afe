// Package fuzzdriver holds no code: its sub-packages build, run, fuzz,
// measure, report and compare plans, each in one place:
//
//	fuzzdriver/pipeline      builds the plan under test once: original and annotated programs, label counters
//	fuzzdriver/runner        runs one input of a compiled plan: the one Result every verb reads
//	fuzzdriver/outputs       the one output guard every file a verb writes goes through
//	fuzzdriver/engine        the built-in engine (label-blind: counters only)
//	fuzzdriver/afl           AFL++: fork-server front and worker, and afl-fuzz campaigns (counters only)
//	fuzzdriver/campaign      fuzzing plans: setup, targets, coverage meter, replay, either engine
//	fuzzdriver/sample        uniformly random inputs counted per category
//	fuzzdriver/measure       runs tests on original + annotated plans: coverage
//	fuzzdriver/report        renders a measurement (text, JSON, HTML, LCOV)
//	fuzzdriver/gofuzz        go test -fuzz campaigns on Go fuzz targets, measured alike
//	fuzzdriver/compare       grids of campaigns on benchmarks, analysis, plots
//	fuzzdriver/compare/significance  Mann-Whitney U, Vargha-Delaney A12
package fuzzdriver
