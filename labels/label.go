package labels

import (
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Status says whether a label is injected.
type Status string

const (
	// Active labels are injected and counted.
	Active Status = "active"
	// Trivial labels hold whenever their point is reached: listed, not injected.
	Trivial Status = "trivial"
	// Infeasible labels can never hold: listed, not injected.
	Infeasible Status = "infeasible"
	// Skipped labels could hold but are not injected, for a reason of
	// size: a predicate that would copy a large operand, or a point
	// nested so deep that the annotated plan would exceed the reader's
	// nesting limit.
	Skipped Status = "skipped"
)

// Position is a place in a source file (1-based line and byte column,
// 0-based byte offset): the one position type, srcpos.Pos.
type Position = srcpos.Pos

// PositionOf converts a syntax position in file.
func PositionOf(file string, p syntax.Pos) Position {
	return Position{File: file, Line: p.Line, Col: p.Col, Offset: p.Offset}
}

// Label is one test objective: a predicate evaluated at a program point.
type Label struct {
	// ID numbers active labels 1, 2, ... in source order; 0 otherwise.
	ID        int `json:"id"`
	Criterion Key `json:"criterion"`
	// Operator says which outcome or mutant the label stands for: "TF"
	// (MCC: first atom true, second false), "true"/"false" (CC),
	// "< -> <=" (ROR), "+ -> *" (AOR), "and -> or" (COR), "x -> 0" (ABS).
	Operator string `json:"operator"`
	// Predicate is the plan expression injected as (when (ignore-errors P)).
	Predicate string `json:"predicate"`
	// Expr is Predicate with normalize's temporaries written as the source
	// expressions they hold — (< (board-level r) 0) for (< %lc3 0) — for
	// reports; empty when Predicate has no temporary. Each substituted
	// expression is cut like Source.
	Expr string `json:"expr,omitempty"`
	// Guard is the domain the predicate assumes, e.g. (numberp x). It is
	// enforced by ignore-errors: every numeric builtin fails on a
	// non-number, so outside the domain the label is simply false.
	Guard  string `json:"guard,omitempty"`
	Status Status `json:"status"`
	// Reason explains a trivial or infeasible status.
	Reason string `json:"reason,omitempty"`
	// Pos is the original source position the label is about: the atom
	// (CC), the decision (MCC), the mutated expression or variable (WM).
	Pos Position `json:"pos"`
	// Also lists the other original positions this label stands for: an
	// identical label (same criterion, predicate and guard) at another
	// point evaluated together with Pos, with the same variable values —
	// ABS on a variable written twice in one expression. Merged labels are
	// injected once, at Pos.
	Also []Position `json:"also,omitempty"`
	// Source is the original text at Pos (one line, at most 80 bytes), so
	// that a label on a temporary such as %lc3 still reads as (> x 0).
	Source string `json:"source,omitempty"`
	// Annotated is the position of the '(' of the injected (when ...) in
	// the annotated plan (the manifest's "annotated" file, so no file name
	// here); the compiler's BranchInfo.Form of that when.
	Annotated *Position `json:"annotated,omitempty"`

	// Point is the node of the normalized tree before which the label is
	// evaluated (nil for labels read from a manifest). Depth is how deeply
	// the predicate nests (normalize.Depth, at most syntax.MaxDepth + 1),
	// which is all the annotator needs of its tree: the tree itself is not
	// kept, since a plan has a million labels where it has a few MB of
	// text, and Predicate is its rendering.
	Point syntax.Node `json:"-"`
	Depth int         `json:"-"`
	// Shared, for an MCC label, is the probe that computes the atoms it
	// reads (nil when the label evaluates its atoms itself).
	Shared *SharedAtoms `json:"-"`
}

// Counts tallies labels by status.
type Counts struct {
	Active     int `json:"active"`
	Trivial    int `json:"trivial"`
	Infeasible int `json:"infeasible"`
	Skipped    int `json:"skipped,omitempty"`
}

// CountStatuses counts labels per criterion key; every key of c is present.
func CountStatuses(c Criteria, ls []*Label) map[Key]*Counts {
	out := map[Key]*Counts{}
	for _, k := range c.Keys() {
		out[k] = &Counts{}
	}
	for _, l := range ls {
		s := out[l.Criterion]
		if s == nil {
			s = &Counts{}
			out[l.Criterion] = s
		}
		switch l.Status {
		case Active:
			s.Active++
		case Trivial:
			s.Trivial++
		case Infeasible:
			s.Infeasible++
		case Skipped:
			s.Skipped++
		}
	}
	return out
}
