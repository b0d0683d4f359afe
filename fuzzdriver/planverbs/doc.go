// Package planverbs is the library front end of the verbs that work on one
// plan and its inputs rather than on a subject's suite: run (one run,
// with or without a world), replay (fuzzer inputs and scenarios as a
// campaign ran them), sample (uniformly random inputs counted per
// category), env decode and encode, fmt, disasm and afl-target (the
// AFL++ worker). cmd/labelcov maps their flags onto the Options here, as
// it maps the suite verbs' onto fuzzdriver/subject.
//
// It builds plans through fuzzdriver/subject's loaders (LoadPlan,
// BuildFuzzer, PlanGuard), so a plan is read, checked and linked the same
// way in every verb, and returns subject's typed errors (a
// *subject.FoundError for a run a campaign would record). It must never
// write a file except through an outputs.Guard (fmt -w alone rewrites the
// plans it is given, as asked, atomically), nor decide the kind of a
// subject (only plans reach it).
package planverbs
