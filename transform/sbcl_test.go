package transform

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/sbcltest"
	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/normalize"
)

// sbclCriteria are the criteria sets the SBCL tests annotate with: the
// everyday set and the largest one.
var sbclCriteria = []string{"mcc,wm", "mcc,cc,wm,dist"}

// lispPlans returns every CPL-style plan of the repository, by name: the
// CPL fixtures of transform and of the reader, the CPL plans of the
// differential tests, and the bundled plans and benchmarks (Common Lisp
// with labelcov's def-plan, designators and world queries); with
// LABELCOV_SBCL_PLANS=DIR, also DIR/*.lisp (your own plan files).
func lispPlans(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	globs := []string{"testdata/cpl/*.lisp", "../interp/syntax/testdata/cpl/*.lisp",
		"../testdata/plans/*.plan", "../testdata/bench/*/*.plan"}
	if dir := os.Getenv("LABELCOV_SBCL_PLANS"); dir != "" {
		globs = append(globs, filepath.Join(dir, "*.lisp"))
	}
	for _, glob := range globs {
		paths, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out[p] = string(src)
		}
	}
	for name, src := range cplPlans {
		out["cplPlans/"+name] = src
	}
	if len(out) < 10 {
		t.Fatalf("found only %d plans", len(out))
	}
	return out
}

