package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The CLI parses flags and prints: it runs plans and checks only through
// the library (fuzzdriver/runner and the packages above it), never by
// calling into the VM or the simulator itself.
func TestCLIImportsNeitherVMNorSimulator(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	facades := map[string]bool{"github.com/labelcov/labelcov/fuzzdriver/subject": true, "github.com/labelcov/labelcov/fuzzdriver/planverbs": true,
		"github.com/labelcov/labelcov/experiments/grid": true}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if strings.HasSuffix(path, "/interp/vm") || strings.HasSuffix(path, "/interp/sim") {
				t.Errorf("%s imports %s", name, path)
			}
			// The CLI maps flags onto the library's front ends and
			// nothing else of the project's (docs/architecture.md):
			// fuzzdriver/subject (what works on a subject: plan, Go
			// packages, sb-cover record), fuzzdriver/planverbs (what
			// runs, replays or rewrites one plan or its inputs) and
			// experiments/grid (compare's grids).
			if strings.HasPrefix(path, "github.com/labelcov/labelcov/") && !facades[path] {
				t.Errorf("%s imports %s: the CLI goes through fuzzdriver/subject, fuzzdriver/planverbs and experiments/grid", name, path)
			}
		}
	}
}

// One place makes a VM run of a plan for an input: interp/sim's Runner.
// Outside tests and the VM itself, no package calls vm.New.
func TestOnePlaceMakesVMRuns(t *testing.T) {
	if found := callers(t, "vm.New("); len(found) != 1 || !strings.HasSuffix(found[0], "interp/sim/runner.go") {
		t.Errorf("vm.New( is called in %v, want interp/sim/runner.go alone", found)
	}
}

// One place tells a plan from Go packages: fuzzdriver/subject's KindOf;
// no other package calls transform/golang.IsPatternArg.
func TestOnePlaceDecidesTheKindOfSubject(t *testing.T) {
	if found := callers(t, ".IsPatternArg("); len(found) != 1 || !strings.HasSuffix(found[0], "fuzzdriver/subject/subject.go") {
		t.Errorf("IsPatternArg is called in %v, want fuzzdriver/subject/subject.go alone", found)
	}
}

// callers are the non-test Go files of the module (benchmarks and
// testdata aside) whose text holds call.
func callers(t *testing.T, call string) []string {
	t.Helper()
	root := filepath.Join("..", "..")
	var found []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "bench" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(src), call) {
			found = append(found, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}
