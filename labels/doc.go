// Package labels defines coverage labels — predicates at program points —
// for the criteria MCC, CC and weak mutation (ABS, AOR, COR, ROR): their
// enumeration over a normalized plan, the simplification that tells
// trivial and infeasible labels apart, the versioned JSON manifest, and
// the coverage arithmetic (covered/total, Hill diversity numbers).
//
// It is pure data and arithmetic: it must never import the compiler, the
// VM, the simulator or the fuzzers, and never evaluate a plan.
package labels
