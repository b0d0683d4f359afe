package main

// Go packages: `labelcov annotate` and `labelcov cover` dispatch here when
// their argument is a Go package pattern (see isGoPackageArg) rather than
// a .plan file.

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/gotest"
	"github.com/labelcov/labelcov/fuzzdriver/measure"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/report"
	"github.com/labelcov/labelcov/labels"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// isGoPackageArg reports whether a command argument names Go packages
// rather than a plan file (the one rule: gotransform.IsPatternArg).
func isGoPackageArg(arg string) bool { return gotransform.IsPatternArg(arg) }

// goAnnotateOptions are the options of annotating Go packages.
type goAnnotateOptions struct {
	Criteria    string // as --criteria ("" = all)
	MCCMaxAtoms int
	// Out is the directory for annotated files, overlay.json and
	// labels.json (required for annotate).
	Out string
	// Dir is the directory the go command runs in ("" = current).
	Dir  string
	Tags string
	// Copy, for annotate: also write a copy of the module with the
	// annotated files in place (go test -cover ignores -overlay,
	// golang/go#73802).
	Copy string
	// LabelPkgs are the packages to label when they are not the ones
	// given (--label-pkgs: labels inside dependencies).
	LabelPkgs []string
}

// labelPkgsUsage is the help of --label-pkgs, the same for every verb.
const labelPkgsUsage = "Go packages: label these packages (patterns, e.g. a dependency's import path example.com/dep/...) instead of the ones whose tests or fuzz target run; a dependency's module is copied and replaced in a private -modfile (your go.mod and module cache are never written)"

// resolveLabelPkgs turns --label-pkgs patterns into import paths as the
// go command sees them from dir (relative patterns: from the current
// directory).
func resolveLabelPkgs(ctx context.Context, dir string, patterns []string) ([]string, error) {
	if len(patterns) == 0 {
		return nil, nil
	}
	var abs []string
	for _, p := range patterns {
		if strings.HasPrefix(p, ".") {
			lit, rest, dots := strings.Cut(p, "...")
			a, err := filepath.Abs(lit)
			if err != nil {
				return nil, fmt.Errorf("--label-pkgs %s: %w", p, err)
			}
			if dots {
				a = strings.TrimSuffix(a, "/") + "/..." + rest
			}
			p = a
		}
		abs = append(abs, p)
	}
	fps, err := gotransform.ListPackages(ctx, dir, nil, abs)
	if err != nil {
		return nil, fmt.Errorf("--label-pkgs: %w", err)
	}
	var out []string
	for _, fp := range fps {
		out = append(out, fp.Path)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("--label-pkgs %s: no packages", strings.Join(patterns, " "))
	}
	return out, nil
}

func (o goAnnotateOptions) transformOptions() (gotransform.Options, error) {
	crit := o.Criteria
	if crit == "" {
		crit = "all"
	}
	c, err := labels.ParseCriteria(crit)
	if err != nil {
		return gotransform.Options{}, fmt.Errorf("--criteria: %w", err)
	}
	if o.MCCMaxAtoms < 0 {
		return gotransform.Options{}, fmt.Errorf("--mcc-max-atoms must be at least 1, got %d", o.MCCMaxAtoms)
	}
	to := gotransform.Options{Criteria: c, MCCMaxAtoms: o.MCCMaxAtoms, Dir: o.Dir}
	if o.Tags != "" {
		to.BuildFlags = []string{"-tags=" + o.Tags}
	}
	return to, nil
}

