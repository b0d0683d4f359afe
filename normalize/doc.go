// Package normalize moves side effects out of the expressions that will
// carry coverage labels, so that a label predicate can re-evaluate the
// operands of a decision or of a mutated expression without changing what
// the program does.
//
// The plan front end (Plan) rewrites only impure label sites — decision
// tests, binary relational and arithmetic calls, binary string= and equal
// (dist's prefix stones), and/or forms — into
// A-normal form: `(let* ((%lc1 …) (%lc2 …)) RESIDUE)` placed exactly where
// the site was, so evaluation order, short-circuiting, later cond clauses
// and re-evaluated while tests behave as before. Operands of label sites
// bigger than BigOperand that are always evaluated are bound to
// temporaries too (labels would copy them: the annotated plan must stay
// linear in the plan), and Result.DeclareGlobals declares the globals of
// labels' shared atoms. Everything else keeps its source text byte for
// byte. Go sources are normalized by package normalize/golang (dst
// trees).
//
// Which elements of a form are expressions comes from the one table of
// special forms (interp/forms), shared with the compiler. Top-level forms
// the compiler skips (forms.File.Skip) are left alone and reported in
// Result.Notes.
//
// This package must never change the behaviour of a program, never
// evaluate anything, and never import the label, compiler or VM packages.
package normalize
