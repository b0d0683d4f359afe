// Package solve is directed test generation and proof of infeasibility
// for the labels of plans whose inputs are their integer arguments: it
// runs an annotated plan symbolically over its def-plan's parameters
// (arg0, arg1, ... as 64-bit bit-vectors, so that wrap-around is the
// VM's int64 arithmetic) and gives, for each active label, the reach
// condition: the disjunction over the paths reaching the label's point of
// the path's conditions and the label's predicate. z3 (a subprocess
// speaking SMT-LIB 2) solves it: a model is arguments to replay, unsat of
// an exact condition proves the label infeasible for integer arguments,
// with the contradictory conditions (an unsatisfiable core) in plan
// syntax.
//
// The run is that of the VM: top-level forms, the def-plan, every
// def-check in order on each state the plan ended in (a failure of the
// plan ends its path; the checks still run). Paths are enumerated (no
// loops in the modelled subset, so no unrolling is needed); calls of plan
// functions are inlined (at most maxInline deep, no recursion). Modelled
// exactly: integers with + - * / (truncating) mod (floored) rem floor
// abs min max 1+ 1- and the comparisons; t, nil, symbols and keywords;
// not, null, eq, eql, equal on those; quoted lists with nth, first,
// second, third, car, member, assoc of symbols; if, when, unless, cond,
// and, or, progn, let, let*, setq of variables, ignore-errors (a failure
// such as a division by zero is a path of its own). Anything else (a
// float, a loop, a world query, a call of an unknown function) is an
// unknown value: the condition is then an approximation, whose models
// are still replayed, but whose unsat proves nothing (the label stays
// unresolved, naming what is not modelled).
//
// Arguments are integers: an infeasible verdict says no integer arguments
// reach the label (the fuzzers' inputs; run and replay may pass other
// literals). solve imports labels and the syntax packages only; it never
// runs the compiler or the VM (the caller replays every model on the
// plan before it trusts it).
package solve
