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
//     original would evaluate it (conditional extraction):
//     `if a && f(x) > 0` becomes
//     `lc1 := a; lc3 := lc1; if lc1 { lc2 := f(x); lc3 = lc2 > 0 }; if lc1 && lc3`;
//   - a decision that needs a slot before it (hoisted code, or labels, as
//     Options.Slot says) is restructured: `if init; c` becomes
//     `{ init; if c }`, `else if c` becomes `else { if c }`, `switch init; t`
//     becomes `{ init; switch t }`, and `for init; c; post { body }` becomes
//     `for init; ; post { if !(c) { break }; body }` so the condition — and
//     the code in front of it — runs before every iteration.
//
// Functions containing goto are left alone (new declarations could be
// jumped over), and so is any statement whose rewrite could not keep its
// types (multi-value calls inside expressions, && over named boolean types
// outside conditions): Result.Skipped lists them so label enumeration can
// leave them unlabelled. Normalization alone never changes behaviour: Go
// evaluates the calls of an expression before it reads its variables, and
// that is the order hoisting produces.
package golang
