// Package golang is the Go front end of normalize: it moves side effects
// and expressions that could panic out of the places that will carry
// coverage labels in Go source held as dst trees (github.com/dave/dst), so
// that a label predicate can re-evaluate the operands of a decision or of a
// mutated expression without changing what the program does.
//
// File rewrites, inside every function body:
//
//   - calls (other than conversions and the pure builtins len, cap, min,
//     max, real, imag, complex), channel receives, type assertions, slice
//     expressions, method values and == / != on interfaces, structs or
//     arrays in a decision (if, for, switch) or — with Options.Statements —
//     in a simple statement are saved in temporaries (lc1, lc2, ... ; the
//     prefix grows when the package already uses it) declared just before
//     the statement, in evaluation order;
//   - under && and || the right operand's hoisted code runs only when the
//     original would evaluate it (conditional extraction), and every atom
//     (maximal operand that is not &&, || or !) keeps a bool temporary of
//     its own in the statement's scope, so labels see each atom:
//     `if a && f(x) > 0` becomes
//     `lc1 := a; var lc3 bool; if lc1 { lc2 := f(x); lc3 = lc2 > 0 }; if lc1 && lc3`;
//     a temporary of an operand the original did not evaluate stays false
//     (Result.Lazy). Trees over named boolean types keep an older form in
//     which a compound right operand is one temporary;
//   - with Options.Statements (an operator) or Options.Decisions (&& or
//     ||), simple statements are normalized the same way; a grouped var
//     declaration of several specs first becomes one declaration a spec,
//     so code hoisted out of a later spec can read the names of earlier
//     ones;
//   - a decision that needs a slot before it (hoisted code, or labels, as
//     Options.Slot says) is restructured: `if init; c` becomes
//     `{ init; if c }`, `else if c` becomes `else { if c }`, `switch init; t`
//     becomes `{ init; switch t }`, and `for init; c; post { body }` becomes
//     `for init; ; post { if !(c) { break }; body }` so the condition — and
//     the code in front of it — runs before every iteration.
//
// In a function with goto, what is hoisted in front of a statement that a
// goto target follows in its block goes into a block with it, and a
// statement labelled L that goto jumps to becomes `L: { …; st }`: no goto
// jumps over a new declaration, and goto L runs the hoisted code again.
// Such a statement that itself declares and would need hoisting is left
// alone. Also left alone: switches with fallthrough whose
// case expressions have effects, statements whose rewrite could not keep
// their types (multi-value calls among other calls, && or || over named
// boolean types outside conditions). Result.Skipped lists them so label
// enumeration can leave them unlabelled.
//
// Normalization alone never changes behaviour: Go evaluates the calls of
// an expression before it reads its variables, and that is the order
// hoisting produces.
package golang
