package golang

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Materialize copies the module of r's packages to dir (without .git) and
// writes the annotated files in place of the originals: a tree where plain
// go commands see the annotated code, for tools that do not honour
// -overlay (go test -cover, golang/go#73802).
func (r *Result) Materialize(dir string) error {
	if len(r.Packages) == 0 {
		return errors.New("materialize: no packages")
	}
	root := r.Packages[0].Module
	if root == "" {
		return fmt.Errorf("materialize: %s is not in a module", r.Packages[0].Path)
	}
	for _, p := range r.Packages {
		if p.Module != root {
			return fmt.Errorf("materialize: packages from several modules (%s, %s)", root, p.Module)
		}
	}
	if err := CopyModule(root, dir); err != nil {
		return err
	}
	for _, p := range r.Packages {
		for _, f := range p.Files {
			if f.Source == nil {
				continue
			}
			rel, err := filepath.Rel(root, f.Path)
			if err != nil || strings.HasPrefix(rel, "..") {
				return fmt.Errorf("materialize: %s is outside module %s", f.Path, root)
			}
			if err := os.WriteFile(filepath.Join(dir, rel), f.Source, 0o644); err != nil {
				return fmt.Errorf("materialize: %w", err)
			}
		}
	}
	return nil
}

// CopyModule copies the module tree at src to dst, without its version
// control directories (.git, .hg): Materialize's copy, before it writes
// the annotated files.
func CopyModule(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copying module: %w", err)
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if rel != "." && (d.Name() == ".git" || d.Name() == ".hg") {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("copying module: %w", err)
		}
		if err := os.WriteFile(filepath.Join(dst, rel), b, 0o644); err != nil {
			return fmt.Errorf("copying module: %w", err)
		}
		return nil
	})
}
