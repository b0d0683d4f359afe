// Package coverage holds no code: its sub-packages measure what inputs
// cover and report it, one front end each, all through labels' one
// figure per criterion:
//
//	coverage/measure   a plan's tests on the plan under test (labels, branches, actions), reduction
//	coverage/gotest    Go packages' tests or a fuzz target's corpus (coverprofiles)
//	coverage/sbcover   SBCL's sb-cover records, through the plan's label manifest
//	coverage/resolve   every uncovered label of a plan: covered, infeasible or unresolved (z3)
//	coverage/report    text, JSON, HTML, LCOV, Cobertura and SARIF renderings
//
// It never fuzzes (fuzzdriver does) nor compares criteria (experiments
// does). See docs/architecture.md.
package coverage
