package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/report"
	"github.com/labelcov/labelcov/fuzzdriver/resolve"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/spf13/cobra"
)

type coverOptions struct {
	labelFlags
	world      string
	tests      []string
	plan       string
	maxSteps   int64
	maxObjects int
	json       bool
	html       string
	lcov       string
	failUnder  string
	// justified: --fail-under-justified.
	justified bool
	solve     solveOptions
	cobertura string
	sbcl      sbclCoverOptions
	// gates are the parsed --fail-under thresholds.
	gates []measure.Threshold
}

func newCoverCmd() *cobra.Command {
	var o coverOptions
	var gco goCoverOptions
	cmd := &cobra.Command{
		Use:   "cover FILE --tests DIR|FILE... [--world W] [--criteria ...] | cover PACKAGES... [--fuzz FuzzX]",
		Short: "Measure label, instruction, branch and action coverage of a test suite",
		Long: `cover annotates FILE with coverage labels in memory (as annotate does), compiles
the annotated and the original plan once, runs both over every test, and reports
per criterion and operator how many active labels the suite covers, the
instruction, branch and action coverage of the original plan, every uncovered
label with its file:line:col and predicate, and the diversity of label coverage.

Tests (--tests, repeatable, and any further arguments):
  NAME.env    a scenario of the world (needs --world)
  NAME.args   the plan's arguments as plan literals, one per line (comments
              allowed); with a world the plan starts in the empty environment
  other files raw bytes: with a world, decoded into an environment (as
              labelcov env decode); without, 8 bytes per def-plan parameter,
              little-endian int64 (as fuzzing a plan without a world does)
  DIR         every file in DIR, sorted by name, except hidden files and
              .md, .txt, .json, .plan and .world files
Without --world, a truth.json beside FILE (a benchmark folder) names the world.

A label is covered by a test when the test reaches it with its predicate true
(a test cut by a limit — steps, time, output, depth, allocations — covers none).
Diversity: each label's abundance is the number of distinct traces among the
tests covering it (a trace is the outcome, with result value or failure kind,
the def-check categories and the action trace); D0, D1, D2 are the Hill
numbers of order 0, 1, 2 (covered labels, exp(Shannon), inverse Simpson).

Every active label ends covered (by the tests named), infeasible (proven, with
the reason: the static analysis always, z3 with --solve on plans without a
world) or unresolved (with what was tried); the reports count the three per
criterion, and --fail-under-justified makes the gates count proven infeasible
objectives as justified. See docs/cover.md, "Resolution".

--json prints {"version": 1, "criteria": {"mcc": {"covered", "total",
"operators", "diversity"}, ...}, "coverage": {"instructions", "branches",
"actions"}, "uncovered": [...], "diversity", "tests", "labels", "infeasible"}. --html writes
a self-contained page with the source and its labels marked; --lcov an LCOV
tracefile with labels as BRDA records (block = criterion, branch = label id).
See docs/cover.md.

Go packages: given package patterns (./pkg/...) instead of a plan, cover runs
the packages' own tests on the annotated code with Go's coverage profile and
reports label coverage the same way (text, --json, --html, --lcov); with
--fuzz FuzzX it measures that fuzz target's seed corpus and the corpus go test
-fuzz keeps in the build cache instead. See docs/go.md.

SBCL: with --from-sbcl COV --manifest M, cover runs nothing: it reads what
sb-cover:save-coverage-in-file wrote after your own tests ran in SBCL on the
plan annotate wrote (with --manifest M), and reports label coverage the same
way; FILE, the original plan, defaults to the manifest's. See docs/sbcl.md.

` + criteriaHelp,
		Example: `  labelcov cover testdata/plans/fib.plan --criteria mcc,cc,wm --tests testdata/tests/fib
  labelcov cover testdata/bench/warehouse-sort/warehouse-sort.plan --world testdata/worlds/warehouse.world \
      --tests testdata/tests/warehouse --html cover.html --lcov cover.info
  labelcov cover plan.plan --tests t1.args t2.args --json | jq '.criteria.mcc'
  labelcov cover ./pkg/... --criteria mcc,wm --html cover.html
  labelcov cover ./pkg/parse --fuzz FuzzParse
  labelcov cover --from-sbcl coverage.sexp --manifest plan.labels.json --html cover.html`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.sbcl.from != "" {
				return argsNamed(0, 1, "FILE")(cmd, args)
			}
			return argsNamed(1, -1, "FILE or PACKAGES")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.failUnder != "" {
				ts, err := measure.ParseThresholds(o.failUnder)
				if err != nil {
					return fmt.Errorf("--fail-under: %w", err)
				}
				gco.FailUnder = ts
				o.gates = ts
			}
			if o.justified && o.failUnder == "" {
				return fmt.Errorf("--fail-under-justified: give --fail-under too")
			}
			if o.solve.on && (o.sbcl.from != "" || isGoPackageArg(args[0])) {
				return fmt.Errorf("--solve: plans only (Go packages and recorded coverage are not solved for)")
			}
			if o.sbcl.from != "" {
				return runCoverSBCL(cmd, args, &o)
			}
			if isGoPackageArg(args[0]) {
				if o.justified {
					return fmt.Errorf("--fail-under-justified: plans only so far (Go packages report no resolution)")
				}
				gco.Criteria, gco.MCCMaxAtoms = o.criteria, o.maxAtoms
				gco.JSON, gco.HTML, gco.LCOV, gco.Stderr = o.json, o.html, o.lcov, cmd.ErrOrStderr()
				gco.Cobertura = o.cobertura
				return coverGoPackages(cmd.Context(), cmd.OutOrStdout(), args, gco)
			}
			return runCover(cmd, args[0], append(append([]string(nil), o.tests...), args[1:]...), &o)
		},
	}
	o.labelFlags.register(cmd)
	registerPlanTestFlags(cmd, &o)
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print the report as JSON instead of text")
	f.StringVar(&o.html, "html", "", "write a self-contained HTML report to this file")
	f.StringVar(&o.lcov, "lcov", "", "write an LCOV tracefile to this file")
	f.StringVar(&o.cobertura, "cobertura", "", "write a Cobertura XML report (lines, labels as conditions) to this file")
	f.StringVar(&o.failUnder, "fail-under", "", "exit 1 when a coverage figure is below its percentage: KEY=PERCENT,... (keys: the criteria, wm, all, instructions, branches, actions; Go: statements, blocks), e.g. mcdc=80,mcc=90,wm=70")
	f.BoolVar(&o.justified, "fail-under-justified", false, "with --fail-under: count the objectives proven infeasible (each with its reason, by the static analysis or --solve) with the covered ones: a gate compares (covered + infeasible) / total")
	o.solve.register(cmd, "plans without a world: solve each label the tests leave uncovered with z3 (docs/solve.md), so that it ends infeasible (with the proof's reason) or unresolved (with what was tried); arguments found are reported, not written (gentests --solve writes them)")
	f.StringVar(&gco.Fuzz, "fuzz", "", "Go packages: measure this fuzz target's corpus (testdata/fuzz/NAME and go test -fuzz's cache) instead of the tests")
	f.StringVar(&gco.FuzzCache, "fuzz-cache", "", "Go packages, with --fuzz: root of go test -fuzz's generated corpora (default $(go env GOCACHE)/fuzz)")
	f.BoolVar(&gco.PerTest, "per-test", false, "Go packages: also run each test (with --fuzz: each corpus entry) alone, for which test covers each label and diversity")
	f.BoolVarP(&gco.Verbose, "verbose", "v", false, "Go packages: show the go command's output")
	f.StringVarP(&gco.Dir, "dir", "C", "", "Go packages: run the go command in this directory")
	f.StringVar(&gco.Tags, "tags", "", "Go packages: build tags")
	f.StringSliceVar(&gco.LabelPkgs, "label-pkgs", nil, labelPkgsUsage)
	o.sbcl.register(f)
	return cmd
}

