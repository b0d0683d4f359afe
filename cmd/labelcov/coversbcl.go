package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/labelcov/labelcov/fuzzdriver/outputs"
	"github.com/labelcov/labelcov/fuzzdriver/sbcover"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// sbclCoverOptions are cover's flags for label coverage recorded by SBCL's
// sb-cover (package fuzzdriver/sbcover).
type sbclCoverOptions struct {
	from      string
	manifest  string
	annotated string
	features  []string
}

func (o *sbclCoverOptions) register(f *pflag.FlagSet) {
	f.StringVar(&o.from, "from-sbcl", "", "SBCL: the file sb-cover:save-coverage-in-file wrote after your tests ran on the annotated plan (needs --manifest)")
	f.StringVar(&o.manifest, "manifest", "", "SBCL, with --from-sbcl: the label manifest labelcov annotate --manifest wrote")
	f.StringVar(&o.annotated, "annotated", "", "SBCL, with --from-sbcl: the annotated plan SBCL compiled (default: the manifest's)")
	f.StringSliceVar(&o.features, "features", nil, "SBCL, with --from-sbcl: the features SBCL read the annotated plan with, for its #+/#- (default: Debian SBCL's on x86-64)")
}

// runCoverSBCL reports the label coverage sb-cover recorded: args holds
// the original plan, or nothing for the manifest's.
func runCoverSBCL(cmd *cobra.Command, args []string, o *coverOptions) error {
	so := &o.sbcl
	if so.manifest == "" {
		return fmt.Errorf("--from-sbcl needs --manifest: the label manifest labelcov annotate --manifest wrote for the annotated plan")
	}
	if len(o.tests) > 0 || o.world != "" {
		return fmt.Errorf("--from-sbcl runs no tests: leave out --tests and --world")
	}
	for _, name := range []string{"mcc-max-atoms", "pure", "no-values", "max-steps", "max-objects", "plan"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return fmt.Errorf("--%s does not go with --from-sbcl: the labels are the manifest's and SBCL ran the tests", name)
		}
	}
	mf, err := os.Open(so.manifest)
	if err != nil {
		return err
	}
	m, err := labels.ReadManifest(mf)
	mf.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", so.manifest, err)
	}
	if cmd.Flags().Changed("criteria") {
		// The manifest's labels are what SBCL measured: cover reports
		// their criteria, and no others.
		c, err := labels.ParseCriteria(o.criteria)
		if err != nil {
			return fmt.Errorf("--criteria: %w", err)
		}
		var have labels.Criteria
		for _, k := range m.Criteria {
			kc, err := labels.ParseCriteria(string(k))
			if err != nil {
				return fmt.Errorf("%s: %w", so.manifest, err)
			}
			have |= kc
		}
		if c != have {
			return fmt.Errorf("--criteria %s: cover --from-sbcl reports the criteria of the manifest's labels (%s); annotate the plan again with --criteria %s, or leave --criteria out",
				o.criteria, keyList(m.Criteria), o.criteria)
		}
	}
	dir := filepath.Dir(so.manifest)
	origPath := m.File
	if len(args) == 1 {
		origPath = args[0]
	} else {
		origPath = besideManifest(dir, origPath)
	}
	annPath := so.annotated
	if annPath == "" {
		if m.Annotated == "" {
			return fmt.Errorf("%s names no annotated plan (written without -o?): give --annotated", so.manifest)
		}
		annPath = besideManifest(dir, m.Annotated)
	}
	var g outputs.Guard
	g.Input("the coverage file", so.from)
	g.Input("the manifest", so.manifest)
	g.Input("the plan", origPath)
	g.Input("the annotated plan", annPath)
	if err := checkOutputs(&g, o.outputs()...); err != nil {
		return err
	}
	orig, err := readLisp(origPath)
	if err != nil {
		return err
	}
	if err := m.CheckSource(origPath, orig.Src, false); err != nil {
		return fmt.Errorf("%s: %w", so.manifest, err)
	}
	ann, err := readLisp(annPath)
	if err != nil {
		return err
	}
	if err := m.CheckSource(annPath, ann.Src, true); err != nil {
		return fmt.Errorf("%s: %w", so.manifest, err)
	}
	if abs, err := filepath.Abs(annPath); err == nil {
		ann.Name = abs // sb-cover names files by their truename
	}
	cf, err := os.Open(so.from)
	if err != nil {
		return err
	}
	saved, err := sbcover.Read(so.from, cf)
	cf.Close()
	if err != nil {
		return err
	}
	rep, err := sbcover.Report(m, orig, ann, saved, so.from, sbcover.Options{Features: so.features})
	if err != nil {
		return err
	}
	rep.File = origPath
	return writeCoverReport(cmd, &g, rep, o)
}

// besideManifest resolves path, as a manifest names it: as given when it
// exists, else relative to the manifest's directory dir.
func besideManifest(dir, path string) string {
	if _, err := os.Stat(path); err == nil || filepath.IsAbs(path) {
		return path
	}
	if p := filepath.Join(dir, path); fileExists(p) {
		return p
	}
	return path
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
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
