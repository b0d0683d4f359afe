package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// onFixedModules writes a dependency in two versions — v0.1.0 panics on a
// frame of kind 2 with a large value, v0.1.1 has the fix — and an app
// module whose fuzz target's seed is that frame, requiring v0.1.0 (no
// replace), with a truth.json naming the fix. It returns the app's
// directory and the environment of a file:// proxy serving both versions.
func onFixedModules(t *testing.T) (string, []string) {
	t.Helper()
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dep := func(v, guard string) {
		write("dep-"+v+"/go.mod", "module example.com/dep\n\ngo 1.22\n")
		write("dep-"+v+"/dep.go", `// Package dep decodes frames: a kind byte, then a 2-byte index.
package dep

var table = [4]byte{1, 2, 3, 4}

// Parse returns the table entry a frame of kind 2 names (0 otherwise).
func Parse(b []byte) byte {
	if len(b) < 3 || b[0] != 2 {
		return 0
	}
	i := int(b[1])<<8 | int(b[2])
	`+guard+`
	return table[i]
}
`)
	}
	dep("v0.1.0", "// v0.1.0: no bound check")
	dep("v0.1.1", "if i >= len(table) {\n\t\treturn 0\n\t}")
	write("app/go.mod", "module example.com/app\n\ngo 1.22\n\nrequire example.com/dep v0.1.0\n")
	write("app/app_test.go", `package app

import (
	"testing"

	"example.com/dep"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte{2, 0, 1})
	f.Add([]byte{2, 1, 0}) // index 256: panics on v0.1.0
	f.Fuzz(func(t *testing.T, b []byte) { dep.Parse(b) })
}
`)
	write("app/truth.json", `{"version": 1, "targets": {"FuzzParse": {"categories": [
  {"name": "panic@example.com/dep/dep.go:13", "fixed": "example.com/dep@v0.1.1"}]}}}
`)
	env := testenv.LocalProxy(t, map[string]string{
		"example.com/dep@v0.1.0": filepath.Join(root, "dep-v0.1.0"),
		"example.com/dep@v0.1.1": filepath.Join(root, "dep-v0.1.1"),
	})
	return filepath.Join(root, "app"), env
}

// setGoEnv sets the go command's variables of env in this process (the
// commands under test run in it).
func setGoEnv(t *testing.T, env []string) {
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "GOPROXY", "GOMODCACHE", "GOSUMDB", "GOFLAGS", "GOWORK", "GONOSUMDB", "GOPRIVATE", "GONOPROXY":
			t.Setenv(k, v)
		}
	}
}

