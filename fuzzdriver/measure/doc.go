// Package measure runs an existing test suite over a plan annotated with
// coverage labels and measures what the suite covers: labels per criterion
// and operator, instructions and branches of the original plan, action
// coverage buckets of a world, and the diversity of label coverage (Hill
// numbers over distinct test traces).
//
// A Plan is a plan under measurement: the plan annotated in memory once
// (transform.Plan), the annotated and the original plan compiled once, and
// each active label's injected branch. It is built here for every user: a
// Measurer (labelcov cover) and package fuzzdriver's coverage meter, replay
// and compare. A Measurer runs both programs on every test:
// .env scenarios and raw bytes decoded by a world, raw bytes decoded as
// 8-byte integers per plan parameter without a world (sim.DecodeArgs, as
// fuzzdriver.ArgsTarget does), and .args files of plan literals. A label is
// covered by a test when the "test true" counter of its injected (when ...)
// is non-zero after the test; the label's when is found through the
// manifest's annotated position and compile.BranchInfo.Form.
//
// The Report it returns is plain data, ready for the renderers of package
// fuzzdriver/report and for JSON. FromLabels builds the same Report from
// label coverage measured outside the VM (SBCL's sb-cover, package
// fuzzdriver/sbcover), through the same label and criteria arithmetic. For Go packages, NewGoReport turns what
// transform/golang.Measure found into a GoReport, with the same counts,
// percentages, operator order and rounded Hill numbers.
//
// It must never write files, print, read the clock or depend on map order:
// identical plan, options and tests give an identical Report. It must never
// panic on a bad test file; such errors name file:line:col.
package measure
