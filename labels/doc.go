// Package labels defines coverage labels — predicates at program points —
// for the criteria MCC, CC, weak mutation (ABS, AOR, COR, ROR) and the
// dist stepping stones towards exact relations: their enumeration over a
// normalized plan, the merging of identical labels evaluated together,
// the simplification and the value analysis (an interval analysis of the
// plan's own arithmetic, values.go, fed also by Options.Domains) and the
// path analysis (a symbolic execution of whole runs of loop-free plans,
// paths.go, with a Fourier–Motzkin solver over int64 rationals, fm.go and
// rat.go) that tell trivial and
// infeasible labels apart, the versioned JSON
// manifest, and the coverage arithmetic (covered/total, Hill diversity
// numbers).
//
// It is pure data and arithmetic: it must never import the compiler, the
// VM, the simulator or the fuzzers, and never evaluate a plan.
package labels
