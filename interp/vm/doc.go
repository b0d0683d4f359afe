// Package vm runs compiled plans (interp/compile) on a stack machine with
// coverage counting, limits and plan failures built in.
//
// # The dispatch loop
//
// Machine.loop is the one dispatch loop, and each opcode (and each case of
// one) is implemented once in it. Its inner hot loop runs the instructions
// and the cases that need no function call (locals, constants, jumps,
// integer arithmetic and comparisons, car/cdr, calls of plan functions
// that need no growing, label probes on integers and names, ...) in one
// switch, with the registers (pc, sp, fp, the frame, the step count, the
// code and counter slices) in locals that stay in machine registers;
// everything else (builtins, allocation, failures, growth, the budget poll)
// leaves it for the cold switch after it, where the compiler may spill. Values on the operand stack are
// value.Value structs, so integer and float arithmetic never allocates.
// Each executed instruction costs one saturating increment of its
// coverage counter (set back to 0 for a label probe's, see below) and one
// step-budget comparison, both inline.
// Conditional jumps also bump their branch's true/false counter. The
// context is polled every few thousand steps, never per instruction.
//
// Superinstructions (fuse.go) do the work of common short sequences in one
// dispatch, on the machine's own copy of the code; they bump the counters
// and charge the steps of every instruction they stand for, so a run is
// the same step for step as on the plain code (TestFusedMatchesPlain and
// FuzzVM compare both).
//
// Builtins charge steps for the work they do (one per element of a list
// and one per 16 bytes of a string they walk, see Machine.Charge), so the
// step budget bounds time; output is capped by Config.MaxOutput. The
// sequence builtins (sequences.go: length, subseq, mismatch, code-char,
// char-code) count a string's characters, not its bytes, as Common Lisp
// does.
//
// A Machine must never read the clock, consult randomness or print except
// through Config.Stdout: the same program, arguments, host and budget give
// the same run, step for step. A Machine is not safe for concurrent use;
// make one per goroutine (the Program can be shared).
//
// # Label probes
//
// Label probes (compile.PROBE ... PROBEOK, possibly led by a PROBEGUARD
// that skips the block when the conjunct it tests is false, and the
// one-instruction PROBECMP) run like any code but are invisible to the run: PROBE saves
// the step and allocation counts in its trap record, PROBEOK and the trap
// restore them, and the difference goes to Result.LabelSteps, bounded by
// Config.MaxLabelSteps (by default DefaultLabelStepsFactor × MaxSteps;
// exhausting it ends the run as a timeout naming the label budget). While
// a predicate runs, instructions count into a sink, not the counters, and
// a failure ends the probe (its branch counts false). A probe's own
// instructions count nothing either (their instruction counters stay 0):
// a label's only trace in the counters is its branch, and where the plan
// reached the label its own instructions around it tell.
//
// Normalize's temporaries (compile's doc, "Normalize's temporaries") are
// free the same way, without a dispatch of their own: SETT, LOADT, SKIPTF
// and the free sides of SKIPT, SKIPNILT, JMPIFKF and JMPIFNOTKF give back
// the step the loop took for them (steps--). They count no label step:
// they are the plan's own bookkeeping, not a label's. None jumps
// backwards, so no loop is made of them alone and MaxSteps still bounds a
// run's instructions.
//
// Probes do not nest: a label is covered only when the plan itself reaches
// it. A predicate may call a function whose body carries probes of its
// own; those are skipped, their predicates unevaluated and their counters
// untouched.
//
// A label's branch counters are bits (covered or not, never hit counts).
//
// A run in which the plan hits one of the VM's limits (IsLimit: the step
// budget, cancellation, the output limit, the call depth, the allocation
// budget), caught by a handler or not, covers and reaches no label:
// Counters clears every label's counters after such a run, and nothing
// it fired retires. Where a cut run stops depends on the limit, not on
// the plan, and the label pipeline's feasibility analysis relies on it
// (a label need not hold in a state only a limit can leave the plan in).
// The limit hit inside a label's predicate is the probe's, as any failure
// there.
//
// The labels of one point compile to a chain of probes, one after the
// other. In the fused code a chain of one-instruction probes (compare
// probes and retired probes) runs as one superinstruction, a probe group
// (group.go): one dispatch for the chain, which evaluates only its live
// members; nested in another probe's predicate, the chain is skipped in
// one step. The rungs of a dist ladder in a group share one computation
// of their distance (on integers, without the general code's stack of
// values, when the ladder's operands are integer code: intPair), and
// the group counts the rungs reached from the farthest down to the first
// not reached (dist.go): a relation's ladder
// costs one distance and, once the rungs the campaign reached have
// retired, usually one comparison. The MCC labels of a decision in a group
// (expression probes, conjunctions of the same atoms with different
// signs) share one computation of their atoms when every atom is a
// comparison of integer code, stopping once no label can hold
// (mcc.go). Retirement regroups, so a chain that a live PROBE block broke
// joins up once that probe retires. What a group's retired members write
// is fixed, so Machine.Counters writes it after the run, once for every
// group that ran: the counters and label steps are those of the plain
// code. An atom probe (the label pipeline's probe that evaluates a
// decision's atoms once for its MCC labels) stops as soon as none of its
// live readers can be true any more (atomexit.go).
//
// # Label probes in fuzzing processes
//
// Config.Labels (a LabelMode) changes what probes write, for fuzzers
// only; its zero value, for run, cover, replay and measurement, evaluates
// every label afresh and writes both its counters.
//
// FiredOnly: a probe writes its true counter when the label holds and
// nothing otherwise. For a fuzzer a label's false counter carries no
// information (the plan's own instruction counters already say the point
// was reached), and writing it only adds nonzero counters for the fuzzer
// to examine after every run.
//
// Retire: a label whose branch counted true in a run is retired at the
// next ResetCounters (which looks only when some label counted true since
// the last one, and not when the last run's context is done: a fuzzer
// drops the counters of a hang). Its probe then costs one instruction
// that writes the branch counters the label retired with and jumps over
// the predicate, so the same input gives the same coverage map on every
// run (AFL++'s stability; the AFL++ worker runs this way).
//
// SilentRetire (with Retire; the built-in engine, which never reruns an
// input to compare maps): a retired label writes nothing at all and
// charges no step, plan or label, and the fused code does not dispatch
// it: jumps, calls and the instructions falling into a run of retired
// probes go past it (dead.go). The engine saw the label's true counter in
// the run that retired it; no later run could show it more. The map is
// still a function of the input for a given set of retired labels.
//
// In every mode the plan's steps, output, result, failures and their
// positions are those of the plan without labels, and the counters of
// its own instructions and branches those of the same program run
// without a mode.
package vm
