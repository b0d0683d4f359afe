package main

import (
	"io"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

// readSource reads the file name, or standard input when name is "-", and
// returns the name messages should use for it.
func readSource(stdin io.Reader, name string) (string, []byte, error) {
	return subject.ReadSource(stdin, name)
}

// loadPlan reads, parses and compiles a plan file ("-" is standard input).
// Compiling here reports a malformed form (an (if) without a test, say) at
// its position before any command labels or runs the plan.
func loadPlan(stdin io.Reader, name string) (*syntax.File, *compile.Program, error) {
	return loadPlanWith(stdin, name, compile.Options{})
}

// loadPlanWith is loadPlan with compile options.
func loadPlanWith(stdin io.Reader, name string, opts compile.Options) (*syntax.File, *compile.Program, error) {
	return subject.LoadPlan(stdin, name, opts)
}

// parsePlan reads and parses a plan file ("-" is standard input); the
// pipeline that builds the plan under test compiles it (once).
func parsePlan(stdin io.Reader, name string) (*syntax.File, error) {
	display, src, err := readSource(stdin, name)
	if err != nil {
		return nil, err
	}
	return syntax.Parse(display, src)
}

// printNotes prints the compiler's notes on p (subject.PrintNotes).
func printNotes(stderr io.Writer, p *compile.Program) map[string]bool {
	return subject.PrintNotes(stderr, p)
}

// printWarnings prints the warnings of a later stage printNotes did not
// print already (subject.PrintWarnings).
func printWarnings(stderr io.Writer, ws []*syntax.Error, printed map[string]bool) {
	subject.PrintWarnings(stderr, ws, printed)
}

// checkCalls prints every call of p to a function defined nowhere and
// fails when one can only end in undefined-function (subject.CheckCalls).
func checkCalls(stderr io.Writer, f *syntax.File, p *compile.Program, l runner.Link) error {
	return subject.CheckCalls(stderr, f, p, l)
}
