package golang

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
	"sort"
	"strings"
)

// Layout is where the go command finds the modules of the packages to
// label when they are not the main module's (labels inside dependencies):
// a writable copy of each such module that lies beneath GOMODCACHE (go
// -overlay must not replace files there) and a private go.mod — a copy of
// the main module's with a replace of each copied module, and its go.sum —
// that every go command of labelcov reads through -modfile (Env). The
// user's go.mod, go.sum and module cache are never written.
//
// A Layout whose packages are all in the main module, or in modules it
// already replaces with a directory outside the cache, copies nothing and
// has no go.mod of its own (Env is the environment given).
type Layout struct {
	// Main is the root of the main module (where the go commands run).
	Main string
	// Work holds the copies (Work/modules/PATH@VERSION) and the private
	// go.mod (Work/labelcov.mod, with Work/labelcov.sum).
	Work string
	// Modfile is the private go.mod ("" when nothing was copied).
	Modfile string
	// Modules are the non-main modules of the labelled packages: their
	// directory as the go command found it -> the directory used now
	// (a copy, or the same directory when it is outside the cache).
	Modules map[string]string
	env     []string
	// mods describe Modules (path, version) by the directory used now.
	mods map[string]listedModule
}

type listedModule struct {
	Path, Version, Dir string
	Main               bool
	Replace            *listedModule
}

// NewLayout lays out, under work, the modules of the packages matching
// patterns as the go command sees them from dir (env nil: this process's).
func NewLayout(ctx context.Context, dir string, env []string, patterns []string, work string) (*Layout, error) {
	if env == nil {
		env = os.Environ()
	}
	if strings.ContainsAny(work, " \t\n") {
		// GOFLAGS separates flags by spaces.
		return nil, fmt.Errorf("labelled packages: the work directory %q has a space: -modfile cannot name it in GOFLAGS", work)
	}
	l := &Layout{Work: work, Modules: map[string]string{}, env: env, mods: map[string]listedModule{}}
	var err error
	if l.Main, err = goOutput(ctx, dir, env, "list", "-m", "-f", "{{.Dir}}"); err != nil {
		return nil, fmt.Errorf("labelled packages: %w", err)
	}
	l.Main = strings.TrimSpace(l.Main)
	if l.Main == "" || strings.Contains(l.Main, "\n") {
		return nil, fmt.Errorf("labelled packages: %s is not in one module (a workspace or GOPATH mode: give -C the main module)", dir)
	}
	cache, err := goOutput(ctx, dir, env, "env", "GOMODCACHE")
	if err != nil {
		return nil, fmt.Errorf("labelled packages: %w", err)
	}
	cache = strings.TrimSpace(cache)
	out, err := goOutput(ctx, dir, env, append([]string{"list", "-json=ImportPath,Module,Error"}, patterns...)...)
	if err != nil {
		return nil, fmt.Errorf("labelled packages %s: %w", strings.Join(patterns, " "), err)
	}
	seen := map[string]listedModule{}
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p struct {
			ImportPath string
			Module     *listedModule
			Error      *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("labelled packages: go list: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("labelled package %s: %s", p.ImportPath, p.Error.Err)
		}
		if p.Module == nil {
			return nil, fmt.Errorf("labelled package %s is not in a module (standard library packages cannot be labelled)", p.ImportPath)
		}
		if !p.Module.Main {
			seen[p.Module.Dir] = *p.Module
		}
	}
	var copied []listedModule
	for d, m := range seen {
		use := d
		if cache != "" && within(d, cache) {
			use = filepath.Join(work, "modules", m.Path+"@"+m.Version)
			if err := CopyModule(d, use); err != nil {
				return nil, fmt.Errorf("labelled packages: %w", err)
			}
			copied = append(copied, m)
		}
		l.Modules[d] = use
		l.mods[use] = m
	}
	if len(copied) == 0 {
		return l, nil
	}
	if err := l.writeModfile(ctx, filepath.Join(work, "labelcov.mod"), l.Modules); err != nil {
		return nil, err
	}
	return l, nil
}

// Env is the environment of the go commands that build with the layout:
// the one given, with -modfile added to GOFLAGS when modules were copied.
func (l *Layout) Env() []string { return withModfile(l.env, l.Modfile) }

// Copied reports whether the layout replaces modules (and the go command
// needs Env to see them).
func (l *Layout) Copied() bool { return l.Modfile != "" }

