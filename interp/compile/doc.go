// Package compile translates a parsed plan file (interp/syntax) into a
// bytecode Program for the stack machine in interp/vm, together with the
// debug table (pc -> source position) and the coverage layout (one counter
// per instruction, two per conditional jump) that the label engine and the
// fuzzers read.
//
// It must never run plan code, read the clock or touch the world: its output
// depends only on the source text. Every error it returns is a
// *syntax.Error at the offending node.
//
// The special forms are those of the shared table in interp/forms; the
// compiler attaches one code generator to each (a test checks that the two
// agree). The Common Lisp and CPL forms (lambda lists, block, unwind-protect,
// flet, loop, par, ...) compile to the opcodes below; none has an opcode of
// its own. Top-level forms the compiler does not compile (forms.File.Skip:
// defmacro, defmethod, definitions that use a macro, ...) are skipped and
// listed in Program.Notes; reader conditionals are decided against
// Features first (readermacros.go). A free variable is a global of
// another file, unbound until set (with a note unless it has earmuffs).
// Designators with desig:when or ?variable properties, the sequence
// functions with :test/:key (seqkeys.go), mapcar and friends compile to
// existing opcodes and builtins.
//
// # The machine
//
// The virtual machine is a stack machine with these registers and areas:
//
//   - pc, the program counter. The code of all functions (plans, defuns,
//     checks, policies, lambdas, and the global initialiser) is concatenated
//     into one flat instruction array, so a pc is a global index and
//     indexes the per-instruction coverage counters directly.
//   - the operand stack of value.Value. A call frame occupies a window of
//     it: fp points at the first argument; slots [fp, fp+NumLocals) are the
//     frame's locals (parameters first, then let/loop variables, reused
//     when a scope ends), and the operand temporaries live above them, at
//     most MaxStack of them (computed statically here).
//   - cells: a local that is both captured by a lambda and assigned lives
//     in a heap cell, so that the closure and the frame share it. The VM
//     keeps cell pointers in an array parallel to the operand stack
//     (MAKECELL i boxes the value in slot i), so locals stay plain values.
//     Captured variables that are never assigned are copied into the
//     closure by value.
//   - closures: a Func's Captures say, for each free variable, where the
//     creating frame finds it (its local slot, its cell, or its own closure);
//     a closure holds free values (LOADV) and free cells (LOADVC/STOREVC).
//   - globals (defparameter), addressed by index (GETVALUE/SETVALUE). The
//     initialiser function Program.Init assigns them at the start of each run.
//   - the handler stack: HANDLER pushes a record for a with-failure-handling
//     or ignore-errors site; a failure unwinds frames and operand stack to
//     the newest record whose clause kinds match.
//   - the constants pool Program.Consts, indexed by CONST.
//
// # Encoding
//
// An instruction is an opcode and two int32 operands A and B, stored in
// parallel arrays Program.Code, Program.A, Program.B, with Program.Pos giving
// the source position of each (the line table). Jumps hold an absolute
// target pc in A; conditional jumps carry their branch index in B. Branch
// counters count "the test was true" and "the test was false", whatever the
// polarity of the jump, so the label engine can read them without knowing
// how a form was compiled.
//
// Every conditional in the source (the tests of if, when, unless, while, each
// cond clause, each case clause, and each operand of and/or) becomes a real
// conditional jump with its own branch, also when its body is empty; only
// the constant t clause of cond and the otherwise clause of case are folded.
//
// # Label probes
//
// A coverage label is injected as (when (ignore-errors P)) whose value is
// discarded (a form of a progn or body other than the last). The compiler
// recognises that shape, when P contains no return or retry, and compiles
// it as a probe instead of HANDLER, P, UNHANDLE, JMP, POP, JMPIFNOT, NIL,
// POP:
//
//	PROBE site          install the failure trap, save steps and allocations
//	P                   the predicate; leaves its value
//	PROBEOK end branch  pop it, count the branch true/false, remove the
//	                    trap, restore steps and allocations, jump to end
//	PROBEFAIL branch    failure path (the trap's clause): count false
//	end:
//
// The when remains a counted conditional: PROBEOK is its branch
// instruction (Branch(i).PC), Form is the position of the (when (Node the
// when itself, by which the label pipeline finds it), Test that
// of the (ignore-errors, and the true/false counters count exactly what
// the general compilation's JMPIFNOT would (a failure of P is a nil test),
// except that the VM records a probe's counts as bits (covered or not). The
// VM charges a probe's instructions to a separate label budget
// (vm.Config.MaxLabelSteps) and refunds its allocations, so a plan with
// labels is charged exactly the steps and allocations of the plan without
// them; nothing P executes counts, nor do the probe's own instructions
// (the VM leaves their instruction counters at 0: the branch is the
// label), and probes do not nest (a probe reached while another probe's
// P runs is skipped). A plan author who writes the
// same shape gets the same treatment.
//
// The commonest labels compare one variable with a constant: a probe whose
// predicate is (OP x K) or (not (OP x K)), with OP one of < <= > >= = /=
// and K an integer literal, or eq and K a quoted symbol, keyword, integer,
// t or nil (K may also be a second local or a global), or member and K a
// quoted list of symbols, keywords and integers, or x or (not x)
// (null x), with x a local that is not a cell or a global (defparameter;
// unbound, the predicate fails), is the single instruction
// PROBECMP (operand A indexes Program.Probes, B is the branch): it counts
// the branch like PROBEOK, a failure (x not a number) counting false.
//
//	PROBECMP probe branch      the stack unchanged (- PROBECMP -): no
//	                           stack traffic, no jump; the VM reads the
//	                           operands from the frame and the globals
//
// Two more kinds of predicate are a PROBECMP too (ProbeCmp.Ops holds
// their postfix code, which the VM runs on a small stack of its own, not
// the operand stack):
//
//   - a rung of a dist ladder, (and (< (abs (- x y)) K) (<= 0 (abs (- x
//     y))) (eq (< x y) (< (- x y) 0))) with K a positive integer and x and
//     y expressions as below (Cmp 'd'). The rungs of one relation follow
//     each other with the same x and y: in a probe group the VM computes
//     their distance once and counts the rungs reached, from the farthest
//     down to the first it does not reach (interp/vm, group.go);
//   - any other predicate built of integer literals, t, nil, keywords,
//     quoted symbols, such locals and globals, +, -, *, /, mod, <, <=, >,
//     >=, =, /= and eq of two arguments, abs, not and null of one, member
//     of a quoted list of names and integers, and and or (Cmp 'x': the
//     expression probe; an MCC combination of comparisons, a mutant of
//     an arithmetic expression). A failure of any builtin in it (a
//     non-number, a division by zero, an unbound global) counts false,
//     as in a PROBE block.
//
// A probe whose predicate is a conjunction (and C P2 ...) led by such a
// comparison C (an MCC label's first atom, say) starts with PROBEGUARD
// (A indexes Program.Probes, whose Skip is the pc after the probe; B is
// the branch): it evaluates C as PROBECMP would and, false, counts the
// branch false and jumps over the PROBE block of (and P2 ...) that
// follows, which runs only when C holds. The conjunct C is no branch of
// its own (nothing inside a predicate counts anyway).
//
// What a probe writes is the VM's choice, not the bytecode's: run, cover,
// replay and measurement write both of the branch's counters, as above;
// a fuzzing process (vm.Config.Labels) writes only the true counter
// (that the label fired), retires a label once it fired, and in the
// built-in engine a retired label writes nothing, charges no label step,
// and is not even dispatched (interp/vm, "Label probes in fuzzing
// processes"). The bytecode and its coverage layout are the same.
//
// # Normalize's temporaries
//
// A plan that ends with #+labelcov (declaim (labelcov-temporaries
// "PREFIX")) (or the same declaim unguarded, as older versions wrote it),
// as normalize writes it when it introduced temporaries
// (forms.TempsDeclared), has its let/let* variables named with PREFIX
// compiled as temporaries, which cost the plan no step: SETT binds and
// LOADT reads one (free). A temporary bound to (if G X nil) or (if G nil
// X), G a temporary or (or G1 ... Gn) of temporaries, is normalize's
// short-circuit of an
// and/or operand: the guards are SKIPNILT or SKIPT on Gn (charged when
// they fall through, to X, free when they skip it) and SKIPTF on the
// others (free), and the and/or over the temporaries after the bindings
// jumps with JMPIFKF/JMPIFNOTKF after an operand whose guard took the
// step (charged when they jump, free when they fall through). So each of
// the original's and/or jumps is charged once, where it was, and the
// steps of a normalized plan are the original's. All these jump forward
// only: any loop holds a charged instruction, and the step budget still
// bounds time. Without the declaration none of this applies, whatever
// the variables are named.
//
// # Specialization
//
// The compiler specializes where the source allows it: immediate operands
// (ADDI, LTI, ... from INT k followed by the plain opcode), inlined
// builtins (ADD ... MEMBEQ), counted loops (DOLOOP, INCLOCAL), compare
// probes (PROBECMP, dist rungs and expression probes among them) and
// guarded probes (PROBEGUARD). The VM adds superinstructions for common sequences
// (LOAD; LTI; JMPIFNOT and the like) in its own copy of the code at load
// time (interp/vm/fuse.go), so that the bytecode, its disassembly and the
// coverage layout stay what this package documents.
//
// # Language tests
//
// The language's behaviour (values of forms, failures, printing) is tested
// by scripts, in starlark-go's style: testdata/scripts/TOPIC.plan defines
// plans test-... that check themselves with assert, run by TestScripts on
// the VM; expected failures use failure-kind from testdata/scripts/prelude.lisp,
// and TOPIC.out, when present, holds the expected printed output. Go tests
// keep what a script cannot see: compile errors, program tables, and (in
// interp/vm) budgets, counters, hosts and fused-versus-plain code.
package compile
