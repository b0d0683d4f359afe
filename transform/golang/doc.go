// Package golang is the Go front end of labelcov's label pipeline: it
// loads Go packages with types (golang.org/x/tools/go/packages via dst's
// decorator), normalizes them (normalize/golang), enumerates the labels of
// docs/labels.md adapted to Go, and injects each active label as an empty
// conditional with dst, so that comments and formatting elsewhere survive:
//
//	if lc1 < limit && steps != 100 {
//	} // label 95 wm-ror < -> >
//
// Go's coverage instrumentation (go test -cover) and its fuzzing
// instrumentation (go test -fuzz, -d=libfuzzer) give the empty body of
// such an if its own counter, so a stock branch-coverage tool sees every
// label as a branch.
//
// Labels, adapted to Go with types (see docs/go.md):
//   - decisions are if conditions, for conditions, the case expressions
//     of an expression switch (as tag == expr, or expr without a tag, each
//     guarded by the earlier cases being false), and every && / || in a
//     return, assignment, declaration, call argument, send or init
//     statement; their atoms are the maximal operands that are not &&, ||
//     or !, one label set per atom also when atoms call functions;
//     constant atoms get none;
//   - CC and MCC as for plans (MCC falls back to CC above MCCMaxAtoms),
//     with short-circuit: an atom behind a call is read from a temporary
//     that holds false unless Go evaluated it, so its CC label for false
//     also asks for the operands that let Go evaluate it, and MCC
//     combinations giving it true when Go skips it are infeasible (with
//     the reason); pure atoms are read either way;
//   - ROR only on ordered operands (integers, floats, strings); float
//     labels keep the unsimplified form (a < b) != (a <= b) because of NaN;
//   - AOR on + - * / over numeric operands (never string +), as
//     (a + b) != (a - b), with `b == 0 ||` in front when an integer
//     division is involved (a mutant that panics differs); unary minus:
//     -x != x; equivalent mutants (x + 0 vs x - 0, x * 1 vs x / 1) are
//     infeasible;
//   - ABS on variables of signed integer or float type that are operands
//     of arithmetic or comparisons: x < 0, x > 0, x == 0;
//   - COR on && and ||: the operands differ (a != b);
//   - dist (opt-in) on relations between integers or floats: the ladder
//     |a-b| < 2^k of labels.DistRungs (by the operands' type) at the place of the ROR labels,
//     written without overflow (a uint64 difference of two signed
//     integers, x > c-K && x < c+K against a constant c, a-b < K && b-a < K
//     on floats, false on NaN); rungs no values can miss are trivial;
//     rungs where the ladder climbs nothing (8-bit relations, cases of
//     long switches, indexes the function steps by one, enumerations,
//     flag tests: ladderSkipped) are listed as skipped with the reason,
//     not injected; so are the dist labels beyond the package's counter
//     budget (budgetDist: the fuzzing counters they would add, at most
//     the package's own or its share of 800 among the packages
//     annotated together that one binary holds; stones first, then rungs every fourth
//     bit, then the rest), since go test -fuzz scans every counter of the
//     binary after each execution;
//     equalities against integer constants of 16 bits or more also get
//     byte-wise stones (the top j bytes agree), and strings and byte
//     slices (==, switch cases, bytes.Equal, bytes.HasPrefix,
//     strings.HasPrefix) prefix stones (the first k bytes agree);
//   - no label on constant expressions; WM labels inside the lazy operand
//     of && / || or a later switch case are guarded by the condition under
//     which the original evaluates them.
//
// A label runs just before its statement; on a statement goto jumps to,
// the goto label moves to the first injected label; labels of a for post
// statement and the statement become a function literal called in its
// place. Functions with goto are labelled (normalization keeps its new
// declarations in blocks no goto jumps into or over). Each label's Source
// and Expr show the original expressions of temporaries.
//
// Labels never panic: every predicate is preceded by the checks that make
// it safe (p != nil for dereferences and field selections through
// pointers, 0 <= i && i < len(s) for indexing, d != 0 for integer
// division, n >= 0 for shift counts); map reads cannot panic; what cannot
// be checked (calls, type assertions, slicing, interface comparisons) was
// hoisted into temporaries by normalization. (Go's MinInt / -1 does not
// panic: it wraps.) Labels evaluate only pure expressions, after the code
// normalization hoisted in front of their statement.
//
// Predicates use only syntax the file's Go version (its module's go line,
// or a //go:build line) accepts: below Go 1.13 the float bounds beyond
// 2^63 are exact decimal literals instead of 0x1pK.
//
// AnnotatePackages refuses a criterion it does not enumerate (an error, not
// an empty manifest) and type-checks its output; a function whose annotated form
// does not type-check is left unlabelled (Package.Skipped), so annotation
// never breaks a build. WriteOverlay writes the annotated files, an
// overlay.json for `go build -overlay` and the label manifest (making the
// directory even when nothing is labelled); the user's files are never
// touched. The overlay's annotated files carry /*line*/ directives naming
// the original lines; with dist, its copies of the test files give each
// fuzz target the constants of the package's relations as extra seeds
// (and, for a relation between two variables, the constants stored in the
// field or variable an operand reads), in a function literal on the line
// of f.Fuzz, one loop per argument over the tokens (the testing package
// unwinds FuzzX's frame on every execution, and the test package's loops
// are fuzzing counters too).
// Materialize writes a copy of the module with the annotated
// files in place (go test -cover ignores -overlay), without directives.
// The decision criteria
// (MCC combinations, CC operators, the fallback, relations and their
// mutants) are labels' own definitions, and MCC combinations whose bounds
// on one integer operand leave no value are infeasible with the plans'
// reason (feasible.Contradiction). So is any label whose relations on
// integer operands contradict the ranges of their types (unsigned, len and
// cap at least 0, 32-bit and smaller types bounded) or the guards where it
// is evaluated (enclosing if and for conditions, earlier `if C { return }`
// of its block) that read only variables defined once and never written
// (facts.go), and any that asks a string to be less than "".
//
// Labels inside dependencies: NewLayout copies the modules of the packages
// to label that lie beneath GOMODCACHE (go -overlay may not replace files
// there) and writes a private go.mod replacing them, which the go command
// reads through -modfile (Layout.Env); AnnotateFor annotates such packages
// for the fuzz targets of others (Result.FuzzPackages get their constants
// as seeds), and Result.MaterializeDeps is Materialize for them. The
// user's go.mod, go.sum and module cache are never written.
//
// It never runs the packages' tests: package coverage/gotest does (go
// test with a coverage profile, a fuzz target over its corpus) and maps
// each label's body block back to its label.
package golang
