// Package forms is the one table of the plan language's special forms:
// for each, which of its elements are evaluated expressions (its shape),
// what it can do beyond evaluating them (its effect), and whether it
// belongs at the top level. The compiler (interp/compile) attaches a code
// generator to each entry; normalize and labels walk the slots and read
// the effects from here, so the two can never disagree about where the
// expressions of a form are.
//
// Name decides when two spellings of an operator are the same: case is
// folded and the prefixes of CPL's and Common Lisp's own packages (cpl:,
// desig:, cl:, roslisp:, ...) are dropped, so cpl:par is par.
//
// It also holds the one top-level declaration the two sides share:
// normalize writes #+labelcov (declaim (labelcov-temporaries "PREFIX")) into a plan
// whose temporaries it introduced (TempsHead), and the compiler reads it
// (TempsDeclared) to make binding and reading them cost no step.
//
// The package only reads syntax trees; it never evaluates anything and
// imports nothing but interp/syntax.
package forms
