// Command labelcov runs, formats, annotates, measures and fuzzes robot
// plans, and annotates Go packages, with fine-grained coverage labels.
//
// It is a thin shell over the library packages: flags, output formats and
// exit codes only. Anything a library user would also want (loading,
// running, annotating, measuring, fuzzing) lives in interp/, labels/,
// normalize/, transform/, fuzzdriver/, coverage/ and experiments/; this
// package must never grow logic of its own beyond presenting their
// results. The verbs that work on a subject (cover, reduce, gentests,
// annotate, sarif, fuzz, labels) map their flags onto fuzzdriver/subject
// and call it, compare onto experiments/grid: no verb here decides whether an
// argument is a plan or Go packages; the verbs on one plan and its inputs
// (run, replay, sample, env, fmt, disasm, afl-target) map theirs onto
// fuzzdriver/planverbs.
//
// Exit status: 0 when the command did its job (a plan that fails at run
// time still ran), 1 for bad input or usage, and 1 for a fuzzing campaign
// with findings (as go test -fuzz; fuzz --allow-findings exits 0).
package main
