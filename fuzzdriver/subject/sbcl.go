package subject

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/coverage/sbcover"
	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
)

// sbclSubject is the label coverage sb-cover recorded (FromSBCL, with
// Manifest): Args holds the original plan, or nothing for the manifest's.
type sbclSubject struct{ o Options }

func (s *sbclSubject) Kind() Kind { return SBCLRecord }

func (s *sbclSubject) Reduce(context.Context, io.Writer, string) error {
	return fmt.Errorf("--from-sbcl: SBCL's coverage record is reported by cover only")
}

func (s *sbclSubject) Generate(context.Context, io.Writer, GenerateOptions) error {
	return fmt.Errorf("--from-sbcl: SBCL's coverage record is reported by cover only")
}

// Cover reports the label coverage sb-cover recorded.
func (s *sbclSubject) Cover(_ context.Context, w io.Writer, co CoverOptions) error {
	gates, err := co.gates(true)
	if err != nil {
		return err
	}
	o := &s.o
	if o.Manifest == "" {
		return fmt.Errorf("--from-sbcl needs --manifest: the label manifest labelcov annotate --manifest wrote for the annotated plan")
	}
	if len(o.Tests) > 0 || o.World != "" {
		return fmt.Errorf("--from-sbcl runs no tests: leave out --tests and --world")
	}
	for _, name := range []string{"mcc-max-atoms", "pure", "no-values", "max-steps", "max-objects", "plan"} {
		if o.changed(name) {
			return fmt.Errorf("--%s does not go with --from-sbcl: the labels are the manifest's and SBCL ran the tests", name)
		}
	}
	mf, err := os.Open(o.Manifest)
	if err != nil {
		return err
	}
	m, err := labels.ReadManifest(mf)
	mf.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", o.Manifest, err)
	}
	if o.changed("criteria") {
		// The manifest's labels are what SBCL measured: cover reports
		// their criteria, and no others.
		c, err := labels.ParseCriteria(o.Criteria)
		if err != nil {
			return fmt.Errorf("--criteria: %w", err)
		}
		var have labels.Criteria
		for _, k := range m.Criteria {
			kc, err := labels.ParseCriteria(string(k))
			if err != nil {
				return fmt.Errorf("%s: %w", o.Manifest, err)
			}
			have |= kc
		}
		if c != have {
			return fmt.Errorf("--criteria %s: cover --from-sbcl reports the criteria of the manifest's labels (%s); annotate the plan again with --criteria %s, or leave --criteria out",
				o.Criteria, keyList(m.Criteria), o.Criteria)
		}
	}
	dir := filepath.Dir(o.Manifest)
	origPath := m.File
	if len(o.Args) == 1 {
		origPath = o.Args[0]
	} else {
		origPath = besideManifest(dir, origPath)
	}
	annPath := o.Annotated
	if annPath == "" {
		if m.Annotated == "" {
			return fmt.Errorf("%s names no annotated plan (written without -o?): give --annotated", o.Manifest)
		}
		annPath = besideManifest(dir, m.Annotated)
	}
	var g outputs.Guard
	g.Input("the coverage file", o.FromSBCL)
	g.Input("the manifest", o.Manifest)
	g.Input("the plan", origPath)
	g.Input("the annotated plan", annPath)
	if err := co.check(&g); err != nil {
		return err
	}
	orig, err := readLisp(origPath)
	if err != nil {
		return err
	}
	if err := m.CheckSource(origPath, orig.Src, false); err != nil {
		return fmt.Errorf("%s: %w", o.Manifest, err)
	}
	ann, err := readLisp(annPath)
	if err != nil {
		return err
	}
	if err := m.CheckSource(annPath, ann.Src, true); err != nil {
		return fmt.Errorf("%s: %w", o.Manifest, err)
	}
	if abs, err := filepath.Abs(annPath); err == nil {
		ann.Name = abs // sb-cover names files by their truename
	}
	cf, err := os.Open(o.FromSBCL)
	if err != nil {
		return err
	}
	saved, err := sbcover.Read(o.FromSBCL, cf)
	cf.Close()
	if err != nil {
		return err
	}
	rep, err := sbcover.Report(m, orig, ann, saved, o.FromSBCL, sbcover.Options{Features: o.Features})
	if err != nil {
		return err
	}
	rep.File = origPath
	return co.write(w, o.Stderr, &g, rep, o.JSON, gates)
}

// besideManifest resolves path, as a manifest names it: as given when it
// exists, else relative to the manifest's directory dir.
func besideManifest(dir, path string) string {
	if _, err := os.Stat(path); err == nil || filepath.IsAbs(path) {
		return path
	}
	p := filepath.Join(dir, path)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return path
}

// readLisp reads and parses a plan file.
func readLisp(path string) (*syntax.File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return syntax.Parse(path, src)
}

// keyList joins criterion keys with commas.
func keyList(ks []labels.Key) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ",")
}
