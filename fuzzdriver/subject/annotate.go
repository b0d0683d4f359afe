package subject

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/gofuzz"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/pipeline"
	"github.com/labelcov/labelcov/fuzzdriver/runner"
	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/labelcov/labelcov/transform"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// AnnotateOptions are annotate's outputs.
type AnnotateOptions struct {
	// Out is the annotated plan ("" or "-": w), or for Go packages the
	// directory of the annotated files, overlay.json and labels.json.
	Out string
	// Manifest (plans) is the label manifest to write.
	Manifest string
	// Copy (Go packages) is a copy of the module with the annotated
	// files in place (go test -cover ignores -overlay, golang/go#73802).
	Copy string
}

// LaterLink is what labels and annotate assume about linking: the plan is
// only read, and its real host may give it functions labelcov does not
// know (CRAM's), so a call to an unknown function is a warning.
var LaterLink = runner.Link{World: true, Later: true}

// PlanToLabel reads the plan file name ("-": stdin) for labels and
// annotate, which only read the plan: a definition that does not compile
// (it rests on macros of other files, say) is passed through with a note,
// as the forms labelcov does not compile are, instead of failing the
// file. It returns the plan with the labelling options of o.
func PlanToLabel(o Options, name string) (*syntax.File, *compile.Program, transform.Options, error) {
	to, err := LabelOptions(o.Criteria, o.MCCMaxAtoms, o.Pure, o.NoValues)
	if err != nil {
		return nil, nil, to, err
	}
	f, p, err := LoadPlan(o.Stdin, name, compile.Options{PassThrough: true})
	if err != nil {
		return f, p, to, err
	}
	to.Normalize.PassThrough = p.PassedThrough
	if o.World == "" && o.PlanName == "" {
		// A file any caller may run (an SBCL suite, say): no entry.
		return f, p, to, nil
	}
	// Judged as the verbs that run the plan judge it: through the def-plan
	// that runs and, with a world, with the world's facts.
	if o.World != "" {
		_, w, err := runner.OpenWorld(name, o.World)
		if err != nil {
			return f, p, to, err
		}
		to.Feasible = pipeline.WorldFacts(to.Feasible, w)
	}
	fn, err := runner.SelectPlan(p, o.PlanName)
	if err != nil {
		return f, p, to, err
	}
	to.Feasible.Entry = fn.Name
	return f, p, to, nil
}

// PrintNotes prints the compiler's notes on p (top-level forms passed
// through, variables taken as globals of another file), each at
// file:line:col, and returns them as a set so that a later stage that
// repeats one (labels' warnings) does not print it twice.
func PrintNotes(stderr io.Writer, p *compile.Program) map[string]bool {
	seen := map[string]bool{}
	for _, n := range p.Notes {
		fmt.Fprintln(stderr, "labelcov:", n)
		seen[n.Error()] = true
	}
	return seen
}

// PrintWarnings prints the warnings ws of a later stage that PrintNotes
// did not print already.
func PrintWarnings(stderr io.Writer, ws []*syntax.Error, printed map[string]bool) {
	for _, w := range ws {
		if !printed[w.Error()] {
			fmt.Fprintln(stderr, "labelcov:", w)
		}
	}
}

