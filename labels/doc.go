// Package labels defines coverage labels — predicates at program points —
// for the criteria MCC, CC, weak mutation (ABS, AOR, COR, ROR) and the
// dist stepping stones towards exact relations (ladders on numeric
// relations, prefix stones on string equalities): the criteria, the label
// records, their enumeration over a normalized plan (enumerate.go: the
// merging of identical labels evaluated together, predicates simplified
// by constant folding), the definitions every front end shares (the
// relations and their mutants, the MCC combinations, the dist ladder and
// the prefix stones' lengths),
// the versioned JSON manifest, and the coverage arithmetic
// (covered/total, Hill diversity numbers).
//
// It is pure data and arithmetic: it never analyses a plan beyond
// constant predicates and short-circuits. The analyses that tell more
// trivial and infeasible labels apart live in package labels/feasible,
// which plugs into Enumerate through a Judge; feasible.Enumerate is the
// one place that composes the two. labels must never import the compiler,
// the VM, the simulator or the fuzzers, and never evaluate a plan.
package labels
