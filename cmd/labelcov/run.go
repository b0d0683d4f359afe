package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
	"github.com/spf13/cobra"
)

type runOptions struct {
	plan     string
	args     []string
	maxSteps int64
	json     bool
}

func newRunCmd() *cobra.Command {
	var o runOptions
	cmd := &cobra.Command{
		Use:   "run FILE",
		Short: "Run a plan and print what it printed and its result",
		Long: `Run compiles FILE and runs one of its plans: the one named by --plan, else the
plan called main, else the file's only def-plan. Each --arg is read as a plan
literal (42, 2.5, "text", :key, sym, (1 2 3)) and passed as the next argument.

What the plan prints appears as it happens; the last line is "=> VALUE" when the
plan returns, or "!! KIND at FILE:LINE:COL: MESSAGE" when an unhandled failure
or the step budget (--max-steps) ends it. With --json, one JSON object reports
outcome (ok, failure, timeout), result, failure {kind, message, pos}, steps,
coverage {instructions, branches} {covered, total} and output instead.

The exit status is 0 whenever the plan ran, whatever its outcome, and 1 when
FILE, the flags or the arguments are wrong.`,
		Example: `  labelcov run testdata/plans/fib.plan --arg 20
  labelcov run warehouse.plan --plan fetch --arg :left --arg '(cup bowl)'
  labelcov run loop.plan --max-steps 1000 --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFile(cmd.Context(), cmd.OutOrStdout(), args[0], o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.plan, "plan", "", "name of the def-plan to run (default: main, or the only plan)")
	f.StringArrayVar(&o.args, "arg", nil, "an argument for the plan, as a plan literal (repeatable)")
	f.Int64Var(&o.maxSteps, "max-steps", vm.DefaultMaxSteps, "step budget: instructions before the run ends with outcome timeout")
	f.BoolVar(&o.json, "json", false, "print one JSON object instead of the human report")
	return cmd
}

// loadProgram reads, parses and compiles a plan file.
func loadProgram(path string) (*compile.Program, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading plan: %w", err)
	}
	f, err := syntax.Parse(path, src)
	if err != nil {
		return nil, err
	}
	return compile.Compile(f)
}

// selectPlan picks the plan to run: name, else main, else the only plan.
func selectPlan(p *compile.Program, name string) (*compile.Func, error) {
	var names []string
	for _, f := range p.Plans() {
		names = append(names, f.Name)
	}
	if name != "" {
		if f := p.Plan(name); f != nil {
			return f, nil
		}
		return nil, fmt.Errorf("no plan named %q in %s (plans: %s)", name, p.File, listOrNone(names))
	}
	if f := p.Plan("main"); f != nil {
		return f, nil
	}
	if len(names) == 1 {
		return p.Plans()[0], nil
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%s has no def-plan to run", p.File)
	}
	return nil, fmt.Errorf("%s has several plans and none is called main; choose one with --plan (plans: %s)", p.File, listOrNone(names))
}

func listOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// planArgs reads --arg values as plan literals.
func planArgs(fn *compile.Func, raw []string) ([]value.Value, error) {
	if len(raw) != fn.NumParams() {
		return nil, fmt.Errorf("plan %s takes %d argument%s (%s), got %d --arg", fn.Name, fn.NumParams(),
			map[bool]string{true: "", false: "s"}[fn.NumParams() == 1], strings.Join(fn.Params, " "), len(raw))
	}
	vals := make([]value.Value, len(raw))
	for i, s := range raw {
		n, err := syntax.ParseExpr(fmt.Sprintf("--arg %d", i+1), []byte(s))
		if err != nil {
			return nil, err
		}
		vals[i] = compile.Literal(n)
	}
	return vals, nil
}

// runPlan runs fn of p with cfg and returns the result and the machine (for
// its counters). It is the one place that runs plans for the CLI, so that
// hosts (a simulator world) and other limits arrive through cfg alone.
func runPlan(ctx context.Context, p *compile.Program, fn *compile.Func, args []value.Value, cfg vm.Config) (vm.Result, *vm.Machine, error) {
	m, err := vm.New(p, cfg)
	if err != nil {
		return vm.Result{}, nil, err
	}
	if ctx == nil {
		ctx = context.Background()
	}
	return m.Run(ctx, fn, args), m, nil
}

func runFile(ctx context.Context, stdout io.Writer, path string, o runOptions) error {
	if o.maxSteps <= 0 {
		return fmt.Errorf("--max-steps must be positive, got %d", o.maxSteps)
	}
	p, err := loadProgram(path)
	if err != nil {
		return err
	}
	fn, err := selectPlan(p, o.plan)
	if err != nil {
		return err
	}
	args, err := planArgs(fn, o.args)
	if err != nil {
		return err
	}
	cfg := vm.Config{MaxSteps: o.maxSteps, Stdout: stdout}
	var output bytes.Buffer
	if o.json {
		cfg.Stdout = &output
	}
	r, m, err := runPlan(ctx, p, fn, args, cfg)
	if err != nil {
		return err
	}
	if o.json {
		return writeRunJSON(stdout, p, fn, r, vm.Summarize(p, m.Counters()), output.String())
	}
	switch r.Outcome {
	case vm.OutcomeOK:
		_, err = fmt.Fprintf(stdout, "=> %s\n", r.Value)
	default:
		_, err = fmt.Fprintf(stdout, "!! %s at %s:%s: %s\n", r.Failure.Kind, r.Failure.File, r.Failure.Pos, r.Failure.Message)
	}
	return err
}

// runReport is the --json output; "version" versions its shape.
type runReport struct {
	Version  int            `json:"version"`
	Plan     string         `json:"plan"`
	Outcome  string         `json:"outcome"`
	Result   *string        `json:"result"`
	Failure  *failureReport `json:"failure"`
	Steps    int64          `json:"steps"`
	Coverage struct {
		Instructions covered `json:"instructions"`
		Branches     covered `json:"branches"`
	} `json:"coverage"`
	Output string `json:"output"`
}

type failureReport struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Pos     string `json:"pos"`
}

type covered struct {
	Covered int `json:"covered"`
	Total   int `json:"total"`
}

func writeRunJSON(w io.Writer, p *compile.Program, fn *compile.Func, r vm.Result, cov vm.Coverage, output string) error {
	rep := runReport{Version: 1, Plan: fn.Name, Outcome: string(r.Outcome), Steps: r.Steps, Output: output}
	if r.Outcome == vm.OutcomeOK {
		s := r.Value.String()
		rep.Result = &s
	} else if r.Failure != nil {
		rep.Failure = &failureReport{Kind: r.Failure.Kind, Message: r.Failure.Message,
			Pos: fmt.Sprintf("%s:%s", r.Failure.File, r.Failure.Pos)}
	}
	rep.Coverage.Instructions = covered{cov.InstrCovered, cov.InstrTotal}
	rep.Coverage.Branches = covered{cov.BranchCovered, cov.BranchTotal}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
