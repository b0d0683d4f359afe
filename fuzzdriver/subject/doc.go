// Package subject is the one front end every verb that works on a
// subject (cover, reduce, gentests, annotate, sarif) is a loop over: what
// the user typed — a plan file, Go package patterns, or a coverage file
// SBCL's sb-cover wrote — is opened as a Subject, and the verb calls the
// Subject's method for it. Open is the one place that decides which kind
// of subject an argument names (the path rules of
// transform/golang.IsPatternArg), so that the same argument is the same
// subject, with the same messages, in every verb.
//
// A Subject checks the options it was opened with in the order the verbs
// always have (a flag meant for another kind of subject is a usage error
// naming it), runs the measurement through the packages upstream
// (pipeline, measure and resolve for plans, gotest and gofuzz for Go
// packages, sbcover for SBCL's records), writes every file through one
// outputs.Guard, and prints its report to the writer it is given.
//
// compare's grids are package experiments/grid. The verbs on one plan and its inputs (run, replay, sample, env, fmt, disasm,
// afl-target) are package fuzzdriver/planverbs, which loads plans through the
// loaders here (LoadPlan, BuildFuzzer, PlanGuard).
//
// It knows nothing of command lines: cmd/labelcov maps flags onto
// Options, prints, and sets the exit status from the error (a *FoundError
// is exit status 1, an *InterruptedError 3, every other error a usage or
// input error). It must never branch a verb on the kind of subject
// anywhere but in Open, nor write a file except through an
// outputs.Guard.
package subject
