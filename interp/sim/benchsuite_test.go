package sim

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
	"github.com/labelcov/labelcov/interp/vm"
)

// benchDir holds the benchmark plans with their ground truth.
const benchDir = "../../testdata/bench"

// benchTruth is a benchmark's truth.json.
type benchTruth struct {
	Version    int    `json:"version"`
	World      string `json:"world"`
	Categories []struct {
		Name        string `json:"name"`
		Explanation string `json:"explanation"`
		Reproducer  string `json:"reproducer"`
		// Also lists categories the reproducer triggers too, for a
		// category that never occurs alone.
		Also []string `json:"also,omitempty"`
	} `json:"categories"`
}

// benchRun is what one run of a benchmark plan found.
type benchRun struct {
	outcome vm.Outcome
	failure *vm.Failure
	errors  []string
	checks  []CheckError
	actions []ActionRecord
}

// benchPlan runs one benchmark plan, with or without a world.
type benchPlan struct {
	dir    string
	truth  benchTruth
	prog   *compile.Program
	runner *Runner // with or without a world
}

func loadBenchPlan(t *testing.T, dir string) *benchPlan {
	t.Helper()
	name := filepath.Base(dir)
	b := &benchPlan{dir: dir}
	data, err := os.ReadFile(filepath.Join(dir, "truth.json"))
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b.truth); err != nil {
		t.Fatalf("%s/truth.json: %v", dir, err)
	}
	if len(b.truth.Categories) == 0 {
		t.Fatalf("%s/truth.json lists no categories", dir)
	}
	planPath := filepath.Join(dir, name+".plan")
	src, err := os.ReadFile(planPath)
	if err != nil {
		t.Fatal(err)
	}
	f, err := syntax.Parse(planPath, src)
	if err != nil {
		t.Fatal(err)
	}
	if b.prog, err = compile.Compile(f); err != nil {
		t.Fatal(err)
	}
	if len(b.prog.Checks()) == 0 {
		t.Fatalf("%s has no def-check", planPath)
	}
	if b.truth.World != "" {
		w, err := LoadWorld(filepath.Join(dir, b.truth.World))
		if err != nil {
			t.Fatal(err)
		}
		if b.runner, err = NewRunner(b.prog, w, Options{}); err != nil {
			t.Fatal(err)
		}
		return b
	}
	if b.runner, err = NewRunner(b.prog, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	return b
}

// run runs the plan on the reproducer at path ("" for the empty
// environment, or all-zero arguments without a world) and its checks.
func (b *benchPlan) run(t *testing.T, path string) benchRun {
	t.Helper()
	ctx := context.Background()
	if b.runner.World() != nil {
		env := &Env{}
		if path != "" {
			var err error
			if env, err = b.runner.World().LoadEnv(path); err != nil {
				t.Fatal(err)
			}
		}
		res := b.runner.Run(ctx, env).Clone()
		return benchRun{res.VM.Outcome, res.VM.Failure, res.Errors, res.CheckErrors, res.Actions}
	}
	args := make([]value.Value, b.runner.Plan().NumParams())
	for i := range args {
		args[i] = value.Int(0)
	}
	if path != "" {
		args = readArgs(t, path)
		if err := b.runner.CheckArgs(args); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
	res := b.runner.RunArgs(ctx, nil, args).Clone()
	return benchRun{res.VM.Outcome, res.VM.Failure, res.Errors, res.CheckErrors, nil}
}

// readArgs reads an .args file: one plan literal per line.
func readArgs(t *testing.T, path string) []value.Value {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var args []value.Value
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		n, err := syntax.ParseExpr(fmt.Sprintf("%s:%d", path, line), []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, compile.Literal(n))
	}
	return args
}

func benchDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(benchDir)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(benchDir, e.Name()))
		}
	}
	if len(dirs) < 5 {
		t.Fatalf("want at least 5 benchmarks in %s, found %d", benchDir, len(dirs))
	}
	return dirs
}

// TestBenchSuite checks every benchmark: the plan compiles, truth.json
// parses, the empty environment triggers no category, and each reproducer
// triggers exactly its own category (plus those listed in "also"), with
// the plan ending normally.
func TestBenchSuite(t *testing.T) {
	for _, dir := range benchDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			b := loadBenchPlan(t, dir)
			empty := b.run(t, "")
			if empty.outcome != vm.OutcomeOK || len(empty.errors) > 0 || len(empty.checks) > 0 {
				t.Errorf("empty environment: outcome %s %v, categories %v, check errors %v", empty.outcome, empty.failure, empty.errors, empty.checks)
			}
			seen := map[string]bool{}
			for _, c := range b.truth.Categories {
				if c.Name == "" || c.Explanation == "" || c.Reproducer == "" {
					t.Errorf("category %+v needs a name, an explanation and a reproducer", c)
					continue
				}
				if seen[c.Name] {
					t.Errorf("category %s listed twice", c.Name)
				}
				seen[c.Name] = true
				want := ".env"
				if b.truth.World == "" {
					want = ".args"
				}
				if filepath.Ext(c.Reproducer) != want {
					t.Errorf("%s: reproducer %s should be a %s file", c.Name, c.Reproducer, want)
					continue
				}
				res := b.run(t, filepath.Join(dir, c.Reproducer))
				if res.outcome != vm.OutcomeOK {
					t.Errorf("%s: %s ends with %s %v", c.Name, c.Reproducer, res.outcome, res.failure)
				}
				if len(res.checks) > 0 {
					t.Errorf("%s: %s: checks failed: %v", c.Name, c.Reproducer, res.checks)
				}
				wantCats := append([]string{c.Name}, c.Also...)
				got := append([]string(nil), res.errors...)
				sort.Strings(wantCats)
				sort.Strings(got)
				if !reflect.DeepEqual(got, wantCats) {
					t.Errorf("%s: %s triggers %v, want exactly %v", c.Name, c.Reproducer, got, wantCats)
				}
			}
		})
	}
}

// TestBenchWarehouseSortScale checks that warehouse-sort has the scale of
// the seed study: about 1,800 instructions, 50 or more conditional jumps,
// and all six action types (performed by its reproducers).
func TestBenchWarehouseSortScale(t *testing.T) {
	b := loadBenchPlan(t, filepath.Join(benchDir, "warehouse-sort"))
	if n := b.prog.NumInstructions(); n < 1500 {
		t.Errorf("warehouse-sort has %d instructions, want at least 1500", n)
	}
	if n := b.prog.NumBranches(); n < 50 {
		t.Errorf("warehouse-sort has %d conditional jumps, want at least 50", n)
	}
	used := map[string]bool{}
	for _, c := range b.truth.Categories {
		for _, a := range b.run(t, filepath.Join(b.dir, c.Reproducer)).actions {
			used[a.Type] = true
		}
	}
	for _, a := range ActionNames() {
		if !used[a] {
			t.Errorf("warehouse-sort's reproducers never perform %s", a)
		}
	}
	if n := b.runner.World().NumBuckets(); n < 80 {
		t.Errorf("warehouse world has %d action buckets, want about 87", n)
	}
	var names []string
	for _, c := range b.truth.Categories {
		names = append(names, c.Name)
	}
	for _, want := range []string{"missed-at-shelf-back", "left-on-table", "moved-to-table", "one-board-too-high", "one-board-too-low", "two-boards-too-high", "two-boards-too-low"} {
		if !slices.Contains(names, want) {
			t.Errorf("warehouse-sort's truth lacks category %s", want)
		}
	}
}
