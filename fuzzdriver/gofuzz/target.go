package gofuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Target is one fuzz target: FuzzX in the tests of a package.
type Target struct {
	Module  string `json:"-"`      // root directory of the package's module
	ModPath string `json:"module"` // module path
	Package string `json:"package"`
	Dir     string `json:"-"` // the package's directory
	Name    string `json:"target"`
	// LabelPkgs are the package patterns whose code is labelled and
	// measured when it is not the target's package (labels inside
	// dependencies: --label-pkgs); empty: the target's package.
	LabelPkgs []string `json:"label_pkgs,omitempty"`
}

// Labelled are the package patterns labelled for t: LabelPkgs, or t's
// package.
func (t Target) Labelled() []string {
	if len(t.LabelPkgs) > 0 {
		return t.LabelPkgs
	}
	return []string{t.Package}
}

// Rel is the package directory relative to the module root ("." for the
// root), with forward slashes.
func (t Target) Rel() string {
	r, err := filepath.Rel(t.Module, t.Dir)
	if err != nil {
		return t.Dir
	}
	return filepath.ToSlash(r)
}

// BenchName is the target's name in a comparison grid: the package
// directory relative to the module root with "/" replaced by "-" (the
// module's name for the root package), a dot, and the target:
// "header.FuzzDecode", "codec-json.FuzzUnmarshal".
func (t Target) BenchName() string {
	rel := t.Rel()
	if rel == "." {
		rel = t.ModPath[strings.LastIndex(t.ModPath, "/")+1:]
	}
	return strings.ReplaceAll(rel, "/", "-") + "." + t.Name
}

// String is "IMPORTPATH FuzzX".
func (t Target) String() string { return t.Package + " " + t.Name }

var fuzzDecl = regexp.MustCompile(`(?m)^func (Fuzz[A-Za-z0-9_]*)\(\s*\w+\s+\*testing\.F\s*\)`)

// Discover lists the fuzz targets of the packages matching patterns,
// loaded with the go command in dir, sorted by package and name. Only
// targets of the packages' own test files (not of external _test packages
// of another directory) are listed.
func Discover(ctx context.Context, dir string, env []string, patterns ...string) ([]Target, error) {
	args := append([]string{"list", "-e", "-json=ImportPath,Dir,Module,TestGoFiles,XTestGoFiles,Error"}, patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list %s: %w\n%s", strings.Join(patterns, " "), err, strings.TrimSpace(stderr.String()))
	}
	var targets []Target
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath                string
			Dir                       string
			Module                    *struct{ Path, Dir string }
			Error                     *struct{ Err string }
			TestGoFiles, XTestGoFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("go list %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Module == nil {
			return nil, fmt.Errorf("package %s is not in a module", p.ImportPath)
		}
		seen := map[string]bool{}
		for _, f := range append(p.TestGoFiles, p.XTestGoFiles...) {
			src, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return nil, err
			}
			for _, m := range fuzzDecl.FindAllSubmatch(src, -1) {
				name := string(m[1])
				if seen[name] {
					continue
				}
				seen[name] = true
				targets = append(targets, Target{Module: p.Module.Dir, ModPath: p.Module.Path, Package: p.ImportPath, Dir: p.Dir, Name: name})
			}
		}
	}
	sort.SliceStable(targets, func(i, j int) bool {
		if targets[i].Package != targets[j].Package {
			return targets[i].Package < targets[j].Package
		}
		return targets[i].Name < targets[j].Name
	})
	return targets, nil
}

// BuildFuzz compiles the test binary of t's package with the fuzzing
// instrumentation of `go test -fuzz` into out, through overlay (a go
// -overlay file; "" for the original code). The go command runs in t's
// module root with env (nil: the current environment) and the default
// build cache.
func BuildFuzz(ctx context.Context, t Target, overlay, out string, env []string) error {
	args := []string{"test", "-c", "-o", out, fuzzFlag(t)}
	if overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	return goBuild(ctx, t.Module, env, append(args, t.Package)...)
}

// BuildCover compiles the test binary of t's package with a coverage
// profile of its labelled packages (Labelled; covermode set) into out, the go command running
// in dir: t's module root for the original, or a copy of the module with
// annotated files in place (go test -cover ignores -overlay,
// golang/go#73802).
func BuildCover(ctx context.Context, t Target, dir, out string, env []string) error {
	return goBuild(ctx, dir, env, coverArgs(t, out)...)
}

// coverArgs are go's arguments building t's coverage test binary
// (BuildCover) at out, with flags before the package.
func coverArgs(t Target, out string, flags ...string) []string {
	args := append([]string{"test", "-c", "-o", out, "-covermode=set", "-coverpkg=" + strings.Join(t.Labelled(), ",")}, flags...)
	return append(args, t.Package)
}

// fuzzFlag is go test's -fuzz flag for t, as BuildFuzz passes it.
func fuzzFlag(t Target) string { return "-fuzz=^" + regexp.QuoteMeta(t.Name) + "$" }

func goBuild(ctx context.Context, dir string, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, tail(string(b), 30))
	}
	return nil
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// copyDir copies the regular files of src into dst (made if needed),
// without version control directories.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel != "." && (d.Name() == ".git" || d.Name() == ".hg" || d.Name() == ".svn") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(path, filepath.Join(dst, rel))
	})
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}
