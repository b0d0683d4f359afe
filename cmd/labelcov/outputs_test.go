package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyFile copies src to a new file in dir and returns its path.
func copyFile(t *testing.T, src, dir string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestOutputsNeverOverwriteInputs: an output path that names an input is
// refused (exit 2) and the input is left as it was.
func TestOutputsNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	plan := copyFile(t, "../../testdata/bench/temperature/temperature.plan", dir)
	world := copyFile(t, "../../testdata/worlds/warehouse.world", dir)
	env := copyFile(t, "../../testdata/envs/warehouse-three.env", dir)
	orig, _ := os.ReadFile(plan)
	origEnv, _ := os.ReadFile(env)
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"annotate", plan, "--criteria", "mcc", "-o", plan}, "-o " + plan + " would overwrite the input"},
		{[]string{"annotate", plan, "--criteria", "mcc", "--out", dir + "/./" + filepath.Base(plan)}, "would overwrite the input"},
		{[]string{"annotate", plan, "--criteria", "mcc", "--manifest", plan}, "--manifest " + plan + " would overwrite"},
		{[]string{"env", "encode", world, env, "-o", env}, "would overwrite the input " + env},
		{[]string{"cover", plan, "--tests", "../../testdata/bench/temperature/reproducers", "--html", plan}, "--html"},
		{[]string{"cover", "../../testdata/go/fuzzexp", "--html", "../../testdata/go/fuzzexp/alarm.go"}, "--html ../../testdata/go/fuzzexp/alarm.go would overwrite Go source"},
		{[]string{"cover", "./...", "--lcov", "../../testdata/go/fuzzexp/go.mod"}, "would overwrite Go source"},
	} {
		code, _, errs := execLabelcov(c.args...)
		if code != exitUsage || !strings.Contains(errs, c.msg) {
			t.Errorf("labelcov %s: exit %d, want %d and %q\n%s", strings.Join(c.args, " "), code, exitUsage, c.msg, errs)
		}
	}
	if now, _ := os.ReadFile(plan); string(now) != string(orig) {
		t.Error("the plan was overwritten")
	}
	if now, _ := os.ReadFile(env); string(now) != string(origEnv) {
		t.Error("the .env was overwritten")
	}
}

// TestAnnotatedPlanRefused: labels, like annotate and the Go side, refuse
// a plan that is already annotated, whether it carries label comments or
// only normalize's temporaries declaration.
func TestAnnotatedPlanRefused(t *testing.T) {
	dir := t.TempDir()
	ann := filepath.Join(dir, "ann.plan")
	if code, _, errs := execLabelcov("annotate", "../../testdata/bench/temperature/temperature.plan", "--criteria", "mcc", "-o", ann); code != exitOK {
		t.Fatalf("annotate: exit %d\n%s", code, errs)
	}
	temps := tempPlan(t, "(def-plan main (x) (if (< x 2) 1 2))\n(declaim (labelcov-temporaries \"%lc\"))\n")
	// As annotate writes the declaration now: guarded by labelcov's feature.
	guarded := tempPlan(t, "(def-plan main (x) (if (< x 2) 1 2))\n#+labelcov (declaim (labelcov-temporaries \"%lc\"))\n")
	for _, p := range []string{ann, temps, guarded} {
		for _, verb := range []string{"labels", "annotate"} {
			code, out, errs := execLabelcov(verb, p)
			if code != exitUsage || !strings.Contains(errs, "already annotated") || out != "" {
				t.Errorf("labelcov %s %s: exit %d, out %.200q\n%s", verb, p, code, out, errs)
			}
		}
	}
}

// TestGoAnnotateOutsideModule: annotated Go files written into the module
// they come from would become its packages; -o and --copy inside the
// module are refused and nothing is written.
func TestGoAnnotateOutsideModule(t *testing.T) {
	needGo(t)
	mod := t.TempDir()
	src := sampleDir(t)
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() {
			copyFile(t, filepath.Join(src, e.Name()), mod)
		}
	}
	before, _ := os.ReadDir(mod)
	for _, args := range [][]string{
		{"annotate", "./...", "-C", mod, "-o", mod},
		{"annotate", "./...", "-C", mod, "-o", filepath.Join(mod, "ann")},
		{"annotate", "./...", "-C", mod, "-o", t.TempDir(), "--copy", filepath.Join(mod, "copy")},
	} {
		_, _, err := runGoCmd(t, args...)
		if err == nil || exitCodeOf(err) != exitUsage || !strings.Contains(err.Error(), "is inside the module of") {
			t.Errorf("labelcov %s: err %v", strings.Join(args, " "), err)
		}
	}
	if after, _ := os.ReadDir(mod); len(after) != len(before) {
		t.Errorf("the module holds %d entries after the refused annotates, %d before", len(after), len(before))
	}
}

// TestFuzzOutBelongsToOneCampaign: a campaign directory records its plan,
// world and criteria; another campaign's --out is refused (exit 2) and
// left as it was, unless --force-out.
func TestFuzzOutBelongsToOneCampaign(t *testing.T) {
	out := filepath.Join(t.TempDir(), "campaign")
	temp := "../../testdata/bench/temperature/temperature.plan"
	base := []string{"--runs", "200", "--workers", "1", "--progress", "0", "--out", out, "--allow-findings"}
	if code, _, errs := execLabelcov(append([]string{"fuzz", temp}, base...)...); code != exitOK {
		t.Fatalf("first campaign: exit %d\n%s", code, errs)
	}
	queue, _ := os.ReadDir(filepath.Join(out, "labelcov", "queue"))
	for _, c := range []struct {
		args []string
		diff string
	}{
		{[]string{"fuzz", "../../testdata/bench/docking/docking.plan"}, "plan_sha256"},
		{[]string{"fuzz", temp, "--criteria", "mcc"}, "criteria: recorded none, now mcc"},
	} {
		code, _, errs := execLabelcov(append(c.args, base...)...)
		if code != exitUsage || !strings.Contains(errs, "belongs to another campaign") || !strings.Contains(errs, c.diff) || !strings.Contains(errs, "--force-out") {
			t.Errorf("labelcov %s: exit %d\n%s", strings.Join(c.args, " "), code, errs)
		}
	}
	if now, _ := os.ReadDir(filepath.Join(out, "labelcov", "queue")); len(now) != len(queue) {
		t.Errorf("a refused campaign changed the queue: %d entries, %d before", len(now), len(queue))
	}
	// The same campaign resumes; --force-out takes the directory over.
	if code, _, errs := execLabelcov(append([]string{"fuzz", temp}, base...)...); code != exitOK {
		t.Errorf("resume: exit %d\n%s", code, errs)
	}
	if code, _, errs := execLabelcov(append([]string{"fuzz", temp, "--criteria", "mcc", "--force-out"}, base...)...); code != exitOK {
		t.Errorf("--force-out: exit %d\n%s", code, errs)
	}
	if code, _, errs := execLabelcov(append([]string{"fuzz", temp, "--criteria", "mcc"}, base...)...); code != exitOK {
		t.Errorf("after --force-out the directory belongs to the mcc campaign: exit %d\n%s", code, errs)
	}
}
