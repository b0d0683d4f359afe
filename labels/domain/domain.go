// Package domain holds what a caller knows of the results (numbers and
// symbols) of the functions a plan calls (the simulator's queries), for label pruning
// (feasible.Options.Domains), and of the failures its actions and queries
// may signal (Signals, feasible.Options.Signals). It imports only the
// standard library, so the simulator describes its world
// (sim.LabelDomains, sim.LabelSignals) without importing the label
// packages.
package domain

import "fmt"

// Range is a closed interval of numbers.
type Range struct{ Lo, Hi float64 }

func (r Range) String() string { return fmt.Sprintf("[%g, %g]", r.Lo, r.Hi) }

// Domain is what is known of a function's numeric results: labels that
// cannot hold within it are infeasible.
type Domain struct {
	// Value is the range of a numeric result; nil when the result is not
	// a number or its range is unknown.
	Value *Range
	// Elems are the ranges of the elements of a list result, by position:
	// (first (object-cell o)) lies in Elems[0].
	Elems []Range
	// Symbols, when not nil, are the only non-numbers the function
	// returns, all symbols ("nil" for nil, "t" for t): the world's
	// regions, locations, object types, ... Without Value the result is
	// never a number.
	Symbols []string
	// FailsOnNil: a call whose first argument is nil signals a failure
	// (an object query given no object).
	FailsOnNil bool
	// Why says where the domain comes from, for reasons ("the world's
	// grids").
	Why string
}
