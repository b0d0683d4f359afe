package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

// stdinName is how messages name a plan read from standard input ("-").
const stdinName = "<stdin>"

// readSource reads the file name, or standard input when name is "-", and
// returns the name messages should use for it.
func readSource(stdin io.Reader, name string) (string, []byte, error) {
	if name == "-" {
		src, err := io.ReadAll(stdin)
		if err != nil {
			return stdinName, nil, fmt.Errorf("reading standard input: %w", err)
		}
		return stdinName, src, nil
	}
	src, err := os.ReadFile(name)
	if err != nil {
		if st, serr := os.Stat(name); serr != nil && strings.Contains(name, "...") || serr == nil && st.IsDir() {
			// labels ./... : a Go package pattern, or a directory.
			return name, nil, fmt.Errorf("%s is not a plan file: this command reads .plan files; for Go packages use labelcov annotate or labelcov cover", name)
		}
		return name, nil, fmt.Errorf("reading plan: %w", err)
	}
	return name, src, nil
}

// loadPlan reads, parses and compiles a plan file ("-" is standard input).
// Compiling here reports a malformed form (an (if) without a test, say) at
// its position before any command labels or runs the plan.
func loadPlan(stdin io.Reader, name string) (*syntax.File, *compile.Program, error) {
	return loadPlanWith(stdin, name, compile.Options{})
}

// loadPlanWith is loadPlan with compile options.
func loadPlanWith(stdin io.Reader, name string, opts compile.Options) (*syntax.File, *compile.Program, error) {
	display, src, err := readSource(stdin, name)
	if err != nil {
		return nil, nil, err
	}
	f, err := syntax.Parse(display, src)
	if err != nil {
		return nil, nil, err
	}
	p, err := compile.CompileWith(f, opts)
	if err != nil {
		return nil, nil, err
	}
	return f, p, nil
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

// printNotes prints the compiler's notes on p (top-level forms passed
// through, variables taken as globals of another file), each at
// file:line:col, and returns them as a set so that a later stage that
// repeats one (labels' warnings) does not print it twice.
func printNotes(stderr io.Writer, p *compile.Program) map[string]bool {
	seen := map[string]bool{}
	for _, n := range p.Notes {
		fmt.Fprintln(stderr, "labelcov:", n)
		seen[n.Error()] = true
	}
	return seen
}

// printWarnings prints the warnings ws of a later stage that printNotes
// did not print already.
func printWarnings(stderr io.Writer, ws []*syntax.Error, printed map[string]bool) {
	for _, w := range ws {
		if !printed[w.Error()] {
			fmt.Fprintln(stderr, "labelcov:", w)
		}
	}
}

// checkCalls prints, with a caret, every call of p to a function defined
// nowhere (runner.CheckCalls decides which names link) and fails when one
// of them can only end in undefined-function; warnings are printed only.
func checkCalls(stderr io.Writer, f *syntax.File, p *compile.Program, l runner.Link) error {
	errs := 0
	for _, lp := range runner.CheckCalls(f, p, l) {
		fmt.Fprintln(stderr, "labelcov:", lp)
		if s := lp.Err.Snippet(); s != "" {
			fmt.Fprintln(stderr, s)
		}
		if !lp.Warning {
			errs++
		}
	}
	if errs > 0 {
		return fmt.Errorf("%s: %d call(s) to undefined functions (see above)", f.Name, errs)
	}
	return nil
}