// MaterializeDeps writes, under dir, a copy of the module of each of r's
// packages, with the annotated files in place, and a go.mod (a copy of the
// main module's at main) that replaces those modules with the copies; it
// returns the environment (env with -modfile) of go commands that run in
// main and build with them. It is Materialize for labels inside
// dependencies (go test -cover ignores -overlay): the main module is not
// copied, and r may not hold its packages.
func (r *Result) MaterializeDeps(ctx context.Context, main string, env []string, dir string) ([]string, error) {
	if strings.ContainsAny(dir, " \t\n") {
		return nil, fmt.Errorf("materialize: the directory %q has a space: -modfile cannot name it in GOFLAGS", dir)
	}
	if env == nil {
		env = os.Environ()
	}
	m := &Layout{Main: main, Work: dir, Modules: map[string]string{}, env: env, mods: map[string]listedModule{}}
	for _, p := range r.Packages {
		if p.Module == "" || p.ModulePath == "" || p.Module == main {
			return nil, fmt.Errorf("materialize: %s is not in a dependency module of %s", p.Path, main)
		}
		to, done := m.Modules[p.Module]
		if !done {
			to = filepath.Join(dir, "modules", p.ModulePath+"@"+p.ModuleVersion)
			if err := CopyModule(p.Module, to); err != nil {
				return nil, fmt.Errorf("materialize: %w", err)
			}
			m.Modules[p.Module] = to
			m.mods[to] = listedModule{Path: p.ModulePath, Version: p.ModuleVersion}
		}
		for _, f := range p.Files {
			if f.Source == nil {
				continue
			}
			rel, err := filepath.Rel(p.Module, f.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				return nil, fmt.Errorf("materialize: %s is outside module %s", f.Path, p.Module)
			}
			if err := os.WriteFile(filepath.Join(to, rel), f.Source, 0o644); err != nil {
				return nil, fmt.Errorf("materialize: %w", err)
			}
		}
	}
	if err := m.writeModfile(ctx, filepath.Join(dir, "labelcov.mod"), m.Modules); err != nil {
		return nil, err
	}
	return m.Env(), nil
}

// writeModfile writes the private go.mod at path (and its go.sum): the
// main module's, with each module replaced by its directory in use.
func (l *Layout) writeModfile(ctx context.Context, path string, use map[string]string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("labelled packages: %w", err)
	}
	// The go.mod the go command reads now: the main module's, or the
	// private one env names already (PinModfile).
	base := filepath.Join(l.Main, "go.mod")
	if mf := modfileOf(l.env); mf != "" {
		base = mf
		if !filepath.IsAbs(base) {
			base = filepath.Join(l.Main, base)
		}
	}
	if err := copyModfile(base, path); err != nil {
		return fmt.Errorf("labelled packages: %w", err)
	}
	var dirs []string
	for _, d := range use {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	args := []string{"mod", "edit"}
	for _, d := range dirs {
		m := l.mods[d]
		// An existing replace of the module (with or without its
		// version) gives way to the copy.
		args = append(args, "-dropreplace="+m.Path, "-dropreplace="+m.Path+"@"+m.Version, "-replace="+m.Path+"="+d)
	}
	if _, err := goOutput(ctx, l.Main, withoutModfile(l.env), append(args, path)...); err != nil {
		return fmt.Errorf("labelled packages: %w", err)
	}
	l.Modfile = path
	return nil
}

// copyModfile copies the go.mod at from to the one at to, with its go.sum
// (an empty one when from has none).
func copyModfile(from, to string) error {
	mod, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.WriteFile(to, mod, 0o644); err != nil {
		return err
	}
	sum, err := os.ReadFile(strings.TrimSuffix(from, ".mod") + ".sum")
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return os.WriteFile(strings.TrimSuffix(to, ".mod")+".sum", sum, 0o644)
}

// PinModfile writes a private go.mod at path (a copy of the go.mod of the
// module rooted at main, with its go.sum) in which `go get` puts the
// module versions of specs (MODULE@VERSION: say, the releases with the
// fixes of known bugs), and returns env (nil: this process's) with
// -modfile=path in GOFLAGS, so that the go commands that run in main with
// it build against those versions. Like a Layout, it never writes the
// module's go.mod or go.sum; the versions come through the module proxy
// (or GOFLAGS=-mod=mod's usual sources) into the module cache. path must
// end in ".mod" and have no space (GOFLAGS separates flags by spaces).
func PinModfile(ctx context.Context, main string, env []string, specs []string, path string) ([]string, error) {
	if env == nil {
		env = os.Environ()
	}
	if strings.ContainsAny(path, " \t\n") {
		return nil, fmt.Errorf("pinned versions: the file %q has a space: -modfile cannot name it in GOFLAGS", path)
	}
	if !strings.HasSuffix(path, ".mod") {
		return nil, fmt.Errorf("pinned versions: %s: a -modfile must end in .mod", path)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("pinned versions: %w", err)
	}
	if err := copyModfile(filepath.Join(main, "go.mod"), path); err != nil {
		return nil, fmt.Errorf("pinned versions: %w", err)
	}
	out := withModfile(env, path)
	if len(specs) > 0 {
		if _, err := goOutput(ctx, main, out, append([]string{"get"}, specs...)...); err != nil {
			return nil, fmt.Errorf("pinned versions: %w", err)
		}
	}
	return out, nil
}

