package sim

import (
	"fmt"
	"github.com/labelcov/labelcov/labels/fraction"
	"io"
)

// ActionCoverage is the JSON form of action coverage, meant for the
// coverage.actions field of `labelcov run --json`.
type ActionCoverage struct {
	fraction.Fraction
	Buckets []BucketCount `json:"buckets,omitempty"` // the hit buckets, in bucket order
}

// BucketCount is one hit bucket.
type BucketCount struct {
	Bucket string `json:"bucket"`
	Hits   uint32 `json:"hits"`
}

// Coverage summarises per-bucket hits (from one run or accumulated).
func (w *World) Coverage(hits []uint32) ActionCoverage {
	c := ActionCoverage{Fraction: fraction.Fraction{Total: w.NumBuckets()}}
	for i, h := range hits {
		if h > 0 {
			c.Covered++
			c.Buckets = append(c.Buckets, BucketCount{Bucket: w.BucketName(i), Hits: h})
		}
	}
	return c
}

// WriteTrace prints the actions one a line, numbered from 1, the way
// `labelcov run --trace` shows them.
func WriteTrace(w io.Writer, actions []ActionRecord) error {
	for i := range actions {
		if _, err := fmt.Fprintf(w, "%3d %s\n", i+1, actions[i].String()); err != nil {
			return err
		}
	}
	return nil
}

// WriteErrors prints the check results for people: one line per category
// and per failed check, or "no errors".
func WriteErrors(w io.Writer, res *Result) error {
	if len(res.Errors) == 0 && len(res.CheckErrors) == 0 {
		_, err := fmt.Fprintln(w, "checks: no errors")
		return err
	}
	for _, e := range res.Errors {
		if _, err := fmt.Fprintf(w, "error: %s\n", e); err != nil {
			return err
		}
	}
	for _, e := range res.CheckErrors {
		if _, err := fmt.Fprintf(w, "check %s failed: %s: %s %s\n", e.Check, e.Kind, e.Message, e.Pos); err != nil {
			return err
		}
	}
	return nil
}
