package golang

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/labelcov/labelcov/internal/testenv"
)

// TestRealModulesAnnotateWhole annotates the packages of real modules in
// which annotation once left functions unlabelled because their annotated
// form did not type-check — gjson and protobuf (go.mod older than Go 1.13:
// hexadecimal float bounds), gomarkdown (NewSmartypantsRenderer: a grouped
// var declaration) — with every criterion and dist, and expects none left
// so. Opt-in (testenv.NetworkVar): it downloads the modules.
func TestRealModulesAnnotateWhole(t *testing.T) {
	testenv.Network(t)
	needGo(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/real\n\ngo 1.22\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mods := []string{
		"github.com/tidwall/gjson@v1.14.4",
		"google.golang.org/protobuf@v1.29.0",
		"github.com/gomarkdown/markdown@v0.0.0-20230922112808-5421fefb8386",
	}
	pkgs := []string{
		"github.com/tidwall/gjson",
		"google.golang.org/protobuf/reflect/protoreflect",
		"google.golang.org/protobuf/encoding/prototext",
		"google.golang.org/protobuf/proto",
		"github.com/gomarkdown/markdown/html",
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	goGet(ctx, t, dir, mods...)
	for _, c := range []string{"all,dist", "mcdc"} {
		for _, p := range pkgs {
			res, err := Annotate(ctx, []string{p}, Options{Criteria: crit(t, c), Dir: dir})
			if err != nil {
				t.Fatalf("%s %s: %v", c, p, err)
			}
			if res.Active() == 0 {
				t.Errorf("%s %s: no labels", c, p)
			}
			for _, pk := range res.Packages {
				for _, s := range pk.Skipped {
					if strings.Contains(s, "did not type-check") {
						t.Errorf("%s: %s", c, s)
					}
				}
			}
		}
	}
}

// goGet runs go get mods in dir.
func goGet(ctx context.Context, t *testing.T, dir string, mods ...string) {
	t.Helper()
	cmd := exec.CommandContext(ctx, "go", append([]string{"get"}, mods...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go get: %v\n%s", err, out)
	}
}

// TestRealModuleLabelsInsideDependency: a fuzz target of a module of our
// own, labels in gjson from the module cache: the layout copies gjson,
// the target's seeds and tests pass through the overlay and the private
// go.mod. Opt-in (testenv.NetworkVar): it downloads gjson.
func TestRealModuleLabelsInsideDependency(t *testing.T) {
	testenv.Network(t)
	needGo(t)
	dir := writeModule(t, map[string]string{"m.go": `package m

import "github.com/tidwall/gjson"

// Get reads path from json.
func Get(json, path string) string { return gjson.Get(json, path).String() }
`, "m_test.go": `package m

import "testing"

func FuzzGet(f *testing.F) {
	f.Add(` + "`" + `{"a":{"b":3}}` + "`" + `, "a.b")
	f.Fuzz(func(t *testing.T, json, path string) { Get(json, path) })
}
`})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	goGet(ctx, t, dir, "github.com/tidwall/gjson@v1.14.4")
	res, l, err := AnnotateFor(ctx, []string{"."}, []string{"github.com/tidwall/gjson"}, Options{Criteria: crit(t, "cc,dist"), Dir: dir}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !l.Copied() || res.Active() == 0 {
		t.Fatalf("layout copied %v; %d labels", l.Modules, res.Active())
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-overlay", ov, "-run", "FuzzGet", ".")
	cmd.Dir, cmd.Env = dir, l.Env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test through the layout: %v\n%s", err, out)
	}
}
