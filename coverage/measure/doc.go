// Package measure runs an existing test suite over a plan annotated with
// coverage labels and measures what the suite covers: labels per criterion
// and operator, instructions and branches of the original plan, action
// coverage buckets of a world, and the diversity of label coverage (Hill
// numbers over distinct test traces).
//
// A Measurer measures on a plan under test built once by package
// fuzzdriver/pipeline (the plan annotated in memory, the annotated and the
// original plan compiled once, each active label's counter) and runs both
// programs on every test through package fuzzdriver/runner: .env
// scenarios and raw bytes decoded by a world, raw bytes decoded as 8-byte
// integers per plan parameter without a world (as fuzzing targets
// decode), and .args files of plan literals. A label is covered by a test
// when the run reached it with its predicate true (runner.Result.Labels).
// Tally accumulates what inputs cover — instruction, branch and action
// hits of the original plan, the inputs covering each label — for the
// Measurer and for fuzzing's coverage meter (fuzzdriver/campaign) alike.
//
// With criterion mcdc the Report has the MC/DC of every decision
// (NewMCDCReport, from the covered test-vector labels: executed vectors,
// independence pairs, suggested vectors). Items lists per test what it
// covers (labels, branch outcomes, action buckets, finding categories), and
// Reduce keeps a subset of a suite that covers them all (labelcov reduce;
// gofuzz.Reduce is its Go counterpart); Thresholds and Check are cover's --fail-under gates over a
// report's Figures.
//
// Report is the one coverage report of every front end (one versioned
// JSON schema, docs/report-schema.md; front-end specific parts are
// optional sections): plain data, ready for the renderers of package
// coverage/report and for JSON. FillLabels fills its labels, rows and
// resolution for every front end: the Measurer's runs, FromLabels for
// label coverage measured outside the VM (SBCL's sb-cover, package
// coverage/sbcover) and package coverage/gotest for Go packages.
//
// A Labeler runs environments on the annotated plan alone (the labels each
// covers and reaches), for searches that run many candidates (package
// coverage/resolve's environment search).
//
// It must never write files, print, read the clock or depend on map order:
// identical plan, options and tests give an identical Report. It must never
// panic on a bad test file; such errors name file:line:col.
package measure
