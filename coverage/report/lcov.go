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

// LCOV writes r as an LCOV tracefile, for every front end: one record
// (SF) per file with labels, files sorted (a plan: its one file). Every
// active label is a branch,
//
//	BRDA:<line>,<block>,<branch>,<taken>
//
// at the label's line in the original source, with block = the criterion
// (CriterionBlock), branch = the label id, and taken = how many tests
// covered the label where that is known (plans; Go after per-test runs),
// else 1 when covered and 0 when not; "-" when no test reached it (plans).
// The plan's record also has its named functions (FN/FNDA: executions of
// the function's first instruction) and its lines that have instructions
// (DA: the largest execution count of the line's instructions, summed
// over tests).
func LCOV(w io.Writer, r *measure.Report) error {
	files, byFile := labelsByFile(r)
	var recs []lcovRecord
	for _, f := range files {
		rec := lcovRecord{file: f}
		if f == r.File && r.Source != nil {
			rec.plan, rec.funcs, rec.lines = true, r.Funcs, r.Lines
		}
		ls := byFile[f]
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
			var taken string
			switch {
			case l.Reached != nil && !*l.Reached:
				taken = "-"
			case l.Tests != nil:
				taken = strconv.Itoa(len(l.Tests))
			case l.Covered:
				taken = "1"
			default:
				taken = "0"
			}
			rec.branches = append(rec.branches, lcovBranch{line: l.At.Line, crit: l.Criterion, id: l.ID, taken: taken, hit: l.Covered})
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 && r.File != "" && r.Source != nil {
		recs = append(recs, lcovRecord{file: r.File, plan: true, funcs: r.Funcs, lines: r.Lines})
	}
	return writeLCOV(w, recs)
}

// labelsByFile groups r's labels by original file (a plan's, whose text
// the report holds: all in r.File); files are sorted, each file's labels
// in id order.
func labelsByFile(r *measure.Report) ([]string, map[string][]*measure.LabelResult) {
	byFile := map[string][]*measure.LabelResult{}
	var files []string
	for _, l := range r.Labels {
		f := l.At.File
		if r.Source != nil {
			f = r.File
		}
		if byFile[f] == nil {
			files = append(files, f)
		}
		byFile[f] = append(byFile[f], l)
	}
	sort.Strings(files)
	return files, byFile
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