// annotateAsCLI annotates src as labelcov annotate does: definitions that
// do not compile are passed through.
func annotateAsCLI(t testing.TB, name, src, crit string) *Result {
	t.Helper()
	f, err := syntax.Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile.CompileWith(f, compile.Options{PassThrough: true})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Plan(f, Options{Labels: labels.Options{Criteria: c}, Normalize: normalize.Options{PassThrough: p.PassedThrough}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// stubPrelude is Lisp source that loads CRAM's stub packages
// (testdata/sbcl/cram-stubs.lisp) and makes what src needs beyond them: a
// package exporting every pkg:name it reads, and the package of its
// in-package (unless the file defines it) using Common Lisp and the CPL
// stubs, as a CRAM plan package uses CPL; a file without in-package is
// read in CL-USER, which gets their symbols too.
func stubPrelude(t testing.TB, srcs ...string) string {
	t.Helper()
	return "(load \"cram-stubs.lisp\")\n" + stubSymbols(t, srcs...)
}

// stubSymbols is stubPrelude without loading the stubs.
func stubSymbols(t testing.TB, srcs ...string) string {
	t.Helper()
	exported := map[string]map[string]bool{}
	var planPkgs []string
	defined := map[string]bool{}
	for _, src := range srcs {
		f, err := syntax.Parse("plan", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, form := range f.Forms {
			l, ok := form.(*syntax.List)
			if !ok || len(l.Elems) < 2 {
				continue
			}
			switch forms.Head(l) {
			case "defpackage":
				defined[lispName(l.Elems[1])] = true
			case "in-package":
				planPkgs = append(planPkgs, lispName(l.Elems[1]))
			}
		}
		for _, form := range f.Forms {
			syntax.Walk(form, func(n syntax.Node) bool {
				if s, ok := n.(*syntax.Symbol); ok && s.Pkg != "" {
					pkg := strings.ToUpper(s.Pkg)
					if exported[pkg] == nil {
						exported[pkg] = map[string]bool{}
					}
					if !s.Internal {
						exported[pkg][strings.ToUpper(s.Name)] = true
					}
				}
				return true
			})
		}
	}
	var b strings.Builder
	b.WriteString(`(defun labelcov-stub (pkg names)
  (let ((p (or (find-package pkg) (make-package pkg :use '("COMMON-LISP")))))
    (dolist (n names) (export (intern n p) p))))
(defparameter *labelcov-cpl* '("COMMON-LISP" "CRAM-LANGUAGE" "CRAM-DESIGNATORS" "CRAM-EXECUTIVE" "ROSLISP"))
`)
	pkgs := make([]string, 0, len(exported))
	for p := range exported {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, p := range pkgs {
		if defined[p] || p == "CL-USER" || p == "COMMON-LISP-USER" || p == "CL" || p == "COMMON-LISP" || p == "KEYWORD" {
			continue
		}
		names := make([]string, 0, len(exported[p]))
		for n := range exported[p] {
			names = append(names, strconv.Quote(n))
		}
		sort.Strings(names)
		fmt.Fprintf(&b, "(labelcov-stub %q '(%s))\n", p, strings.Join(names, " "))
	}
	// A plan package uses Common Lisp and gets CPL's symbols, which win
	// over any other of the same name (CL-USER's SB-EXT:WAIT-FOR, a stub
	// symbol two CPL packages export).
	b.WriteString(`(defun labelcov-cpl-package (name)
  (let ((p (or (find-package name) (make-package name :use '("COMMON-LISP")))))
    (dolist (q (rest *labelcov-cpl*))
      (do-external-symbols (s q) (shadowing-import s p)))))
(labelcov-cpl-package "COMMON-LISP-USER")
`)
	for _, p := range planPkgs {
		if !defined[p] {
			fmt.Fprintf(&b, "(unless (find-package %q) (labelcov-cpl-package %q))\n", p, p)
		}
	}
	return b.String()
}

// lispName is the name a package designator (:x, x, "X", #:x) gives.
func lispName(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.Keyword:
		return strings.ToUpper(n.Name)
	case *syntax.Symbol:
		return strings.ToUpper(n.Name)
	case *syntax.String:
		return n.Value
	}
	return ""
}

// sbclConditions compiles file (in dir) in a fresh SBCL after prelude and
// returns the distinct warnings it signalled.
func sbclConditions(t *testing.T, sbcl, dir, prelude, file string) []string {
	t.Helper()
	script := prelude + sbcltest.Compile +
		fmt.Sprintf("(labelcov-compile %q %q)\n", file, strings.TrimSuffix(file, filepath.Ext(file))+".fasl")
	return sbcltest.Conditions(sbcltest.Run(t, sbcl, dir, script))
}

// TestSBCLCompilesAnnotatedPlans: SBCL's compile-file, with stubs for
// CRAM's packages, signals no warning or style warning on the annotated
// form (mcc,wm and mcc,cc,wm,dist) of any CPL-style plan of the
// repository that it does not signal on the original.
func TestSBCLCompilesAnnotatedPlans(t *testing.T) {
	sbcl := testenv.SBCL(t)
	stubs, err := os.ReadFile("testdata/sbcl/cram-stubs.lisp")
	if err != nil {
		t.Fatal(err)
	}
	plans := lispPlans(t)
	names := make([]string, 0, len(plans))
	for n := range plans {
		names = append(names, n)
	}
	sort.Strings(names)
	compiled := 0
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			src := plans[name]
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "cram-stubs.lisp"), stubs, 0o644); err != nil {
				t.Fatal(err)
			}
			files := map[string]string{"original.lisp": src}
			for _, crit := range sbclCriteria {
				r := annotateAsCLI(t, name, src, crit)
				files["annotated-"+strings.ReplaceAll(crit, ",", "-")+".lisp"] = string(r.Source)
			}
			var srcs []string
			for f, text := range files {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				srcs = append(srcs, text)
			}
			prelude := stubPrelude(t, srcs...)
			orig := sbclConditions(t, sbcl, dir, prelude, "original.lisp")
			for _, crit := range sbclCriteria {
				f := "annotated-" + strings.ReplaceAll(crit, ",", "-") + ".lisp"
				got := sbclConditions(t, sbcl, dir, prelude, f)
				for _, c := range got {
					if !slices.Contains(orig, c) {
						t.Errorf("%s (%s): SBCL signals what the original does not:\n  %s", name, crit, c)
					}
				}
				compiled++
			}
		})
	}
	t.Logf("%d annotated files compiled", compiled)
}

