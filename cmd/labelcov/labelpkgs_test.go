package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// TestLabelPkgsInCachedDependency: a fuzz target in one module, labels in
// a module it requires from the module cache (served by a file:// proxy):
// annotate --label-pkgs writes an overlay and a private go.mod that go test
// takes as printed, and cover --label-pkgs measures the dependency's labels
// under the app's tests and under its fuzz target's seeds, with no hand
// edit and the app's go.mod untouched.
func TestLabelPkgsInCachedDependency(t *testing.T) {
	testenv.Long(t)
	needGo(t)
	root, err := filepath.Abs("../../testdata/go/depmods")
	if err != nil {
		t.Fatal(err)
	}
	env := testenv.LocalProxy(t, map[string]string{"example.com/dep@v0.1.0": filepath.Join(root, "dep")})
	setGoEnv(t, env)
	app := filepath.Join(t.TempDir(), "app")
	if err := gotransform.CopyModule(filepath.Join(root, "app"), app); err != nil {
		t.Fatal(err)
	}
	goIn := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = app
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	goIn("mod", "edit", "-dropreplace=example.com/dep")
	goIn("mod", "download", "example.com/dep")
	modBefore, _ := os.ReadFile(filepath.Join(app, "go.mod"))

	out := t.TempDir()
	stdout, _, err := runGoCmd(t, "annotate", ".", "-C", app, "--label-pkgs", "example.com/dep", "--criteria", "cc,dist", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	use := regexp.MustCompile(`(?m)^use:\s+go test (-modfile \S+ -overlay \S+) `).FindStringSubmatch(stdout)
	if use == nil {
		t.Fatalf("annotate prints no go test -modfile … -overlay … command:\n%s", stdout)
	}
	goIn(append(append([]string{"test", "-count=1"}, strings.Fields(use[1])...), "-run", "TestSum|FuzzParse", ".")...)

	for _, fuzz := range []string{"", "FuzzParse"} {
		args := []string{"cover", ".", "-C", app, "--label-pkgs", "example.com/dep", "--criteria", "cc"}
		if fuzz != "" {
			args = append(args, "--fuzz", fuzz)
		}
		stdout, stderr, err := runGoCmd(t, args...)
		if err != nil {
			t.Fatalf("cover %s: %v\n%s", fuzz, err, stderr)
		}
		m := regexp.MustCompile(`(?m)^cc\s+(\d+)\s+(\d+)`).FindStringSubmatch(stdout)
		if m == nil || !strings.Contains(stdout, "example.com/dep") {
			t.Fatalf("cover %s: no cc figure of example.com/dep:\n%s", fuzz, stdout)
		}
		if covered, _ := strconv.Atoi(m[1]); covered == 0 {
			t.Errorf("cover %s: no label of the dependency covered:\n%s", fuzz, stdout)
		}
	}
	if modAfter, _ := os.ReadFile(filepath.Join(app, "go.mod")); string(modAfter) != string(modBefore) {
		t.Error("the app's go.mod changed")
	}
}

// TestCompareGoLabelPkgs: a Go grid on testdata/go/depmods/app's fuzz
// target with the labels in example.com/dep: the guided campaign's
// binary and the yardstick label the dependency, whose labels the report
// counts and names.
func TestCompareGoLabelPkgs(t *testing.T) {
	testenv.Long(t)
	needGo(t)
	out := filepath.Join(t.TempDir(), "cmp")
	grid := []string{"compare", "--go", "../../testdata/go/depmods/app", "--label-pkgs", "example.com/dep", "--criteria", "none,cc",
		"--runs", "1", "--budget", "3s", "--workers", "1", "--fuzzminimizetime", "0s", "--out", out}
	var stdout, stderr strings.Builder
	if code := run(grid, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		Results []struct {
			LabelPkgs []string `json:"label_pkgs"`
			Totals    map[string]int
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || strings.Join(rep.Results[0].LabelPkgs, ",") != "example.com/dep" || rep.Results[0].Totals["labels:cc"] == 0 {
		t.Fatalf("report: %+v", rep.Results)
	}
	if md, err := os.ReadFile(filepath.Join(out, "report.md")); err != nil || !strings.Contains(string(md), "labels (and the yardstick) in `example.com/dep`") {
		t.Errorf("report.md does not name the labelled package (%v)", err)
	}
}
