package testenv

import (
	"archive/zip"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// LocalProxy serves modules from directories through a file:// GOPROXY
// with a module cache of its own, so tests reach modules that lie beneath
// GOMODCACHE (read-only, out of go -overlay's reach) without the network.
// mods maps "path@version" to the module's source directory. It returns
// the environment of go commands that use it: os.Environ() with GOPROXY,
// GOMODCACHE, GOSUMDB=off, GOFLAGS=-mod=mod (go.sum is completed as
// needed) and GOWORK=off. The cache is removed when t ends.
func LocalProxy(t testing.TB, mods map[string]string) []string {
	t.Helper()
	proxy, cache := t.TempDir(), t.TempDir()
	for mv, src := range mods {
		path, version, ok := strings.Cut(mv, "@")
		if !ok {
			t.Fatalf("LocalProxy: %q is not path@version", mv)
		}
		at := filepath.Join(proxy, filepath.FromSlash(path), "@v")
		if err := os.MkdirAll(at, 0o755); err != nil {
			t.Fatal(err)
		}
		mod, err := os.ReadFile(filepath.Join(src, "go.mod"))
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]string{
			"list":            version + "\n",
			version + ".info": `{"Version":"` + version + `","Time":"2024-01-01T00:00:00Z"}`,
			version + ".mod":  string(mod),
		}
		for name, data := range files {
			if err := os.WriteFile(filepath.Join(at, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		zf, err := os.Create(filepath.Join(at, version+".zip"))
		if err != nil {
			t.Fatal(err)
		}
		zw := zip.NewWriter(zf)
		err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(src, p)
			if err != nil {
				return err
			}
			w, err := zw.Create(mv + "/" + filepath.ToSlash(rel))
			if err != nil {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			_, err = w.Write(b)
			return err
		})
		if err == nil {
			err = zw.Close()
		}
		if cerr := zf.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOPROXY=file://"+filepath.ToSlash(proxy), "GOMODCACHE="+cache, "GOSUMDB=off",
		"GOFLAGS=-mod=mod", "GOWORK=off", "GONOSUMDB=", "GOPRIVATE=", "GONOPROXY=")
	t.Cleanup(func() {
		// The module cache is read-only: the go command removes it.
		cmd := exec.Command("go", "clean", "-modcache")
		cmd.Env = env
		_ = cmd.Run()
	})
	return env
}