// within reports whether path lies in (or is) dir.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// withModfile returns env with -modfile=modfile added to GOFLAGS (env
// unchanged when modfile is ""). When env sets GOFLAGS more than once (a
// caller appended its own to os.Environ()), the last one is what the go
// command sees (os/exec keeps the last of duplicates), so that is the one
// extended.
func withModfile(env []string, modfile string) []string {
	if modfile == "" {
		return env
	}
	out := withoutModfile(env)
	flags := "-modfile=" + modfile
	for i := len(out) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(out[i], "GOFLAGS="); ok {
			out[i] = "GOFLAGS=" + strings.TrimSpace(v+" "+flags)
			return out
		}
	}
	return append(out, "GOFLAGS="+flags)
}

// withoutModfile returns a copy of env whose GOFLAGS has no -modfile.
func withoutModfile(env []string) []string {
	out := append([]string(nil), env...)
	for i, kv := range out {
		v, ok := strings.CutPrefix(kv, "GOFLAGS=")
		if !ok {
			continue
		}
		var keep []string
		for _, f := range strings.Fields(v) {
			if !strings.HasPrefix(f, "-modfile=") && !strings.HasPrefix(f, "--modfile=") {
				keep = append(keep, f)
			}
		}
		out[i] = "GOFLAGS=" + strings.Join(keep, " ")
	}
	return out
}

// modfileOf is the -modfile of env's GOFLAGS ("" if none).
func modfileOf(env []string) string {
	mf := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			mf = ""
			for _, f := range strings.Fields(v) {
				if m, ok := strings.CutPrefix(strings.TrimPrefix(f, "-"), "-modfile="); ok {
					mf = m
				} else if m, ok := strings.CutPrefix(f, "-modfile="); ok {
					mf = m
				}
			}
		}
	}
	return mf
}

// goOutput runs the go command in dir with env and returns its output.
func goOutput(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// AnnotateFor annotates the packages matching labelPkgs for the tests and
// fuzz targets of the packages matching targets (labels inside
// dependencies; the go command runs in opts.Dir): it lays out the
// labelled packages' modules under work (NewLayout), loads them from
// there, and lists the target packages that are not labelled as the
// result's FuzzPackages (with dist they get the labelled packages'
// constants as seeds). Labels give positions in the modules as the go
// command found them; the packages' files are the copies. Build the
// overlay with the layout's Env.
func AnnotateFor(ctx context.Context, targets, labelPkgs []string, opts Options, work string) (*Result, *Layout, error) {
	l, err := NewLayout(ctx, opts.Dir, opts.Env, labelPkgs, work)
	if err != nil {
		return nil, nil, err
	}
	fps, err := ListPackages(ctx, opts.Dir, l.Env(), targets)
	if err != nil {
		return nil, nil, err
	}
	opts.Env = l.Env()
	res, err := Annotate(ctx, labelPkgs, opts)
	if err != nil {
		return nil, nil, err
	}
	// Labels name the files the user knows (a copy is labelcov's own).
	for _, lb := range res.Labels {
		for orig, use := range l.Modules {
			if rel, err := filepath.Rel(use, lb.Pos.File); err == nil && use != orig && !strings.HasPrefix(rel, "..") {
				lb.Pos.File = filepath.Join(orig, rel)
			}
		}
	}
	labelled := map[string]bool{}
	for _, p := range res.Packages {
		labelled[p.Path] = true
	}
	for _, fp := range fps {
		if !labelled[fp.Path] {
			res.FuzzPackages = append(res.FuzzPackages, fp)
		}
	}
	return res, l, nil
}

// ListPackages lists the packages matching patterns (import path and
// directory) as the go command sees them from dir.
func ListPackages(ctx context.Context, dir string, env []string, patterns []string) ([]FuzzPackage, error) {
	out, err := goOutput(ctx, dir, env, append([]string{"list", "-json=ImportPath,Dir,Module,Error"}, patterns...)...)
	if err != nil {
		return nil, err
	}
	var fps []FuzzPackage
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir string
			Module          *struct{ Dir string }
			Error           *struct{ Err string }
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list: %w", err)
		}
		if p.Error != nil {
			return nil, fmt.Errorf("package %s: %s", p.ImportPath, p.Error.Err)
		}
		fp := FuzzPackage{Path: p.ImportPath, Dir: p.Dir}
		if p.Module != nil {
			fp.Module = p.Module.Dir
		}
		fps = append(fps, fp)
	}
	return fps, nil
}
