package golang

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// cachedDepApp copies testdata/go/depmods/app into a temporary directory
// without its replace, so that example.com/dep comes from a private module
// cache filled by a file:// proxy; it returns the app's directory and the
// go commands' environment.
func cachedDepApp(t *testing.T) (string, []string) {
	t.Helper()
	needGo(t)
	root, err := filepath.Abs("../../testdata/go/depmods")
	if err != nil {
		t.Fatal(err)
	}
	env := testenv.LocalProxy(t, map[string]string{"example.com/dep@v0.1.0": filepath.Join(root, "dep")})
	app := filepath.Join(t.TempDir(), "app")
	if err := CopyModule(filepath.Join(root, "app"), app); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"mod", "edit", "-dropreplace=example.com/dep"}, {"mod", "download", "example.com/dep"}} {
		if _, err := goOutput(context.Background(), app, env, args...); err != nil {
			t.Fatal(err)
		}
	}
	return app, env
}

// TestLayoutLabelsInsideCachedDependency: labels in a module of the module
// cache reach the fuzz target of the module that requires it — the
// overlay alone is refused ("must not be replaced"); with the layout (a
// writable copy, replaced in a private -modfile) the app's tests and fuzz
// seeds pass on the annotated dependency, and the app's go.mod is not
// written.
func TestLayoutLabelsInsideCachedDependency(t *testing.T) {
	app, env := cachedDepApp(t)
	ctx := context.Background()
	modBefore, _ := os.ReadFile(filepath.Join(app, "go.mod"))
	sumBefore, _ := os.ReadFile(filepath.Join(app, "go.sum"))
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = app, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	// Without the layout: the overlay names files beneath GOMODCACHE.
	plain, err := Annotate(ctx, []string{"example.com/dep"}, Options{Criteria: crit(t, "cc"), Dir: app, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	ov, err := plain.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run(env, "test", "-count=1", "-overlay", ov, "."); err == nil || !strings.Contains(out, "must not be replaced") {
		t.Fatalf("overlay of a cached module: err %v\n%s", err, out)
	}

	l, err := NewLayout(ctx, app, env, []string{"example.com/dep"}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if !l.Copied() || len(l.Modules) != 1 {
		t.Fatalf("layout copied %v (modfile %q)", l.Modules, l.Modfile)
	}
	res, err := Annotate(ctx, []string{"example.com/dep"}, Options{Criteria: crit(t, "cc,dist"), Dir: app, Env: l.Env()})
	if err != nil {
		t.Fatal(err)
	}
	if res.Active() == 0 || !strings.HasPrefix(res.Packages[0].Dir, l.Work) {
		t.Fatalf("%d labels in %s, want them in the copy under %s", res.Active(), res.Packages[0].Dir, l.Work)
	}
	// The app's fuzz target gets the dependency's constants as seeds: the
	// magic 0x4c43 as the bytes "LC".
	res.FuzzPackages = []FuzzPackage{{Path: "example.com/app", Dir: app}}
	ovDir := t.TempDir()
	ov, err = res.WriteOverlay(ovDir)
	if err != nil {
		t.Fatal(err)
	}
	seeded, err := os.ReadFile(filepath.Join(ovDir, "example.com", "app", "app_test.go"))
	if err != nil || !strings.Contains(string(seeded), `"LC"`) {
		t.Errorf("app_test.go in the overlay has no seed of dep.Magic (%v):\n%s", err, seeded)
	}
	if out, err := run(l.Env(), "test", "-count=1", "-overlay", ov, "-run", "TestSum|FuzzParse", "."); err != nil {
		t.Fatalf("go test through the layout: %v\n%s", err, out)
	}
	modAfter, _ := os.ReadFile(filepath.Join(app, "go.mod"))
	sumAfter, _ := os.ReadFile(filepath.Join(app, "go.sum"))
	if string(modAfter) != string(modBefore) || string(sumAfter) != string(sumBefore) {
		t.Error("the app's go.mod or go.sum changed")
	}
}