func runCover(cmd *cobra.Command, file string, tests []string, o *coverOptions) error {
	if len(tests) == 0 {
		return fmt.Errorf("no tests: give --tests DIR|FILE")
	}
	g := planGuard(file, o.world, tests)
	if err := checkOutputs(g, o.outputs()...); err != nil {
		return err
	}
	m, err := coverMeasurer(cmd, file, o)
	if err != nil {
		return err
	}
	if o.solve.on {
		if err := solvable(m); err != nil {
			return err
		}
	}
	ts, err := m.LoadTests(tests...)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	rep, err := m.Run(ctx, ts)
	if err != nil {
		return err
	}
	if o.solve.on {
		have := map[string]bool{}
		for _, l := range rep.Labels {
			if l.Covered {
				have[measure.LabelItem(l.ID)] = true
			}
		}
		r, err := resolve.Uncovered(ctx, m, have, resolve.Options{Plan: o.plan, Timeout: o.solve.timeout})
		if err != nil {
			return fmt.Errorf("--solve: %w", err)
		}
		if err := m.Resolve(rep, r.Verdicts()); err != nil {
			return err
		}
	}
	return writeCoverReport(cmd, g, rep, o)
}

// planGuard is the output guard of a verb that runs tests on a plan: the
// plan, its world (given, or named by the benchmark's truth.json) and the
// tests are inputs.
func planGuard(file, world string, tests []string) *outputs.Guard {
	var g outputs.Guard
	g.Input("the input", file, world)
	guardTests(&g, tests)
	if file != "-" {
		g.Input("the benchmark's truth.json", filepath.Join(filepath.Dir(file), "truth.json"))
		if w, err := runner.WorldBeside(file); err == nil && w != "" {
			g.Input("the benchmark's world", w)
		}
	}
	return &g
}

