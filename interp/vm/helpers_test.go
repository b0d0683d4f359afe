package vm

import (
	"bytes"
	"context"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// compileSrc parses and compiles src, failing the test on error.
func compileSrc(t testing.TB, src string) *compile.Program {
	t.Helper()
	f, err := syntax.Parse("test.plan", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return p
}

// runMain runs plan main (or the function named main) of src.
func runMain(t testing.TB, src string, cfg Config, args ...value.Value) (Result, string, *Machine) {
	t.Helper()
	p := compileSrc(t, src)
	var out bytes.Buffer
	if cfg.Stdout == nil {
		cfg.Stdout = &out
	}
	m, err := New(p, cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	fn := p.Func("main")
	if fn == nil {
		t.Fatalf("no main in %s", src)
	}
	return m.Run(context.Background(), fn, args), out.String(), m
}

// eval runs (def-plan main () EXPR) with extra top-level defs and returns
// the printed result, or "FAIL kind" / "TIMEOUT".
func eval(t testing.TB, defs, expr string) string {
	t.Helper()
	r, _, _ := runMain(t, defs+"\n(def-plan main () "+expr+")", Config{MaxSteps: 1_000_000})
	switch r.Outcome {
	case OutcomeOK:
		return r.Value.String()
	case OutcomeFailure:
		return "FAIL " + r.Failure.Kind
	}
	return "TIMEOUT"
}

func coreTableNames() []string {
	var out []string
	for _, s := range compile.CoreBuiltins() {
		out = append(out, s.Name)
	}
	return out
}

// fusedAndPlain makes two machines for p with cfg: one running the fused
// code, one the plain code (its fused copy is the plain one), for
// differential tests of the superinstructions.
func fusedAndPlain(t testing.TB, p *compile.Program, cfg Config) (fused, plain *Machine) {
	t.Helper()
	fused, err := New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain, err = New(p, cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain.fused = plain.plain
	return fused, plain
}

// runPair runs plan main of p with args on two machines for the same
// program (fused and plain, say), resetting their counters first, and
// returns each run rendered (result, failure position, label steps) and
// a copy of its counters.
func runPair(p *compile.Program, machines [2]*Machine, args ...value.Value) (res [2]string, cnt [2][]uint8) {
	return runPlanPair(p, p.Plan("main"), machines, args...)
}

// runPlanPair is runPair for plan fn, followed by the program's checks
// (rendered too).
func runPlanPair(p *compile.Program, fn *compile.Func, machines [2]*Machine, args ...value.Value) (res [2]string, cnt [2][]uint8) {
	render := func(r Result) string {
		return resultString(r) + " " + failurePos(r) + " label=" + value.Int(r.LabelSteps).String()
	}
	for k, m := range machines {
		m.ResetCounters()
		res[k] = render(m.Run(context.Background(), fn, args))
		for _, c := range p.Checks() {
			res[k] += "; " + render(m.Call(context.Background(), c, nil))
		}
		cnt[k] = append([]uint8(nil), m.Counters()...)
	}
	return res, cnt
}
