// Package fuzzdriver holds no code: its sub-packages build, run and fuzz
// plans (and Go fuzz targets), each in one place:
//
//	fuzzdriver/pipeline   builds the plan under test once: original and annotated programs, label counters
//	fuzzdriver/runner     runs one input of a compiled plan: the one Result every verb reads
//	fuzzdriver/outputs    the one output guard every file a verb writes goes through
//	fuzzdriver/engine     the built-in engine (label-blind: counters only)
//	fuzzdriver/afl        AFL++: fork-server front and worker, and afl-fuzz campaigns (counters only)
//	fuzzdriver/campaign   fuzzing plans: setup, targets, coverage meter, replay, either engine
//	fuzzdriver/sample     uniformly random inputs counted per category
//	fuzzdriver/reduce     greedy set cover of inputs over coverage items
//	fuzzdriver/gofuzz     go test -fuzz campaigns on Go fuzz targets, measured alike
//	fuzzdriver/subject    the front end of the suite verbs (plan, Go packages, sb-cover record)
//	fuzzdriver/planverbs  the front end of the verbs on one plan: run, replay, sample, env, fmt, disasm
//
// What inputs cover and its reports live in coverage/ (measure, gotest,
// sbcover, resolve, report); comparisons of criteria in experiments/
// (compare). See docs/architecture.md.
package fuzzdriver
