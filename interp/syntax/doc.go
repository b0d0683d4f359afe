// Package syntax reads plan source (.plan and .world files, and Common Lisp
// files as CRAM writes them) into a tree of s-expressions that keeps exact
// positions (byte offset, line, column) and every comment, and prints such
// trees back: NodeString on one line for generated code, Format in the
// canonical layout with every comment kept. TreeWriter goes the other way
// for a pass that generates a file: it builds the tree Parse would read
// from the text while the text is written.
//
// The tree is deliberately generic: lists and atoms, as a Lisp reader gives
// them, plus the nodes of Common Lisp's reader macros (Quote, Prefixed for
// #' ` , ,@ #. #( ..., Conditional for #+/#-, Char). Special forms are
// recognised downstream, by the compiler and by the label passes, so this
// package never evaluates or interprets anything and never imports another
// labelcov package.
//
// # Reading Common Lisp
//
// Symbols are read as CL reads them: unescaped characters fold to lower
// case (CL folds to upper case and prints lower case; labelcov's names are
// lower case), |...| and \x escape, and unescaped colons split off a
// package prefix. Symbol.Name is the folded local name, so WHEN, When and
// cpl:when all have Name "when" and downstream code compares names only;
// Symbol.Raw keeps the source text and the printers print Raw, so
// formatting never changes a token. Numbers follow CL's syntax (1d0,
// 1.5e3, 1.0f0, ratios 1/2 read as floats, #x1F radix integers).
//
// # Shape of the reader: participle's lexer, a hand-written tree builder
//
// The reader is built on participle's lexer interface: planLexer is a
// participle lexer.Definition whose lexer.Lexer streams one lexer.Token at
// a time, and FuzzTokenize checks it against a participle regular-
// expression lexer (lexer.MustSimple) on the part of the language such a
// lexer can express. The tokens feed a small hand-written tree builder
// (reader.go) instead of a participle grammar with struct capture:
//
//   - Speed and memory. Capturing into intermediate grammar structs and
//     converting them to the tree cost about 200 B of memory per source
//     byte, growing with file size, at 1.4 MB/s. The builder allocates the
//     final nodes only, from slabs, with no intermediate token slice; a
//     file costs about 14 B of memory per source byte, linear in its size
//     (TestParseMemoryIsLinear; bench/ BenchmarkReader compares with
//     go/parser on a same-size Go file).
//   - Depth. The grammar recursed once per nested form and could only be
//     limited by a separate bracket count, which missed quotes: a million
//     quotes overflowed the Go stack. The builder keeps an explicit stack
//     of open forms; every list, quote, reader-macro prefix and reader
//     conditional counts towards MaxDepth, and exceeding it is a
//     *syntax.Error. The later recursive passes (Format, NodeString, Walk)
//     thereby never see a tree deeper than MaxDepth.
//   - Errors in source order, with CL-specific messages (a dangling #',
//     an unknown #\Name), at the token where they occur.
//
// Error snippets show at most a window of the offending line around the
// column, with control characters and invalid UTF-8 escaped, so that a
// binary file given as a plan cannot flood a terminal.
//
// # Layout
//
// Format prints the canonical layout (see Format) but keeps the author's
// line breaks: a list written over several lines stays broken, so plans
// written in the usual Lisp style are already canonical.
package syntax
