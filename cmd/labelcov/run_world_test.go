package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// sortPlan is the simulator's small pick-and-place plan; the world and
// environments are shared with env_test.go.
const sortPlan = "../../interp/sim/testdata/sort.plan"

func TestRunInWorldHuman(t *testing.T) {
	code, out, errs := execLabelcov("run", sortPlan, "--world", warehouseWorld, "--env", threeEnv, "--trace")
	// The checks report an error: exit 1, after the whole report.
	if code != exitFound || errs != "labelcov: run: the checks report 1 error(s) (exit status 1)\n" {
		t.Fatalf("code %d err %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(strings.TrimSpace(lines[0]), "1 parking-arms") {
		t.Errorf("trace should start with the first action, got %q", lines[0])
	}
	if !strings.Contains(out, "error: object-not-sorted") {
		t.Errorf("the unsorted check should fire on this environment:\n%s", out)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "=> ") {
		t.Errorf("last line %q, want the result", last)
	}
}

// The same environment as .env and as bytes gives the same run.
func TestRunInWorldEnvEqualsBytes(t *testing.T) {
	_, fromEnv, _ := execLabelcov("run", sortPlan, "--world", warehouseWorld, "--env", threeEnv, "--json")
	_, fromBytes, _ := execLabelcov("run", sortPlan, "--world", warehouseWorld, "--bytes", threeBin, "--json")
	if fromEnv != fromBytes {
		t.Errorf("--env and --bytes of the same environment differ:\n%s\n---\n%s", fromEnv, fromBytes)
	}
	var rep struct {
		Outcome  string   `json:"outcome"`
		Errors   []string `json:"errors"`
		Actions  []any    `json:"actions"`
		Coverage struct {
			Actions struct{ Covered, Total int } `json:"actions"`
		} `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(fromEnv), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != "ok" || len(rep.Errors) != 1 || rep.Errors[0] != "object-not-sorted" {
		t.Errorf("outcome %q errors %v", rep.Outcome, rep.Errors)
	}
	if len(rep.Actions) == 0 || rep.Coverage.Actions.Covered == 0 || rep.Coverage.Actions.Total != 88 {
		t.Errorf("actions %d, action coverage %+v", len(rep.Actions), rep.Coverage.Actions)
	}
}

func TestRunInWorldEmptyEnvironmentAndErrors(t *testing.T) {
	code, out, _ := execLabelcov("run", sortPlan, "--world", warehouseWorld)
	if code != 0 || !strings.Contains(out, "checks: no errors") || !strings.Contains(out, "=> 0") {
		t.Errorf("empty environment: code %d out %q", code, out)
	}
	// Without a world, world queries signal no-world, and world-only flags
	// are usage errors.
	code, out, _ = execLabelcov("run", sortPlan)
	if code != exitFound || !strings.HasPrefix(out, "!! no-world at ") {
		t.Errorf("no world: code %d out %q", code, out)
	}
	code, _, errs := execLabelcov("run", sortPlan, "--trace")
	if code != exitUsage || !strings.Contains(errs, "need --world") {
		t.Errorf("--trace without --world: code %d err %q", code, errs)
	}
	code, _, errs = execLabelcov("run", sortPlan, "--world", warehouseWorld, "--env", threeEnv, "--bytes", threeBin)
	if code != exitUsage || !strings.Contains(errs, "env") {
		t.Errorf("--env with --bytes: code %d err %q", code, errs)
	}
	bad := tempPlan(t, "(environment (object unicorn (region table) (cell 0 0) (orientation 0)))")
	code, _, errs = execLabelcov("run", sortPlan, "--world", warehouseWorld, "--env", bad)
	if code != exitUsage || !strings.Contains(errs, bad+":1:") {
		t.Errorf("bad .env should name file:line:col: code %d err %q", code, errs)
	}
}
