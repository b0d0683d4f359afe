package labels

import (
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/normalize"
)

// A Judge prunes labels while Enumerate lists them: it tells the labels
// that can never hold (Infeasible) or always hold (Trivial) apart, each
// with a reason. Enumerate alone knows only constant predicates and
// short-circuits; the analyses that know more (value ranges, path
// analysis, bounds of a conjunction) live in package labels/feasible,
// whose Enumerate is the one place that puts the two together.
type Judge interface {
	// Predicate judges the (simplified) predicate of a new label:
	// Infeasible or Trivial with a reason, or Active when it cannot tell.
	// On the rungs of a dist ladder it must be monotone in the bound: a
	// rung left active at a closer bound and at a farther one is active
	// at every bound between (Enumerate judges a ladder's two ends and
	// takes the rungs between as active when both are; see distLadder).
	Predicate(p syntax.Node) (Status, string)
	// Combination judges an active MCC label: the conjunction of the
	// decision's atoms, each with the truth value the label asks for.
	// It returns Infeasible with a reason, or Active.
	Combination(lits []Literal) (Status, string)
	// Listed is told of every label that stays active after Predicate
	// (duplicates merged into an earlier label are not), with its
	// predicate, in the order Enumerate lists them.
	Listed(l *Label, p syntax.Node)
	// Done is called once every label is listed; it may mark labels
	// told to Listed that are still active as infeasible.
	Done()
}

// NewJudge makes the Judge of one plan's labels. show renders an operand
// for reasons (a temporary as the source text it holds).
type NewJudge func(res *normalize.Result, show func(syntax.Node) string) Judge

// Literal is one atom of a decision with the truth value a label asks
// for.
type Literal struct {
	Atom  syntax.Node
	Value bool
}
