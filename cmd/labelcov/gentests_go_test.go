package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/subject"
	"github.com/labelcov/labelcov/internal/testenv"
	"golang.org/x/tools/cover"
)

// TestGentestsGo: from shell.FuzzRun's suite (its one f.Add seed),
// gentests fuzzes for a few seconds and writes corpus entries that raise
// the label coverage; each written entry, run alone by go test -run
// FuzzRun/NAME with a coverage profile — on the module copy annotate
// --copy writes (labels: the empty blocks ending at "} // label N") and on
// the original (blocks) — covers every label and block gentests says it adds.
func TestGentestsGo(t *testing.T) {
	testenv.Long(t) // minutes under load: .ci/run runs it
	if testing.Short() {
		t.Skip("runs go test -fuzz for 5 s and builds Go test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	mod := copyGobench(t)
	out := filepath.Join(t.TempDir(), "gen")
	rep, stdout := gentestsGoJSON(t, "./shell", "-C", mod, "--fuzz", "FuzzRun", "--budget", "5s", "--seed", "3", "--out", out)
	if len(rep.Generated) == 0 || rep.After["labels"] <= rep.Before["labels"] || rep.Seeds != 1 || rep.Suite != 0 {
		t.Fatalf("report: %s", stdout)
	}
	if _, err := os.Stat(filepath.Join(mod, "shell", "testdata")); err == nil {
		t.Fatal("gentests wrote into the package")
	}
	// The resolution: every active label covered or unresolved, and the
	// infeasible ones (not injected) counted apart.
	inf := 0
	for k, d := range rep.Criteria {
		if d.Unresolved != d.Total-d.After || d.Unresolved < 0 {
			t.Errorf("%s: %+v", k, d)
		}
		inf += d.Infeasible
	}
	if rep.All.Unresolved != rep.All.Total-rep.All.After || rep.All.Infeasible != inf {
		t.Errorf("all: %+v, infeasible per criterion %d", rep.All, inf)
	}
	dir := filepath.Join(out, "testdata", "fuzz", "FuzzRun")
	if rep.Out != dir {
		t.Errorf("out %s, want %s", rep.Out, dir)
	}
	sum := 0
	for i, g := range rep.Generated {
		want := fmt.Sprintf("gen-%02d-", sum+1)
		if i >= len(rep.Generated)-rep.Directed {
			want = fmt.Sprintf("gen-directed-%02d-", sum+1)
		}
		if !strings.HasPrefix(g.Name, want) {
			t.Errorf("entry %d named %s", sum+1, g.Name)
		}
		sum++
	}
	// The unresolved labels listed are the uncovered ones of every
	// criterion but mcdc (counted in conditions).
	listed := 0
	for k, d := range rep.Criteria {
		if k != "mcdc" {
			listed += d.Unresolved
		}
	}
	if len(rep.Unresolved) != listed {
		t.Errorf("%d unresolved labels listed, the criteria count %d", len(rep.Unresolved), listed)
	}

	// The annotated module copy and its manifest, as a user gets them.
	ann, copyDir := filepath.Join(t.TempDir(), "ann"), filepath.Join(t.TempDir(), "copy")
	if code, _, errs := runCLI("annotate", "./shell", "-C", mod, "--criteria", "all,mcdc", "--out", ann, "--copy", copyDir); code != exitOK {
		t.Fatalf("annotate: exit %d\n%s", code, errs)
	}
	// A label's empty body ends on a line "} // label N ..." of the copy.
	src, err := os.ReadFile(filepath.Join(copyDir, "shell", "shell.go"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	labelEnd := regexp.MustCompile(`^\s*} // label (\d+) `)
	// run runs one corpus entry alone in module root with a profile.
	run := func(root, name string, failure bool) []*cover.Profile {
		t.Helper()
		td := filepath.Join(root, "shell", "testdata", "fuzz", "FuzzRun")
		if err := os.MkdirAll(td, 0o755); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(td, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		prof := filepath.Join(t.TempDir(), "cover.out")
		cmd := exec.Command("go", "test", "-count=1", "-run", "^FuzzRun$/^"+name+"$", "-v", "-covermode=set", "-coverprofile="+prof, "./shell")
		cmd.Dir = root
		o, err := cmd.CombinedOutput()
		if failure {
			// Kept for the failure it reproduces: the test fails there,
			// and a failing run writes no profile.
			if err == nil || !strings.Contains(string(o), "--- FAIL: FuzzRun/"+name) {
				t.Fatalf("go test -run FuzzRun/%s passes; it was kept for a failure: %v\n%s", name, err, o)
			}
			return nil
		}
		if err != nil || !strings.Contains(string(o), "--- PASS: FuzzRun/"+name) {
			t.Fatalf("go test -run FuzzRun/%s: %v\n%s", name, err, o)
		}
		ps, err := cover.ParseProfiles(prof)
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	checked := 0
	for _, g := range rep.Generated {
		// An entry kept for a failure says which (fails), and only those.
		failure := slices.ContainsFunc(g.Adds, func(it string) bool { return strings.HasPrefix(it, "category:") })
		if failure != (g.Fails != "") || failure && !slices.Contains(g.Adds, "category:"+g.Fails) {
			t.Errorf("%s: fails %q, adds %v", g.Name, g.Fails, g.Adds)
		}
		if failure {
			run(mod, g.Name, true)
			continue
		}
		covered := map[string]bool{}
		for _, p := range run(copyDir, g.Name, false) {
			for _, b := range p.Blocks {
				if filepath.Base(p.FileName) != "shell.go" || b.Count == 0 || b.NumStmt != 0 || b.EndLine > len(lines) {
					continue
				}
				if m := labelEnd.FindStringSubmatch(lines[b.EndLine-1]); m != nil {
					covered["label:"+m[1]] = true
				}
			}
		}
		for _, p := range run(mod, g.Name, false) {
			for _, b := range p.Blocks {
				if b.Count > 0 {
					covered[fmt.Sprintf("block:%s:%d.%d,%d.%d", p.FileName, b.StartLine, b.StartCol, b.EndLine, b.EndCol)] = true
				}
			}
		}
		for _, it := range g.Adds {
			if strings.HasPrefix(it, "label:") {
				checked++
			}
			if !covered[it] && !strings.HasPrefix(it, "category:") {
				t.Errorf("%s claims %s; go test -run FuzzRun/%s does not cover it", g.Name, it, g.Name)
			}
		}
	}

	if checked == 0 {
		t.Error("no generated entry claims a label")
	}

	// A suite that fails stops go test -fuzz at once: a finding (exit 1).
	td := filepath.Join(mod, "shell", "testdata", "fuzz", "FuzzRun")
	if err := os.MkdirAll(td, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(td, "deep"), []byte("go test fuzz v1\nstring(\"compact! 3\")\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, errs := runCLI("gentests", "./shell", "-C", mod, "--fuzz", "FuzzRun", "--budget", "2s", "--out", t.TempDir())
	if code != exitFound || !strings.Contains(errs, "fails on its seed corpus entry deep") {
		t.Errorf("gentests on a failing suite: exit %d\n%s%s", code, stdout, errs)
	}

	// Usage errors.
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fuzz", "FuzzRun", "--out", t.TempDir()}, "--budget"},
		{[]string{"--fuzz", "FuzzRun", "--runs", "100", "--out", t.TempDir()}, "--runs is for plans"},
		{[]string{"--fuzz", "FuzzNope", "--budget", "1s", "--out", t.TempDir()}, "no fuzz target FuzzNope"},
		{[]string{"--budget", "1s", "--out", t.TempDir()}, "give --fuzz FuzzX"},
	} {
		code, _, errs := runCLI(append([]string{"gentests", "./shell", "-C", mod}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("gentests %v: exit %d, %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// TestGentestsGoDirected: on quota.FuzzReserve, whose boundary
// (n > 3,000,000 on a uint32) Go's mutator does not reach from the seed
// 4096 in a second, the directed entries cover the relation's labels: an
// entry n = MaxSlots+1 is written as gen-directed-..., replays, and leaves
// unresolved only n == MaxSlots (covered by a run that panics on the bug:
// a failing run counts no label).
func TestGentestsGoDirected(t *testing.T) {
	testenv.Long(t) // go test -fuzz and Go builds
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	mod := copyGobench(t)
	rep, stdout := gentestsGoJSON(t, "./quota", "-C", mod, "--fuzz", "FuzzReserve", "--budget", "1s", "--seed", "1", "--out", filepath.Join(t.TempDir(), "gen"))
	if rep.Directed == 0 {
		t.Fatalf("no directed entry: %s", stdout)
	}
	d := rep.Generated[len(rep.Generated)-1]
	data, err := os.ReadFile(filepath.Join(rep.Out, d.Name))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d.Name, "gen-directed-") || string(data) != "go test fuzz v1\nuint32(3000001)\n" {
		t.Errorf("directed entry %s: %q", d.Name, data)
	}
	var left []string
	for _, u := range rep.Unresolved {
		left = append(left, u.Expr)
	}
	if strings.Join(left, ";") != "n == MaxSlots" {
		t.Errorf("unresolved: %v", left)
	}
	// Without directed entries, the boundary stays unresolved.
	plain, _ := gentestsGoJSON(t, "./quota", "-C", mod, "--fuzz", "FuzzReserve", "--budget", "1s", "--seed", "1", "--out", t.TempDir(), "--no-directed")
	if plain.Directed != 0 || len(plain.Unresolved) <= len(rep.Unresolved) {
		t.Errorf("--no-directed: %d directed, %d unresolved (with them %d)", plain.Directed, len(plain.Unresolved), len(rep.Unresolved))
	}
}

// copyGobench copies testdata/gobench, the Go benchmark module, into a
// temporary folder: gentests builds and writes beside it.
func copyGobench(t *testing.T) string {
	t.Helper()
	mod := filepath.Join(t.TempDir(), "gobench")
	if err := os.CopyFS(mod, os.DirFS("../../testdata/gobench")); err != nil {
		t.Fatal(err)
	}
	return mod
}

// gentestsGoJSON runs gentests --json with args on a Go package, requires
// exit 0, and returns its report and standard output.
func gentestsGoJSON(t *testing.T, args ...string) (subject.GoGentestsReport, string) {
	t.Helper()
	code, stdout, errs := runCLI(append([]string{"gentests"}, append(args, "--json")...)...)
	if code != exitOK && code != exitFound {
		t.Fatalf("gentests %v: exit %d\n%s%s", args, code, stdout, errs)
	}
	var rep subject.GoGentestsReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	// Exit 1 exactly when a written entry fails under go test, and the
	// message names each such entry.
	var fails []string
	for _, g := range rep.Generated {
		if g.Fails != "" {
			fails = append(fails, g.Name)
		}
	}
	if (code == exitFound) != (len(fails) > 0) {
		t.Fatalf("gentests %v: exit %d with failing entries %v\n%s", args, code, fails, errs)
	}
	for _, n := range fails {
		if !strings.Contains(errs, n) {
			t.Errorf("gentests %v: the exit message does not name %s:\n%s", args, n, errs)
		}
	}
	return rep, stdout
}
