// Package gotest runs the tests of Go packages annotated by
// transform/golang — or one fuzz target over its seed and generated
// corpus — and measures what they cover: Measure runs `go test` with a
// coverage profile on a copy of the module with the annotated files in
// place (go test -cover ignores -overlay, golang/go#73802) and on the
// original, reads the profiles with golang.org/x/tools/cover and maps
// each label's body block back to its label (LabelHits); with PerTest it
// runs every test (with a fuzz target, every corpus entry) alone, for
// which test covers each label and diversity numbers (RunAlone runs a
// coverage test binary on one test or, with EntryPattern, one corpus
// entry; RunCorpus on a whole corpus). A fuzz target runs in its
// package directory of a module copy; the entries it fails on are skipped
// and listed. NewReport turns a Measurement into the Report that
// `labelcov cover PACKAGES` prints (coverage/report renders it), with
// the counts, percentages, operator order and Hill numbers of the plan
// report (coverage/measure); Cover composes annotate, measure and
// report.
//
// It never writes into the user's module: every go command that writes
// runs in a scratch copy under Options.Work.
package gotest
