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
	rec := lcovRecord{file: r.File, plan: true, funcs: r.Funcs, lines: r.Lines}
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
	for _, l := range ls {
		taken := "-"
		if l.Reached {
			taken = strconv.Itoa(len(l.Tests))
		}
		rec.branches = append(rec.branches, lcovBranch{line: l.At.Line, crit: l.Criterion, id: l.ID, taken: taken, hit: l.Covered})
	}
	return writeLCOV(w, []lcovRecord{rec})
}

// lcovRecord is one SF record of a tracefile: the file's labels as
// branches and, for a plan (plan set), its functions and lines.
type lcovRecord struct {
	file     string
	plan     bool
	funcs    []measure.FuncCoverage
	branches []lcovBranch
	lines    []measure.LineCoverage
}

// lcovBranch is one label as an LCOV branch: BRDA:line,block,id,taken
// with block = CriterionBlock(crit).
type lcovBranch struct {
	line  int
	crit  labels.Key
	id    int
	taken string
	hit   bool
}

// writeLCOV writes recs as an LCOV tracefile, the one writer of plans'
// and Go packages' tracefiles.
func writeLCOV(w io.Writer, recs []lcovRecord) error {
	bw := bufio.NewWriter(w)
	for _, r := range recs {
		fmt.Fprintf(bw, "TN:%s\nSF:%s\n", LCOVTestName, r.file)
		if r.plan {
			fnh := 0
			for _, f := range r.funcs {
				fmt.Fprintf(bw, "FN:%d,%s\n", f.Line, f.Name)
			}
			for _, f := range r.funcs {
				fmt.Fprintf(bw, "FNDA:%d,%s\n", f.Hits, f.Name)
				if f.Hits > 0 {
					fnh++
				}
			}
			fmt.Fprintf(bw, "FNF:%d\nFNH:%d\n", len(r.funcs), fnh)
		}
		brh := 0
		for _, b := range r.branches {
			if b.hit {
				brh++
			}
			fmt.Fprintf(bw, "BRDA:%d,%d,%d,%s\n", b.line, CriterionBlock(b.crit), b.id, b.taken)
		}
		fmt.Fprintf(bw, "BRF:%d\nBRH:%d\n", len(r.branches), brh)
		if r.plan {
			lh := 0
			for _, ln := range r.lines {
				fmt.Fprintf(bw, "DA:%d,%d\n", ln.Line, ln.Hits)
				if ln.Hits > 0 {
					lh++
				}
			}
			fmt.Fprintf(bw, "LF:%d\nLH:%d\n", len(r.lines), lh)
		}
		bw.WriteString("end_of_record\n")
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing LCOV: %w", err)
	}
	return nil
}
