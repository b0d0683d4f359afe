// Package syntax reads plan source (.plan and .world files) into a tree of
// s-expressions that keeps exact positions (byte offset, line, column) and
// every comment, and prints such trees back: NodeString on one line for
// generated code, Format in the canonical layout with every comment kept.
//
// The tree is deliberately generic: lists and atoms, as a Lisp reader gives
// them. Special forms are recognised downstream, by the compiler and by the
// label passes, so this package never evaluates or interprets anything and
// never imports another labelcov package.
package syntax
