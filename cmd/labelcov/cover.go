package main

import (
	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// coverOptions are the flags of the suite verbs (cover, reduce, gentests):
// what the user typed, mapped onto subject.Options.
type coverOptions struct {
	labelFlags
	world      string
	tests      []string
	plan       string
	maxSteps   int64
	maxObjects int
	json       bool
	cover      subject.CoverOptions
	sbcl       sbclCoverOptions
}

// sbclCoverOptions are cover's flags for label coverage recorded by SBCL's
// sb-cover (package coverage/sbcover).
type sbclCoverOptions struct {
	from      string
	manifest  string
	annotated string
	features  []string
}

func (o *sbclCoverOptions) register(f *pflag.FlagSet) {
	f.StringVar(&o.from, "from-sbcl", "", "SBCL: the file sb-cover:save-coverage-in-file wrote after your tests ran on the annotated plan (needs --manifest)")
	f.StringVar(&o.manifest, "manifest", "", "SBCL, with --from-sbcl: the label manifest labelcov annotate --manifest wrote")
	f.StringVar(&o.annotated, "annotated", "", "SBCL, with --from-sbcl: the annotated plan SBCL compiled (default: the manifest's)")
	f.StringSliceVar(&o.features, "features", nil, "SBCL, with --from-sbcl: the features SBCL read the annotated plan with, for its #+/#- (default: Debian SBCL's on x86-64)")
}

// openSubject opens the subject of a suite verb: its arguments and the
// flags o and g (subject.Open decides what kind of subject it is).
func openSubject(cmd *cobra.Command, args []string, o *coverOptions, g *goFuzzOptions) (subject.Subject, error) {
	return subject.Open(subject.Options{Args: args, Changed: cmd.Flags().Changed, Stdin: cmd.InOrStdin(), Stderr: cmd.ErrOrStderr(),
		LabelSettings: subject.LabelSettings{Criteria: o.criteria, MCCMaxAtoms: o.maxAtoms, Pure: o.pure, NoValues: o.noValues},
		PlanSettings:  subject.PlanSettings{World: o.world, Tests: o.tests, PlanName: o.plan, MaxSteps: o.maxSteps, MaxObjects: o.maxObjects},
		GoSettings: subject.GoSettings{Fuzz: g.fuzz, FuzzCache: g.fuzzCache, Dir: g.dir, Tags: g.tags, LabelPkgs: g.labelPkgs,
			PerTest: g.perTest, Verbose: g.verbose},
		SBCLSettings: subject.SBCLSettings{FromSBCL: o.sbcl.from, Manifest: o.sbcl.manifest, Annotated: o.sbcl.annotated, Features: o.sbcl.features},
		JSON:         o.json || g.json})
}

func newCoverCmd() *cobra.Command {
	var o coverOptions
	var g goFuzzOptions
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
			min, max, name := subject.CoverArgs(subject.Options{SBCLSettings: subject.SBCLSettings{FromSBCL: o.sbcl.from}})
			return argsNamed(min, max, name)(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := openSubject(cmd, args, &o, &g)
			if err != nil {
				return err
			}
			return s.Cover(cmd.Context(), cmd.OutOrStdout(), o.cover)
		},
	}
	o.labelFlags.register(cmd)
	registerPlanTestFlags(cmd, &o)
	f := cmd.Flags()
	f.BoolVar(&o.json, "json", false, "print the report as JSON instead of text")
	f.StringVar(&o.cover.HTML, "html", "", "write a self-contained HTML report to this file")
	f.StringVar(&o.cover.LCOV, "lcov", "", "write an LCOV tracefile to this file")
	f.StringVar(&o.cover.Cobertura, "cobertura", "", "write a Cobertura XML report (lines, labels as conditions) to this file")
	f.StringVar(&o.cover.FailUnder, "fail-under", "", "exit 1 when a coverage figure is below its percentage: KEY=PERCENT,... (keys: the criteria, wm, all, instructions, branches, actions; Go: statements, blocks), e.g. mcdc=80,mcc=90,wm=70")
	f.BoolVar(&o.cover.Justified, "fail-under-justified", false, "with --fail-under: count the objectives proven infeasible (each with its reason, by the static analysis or --solve) with the covered ones: a gate compares (covered + infeasible) / total")
	registerSolve(cmd, &o.cover.Solve, "plans: solve each label the tests leave uncovered with z3 (docs/solve.md), so that it ends infeasible (with the proof's reason) or unresolved (with what was tried); with a world, search for a scenario that covers it instead; arguments and scenarios found are reported, not written (gentests --solve writes them)")
	f.StringVar(&g.fuzz, "fuzz", "", "Go packages: measure this fuzz target's corpus (testdata/fuzz/NAME and go test -fuzz's cache) instead of the tests")
	f.StringVar(&g.fuzzCache, "fuzz-cache", "", "Go packages, with --fuzz: root of go test -fuzz's generated corpora (default $(go env GOCACHE)/fuzz)")
	f.BoolVar(&g.perTest, "per-test", false, "Go packages: also run each test (with --fuzz: each corpus entry) alone, for which test covers each label and diversity")
	f.BoolVarP(&g.verbose, "verbose", "v", false, "Go packages: show the go command's output")
	f.StringVarP(&g.dir, "dir", "C", "", "Go packages: run the go command in this directory")
	f.StringVar(&g.tags, "tags", "", "Go packages: build tags")
	f.StringSliceVar(&g.labelPkgs, "label-pkgs", nil, labelPkgsUsage)
	o.sbcl.register(f)
	return cmd
}

// registerSolve registers --solve and --solve-timeout (cover, gentests).
func registerSolve(cmd *cobra.Command, so *subject.SolveOptions, usage string) {
	cmd.Flags().BoolVar(&so.On, "solve", false, usage)
	cmd.Flags().DurationVar(&so.Timeout, "solve-timeout", subject.DefaultSolveTimeout, "with --solve: the solver's budget per label, as z3's resource limit (about that much CPU time; the same answers whatever the load); with a world, a bound on the environment search's wall-clock time per label when no --budget bounds it")
}
