// Package gofuzz runs campaigns of Go's own fuzzer (`go test -fuzz`) on Go
// fuzz targets and measures them the way fuzzdriver measures plan
// campaigns, for labelcov compare's Go grids:
//
//   - Build compiles a target's package into a fuzz-instrumented test binary
//     (`go test -c -fuzz`), optionally through an -overlay of annotated files,
//     and coverage-instrumented binaries for the yardstick.
//   - Run runs one campaign: the binary with -test.fuzz, one fuzzing worker
//     (-test.parallel) per campaign by default, a private fuzz cache
//     (-test.fuzzcachedir) and a private working directory that starts with
//     the package's seed corpus only, for a wall-clock budget. It timestamps
//     go test's progress lines ("fuzz: elapsed: 3s, execs: 12345 (4115/sec),
//     new interesting: ..."), the corpus entries the fuzzer keeps and the
//     failure that ends the session (not go1.26's bare "context deadline
//     exceeded" at the end of -fuzztime, golang/go#75804: the budget's end).
//   - Reproduce replays a failing input on a binary of the ORIGINAL code and
//     names the failure by its site: the file:line of the first stack frame
//     in the target's package (panics), or the position of the t.Error/Fatal
//     call (failures), relative to the module root.
//   - A Yardstick (BuildYardstick) replays the kept corpus with the seeds at
//     chosen times (SampleTimes, Series) on two coverage binaries — the
//     original's blocks, the labels of every criterion — for coverage over
//     time in stats.json samples.
//   - LoadCorpus lists a target's corpus (testdata/fuzz/FuzzX and the fuzz
//     cache); Yardstick.Items runs each entry alone on the yardstick's
//     binaries and says what it covers (labels, blocks of the original,
//     failure site); Reduce keeps a subset covering all of it (greedy set
//     cover, package reduce) and checks it by a joint replay; WriteCorpus
//     writes entries as a package's testdata/fuzz/FuzzX. Generate runs a
//     campaign from a target's suite and keeps the few entries that cover
//     what the suite does not; Replays checks that written entries cover
//     what they were kept for. Directed derives entries from the constants
//     of the labelled packages' relations (DirectedRows, over the seeds read
//     by SeedRows and corpus entries read by ParseEntry), screens them on a
//     coverage binary whose fuzz function recovers from panics, and keeps
//     those that cover what a campaign left.
//   - LoadTruth reads a target's ground truth (truth.json beside its
//     package's sources).
//
// The user's files, GOCACHE fuzz corpora and testdata are never written: a
// campaign writes only under its own directory, WriteCorpus only where it
// is told.
package gofuzz