// annotateGoPackages annotates the Go packages matching patterns into
// opts.Out (annotated files, overlay.json, labels.json) and prints a
// summary to w: label counts per criterion and how to use the overlay.
func annotateGoPackages(ctx context.Context, w io.Writer, patterns []string, opts goAnnotateOptions) error {
	var err error
	if opts.Dir, patterns, err = gotransform.ResolvePatterns(opts.Dir, patterns); err != nil {
		return err
	}
	to, err := opts.transformOptions()
	if err != nil {
		return err
	}
	var res *gotransform.Result
	modfile := ""
	if len(opts.LabelPkgs) > 0 {
		if opts.Copy != "" {
			return fmt.Errorf("--copy does not go with --label-pkgs: labelcov cover measures labels inside dependencies")
		}
		work, err := filepath.Abs(opts.Out)
		if err != nil {
			return err
		}
		var l *gotransform.Layout
		if res, l, err = gotransform.AnnotateFor(ctx, patterns, opts.LabelPkgs, to, work); err != nil {
			return err
		}
		modfile = l.Modfile
	} else if res, err = gotransform.Annotate(ctx, patterns, to); err != nil {
		return err
	}
	if err := refuseOutputsInside(res, map[string]string{"-o": opts.Out, "--copy": opts.Copy}); err != nil {
		return err
	}
	ov, err := res.WriteOverlay(opts.Out)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, wr := range res.Warnings {
		fmt.Fprintln(bw, wr)
	}
	sum := labels.CountStatuses(res.Criteria, res.Labels)
	files := 0
	for _, p := range res.Packages {
		for _, f := range p.Files {
			if f.Source != nil {
				files++
			}
		}
		for _, s := range p.Skipped {
			fmt.Fprintf(bw, "note: %s\n", s)
		}
	}
	fmt.Fprintf(bw, "%d package(s), %d annotated file(s), %d active labels\n", len(res.Packages), files, res.Active())
	for _, k := range res.Criteria.Keys() {
		c := sum[k]
		fmt.Fprintf(bw, "  %-7s %5d active  %3d trivial  %3d infeasible", k, c.Active, c.Trivial, c.Infeasible)
		if c.Skipped > 0 {
			fmt.Fprintf(bw, "  %d skipped (listed with the reason in the manifest)", c.Skipped)
		}
		fmt.Fprintln(bw)
	}
	fmt.Fprintf(bw, "overlay:  %s\nmanifest: %s\n", ov, filepath.Join(filepath.Dir(ov), "labels.json"))
	if modfile != "" {
		fmt.Fprintf(bw, "modules:  %s (copies of the labelled dependencies, replaced in %s)\n", filepath.Join(filepath.Dir(modfile), "modules"), modfile)
		fmt.Fprintf(bw, "use:      go test -modfile %s -overlay %s [-fuzz FuzzX] %s\n", modfile, ov, strings.Join(patterns, " "))
	} else {
		fmt.Fprintf(bw, "use:      go test -overlay %s [-fuzz FuzzX] %s\n", ov, strings.Join(patterns, " "))
	}
	if opts.Copy != "" {
		if err := res.Materialize(opts.Copy); err != nil {
			return err
		}
		fmt.Fprintf(bw, "copy:     %s (the module with the annotated files in place, for go test -cover)\n", opts.Copy)
	} else {
		fmt.Fprintln(bw, "note:     go test -cover ignores -overlay (golang/go#73802): use labelcov cover, or --copy DIR")
	}
	return bw.Flush()
}

// refuseOutputsInside fails when an output directory (flag -> path) lies
// inside a module (or, outside modules, a package directory) of res.
func refuseOutputsInside(res *gotransform.Result, outs map[string]string) error {
	var g outputs.Guard
	for _, p := range res.Packages {
		dir, what := p.Module, "the module of"
		if dir == "" {
			dir, what = p.Dir, "the directory of"
		}
		g.Folder(what+" "+p.Path, dir)
	}
	for _, flag := range []string{"-o", "--copy"} {
		if err := g.CheckDir(flag, outs[flag], filepath.Join(os.TempDir(), "labelcov-annotated")); err != nil {
			return err
		}
	}
	return nil
}

// goCoverOptions are the options of measuring Go packages (Out and Copy
// of the annotate options are not used).
type goCoverOptions struct {
	goAnnotateOptions
	// Fuzz measures this fuzz target's corpus instead of the tests.
	Fuzz string
	// FuzzCache is the root of go test -fuzz's generated corpora ("" =
	// $(go env GOCACHE)/fuzz).
	FuzzCache string
	JSON      bool
	LCOV      string // write an LCOV tracefile here
	HTML      string // write an HTML report here
	Cobertura string // write a Cobertura XML report here
	// PerTest runs each test alone too, for diversity numbers.
	PerTest bool
	// Verbose copies the go command's output to stderr.
	Verbose bool
	Stderr  io.Writer
	// FailUnder are the coverage gates (--fail-under).
	FailUnder []measure.Threshold
}

