package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestExitCodes: every verb tells "did its job, nothing found" (0) from
// "found something" (1) from "usage or input error" (2), as README.md's
// "Exit codes" table says.
func TestExitCodes(t *testing.T) {
	const (
		fib   = "../../testdata/plans/fib.plan"
		ws    = "../../testdata/bench/warehouse-sort/warehouse-sort.plan"
		world = "../../testdata/worlds/warehouse.world"
		temp  = "../../testdata/bench/temperature/temperature.plan"
	)
	failing := tempPlan(t, "(def-plan main ()\n  (fail 'grasping-failure \"slipped\"))")
	loop := tempPlan(t, "(def-plan main () (loop))")
	unformatted := tempPlan(t, "(def-plan   main ()\n1)")
	formatted := filepath.Join(t.TempDir(), "f.plan")
	if err := os.WriteFile(formatted, []byte("(def-plan main () 1)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := tempPlan(t, "(def-plan main () 1))")
	quiet := filepath.Join(t.TempDir(), "quiet.args")
	if err := os.WriteFile(quiet, []byte("0\n0\n0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		want int
		args []string
	}{
		{exitOK, []string{"run", fib, "--arg", "10"}},
		{exitFound, []string{"run", failing}},
		{exitFound, []string{"run", failing, "--json"}},
		{exitFound, []string{"run", loop, "--max-steps", "100"}},
		{exitFound, []string{"run", ws, "--world", world, "--env", "../../testdata/envs/warehouse-three.env"}},
		{exitUsage, []string{"run", fib, "--no-such-flag"}},
		{exitUsage, []string{"run", "no-such-file.plan"}},
		{exitUsage, []string{"run", broken}},
		{exitUsage, []string{"run", fib, "--arg", "10", "--max-objects", "0"}},
		{exitFound, []string{"replay", temp, "../../testdata/bench/temperature/reproducers/heating-while-warm.args"}},
		{exitFound, []string{"replay", temp, "--json", "../../testdata/bench/temperature/reproducers/heating-while-warm.args"}},
		{exitOK, []string{"replay", temp, quiet}},
		{exitUsage, []string{"replay", temp}},
		{exitOK, []string{"fmt", "--check", formatted}},
		{exitFound, []string{"fmt", "--check", unformatted}},
		{exitUsage, []string{"fmt", "--check", broken}},
		{exitUsage, []string{"fuzz", temp, "--max-objects", "-1"}},
		{exitUsage, []string{"cover", fib, "--tests", "../../testdata/tests/fib", "--max-objects", "0"}},
		{exitUsage, []string{"sample", ws, "--world", world, "--n", "10", "--max-objects", "0"}},
		{exitUsage, []string{"env", "decode", world, "../../testdata/envs/warehouse-three.bin", "--max-objects", "0"}},
		{exitUsage, []string{"no-such-verb"}},
	} {
		code, _, errs := execLabelcov(c.args...)
		if code != c.want {
			t.Errorf("labelcov %s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, c.want, errs)
		}
	}
}

// TestExitCodesTable: README.md's "Exit codes" table names the codes
// exitcode.go defines, and the docs that speak of exit status point to it.
func TestExitCodesTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sec := regexp.MustCompile(`(?s)\n## Exit codes\n(.*?)\n## `).FindSubmatch(readme)
	if sec == nil {
		t.Fatal(`README.md has no "## Exit codes" section`)
	}
	rows := regexp.MustCompile("(?m)^\\| `?([0-9])`? \\|").FindAllSubmatch(sec[1], -1)
	var got []int
	for _, r := range rows {
		n, _ := strconv.Atoi(string(r[1]))
		got = append(got, n)
	}
	want := []int{exitOK, exitFound, exitUsage, exitInterrupted}
	if len(got) != len(want) {
		t.Fatalf("README's exit code table has codes %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("README's exit code table has codes %v, want %v", got, want)
		}
	}
	for _, doc := range []string{"docs/fuzzing.md", "docs/cover.md", "docs/go.md"} {
		b, err := os.ReadFile("../../" + doc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "README.md#exit-codes") {
			t.Errorf("%s does not point to README.md's exit code table", doc)
		}
		if regexp.MustCompile(`(?i)(bad input|usage)[^.]*(also )?exits? 1\b`).Match(b) {
			t.Errorf("%s still says bad input exits 1", doc)
		}
	}
}

// TestFirstLineIsTheReason: a mistaken invocation says what is wrong on
// its first line of stderr, with no storm of warnings before it.
func TestFirstLineIsTheReason(t *testing.T) {
	const (
		ws    = "../../testdata/bench/warehouse-sort/warehouse-sort.plan"
		world = "../../testdata/worlds/warehouse.world"
		temp  = "../../testdata/bench/temperature/temperature.plan"
		env   = "../../testdata/envs/warehouse-three.env"
	)
	for _, c := range []struct {
		args  []string
		first string
	}{
		{[]string{"replay", ws, env}, "warehouse-three.env is a .env scenario: replaying it needs --world"},
		{[]string{"replay", ws, "../../testdata/envs/warehouse-three.bin"}, "this plan performs actions, which needs a world: give --world"},
		{[]string{"run", ws, "--env", env}, "--env, --bytes and --trace need --world"},
		{[]string{"fuzz", temp, "--world", world, "--runs", "10"}, "temperature.plan uses no world: its plan main takes 3 parameter(s)"},
		{[]string{"labels", "./..."}, "./... is not a plan file: this command reads .plan files; for Go packages use labelcov annotate or labelcov cover"},
		{[]string{"replay", temp}, "missing INPUT"},
		{[]string{"env", "decode", world}, "missing FILE.bin"},
		{[]string{"run"}, "missing FILE"},
		{[]string{"reduce"}, "missing PLAN"},
		{[]string{"gentests"}, "missing PLAN"},
		{[]string{"sarif", temp}, "missing CAMPAIGN_DIR"},
		{[]string{"fuzz", temp, "--max-objects", "0"}, "--max-objects must be positive, got 0"},
		// One check of the run budgets (runner.Limits.Check) in every verb that runs a plan.
		{[]string{"fuzz", temp, "--max-steps", "0"}, "--max-steps must be positive, got 0"},
		{[]string{"run", temp, "--max-steps", "-1"}, "--max-steps must be positive, got -1"},
		{[]string{"sample", temp, "--max-steps", "0"}, "--max-steps must be positive, got 0"},
		{[]string{"reduce", temp, "--tests", "../../testdata/bench/temperature/reproducers", "--max-steps", "0", "--out", filepath.Join(t.TempDir(), "new")}, "--max-steps must be positive, got 0"},
		{[]string{"gentests", temp, "--tests", "../../testdata/bench/temperature/reproducers", "--runs", "10", "--max-objects", "0", "--out", filepath.Join(t.TempDir(), "gen")}, "--max-objects must be positive, got 0"},
	} {
		code, _, errs := execLabelcov(c.args...)
		first, _, _ := strings.Cut(errs, "\n")
		if code != exitUsage || !strings.Contains(first, c.first) || strings.Contains(errs, "warning") {
			t.Errorf("labelcov %s: exit %d, first line %q, want %q\n%s", strings.Join(c.args, " "), code, first, c.first, errs)
		}
	}
}
