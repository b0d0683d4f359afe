package compile_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/vm"
)

// TestScripts runs the language tests in testdata/scripts, in the style of
// starlark-go's testdata/*.star: each NAME.plan file defines plans named
// test-...; every one of them must finish without failure (they check
// their results with assert). When NAME.out exists, the output the plans
// print, in source order, must equal it. The runner appends
// testdata/scripts/prelude.lisp to each script (after its last line, so
// positions in the script stay true), as starlark-go's runner provides
// assert.star: it defines failure-kind, with which scripts check expected
// failures.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/scripts/*.plan")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	prelude, err := os.ReadFile("testdata/scripts/prelude.lisp")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".plan")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			src = append(append(src, '\n'), prelude...)
			f, err := syntax.Parse(file, src)
			if err != nil {
				t.Fatal(err)
			}
			p, err := compile.Compile(f)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			m, err := vm.New(p, vm.Config{Stdout: &out, MaxSteps: 1_000_000})
			if err != nil {
				t.Fatal(err)
			}
			ran := 0
			for _, fn := range p.Funcs {
				if !strings.HasPrefix(fn.Name, "test-") || fn.Kind != compile.KindPlan {
					continue
				}
				ran++
				r := m.Run(context.Background(), fn, nil)
				if r.Outcome != vm.OutcomeOK {
					t.Errorf("%s: %v", fn.Name, r.Failure)
				}
			}
			if ran == 0 {
				t.Fatalf("%s defines no test- plans", file)
			}
			want, err := os.ReadFile(strings.TrimSuffix(file, ".plan") + ".out")
			if err == nil && out.String() != string(want) {
				t.Errorf("output:\n%s\nwant:\n%s", out.String(), want)
			}
		})
	}
}
