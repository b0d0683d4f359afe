package golang

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestPatternDir(t *testing.T) {
	abs, err := filepath.Abs("../../testdata/gobench")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, dir, pat string }{
		{"../../testdata/gobench/...", abs, "./..."},
		{"../../testdata/gobench/header", abs, "./header"},
		{"../../testdata/gobench/h...", abs, "./h..."},
		{"example.com/gobench/...", "", "example.com/gobench/..."},
		{"./../../testdata/gobench/./h...", abs, "./h..."},
	} {
		dir, pat, err := PatternDir(c.in)
		if err != nil || dir != c.dir || pat != c.pat {
			t.Errorf("PatternDir(%q) = %q, %q, %v; want %q, %q", c.in, dir, pat, err, c.dir, c.pat)
		}
	}
	if _, _, err := PatternDir("./no/such/dir/..."); err == nil {
		t.Error("no error for a missing directory")
	}
}

// TestPatternDirWithoutDot: a directory named without ./ (testdata/go/sample
// from the repository root) is a path, not an import path in std.
func TestPatternDirWithoutDot(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	sample := filepath.Join(root, "testdata", "go", "sample")
	for _, c := range []struct{ in, pat string }{
		{"testdata/go/sample", "./."},
		{"./testdata/go/sample", "./."},
		{"testdata/go/sample/...", "./..."},
	} {
		dir, pat, err := PatternDir(c.in)
		if err != nil || dir != sample || pat != c.pat {
			t.Errorf("PatternDir(%q) = %q, %q, %v; want %q, %q", c.in, dir, pat, err, sample, c.pat)
		}
	}
	if !IsPatternArg("testdata/go/sample") || IsPatternArg("testdata/bench/temperature/temperature.plan") {
		t.Error("IsPatternArg")
	}
	dir, pats, err := ResolvePatterns("", []string{"testdata/go/sample", "./testdata/go/sample/..."})
	if err != nil || dir != sample || strings.Join(pats, " ") != "./. ./..." {
		t.Errorf("ResolvePatterns: %q %q %v", dir, pats, err)
	}
	if dir, pats, err := ResolvePatterns("elsewhere", []string{"testdata/go/sample"}); err != nil || dir != "elsewhere" || pats[0] != "testdata/go/sample" {
		t.Errorf("ResolvePatterns with -C: %q %q %v", dir, pats, err)
	}
	if _, _, err := ResolvePatterns("", []string{"testdata/go/sample", "testdata/go/fuzzexp"}); err == nil || !strings.Contains(err.Error(), "different Go modules") {
		t.Errorf("two modules: %v", err)
	}
}

// TestAbsPattern: --label-pkgs paths are made absolute by the same rule
// that tells a path from an import path (with ./, or an existing directory
// without it); import paths stay as they are.
func TestAbsPattern(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	dep := filepath.Join(root, "testdata", "go", "depmods", "dep")
	for _, c := range []struct{ in, want string }{
		{"./testdata/go/depmods/dep", dep},
		{"testdata/go/depmods/dep", dep},
		{"testdata/go/depmods/dep/...", dep + "/..."},
		{"./testdata/go/depmods/...", filepath.Join(root, "testdata", "go", "depmods") + "/..."},
		{"example.com/dep", "example.com/dep"},
		{dep, dep},
	} {
		if got, err := AbsPattern(c.in); err != nil || got != c.want {
			t.Errorf("AbsPattern(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