// TestSBCLASDFLoadsAnnotatedSystem: an ASDF system made of annotated
// plans (CPL fixtures with temporaries, a benchmark with shared-atom
// globals) loads in SBCL, whose ASDF fails a system on any full WARNING
// (*compile-file-failure-behaviour* :error); the same system with the
// temporaries declared as labelcov once did, unguarded, does not load.
func TestSBCLASDFLoadsAnnotatedSystem(t *testing.T) {
	sbcl := testenv.SBCL(t)
	stubs, err := os.ReadFile("testdata/sbcl/cram-stubs.lisp")
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	for _, p := range []string{"testdata/cpl/warehouse-cpl.lisp", "testdata/cpl/warehouse-cpl-idioms.lisp", "../testdata/bench/battery/battery.plan"} {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		r := annotateAsCLI(t, p, string(src), "mcc,cc,wm,dist")
		srcs = append(srcs, string(r.Source))
	}
	guarded, unguarded := forms.TempsDeclaration("%lc"), `(declaim (labelcov-temporaries "%lc"))`
	if !strings.Contains(srcs[0], guarded) || !strings.Contains(srcs[2], "(defvar %lcg1)") {
		t.Fatalf("the annotated plans lack temporaries or globals: the test tests nothing")
	}
	if ok, out := asdfLoads(t, sbcl, stubs, srcs); !ok {
		t.Errorf("ASDF does not load the annotated system:\n%s", out)
	}
	old := make([]string, len(srcs))
	for i, s := range srcs {
		old[i] = strings.ReplaceAll(s, guarded, unguarded)
	}
	if _, out := asdfLoads(t, sbcl, stubs, old); !strings.Contains(out, "FAILED UIOP/LISP-BUILD:COMPILE-FILE-ERROR") {
		t.Errorf("ASDF loads the system with the unguarded declaration: the test cannot see the warning:\n%s", out)
	}
}

// asdfLoads reports whether ASDF, in a fresh SBCL, loads a system made of
// CRAM's stubs, the stub symbols plans need and the plan files srcs, in
// order; out is what SBCL printed.
func asdfLoads(t *testing.T, sbcl string, stubs []byte, srcs []string) (ok bool, out string) {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{"cram-stubs.lisp": string(stubs), "prelude.lisp": stubSymbols(t, srcs...)}
	comps := []string{`(:file "cram-stubs")`, `(:file "prelude")`}
	for i, src := range srcs {
		name := fmt.Sprintf("plan%d", i+1)
		files[name+".lisp"] = src
		comps = append(comps, fmt.Sprintf("(:file %q)", name))
	}
	files["labelcov-annotated.asd"] = "(asdf:defsystem \"labelcov-annotated\" :serial t :components (" + strings.Join(comps, " ") + "))\n"
	for f, text := range files {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out = sbcltest.Run(t, sbcl, dir, `(require :asdf)
(push *default-pathname-defaults* asdf:*central-registry*)
(handler-case (progn (asdf:load-system "labelcov-annotated") (format t "~&LOADED~%"))
  (error (e) (format t "~&FAILED ~s~%" (type-of e))))
`)
	return strings.Contains(out, "\nLOADED") || strings.HasPrefix(out, "LOADED"), out
}

// TestSBCLASDFLoadsYourPlans: with LABELCOV_SBCL_PLANS=DIR (and
// LABELCOV_SBCL_TESTS=1), each DIR/*.lisp that ASDF loads as a one-file
// system (after CRAM's stubs) loads annotated too (mcc,wm and
// mcc,cc,wm,dist). TestSBCLCompilesAnnotatedPlans compiles the same files
// for new warnings.
func TestSBCLASDFLoadsYourPlans(t *testing.T) {
	sbcl := testenv.SBCL(t)
	dir := os.Getenv("LABELCOV_SBCL_PLANS")
	if dir == "" {
		t.Skip("set LABELCOV_SBCL_PLANS=DIR to load DIR/*.lisp, annotated, with ASDF")
	}
	stubs, err := os.ReadFile("testdata/sbcl/cram-stubs.lisp")
	if err != nil {
		t.Fatal(err)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.lisp"))
	if err != nil {
		t.Fatal(err)
	}
	origLoads, annLoads := 0, 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if ok, _ := asdfLoads(t, sbcl, stubs, []string{string(src)}); !ok {
			continue // fails with the stubs as written: nothing to compare
		}
		origLoads++
		for _, crit := range sbclCriteria {
			r := annotateAsCLI(t, p, string(src), crit)
			if ok, out := asdfLoads(t, sbcl, stubs, []string{string(r.Source)}); ok {
				annLoads++
			} else {
				t.Errorf("%s (%s): ASDF loads the original but not the annotated plan:\n%s", p, crit, out)
			}
		}
	}
	t.Logf("%d of %d files load with ASDF as written; %d of %d annotated forms of those load", origLoads, len(paths), annLoads, 2*origLoads)
}
