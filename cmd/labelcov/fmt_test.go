package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	messyPlan = "(defun  f (x)     (+ x 1.50) ) ; keep me\n(def-plan main () (f 1))"
	tidyPlan  = "(defun f (x) (+ x 1.50)) ; keep me\n\n(def-plan main () (f 1))\n"
)

func writePlan(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	return path
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestFmtPrints(t *testing.T) {
	path := writePlan(t, "messy.plan", messyPlan)
	code, out, errs := runCLI("fmt", path)
	if code != exitOK || out != tidyPlan {
		t.Fatalf("fmt: code %d stderr %q\n got %q\nwant %q", code, errs, out, tidyPlan)
	}
	if src, _ := os.ReadFile(path); string(src) != messyPlan {
		t.Errorf("fmt without -w changed the file")
	}
}

func TestFmtCheck(t *testing.T) {
	messy := writePlan(t, "messy.plan", messyPlan)
	tidy := writePlan(t, "tidy.plan", tidyPlan)
	code, out, errs := runCLI("fmt", "--check", tidy, messy)
	if code != exitFound {
		t.Errorf("--check with an unformatted file: code %d, want %d", code, exitFound)
	}
	if out != messy+"\n" {
		t.Errorf("--check listed %q, want only %s", out, messy)
	}
	if !strings.Contains(errs, "1 of 2 file(s) not formatted") {
		t.Errorf("stderr %q", errs)
	}
	if code, out, _ := runCLI("fmt", "--check", tidy); code != exitOK || out != "" {
		t.Errorf("--check on a formatted file: code %d, out %q", code, out)
	}
}

func TestFmtWrite(t *testing.T) {
	path := writePlan(t, "messy.plan", messyPlan)
	if code, out, errs := runCLI("fmt", "-w", path); code != exitOK || out != "" {
		t.Fatalf("fmt -w: code %d out %q err %q", code, out, errs)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(src) != tidyPlan {
		t.Errorf("after -w the file is %q, want %q", src, tidyPlan)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("-w changed the mode to %v", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("-w left %d files in the directory", len(entries))
	}
}

func TestFmtBadInput(t *testing.T) {
	path := writePlan(t, "bad.plan", "(defun f ()\n  (g)))\n")
	code, out, errs := runCLI("fmt", path)
	if code != exitUsage || out != "" {
		t.Errorf("code %d, stdout %q", code, out)
	}
	want := "labelcov: " + path + ":2:7: unbalanced ')'\n  (g)))\n      ^\n"
	if errs != want {
		t.Errorf("stderr\n%s\nwant\n%s", errs, want)
	}
	if code, _, errs := runCLI("fmt", "-w", "--check", path); code != exitUsage || !strings.Contains(errs, "exclude") {
		t.Errorf("-w with --check: code %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI("fmt", filepath.Join(t.TempDir(), "missing.plan")); code != exitUsage || !strings.Contains(errs, "no such file") {
		t.Errorf("missing file: code %d, stderr %q", code, errs)
	}
}
