package golang

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The rules for what a user typed that names Go packages, in one place:
// every verb (annotate, cover, gentests, reduce, compare --go) decides
// "plan file or Go packages" with IsPatternArg and where the go command
// runs with ResolvePatterns, so a path accepted by one is accepted by all,
// with the same messages.

// IsPatternArg reports whether a command argument names Go packages (a
// pattern with "...", a directory holding .go files, an import path)
// rather than a plan file.
func IsPatternArg(arg string) bool {
	if arg == "-" || strings.HasSuffix(arg, ".plan") {
		return false
	}
	if strings.Contains(arg, "...") {
		return true
	}
	if st, err := os.Stat(arg); err == nil {
		if !st.IsDir() {
			return false
		}
		gos, _ := filepath.Glob(filepath.Join(arg, "*.go"))
		return len(gos) > 0
	}
	return !strings.Contains(filepath.Base(arg), ".") || strings.Contains(arg, "/")
}

// isPathPattern reports whether pat names packages by a path (./x/...,
// ../x, /abs/x, or a directory that exists, such as testdata/go/sample)
// rather than by an import path.
func isPathPattern(pat string) bool {
	if strings.HasPrefix(pat, ".") || filepath.IsAbs(pat) {
		return true
	}
	lit, _, _ := strings.Cut(filepath.ToSlash(pat), "...")
	lit = strings.TrimSuffix(lit, "/")
	if lit == "" {
		return false
	}
	st, err := os.Stat(filepath.FromSlash(lit))
	return err == nil && st.IsDir()
}

// AbsPattern is pat with its path made absolute when it names packages
// by a path (isPathPattern: ./x/..., ../x, or an existing directory such
// as testdata/go/sample), so that the go command finds the same packages
// from any directory; an import path is returned as it is.
func AbsPattern(pat string) (string, error) {
	if !isPathPattern(pat) || filepath.IsAbs(pat) {
		return pat, nil
	}
	lit, rest, dots := strings.Cut(pat, "...")
	abs, err := filepath.Abs(lit)
	if err != nil {
		return "", err
	}
	if dots {
		abs = strings.TrimSuffix(abs, string(filepath.Separator)) + "/..." + rest
	}
	return abs, nil
}

// PatternDir splits a pattern into the directory the go command runs in
// and the pattern there: a pattern that is a path runs in the module that
// holds its directory, as a pattern relative to it (./testdata/go/sample
// from the repository root loads that nested module; testdata/go/fuzzexp
// is the same path); an import path runs in the current directory ("").
func PatternDir(pat string) (string, string, error) {
	if !isPathPattern(pat) {
		return "", pat, nil
	}
	lit, rest, dots := strings.Cut(filepath.ToSlash(pat), "...")
	base := lit // the directory part of the literal prefix
	if dots {
		base = lit[:strings.LastIndex(lit, "/")+1]
	}
	dirPart := base
	if dirPart == "" {
		dirPart = "."
	}
	abs, err := filepath.Abs(filepath.FromSlash(dirPart))
	if err != nil {
		return "", "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", "", fmt.Errorf("%s: no directory %s", pat, abs)
	}
	for d := abs; ; {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			rel, err := filepath.Rel(d, abs)
			if err != nil {
				return "", "", err
			}
			p := "./" + filepath.ToSlash(rel)
			if dots {
				p = strings.TrimSuffix(p, "/.") + "/" + lit[len(base):] + "..." + rest
			}
			return d, p, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", fmt.Errorf("%s is not inside a Go module (no go.mod in %s or above)", pat, abs)
		}
		d = parent
	}
}

// ResolvePatterns is where the go command runs for patterns, and the
// patterns there: with dir (-C) given, both as given; else each path
// pattern is made relative to the module holding it (PatternDir), and all
// must lie in one module (else: give -C, or one module at a time).
func ResolvePatterns(dir string, patterns []string) (string, []string, error) {
	if dir != "" {
		return dir, patterns, nil
	}
	out := make([]string, len(patterns))
	mod, modOf := "", ""
	for i, pat := range patterns {
		d, p, err := PatternDir(pat)
		if err != nil {
			return "", nil, err
		}
		out[i] = p
		if d == "" {
			continue // an import path: resolved where the go command runs
		}
		if mod != "" && mod != d {
			return "", nil, fmt.Errorf("%s and %s are in different Go modules (%s, %s): give -C DIR with patterns inside that module, or one module at a time", modOf, pat, mod, d)
		}
		mod, modOf = d, pat
	}
	return mod, out, nil
}

// LoadHint adds to an error of the go command naming packages it could
// not find the way out: -C DIR, or a path to the package.
func LoadHint(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, s := range []string{"does not contain package", "is not in std", "cannot find module", "no required module provides", "directory prefix . does not contain", "outside main module"} {
		if strings.Contains(msg, s) {
			return fmt.Errorf("%w (give -C DIR to run the go command in the package's module, or name the package by its path, e.g. ./pkg/...)", err)
		}
	}
	return err
}
