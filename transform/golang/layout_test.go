package golang

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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

// annotateCachedDep lays out and annotates example.com/dep for the app of
// cachedDepApp, with the app's fuzz target seeded, and returns the layout
// and the overlay.
func annotateCachedDep(t *testing.T, app string, env []string) (*Layout, *Result, string) {
	t.Helper()
	res, l, err := AnnotateFor(context.Background(), []string{"."}, []string{"example.com/dep"},
		Options{Criteria: crit(t, "cc,dist"), Dir: app, Env: env}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return l, res, ov
}

// TestLayoutCopiesCachedDependency: the packages to label lie in a module
// of the module cache; the layout copies that module, replaces it in a
// private go.mod, and the annotation reads the copy; labels name the
// cached files; the app's fuzz target gets the dependency's constants as
// seeds; the app's go.mod and go.sum are not written.
func TestLayoutCopiesCachedDependency(t *testing.T) {
	app, env := cachedDepApp(t)
	modBefore, _ := os.ReadFile(filepath.Join(app, "go.mod"))
	sumBefore, _ := os.ReadFile(filepath.Join(app, "go.sum"))
	l, res, ov := annotateCachedDep(t, app, env)
	if !l.Copied() || len(l.Modules) != 1 {
		t.Fatalf("layout copied %v (modfile %q)", l.Modules, l.Modfile)
	}
	for orig, use := range l.Modules {
		if !strings.HasPrefix(use, l.Work) || strings.HasPrefix(orig, l.Work) {
			t.Errorf("module %s used from %s", orig, use)
		}
		if mod, err := os.ReadFile(l.Modfile); err != nil || !strings.Contains(string(mod), "example.com/dep => "+use) {
			t.Errorf("private go.mod does not replace example.com/dep with %s (%v):\n%s", use, err, mod)
		}
		for _, lb := range res.Labels {
			if !strings.HasPrefix(lb.Pos.File, orig) {
				t.Errorf("label %d at %s, want it in %s", lb.ID, lb.Pos.File, orig)
				break
			}
		}
	}
	if res.Active() == 0 || !strings.HasPrefix(res.Packages[0].Dir, l.Work) {
		t.Fatalf("%d labels in %s, want them in the copy under %s", res.Active(), res.Packages[0].Dir, l.Work)
	}
	if len(res.FuzzPackages) != 1 || res.FuzzPackages[0].Path != "example.com/app" {
		t.Fatalf("fuzz packages %+v", res.FuzzPackages)
	}
	seeded, err := os.ReadFile(filepath.Join(filepath.Dir(ov), "example.com", "app", "app_test.go"))
	if err != nil || !strings.Contains(string(seeded), `"LC"`) {
		t.Errorf("app_test.go in the overlay has no seed of dep.Magic (the bytes LC) (%v):\n%s", err, seeded)
	}
	modAfter, _ := os.ReadFile(filepath.Join(app, "go.mod"))
	sumAfter, _ := os.ReadFile(filepath.Join(app, "go.sum"))
	if string(modAfter) != string(modBefore) || string(sumAfter) != string(sumBefore) {
		t.Error("the app's go.mod or go.sum changed")
	}
}

// TestLayoutOverlayBuilds: the overlay of a cached module is refused by
// go test alone ("must not be replaced"); through the layout's private
// go.mod, the app's tests and fuzz seeds pass on the annotated dependency,
// and on the copy MaterializeDeps writes (coverage builds) the label
// bodies are in the profile.
func TestLayoutOverlayBuilds(t *testing.T) {
	testenv.Long(t)
	app, env := cachedDepApp(t)
	ctx := context.Background()
	run := func(env []string, args ...string) (string, error) {
		cmd := exec.Command("go", args...)
		cmd.Dir, cmd.Env = app, env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	plain, err := Annotate(ctx, []string{"example.com/dep"}, Options{Criteria: crit(t, "cc"), Dir: app, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	pov, err := plain.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run(env, "test", "-count=1", "-overlay", pov, "."); err == nil || !strings.Contains(out, "must not be replaced") {
		t.Fatalf("overlay of a cached module: err %v\n%s", err, out)
	}
	l, res, ov := annotateCachedDep(t, app, env)
	if out, err := run(l.Env(), "test", "-count=1", "-overlay", ov, "-run", "TestSum|FuzzParse", "."); err != nil {
		t.Fatalf("go test through the layout: %v\n%s", err, out)
	}
	denv, err := res.MaterializeDeps(ctx, app, env, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "cover.out")
	if out, err := run(denv, "test", "-count=1", "-coverpkg=example.com/dep", "-coverprofile="+prof, "."); err != nil {
		t.Fatalf("go test -cover on the materialized dependency: %v\n%s", err, out)
	}
	b, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Packages[0].Files {
		for _, pos := range f.Bodies {
			if !strings.Contains(string(b), "example.com/dep/dep.go:"+itoa(pos.Line)+"."+itoa(pos.Col)) {
				t.Errorf("label body %d.%d is not in the profile", pos.Line, pos.Col)
			}
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestWithModfileExtendsTheEffectiveGOFLAGS: an environment that sets
// GOFLAGS twice (os.Environ() with the user's, then a caller's own) runs
// the go command with the last; -modfile must land there, or the private
// go.mod is silently not used (the user's GOFLAGS=-count=1 did that).
func TestWithModfileExtendsTheEffectiveGOFLAGS(t *testing.T) {
	env := withModfile([]string{"HOME=/h", "GOFLAGS=-count=1", "GOFLAGS=-mod=mod -modfile=/old.mod"}, "/w/labelcov.mod")
	cmd := exec.Command("go")
	cmd.Env = env
	var got []string
	for _, kv := range cmd.Environ() {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			got = append(got, v)
		}
	}
	if len(got) != 1 || got[0] != "-mod=mod -modfile=/w/labelcov.mod" {
		t.Errorf("effective GOFLAGS %q, want the last one with the new -modfile only", got)
	}
	if mf := modfileOf(env); mf != "/w/labelcov.mod" {
		t.Errorf("modfileOf = %q", mf)
	}
}