// limits are the run budgets of the plan's tests.
func (o *coverOptions) limits() runner.Limits {
	return runner.Limits{MaxSteps: o.maxSteps, MaxObjects: o.maxObjects}
}

// outputs are cover's output files with their flags.
func (o *coverOptions) outputs() []outFlag {
	return []outFlag{{"--html", o.html}, {"--lcov", o.lcov}, {"--cobertura", o.cobertura}}
}

// coverMeasurer reads file and builds its measurer as cover's flags say
// (criteria, world or the benchmark's truth.json, limits).
func coverMeasurer(cmd *cobra.Command, file string, o *coverOptions) (*measure.Measurer, error) {
	ms, err := coverSetup(cmd, file, o)
	if err != nil {
		return nil, err
	}
	return ms.m, nil
}

// measured is a plan ready to measure: its tree and measurer.
type measured struct {
	f *syntax.File
	m *measure.Measurer
}

// coverSetup is coverMeasurer, also returning the plan's tree.
func coverSetup(cmd *cobra.Command, file string, o *coverOptions) (*measured, error) {
	if err := o.limits().Check(); err != nil {
		return nil, err
	}
	f, p, to, err := o.readPlan(cmd.InOrStdin(), file)
	if err != nil {
		return nil, err
	}
	mo := measure.Options{Labels: to.Labels, Feasible: to.Feasible, Normalize: to.Normalize, Plan: o.plan, MaxSteps: o.maxSteps, MaxObjects: o.maxObjects, Program: p}
	worldPath, w, err := runner.OpenWorld(file, o.world)
	if err != nil {
		return nil, err
	}
	mo.World, mo.WorldPath = w, worldPath
	// cover runs the plan: a call that cannot link fails every test.
	if err := checkCalls(cmd.ErrOrStderr(), f, p, runner.Link{World: worldPath != ""}); err != nil {
		return nil, err
	}
	m, err := measure.New(f, mo)
	if err != nil {
		return nil, err
	}
	return &measured{f: f, m: m}, nil
}

// writeCoverReport prints rep's warnings and writes it as o asks (--html,
// --lcov, --cobertura, through g, and text or --json on stdout), then
// checks the --fail-under gates.
func writeCoverReport(cmd *cobra.Command, g *outputs.Guard, rep *measure.Report, o *coverOptions) error {
	var err error
	for _, w := range rep.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	if o.html != "" {
		if err := writeReport(g, "--html", o.html, func(w io.Writer) error { return report.HTML(w, rep) }); err != nil {
			return err
		}
	}
	if o.lcov != "" {
		if err := writeReport(g, "--lcov", o.lcov, func(w io.Writer) error { return report.LCOV(w, rep) }); err != nil {
			return err
		}
	}
	if o.cobertura != "" {
		if err := writeReport(g, "--cobertura", o.cobertura, func(w io.Writer) error { return report.Cobertura(w, rep) }); err != nil {
			return err
		}
	}
	if o.json {
		err = report.JSON(cmd.OutOrStdout(), rep)
	} else {
		err = report.Text(cmd.OutOrStdout(), rep)
	}
	if err != nil {
		return err
	}
	if o.justified {
		return failUnder(o.gates, rep.JustifiedFigures())
	}
	return failUnder(o.gates, rep.Figures())
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
	return found("coverage below --fail-under: %s", strings.Join(parts, ", "))
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
