package vm

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

// FuzzVM: any source that compiles runs every function (arguments nil)
// under small budgets without panicking, and the run ends with a
// well-formed Result within the step budget, the same (result, steps,
// counters) on the fused code as on the plain code; also with labels
// counting as the built-in engine's (fired only, silently retired, the
// fused code skipping dead probes), every function run twice so that
// labels retire.
func FuzzVM(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "plans", "*.plan"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src)
		}
	}
	// The language scripts (run by compile's TestScripts) reach every form;
	// like TestScripts, append the prelude that defines their helpers.
	scripts := filepath.Join("..", "compile", "testdata", "scripts")
	prelude, _ := os.ReadFile(filepath.Join(scripts, "prelude.lisp"))
	files, _ = filepath.Glob(filepath.Join(scripts, "*.plan"))
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(append(append(src, '\n'), prelude...))
		}
	}
	f.Add([]byte("(defun f (n) (if (< n 1) (car n) (f (- n 1)))) (def-plan p () (with-failure-handling ((error (e) (retry))) (f 3)))"))
	f.Add([]byte("(def-plan p () (let ((l nil)) (dotimes (i 100) (push (lambda () (incf i)) l)) (dolist (g l) (funcall g))))"))
	f.Add([]byte("(defun g (x) (when (ignore-errors (< x 0))) (* x 2)) (def-plan p () (dotimes (i 9) (when (ignore-errors (= (g i) (car i))))) (when (ignore-errors (while t))) 1)"))
	// Chains of label probes (probe groups), nested in another probe too.
	f.Add([]byte("(defun h (y) (when (ignore-errors (< y 0))) (when (ignore-errors (> y 1.5))) (when (ignore-errors (eq y 'a))) y) (def-plan p () (dotimes (i 4) (when (ignore-errors (= i 2))) (when (ignore-errors (> (h i) (h 2)))) (when (ignore-errors (/= i 0))) (when (ignore-errors (< i 3)))) (h 'a))"))
	// Guarded probes (conjunctions led by a comparison), nested too.
	f.Add([]byte("(defun h (y) (when (ignore-errors (and (< y 2) (car y)))) y) (def-plan p () (dotimes (i 4) (when (ignore-errors (and (> i 1) (= (h i) 2)))) (when (ignore-errors (and i (< i 3) (h 'a))))) (h 1))"))
	// testdata/fuzz/FuzzVM holds hostile inputs (issue 11: deep values,
	// long lists in loops, output loops) and nested probes.
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := syntax.Parse("fuzz.plan", src)
		if err != nil {
			return
		}
		p, err := compile.Compile(file)
		if err != nil {
			return
		}
		const maxSteps = 20_000
		for _, lm := range []LabelMode{{}, {Retire: true, FiredOnly: true, SilentRetire: true}} {
			fuzzRun(t, p, Config{MaxSteps: maxSteps, MaxDepth: 200, MaxAlloc: 20_000, MaxOutput: 1 << 16, Labels: lm})
		}
	})
}

// fuzzRun is FuzzVM on one configuration.
func fuzzRun(t *testing.T, p *compile.Program, cfg Config) {
	maxSteps := cfg.MaxSteps
	m, plain := fusedAndPlain(t, p, cfg)
	rounds := 1
	if cfg.Labels.Retire {
		rounds = 2
	}
	for range rounds {
		for _, fn := range p.Funcs {
			if fn.Kind == compile.KindLambda || fn.Kind == compile.KindInit {
				continue
			}
			args := make([]value.Value, fn.NumParams())
			m.ResetCounters()
			r := m.Run(context.Background(), fn, args)
			plain.ResetCounters()
			if rp := plain.Run(context.Background(), fn, args); resultString(rp) != resultString(r) || failurePos(rp) != failurePos(r) ||
				rp.LabelSteps != r.LabelSteps || !bytes.Equal(plain.Counters(), m.Counters()) {
				t.Fatalf("%s: fused %s %s (label %d), plain %s %s (label %d), counters equal %v", fn.Name,
					resultString(r), failurePos(r), r.LabelSteps, resultString(rp), failurePos(rp), rp.LabelSteps, bytes.Equal(plain.Counters(), m.Counters()))
			}
			if r.Steps > maxSteps {
				t.Fatalf("%s ran %d steps, budget %d", fn.Name, r.Steps, maxSteps)
			}
			if r.LabelSteps > DefaultLabelStepsFactor*maxSteps+1 {
				t.Fatalf("%s ran %d label steps, budget %d", fn.Name, r.LabelSteps, DefaultLabelStepsFactor*maxSteps)
			}
			if m.probeDepth != 0 || len(m.handlers) != 0 || m.maxSteps != maxSteps {
				t.Fatalf("%s: probe state left behind", fn.Name)
			}
			switch r.Outcome {
			case OutcomeOK:
			case OutcomeFailure, OutcomeTimeout:
				if r.Failure == nil || r.Failure.Kind == "" {
					t.Fatalf("%s: outcome %s without a failure", fn.Name, r.Outcome)
				}
			default:
				t.Fatalf("%s: unknown outcome %q", fn.Name, r.Outcome)
			}
		}
	}
}