// Annotate writes the plan with its labels injected (to ao.Out, or w) and
// the label manifest (ao.Manifest).
func (s *planSubject) Annotate(_ context.Context, w io.Writer, ao AnnotateOptions) error {
	o := &s.o
	if len(o.Args) > 1 {
		return fmt.Errorf("annotate takes one plan file, got %d arguments", len(o.Args))
	}
	out, manifest := ao.Out, ao.Manifest
	var g outputs.Guard
	g.Input("the input", s.file())
	for _, f := range []outFlag{{"-o", out}, {"--manifest", manifest}} {
		if err := g.Check(f.flag, f.path); err != nil {
			return err
		}
	}
	if manifest != "" && manifest == out {
		return fmt.Errorf("--manifest and -o name the same file %s", out)
	}
	f, p, to, err := PlanToLabel(s.o, s.file())
	if err != nil {
		return err
	}
	stderr := o.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	notes := PrintNotes(stderr, p)
	if err := CheckCalls(stderr, f, p, LaterLink); err != nil {
		return err
	}
	to.TextOnly = true // written, not compiled: no tree
	res, err := transform.Plan(f, to)
	if err != nil {
		return err
	}
	PrintWarnings(stderr, res.Labels.Warnings, notes)
	if manifest != "" {
		// Streamed to the file: a plan's manifest can be some
		// hundred MB (issue 11).
		mf, err := g.Create("--manifest", manifest)
		if err != nil {
			return fmt.Errorf("writing manifest: %w", err)
		}
		werr := res.Manifest(out).Write(mf)
		if err := errors.Join(werr, mf.Close()); err != nil {
			return fmt.Errorf("writing manifest: %w", err)
		}
	}
	if out == "" || out == "-" {
		_, err := w.Write(res.Source)
		return err
	}
	if err := g.WriteFile("-o", out, res.Source, 0o644); err != nil {
		return fmt.Errorf("writing annotated plan: %w", err)
	}
	return nil
}

// Annotate: sb-cover's records are read, never annotated.
func (s *sbclSubject) Annotate(context.Context, io.Writer, AnnotateOptions) error {
	return fmt.Errorf("--from-sbcl: SBCL's coverage record is reported by cover only")
}

// Annotate annotates the Go packages matching the patterns into ao.Out
// (annotated files, overlay.json, labels.json) and prints a summary to w:
// label counts per criterion and how to use the overlay.
func (s *goSubject) Annotate(ctx context.Context, w io.Writer, ao AnnotateOptions) error {
	o := &s.o
	if ao.Out == "" || ao.Out == "-" {
		return fmt.Errorf("annotating Go packages needs -o/--out DIR for the annotated files and overlay.json (the user's files are never touched)")
	}
	for _, n := range []string{"world", "plan"} {
		if o.changed(n) {
			return fmt.Errorf("--%s is for plans, not Go packages", n)
		}
	}
	_, patterns, to, err := s.resolve()
	if err != nil {
		return err
	}
	var res *gotransform.Result
	modfile := ""
	if len(o.LabelPkgs) > 0 {
		if ao.Copy != "" {
			return fmt.Errorf("--copy does not go with --label-pkgs: labelcov cover measures labels inside dependencies")
		}
		work, err := filepath.Abs(ao.Out)
		if err != nil {
			return err
		}
		var l *gotransform.Layout
		if res, l, err = gotransform.AnnotateFor(ctx, patterns, o.LabelPkgs, to, work); err != nil {
			return err
		}
		modfile = l.Modfile
	} else if res, err = gotransform.Annotate(ctx, patterns, to); err != nil {
		return err
	}
	if err := refuseOutputsInside(res, map[string]string{"-o": ao.Out, "--copy": ao.Copy}); err != nil {
		return err
	}
	if res.Criteria.Has(labels.DIST) {
		// The constants offered as seeds: those of the functions the
		// fuzz targets' own seeds execute, as a campaign's guide does.
		ts, err := gofuzz.Discover(ctx, to.Dir, to.Env, patterns...)
		if err != nil {
			return err
		}
		for i := range ts {
			ts[i].LabelPkgs = o.LabelPkgs
		}
		work, err := os.MkdirTemp("", "labelcov-seeds-")
		if err != nil {
			return err
		}
		err = gofuzz.KeepExecutedConsts(ctx, ts, res, work, to.Env)
		os.RemoveAll(work)
		if err != nil {
			return err
		}
	}
	ov, err := res.WriteOverlay(ao.Out)
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
	if ao.Copy != "" {
		if err := res.Materialize(ao.Copy); err != nil {
			return err
		}
		fmt.Fprintf(bw, "copy:     %s (the module with the annotated files in place, for go test -cover)\n", ao.Copy)
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