// coverGoPackages annotates the packages matching patterns in memory, runs
// their tests — or, with opts.Fuzz, one fuzz target over its seed and
// cached corpus — on a scratch copy of the module with the annotated files
// in place and on the original, and reports label coverage per criterion
// and operator, plain statement and block coverage, and every uncovered
// label with its file:line:col.
func coverGoPackages(ctx context.Context, w io.Writer, patterns []string, opts goCoverOptions) error {
	var err error
	if opts.Dir, patterns, err = gotransform.ResolvePatterns(opts.Dir, patterns); err != nil {
		return err
	}
	to, err := opts.transformOptions()
	if err != nil {
		return err
	}
	// Gates on figures Go does not report fail now, not after the tests.
	if err := measure.ValidateGates(opts.FailUnder, measure.GateKeys(to.Criteria.Keys(), "statements", "blocks")); err != nil {
		return fmt.Errorf("--fail-under: %w", err)
	}
	outs := []outFlag{{"--html", opts.HTML}, {"--lcov", opts.LCOV}, {"--cobertura", opts.Cobertura}}
	var g outputs.Guard
	if err := checkOutputs(&g, outs...); err != nil {
		return err
	}
	mo := gotest.Options{Dir: opts.Dir, Fuzz: opts.Fuzz, FuzzCache: opts.FuzzCache, PerTest: opts.PerTest, LabelPkgs: opts.LabelPkgs}
	mo.Before = func(res *gotransform.Result) error {
		// What the tests and fuzz targets read: each package's testdata
		// (its corpus among it), and go test -fuzz's cached corpus.
		for _, p := range res.Packages {
			g.Folder("the testdata of "+p.Path, filepath.Join(p.Dir, "testdata"))
		}
		for _, p := range res.FuzzPackages { // the tested packages, with labels in dependencies
			g.Folder("the testdata of "+p.Path, filepath.Join(p.Dir, "testdata"))
		}
		if opts.Fuzz != "" && opts.FuzzCache != "" {
			g.Folder("the fuzz cache", opts.FuzzCache)
		}
		return checkOutputs(&g, outs...)
	}
	if opts.Verbose && opts.Stderr != nil {
		mo.Output = opts.Stderr
	}
	rep, err := gotest.Cover(ctx, patterns, to, mo)
	if err != nil {
		return err
	}
	if opts.LCOV != "" {
		if err := writeReport(&g, "--lcov", opts.LCOV, func(w io.Writer) error { return report.GoLCOV(w, rep) }); err != nil {
			return err
		}
	}
	if opts.HTML != "" {
		if err := writeReport(&g, "--html", opts.HTML, func(w io.Writer) error { return report.GoHTML(w, rep, os.ReadFile) }); err != nil {
			return err
		}
	}
	if opts.Cobertura != "" {
		if err := writeReport(&g, "--cobertura", opts.Cobertura, func(w io.Writer) error { return report.GoCobertura(w, rep) }); err != nil {
			return err
		}
	}
	if opts.JSON {
		err = report.GoJSON(w, rep)
	} else {
		err = report.GoText(w, rep)
	}
	if err == nil {
		err = failUnder(opts.FailUnder, rep.Figures())
	}
	if c := rep.Corpus; err == nil && c != nil && len(c.Crashing) > 0 {
		// Like go test, a corpus entry that crashes is a failure; the
		// report above measured the others.
		err = found("%s fails on %d corpus entr%s: %s", opts.Fuzz, len(c.Crashing), plural(len(c.Crashing), "y", "ies"), strings.Join(c.Crashing, ", "))
	}
	if err == nil && len(rep.Failing) > 0 {
		// Like go test: failing tests fail the command, after the report
		// of what the others cover.
		err = found("%d test(s) fail: %s (skipped; the report covers the others; go test shows why)", len(rep.Failing), strings.Join(rep.Failing, ", "))
	}
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
