package gofuzz

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
)

// realBugsDir holds the benchmark of real, fixed bugs in public Go modules:
// one small module per vulnerable module, each pinned to the vulnerable
// version (testdata/realbugs/README.md).
const realBugsDir = "../../testdata/realbugs"

// realBugLabelPkgs are the packages of each benchmark module that hold its
// bugs: what --label-pkgs names when the benchmark is fuzzed with labels
// in the dependency, and what names a failure's site (ParseFailure). The
// README's table and the grid's commands use the same lists.
var realBugLabelPkgs = map[string][]string{
	"bstoml":   {"github.com/BurntSushi/toml"},
	"gotoml":   {"github.com/pelletier/go-toml"},
	"gotomlv2": {"github.com/pelletier/go-toml/v2"},
	"xtext":    {"golang.org/x/text/language", "golang.org/x/text/internal/language"},
	"xtiff":    {"golang.org/x/image/tiff"},
}

// realBug is a category of truth.json with the benchmark's extra fields.
type realBug struct {
	Name    string `json:"name"`
	Witness string `json:"witness"`
	// WitnessFile is MODULE@VERSION/PATH: the reproducer ships in that
	// module (a test image of the fix), read from the module cache.
	WitnessFile string `json:"witness_file"`
	Fixed       string `json:"fixed"` // MODULE@VERSION of the fix
	Bug         string `json:"bug"`
}

// TestRealBugsReproduce checks every bug of testdata/realbugs: its
// reproducer fails the fuzz target on the pinned, vulnerable version with
// the site truth.json names, and passes once the module is upgraded to the
// version with the fix. Opt-in (testenv.NetworkVar): the modules come
// through the module proxy, into a private module cache.
func TestRealBugsReproduce(t *testing.T) {
	testenv.Network(t)
	testenv.NeedGo(t)
	if testing.Short() {
		t.Skip("downloads modules and builds each target twice per bug")
	}
	cache := t.TempDir()
	env := append(os.Environ(), "GOMODCACHE="+cache, "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	t.Cleanup(func() {
		// The module cache is read-only: the go command removes it.
		cmd := exec.Command("go", "clean", "-modcache")
		cmd.Env = env
		_ = cmd.Run()
	})
	dirs, err := os.ReadDir(realBugsDir)
	if err != nil {
		t.Fatal(err)
	}
	bugs := 0
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		name := d.Name()
		if realBugLabelPkgs[name] == nil {
			t.Errorf("%s: no label packages listed in realBugLabelPkgs", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			var truth struct {
				Targets map[string]struct {
					Categories []realBug `json:"categories"`
				} `json:"targets"`
			}
			data, err := os.ReadFile(filepath.Join(realBugsDir, name, TruthFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &truth); err != nil {
				t.Fatal(err)
			}
			for target, tr := range truth.Targets {
				for i, bug := range tr.Categories {
					bugs++
					t.Run(target+"/"+strconv.Itoa(i), func(t *testing.T) {
						checkRealBug(t, env, name, target, bug)
					})
				}
			}
		})
	}
	if bugs < 8 {
		t.Errorf("%d bugs in %s, want at least 8", bugs, realBugsDir)
	}
}

// checkRealBug runs bug's reproducer on a copy of benchmark module name:
// on the pinned version it must fail at bug.Name, after `go get
// bug.Fixed` it must pass.
func checkRealBug(t *testing.T, env []string, name, target string, bug realBug) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(realBugsDir, name))); err != nil {
		t.Fatal(err)
	}
	witness := bug.Witness
	if bug.WitnessFile != "" {
		witness = "go test fuzz v1\n[]byte(" + strconv.Quote(string(moduleFile(ctx, t, env, bug.WitnessFile))) + ")\n"
	}
	if !strings.HasPrefix(witness, "go test fuzz v1\n") {
		t.Fatalf("%s: no reproducer in go test's corpus format", bug.Name)
	}
	corpus := filepath.Join(dir, "testdata", "fuzz", target)
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(corpus, "reproducer"), []byte(witness), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	ts, err := Discover(ctx, dir, env, ".")
	if err != nil {
		t.Fatal(err)
	}
	var tg Target
	for _, x := range ts {
		if x.Name == target {
			tg = x
		}
	}
	if tg.Name == "" {
		t.Fatalf("no fuzz target %s in %s", target, name)
	}
	tg.LabelPkgs = realBugLabelPkgs[name]
	test := []string{"test", "-count=1", "-run", "^" + target + "/reproducer$", "."}
	out, err := run(test...)
	if err == nil {
		t.Fatalf("%s: the reproducer passes on the vulnerable version:\n%s", bug.Name, out)
	}
	if got := ParseFailure(out, tg).Key(); got != bug.Name {
		t.Fatalf("the reproducer fails at %s, truth.json says %s:\n%s", got, bug.Name, out)
	}
	if out, err := run("get", bug.Fixed); err != nil {
		t.Fatalf("go get %s: %v\n%s", bug.Fixed, err, out)
	}
	if out, err := run(test...); err != nil {
		t.Fatalf("%s: the reproducer still fails with %s:\n%s", bug.Name, bug.Fixed, out)
	}
}

// moduleFile reads MODULE@VERSION/PATH from the module cache of env.
func moduleFile(ctx context.Context, t *testing.T, env []string, spec string) []byte {
	t.Helper()
	at := strings.Index(spec, "@")
	slash := strings.Index(spec[at+1:], "/")
	if at < 0 || slash < 0 {
		t.Fatalf("witness_file %q is not MODULE@VERSION/PATH", spec)
	}
	mv, file := spec[:at+1+slash], spec[at+2+slash:]
	cmd := exec.CommandContext(ctx, "go", "mod", "download", "-json", mv)
	cmd.Dir, cmd.Env = t.TempDir(), env
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	_ = json.Unmarshal(out, &info)
	if err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s: %v %s", mv, err, info.Error)
	}
	data, err := os.ReadFile(filepath.Join(info.Dir, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
