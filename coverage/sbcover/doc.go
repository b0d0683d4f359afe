// Package sbcover turns what SBCL's coverage tool, sb-cover, recorded for
// an annotated plan into labelcov's label coverage report.
//
// A user annotates their Common Lisp plan files (labelcov annotate
// --manifest), builds them in SBCL with (declaim (optimize
// sb-cover:store-coverage-data)), runs their own tests and saves what
// sb-cover recorded with sb-cover:save-coverage-in-file. Every injected
// label is an empty (when (ignore-errors PRED)), which SBCL compiles to a
// conditional whose branches sb-cover records under the source path of its
// test; a label is covered when the "then" branch ran. Read parses the
// saved file (both forms SBCL has written it in), LabelCoverage finds each
// label's branch by walking the annotated plan as SBCL's reader sees it
// (reader conditionals decided by SBCL's features), and Report builds the
// same measure.Report a run in labelcov's VM gives (measure.FromLabels),
// ready for every renderer of coverage/report. See docs/sbcl.md.
//
// The package reads files it is given and nothing else; it never runs
// SBCL. Its tests with a real SBCL are opt-in (LABELCOV_SBCL_TESTS).
package sbcover
