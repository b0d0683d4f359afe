package gotest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// Cover annotates the Go packages matching patterns in memory as to says,
// measures them as opts says — their tests, or opts.Fuzz over its corpus —
// and returns the report. Without opts.Work it measures in a scratch
// directory of its own, removed when it returns. The corpus entries a
// fuzz target fails on are in Report.Corpus.Crashing; the report covers
// the others.
func Cover(ctx context.Context, patterns []string, to gotransform.Options, opts Options) (*Report, error) {
	if opts.Work == "" {
		work, err := os.MkdirTemp("", "labelcov-go-")
		if err != nil {
			return nil, fmt.Errorf("scratch directory: %w", err)
		}
		defer os.RemoveAll(work)
		opts.Work = filepath.Join(work, "measure")
	}
	var res *gotransform.Result
	var err error
	if len(opts.LabelPkgs) > 0 {
		res, _, err = gotransform.AnnotateFor(ctx, patterns, opts.LabelPkgs, to, filepath.Join(opts.Work, "layout"))
	} else {
		res, err = gotransform.Annotate(ctx, patterns, to)
	}
	if err != nil {
		return nil, err
	}
	if opts.Before != nil {
		if err := opts.Before(res); err != nil {
			return nil, err
		}
	}
	m, err := Measure(ctx, res, opts)
	if err != nil {
		return nil, err
	}
	return NewReport(res, m, opts.Fuzz), nil
}
