// Package campaign fuzzes plans: a Setup (plan, world, guiding criteria,
// yardstick, limits) is built once into a Fuzzer through package
// fuzzdriver/pipeline, which hands out what the engines consume — targets
// running inputs through package fuzzdriver/runner (bytes -> environment
// or parameters -> run -> counters and findings), the AFL++ executor, the
// coverage Meter of kept inputs (counted with measure.Tally, as cover
// counts) — and runs campaigns on either engine: the built-in one
// (package fuzzdriver/engine) or AFL++ (package fuzzdriver/afl, driven
// through a versioned worker description, Worker, that `labelcov
// afl-target --setup` reads back). It also replays inputs as a campaign
// runs them (Replay) and reads input files (.env, .args, raw bytes).
// Generate extends a plan's test suite with campaign inputs that cover
// what it misses (labelcov gentests; gofuzz.Generate is its Go
// counterpart).
//
// Files: setup.go (Setup, Build, label modes), targets.go (targets, each
// with the annotation's map of positions), meter.go,
// replay.go, inputs.go (input files, the world's hooks), campaign.go
// (Fuzz, the built-in engine's campaign, Summary), afl.go (the AFL++
// engine's campaign and the worker description), generate.go (Generate).
//
// Findings of annotated plans are keyed by positions in the original
// plan, so that campaigns guided by different criteria compare: the map
// the annotation made (pipeline.Annotated.Positions) names them, the
// original plan never reruns an input to learn them; a fuzz process
// compiles each program once.
package campaign
