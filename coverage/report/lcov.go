package report

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/labelcov/labelcov/coverage/measure"
	"github.com/labelcov/labelcov/labels"
)

// LCOVTestName is the TN: of the tracefile.
const LCOVTestName = "labelcov"

// CriterionBlock is the BRDA block number of a criterion key: its index in
// labels.AllKeys (mcc 0, cc 1, wm-abs 2, wm-aor 3, wm-cor 4, wm-ror 5).
func CriterionBlock(k labels.Key) int {
	for i, a := range labels.AllKeys() {
		if a == k {
			return i
		}
	}
	return len(labels.AllKeys())
}

// LCOV writes r as an LCOV tracefile of the original plan: one record
// (SF: the plan file) with its named functions (FN/FNDA: executions of the
// function's first instruction), its lines that have instructions
// (DA: the largest execution count of the line's instructions, summed
// over tests) and every active label as a branch,
//
//	BRDA:<line>,<block>,<branch>,<taken>
//
// at the label's line in the original plan, with block = the criterion
// (CriterionBlock), branch = the label id, and taken = how many tests
// covered the label, or "-" when no test reached it.
func LCOV(w io.Writer, r *measure.Report) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "TN:%s\nSF:%s\n", LCOVTestName, r.File)
	fnh := 0
	for _, f := range r.Funcs {
		fmt.Fprintf(bw, "FN:%d,%s\n", f.Line, f.Name)
	}
	for _, f := range r.Funcs {
		fmt.Fprintf(bw, "FNDA:%d,%s\n", f.Hits, f.Name)
		if f.Hits > 0 {
			fnh++
		}
	}
	fmt.Fprintf(bw, "FNF:%d\nFNH:%d\n", len(r.Funcs), fnh)

	ls := append([]*measure.LabelResult(nil), r.Labels...)
	sort.SliceStable(ls, func(i, j int) bool {
		a, b := ls[i], ls[j]
		if a.At.Line != b.At.Line {
			return a.At.Line < b.At.Line
		}
		if ba, bb := CriterionBlock(a.Criterion), CriterionBlock(b.Criterion); ba != bb {
			return ba < bb
		}
		return a.ID < b.ID
	})
	brh := 0
	for _, l := range ls {
		taken := "-"
		if l.Reached {
			taken = strconv.Itoa(len(l.Tests))
		}
		if l.Covered {
			brh++
		}
		fmt.Fprintf(bw, "BRDA:%d,%d,%d,%s\n", l.At.Line, CriterionBlock(l.Criterion), l.ID, taken)
	}
	fmt.Fprintf(bw, "BRF:%d\nBRH:%d\n", len(ls), brh)

	lh := 0
	for _, ln := range r.Lines {
		fmt.Fprintf(bw, "DA:%d,%d\n", ln.Line, ln.Hits)
		if ln.Hits > 0 {
			lh++
		}
	}
	fmt.Fprintf(bw, "LF:%d\nLH:%d\nend_of_record\n", len(r.Lines), lh)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing LCOV: %w", err)
	}
	return nil
}