// TestCompareGoOnFixed: a Go grid with --on-fixed on a fuzz target whose
// seed fails on the version its go.mod requires: the campaigns build
// against the fixed version truth.json names (a private -modfile), run
// their budget without a failure, the report says so, and the app's
// go.mod and go.sum are untouched. No network: a file:// proxy.
func TestCompareGoOnFixed(t *testing.T) {
	testenv.Long(t)
	needGo(t)
	app, env := onFixedModules(t)
	setGoEnv(t, env)
	// On the required version the seed fails (the grid would end at it).
	cmd := exec.Command("go", "test", "-count=1", "-run", "FuzzParse", ".")
	cmd.Dir = app
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "index out of range") {
		t.Fatalf("the seed does not fail on v0.1.0 (%v):\n%s", err, out)
	}
	modBefore, _ := os.ReadFile(filepath.Join(app, "go.mod"))
	sumBefore, _ := os.ReadFile(filepath.Join(app, "go.sum"))

	out := filepath.Join(t.TempDir(), "cmp")
	grid := []string{"compare", "--go", app + "/...", "--label-pkgs", "example.com/dep", "--criteria", "none,cc",
		"--runs", "1", "--budget", "2s", "--workers", "1", "--fuzzminimizetime", "0s", "--on-fixed", "--out", out}
	var stdout, stderr strings.Builder
	if code := run(grid, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var rep struct {
		OnFixed bool `json:"on_fixed"`
		Results []struct {
			Fixed []string `json:"fixed"`
			Runs  []struct {
				Criterion string
				CPUS      float64 `json:"cpu_s"`
				Findings  []struct{ Key string }
			}
			Throughput []struct {
				ExecsPerCPUS float64 `json:"execs_per_cpu_s"`
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.OnFixed || len(rep.Results) != 1 || strings.Join(rep.Results[0].Fixed, ",") != "example.com/dep@v0.1.1" {
		t.Fatalf("report: on_fixed %v, results %+v", rep.OnFixed, rep.Results)
	}
	if len(rep.Results[0].Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(rep.Results[0].Runs))
	}
	for _, r := range rep.Results[0].Runs {
		if len(r.Findings) > 0 {
			t.Errorf("%s: failed on the fixed version: %+v", r.Criterion, r.Findings)
		}
		if r.CPUS <= 0 {
			t.Errorf("%s: no CPU time measured", r.Criterion)
		}
	}
	for _, tr := range rep.Results[0].Throughput {
		if tr.ExecsPerCPUS <= 0 {
			t.Errorf("throughput without execs per CPU-s: %+v", rep.Results[0].Throughput)
		}
	}
	md, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil || !strings.Contains(string(md), "built against the fixed `example.com/dep@v0.1.1`") ||
		!strings.Contains(string(md), "On the fixed versions") {
		t.Errorf("report.md does not say the campaigns ran on the fixed version (%v)", err)
	}
	if after, _ := os.ReadFile(filepath.Join(app, "go.mod")); string(after) != string(modBefore) {
		t.Error("the app's go.mod changed")
	}
	if after, _ := os.ReadFile(filepath.Join(app, "go.sum")); string(after) != string(sumBefore) {
		t.Error("the app's go.sum changed")
	}
}

// TestCompareGoOnFixedNeedsTruth: --on-fixed on a target without
// truth.json, or whose bug has no fixed version, is an error that says
// what to add; without --go it is an error too.
func TestCompareGoOnFixedNeedsTruth(t *testing.T) {
	needGo(t)
	for _, c := range []struct{ truth, want string }{
		{"", "no known bugs"},
		{`{"version": 1, "targets": {"FuzzParse": {"categories": [{"name": "panic@example.com/dep/dep.go:13"}]}}}`,
			`no fixed module version for panic@example.com/dep/dep.go:13`},
	} {
		app := t.TempDir()
		files := map[string]string{
			"go.mod":      "module example.com/app\n\ngo 1.22\n",
			"app_test.go": "package app\n\nimport \"testing\"\n\nfunc FuzzParse(f *testing.F) { f.Fuzz(func(t *testing.T, b []byte) {}) }\n",
			"truth.json":  c.truth,
		}
		for name, text := range files {
			if text == "" {
				continue
			}
			if err := os.WriteFile(filepath.Join(app, name), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var stdout, stderr strings.Builder
		code := run([]string{"compare", "--go", app + "/...", "--runs", "1", "--budget", "1s", "--on-fixed",
			"--out", filepath.Join(t.TempDir(), "cmp")}, &stdout, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), "--on-fixed") || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("truth %q: exit %d, stderr:\n%s\nwant an error with %q", c.truth, code, stderr.String(), c.want)
		}
	}
	for _, args := range [][]string{{"--bench", "x", "--on-fixed"}, {"--go", "./x/...", "--fixed-at", "example.com/dep@v0.1.1"}} {
		var stdout, stderr strings.Builder
		if code := run(append([]string{"compare"}, args...), &stdout, &stderr); code == 0 || !strings.Contains(stderr.String(), "--on-fixed") {
			t.Errorf("%v: exit %d, stderr:\n%s", args, code, stderr.String())
		}
	}
}

// TestCompareGoOnFixedRealBug: --on-fixed on the real-bug benchmark's
// go-toml v1 target builds it against the release with its bug's fix
// (truth.json: v1.9.5), and the report lists it. Opt-in
// (testenv.NetworkVar): the module comes through the module proxy.
func TestCompareGoOnFixedRealBug(t *testing.T) {
	testenv.Network(t)
	needGo(t)
	out := filepath.Join(t.TempDir(), "cmp")
	grid := []string{"compare", "--go", "../../testdata/realbugs/gotoml/...", "--label-pkgs", "github.com/pelletier/go-toml",
		"--criteria", "none", "--runs", "1", "--budget", "2s", "--workers", "1", "--fuzzminimizetime", "0s", "--on-fixed", "--out", out}
	var stdout, stderr strings.Builder
	if code := run(grid, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Results []struct {
			Fixed []string `json:"fixed"`
		}
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) != 1 || strings.Join(rep.Results[0].Fixed, ",") != "github.com/pelletier/go-toml@v1.9.5" {
		t.Fatalf("report: %+v", rep.Results)
	}
}
