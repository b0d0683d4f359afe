// Package runner runs one input of a compiled plan and says what happened:
// the one way every verb runs plans — run, replay, sample, cover
// (coverage/measure), the built-in engine's target (Target), the AFL++
// worker and compare's campaigns. Its core is interp/sim's Runner, the one
// place that makes a VM run of a plan for an input, with or without a
// world; this package adds the input forms (Input: fuzzer bytes, an
// environment, the plan's arguments), the limits (Limits: steps,
// allocations, output, wall clock; the caller's context), and one Result:
// the outcome, the error categories (named by sim.CategoryName alone),
// failed checks, the action trace and buckets, the counters, and the ids
// of the labels the run covered.
//
// Label hits per input: give Options.LabelMap (the pipeline.Annotated the
// program was compiled from) and every Result.Labels lists the ids of the
// labels that run covered ([]int, id order, valid until the next run;
// copy to keep). MC/DC, per-test coverage and reduction start from it.
//
// A Runner reuses its storage from run to run (no allocation per run on
// the fuzzing path); make one per goroutine. A run cut short by the
// caller's context is an error, never a finding.
package runner
