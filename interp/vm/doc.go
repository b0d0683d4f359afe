// Package vm runs compiled plans (interp/compile) on a stack machine with
// coverage counting, limits and plan failures built in.
//
// The dispatch loop is one switch over opcodes. Values on the operand stack
// are value.Value structs, so integer and float arithmetic never allocates;
// each executed instruction costs one saturating increment of its coverage
// counter and one step-budget comparison, both inline. Conditional jumps
// also bump their branch's true/false counter. The context is polled every
// few thousand steps, never per instruction.
//
// Label probes (compile.PROBE ... PROBEOK) run like any code but are not
// charged: PROBE saves the step and allocation counts in its trap record,
// PROBEOK and the trap restore them, and the difference goes to
// Result.LabelSteps, bounded by Config.MaxLabelSteps (by default
// DefaultLabelStepsFactor × MaxSteps; exhausting it ends the run as a
// timeout naming the label budget). Probes nest: a predicate may call a
// function whose body carries probes of its own.
//
// A Machine must never read the clock, consult randomness or print except
// through Config.Stdout: the same program, arguments, host and budget give
// the same run, step for step. A Machine is not safe for concurrent use;
// make one per goroutine (the Program can be shared).
package vm
