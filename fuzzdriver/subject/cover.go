package subject

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/coverage/report"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/labels"
)

// CoverOptions are cover's outputs beside the report on stdout.
type CoverOptions struct {
	HTML, LCOV, Cobertura string
	// FailUnder are the coverage gates as typed (--fail-under
	// KEY=PERCENT,...).
	FailUnder string
	// Justified (--fail-under-justified): the gates count the objectives
	// proven infeasible with the covered ones.
	Justified bool
	// Solve (plans without a world): solve each label the tests leave
	// uncovered with z3.
	Solve SolveOptions
}

// gates parses FailUnder and checks the flags every kind of subject
// checks first; plansOnly: the subject is not a plan, so --solve is
// refused.
func (co CoverOptions) gates(plansOnly bool) ([]measure.Threshold, error) {
	var ts []measure.Threshold
	if co.FailUnder != "" {
		var err error
		if ts, err = measure.ParseThresholds(co.FailUnder); err != nil {
			return nil, fmt.Errorf("--fail-under: %w", err)
		}
	}
	if co.Justified && co.FailUnder == "" {
		return nil, fmt.Errorf("--fail-under-justified: give --fail-under too")
	}
	if co.Solve.On && plansOnly {
		return nil, fmt.Errorf("--solve: plans only (Go packages and recorded coverage are not solved for)")
	}
	return ts, nil
}

// CoverArgs are how many positional arguments cover takes with the flags
// of o, and what they are: for an SBCL record at most the original plan
// (the manifest names it), else a plan and its tests, or Go patterns.
func CoverArgs(o Options) (min, max int, name string) {
	if KindOf(o) == SBCLRecord {
		return 0, 1, "FILE"
	}
	return 1, -1, "FILE or PACKAGES"
}

// outFlag is an output flag and its path.
type outFlag struct{ flag, path string }

func (co CoverOptions) outputs() []outFlag {
	return []outFlag{{"--html", co.HTML}, {"--lcov", co.LCOV}, {"--cobertura", co.Cobertura}}
}

// check checks every output file with g.
func (co CoverOptions) check(g *outputs.Guard) error {
	for _, o := range co.outputs() {
		if err := g.Check(o.flag, o.path); err != nil {
			return err
		}
	}
	return nil
}

// write prints rep's warnings to stderr and writes it as co asks
// (--html, --lcov, --cobertura, through g, and text or JSON on w), then
// checks the gates.
func (co CoverOptions) write(w, stderr io.Writer, g *outputs.Guard, rep *measure.Report, asJSON bool, gates []measure.Threshold) error {
	if stderr != nil {
		for _, w := range rep.Warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
	}
	files := []struct {
		flag, path string
		render     func(io.Writer) error
	}{
		{"--html", co.HTML, func(w io.Writer) error { return report.HTML(w, rep, os.ReadFile) }},
		{"--lcov", co.LCOV, func(w io.Writer) error { return report.LCOV(w, rep) }},
		{"--cobertura", co.Cobertura, func(w io.Writer) error { return report.Cobertura(w, rep) }},
	}
	for _, f := range files {
		if f.path != "" {
			if err := writeReport(g, f.flag, f.path, f.render); err != nil {
				return err
			}
		}
	}
	var err error
	if asJSON {
		err = report.JSON(w, rep)
	} else {
		err = report.Text(w, rep)
	}
	if err != nil {
		return err
	}
	if co.Justified {
		return failUnder(gates, rep.JustifiedFigures())
	}
	return failUnder(gates, rep.Figures())
}

// failUnder checks the report's figures against the --fail-under gates: a
// missed threshold is a finding (exit 1), a gate on a figure the report
// does not have a usage error (exit 2).
func failUnder(gates []measure.Threshold, figures map[string]labels.Fraction) error {
	if len(gates) == 0 {
		return nil
	}
	misses, err := measure.Check(gates, figures)
	if err != nil {
		return fmt.Errorf("--fail-under: %w", err)
	}
	if len(misses) == 0 {
		return nil
	}
	var parts []string
	for _, m := range misses {
		parts = append(parts, m.String())
	}
	return Found("coverage below --fail-under: %s", strings.Join(parts, ", "))
}

// writeReport renders a report into memory and writes it to path through
// g, so that a rendering error leaves no half-written file behind.
func writeReport(g *outputs.Guard, flag, path string, render func(io.Writer) error) error {
	var b bytes.Buffer
	if err := render(&b); err != nil {
		return err
	}
	if err := g.WriteFile(flag, path, b.Bytes(), 0o644); err != nil {
		var re *outputs.RefusedError
		if errors.As(err, &re) {
			return err
		}
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}
