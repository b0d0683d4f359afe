// Package transform injects coverage labels into a plan as empty
// conditionals, so that a stock branch-coverage fuzzer (or the VM's own
// branch counters) sees each label as a branch: the label is covered when
// the test of its (when PRED) was true at least once.
//
// It splices text: every byte of the input outside the rewritten forms is
// kept, comments included. Plan composes normalize, labels with its
// analyses (feasible.Enumerate) and Annotate; Enumerate is its first two
// stages alone (labelcov labels). The Go front end is package
// transform/golang, which edits dst trees instead.
//
// It must never change what the plan does: injected predicates are pure
// (normalize saw to that) and wrapped in ignore-errors, so they can
// neither fail nor have effects. The one exception is the probe that
// evaluates a decision's shared atoms (labels.SharedAtoms): it assigns
// globals of its own, which only labels read.
package transform
