package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/coverage/measure"
)

// Cobertura XML (coverage-04.dtd), which Codecov, GitLab, Jenkins and
// diff-cover read beside LCOV: lines are the plan's lines that have
// instructions (hits: the largest execution count of the line's
// instructions, summed over tests), and a line's labels are its
// conditions — branch="true" and condition-coverage="P% (covered/total)"
// counting the active labels on the line, one <condition> per criterion
// with its own percentage. For Go packages only labelled lines are known:
// a line's hits is then the number of its covered labels.

type cobCoverage struct {
	XMLName         xml.Name     `xml:"coverage"`
	LineRate        string       `xml:"line-rate,attr"`
	BranchRate      string       `xml:"branch-rate,attr"`
	LinesCovered    int          `xml:"lines-covered,attr"`
	LinesValid      int          `xml:"lines-valid,attr"`
	BranchesCovered int          `xml:"branches-covered,attr"`
	BranchesValid   int          `xml:"branches-valid,attr"`
	Complexity      string       `xml:"complexity,attr"`
	Version         string       `xml:"version,attr"`
	Timestamp       string       `xml:"timestamp,attr"`
	Sources         []string     `xml:"sources>source"`
	Packages        []cobPackage `xml:"packages>package"`
}

type cobPackage struct {
	Name       string     `xml:"name,attr"`
	LineRate   string     `xml:"line-rate,attr"`
	BranchRate string     `xml:"branch-rate,attr"`
	Complexity string     `xml:"complexity,attr"`
	Classes    []cobClass `xml:"classes>class"`
}

type cobClass struct {
	Name       string    `xml:"name,attr"`
	Filename   string    `xml:"filename,attr"`
	LineRate   string    `xml:"line-rate,attr"`
	BranchRate string    `xml:"branch-rate,attr"`
	Complexity string    `xml:"complexity,attr"`
	Methods    struct{}  `xml:"methods"`
	Lines      []cobLine `xml:"lines>line"`
}

type cobLine struct {
	Number            int            `xml:"number,attr"`
	Hits              int            `xml:"hits,attr"`
	Branch            string         `xml:"branch,attr"`
	ConditionCoverage string         `xml:"condition-coverage,attr,omitempty"`
	Conditions        *cobConditions `xml:"conditions,omitempty"`
}

type cobConditions struct {
	List []cobCondition `xml:"condition"`
}

type cobCondition struct {
	Number   int    `xml:"number,attr"`
	Type     string `xml:"type,attr"`
	Coverage string `xml:"coverage,attr"`
}

// cobLabel is what Cobertura needs of a label.
type cobLabel struct {
	line     int
	crit     string
	covered  bool
	filename string
}

func rate(covered, total int) string {
	if total == 0 {
		return "1"
	}
	return fmt.Sprintf("%.4g", float64(covered)/float64(total))
}

func percentText(covered, total int) string {
	return fmt.Sprintf("%d%%", int(100*float64(covered)/float64(total)))
}

// cobFile builds one class: lines (number -> hits) and labels by line.
func cobFile(name, filename string, lines map[int]int, ls []cobLabel) (cobClass, [4]int) {
	byLine := map[int][]cobLabel{}
	for _, l := range ls {
		byLine[l.line] = append(byLine[l.line], l)
		if _, ok := lines[l.line]; !ok {
			lines[l.line] = 0
		}
	}
	nums := make([]int, 0, len(lines))
	for n := range lines {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	var st [4]int // lines covered, lines, labels covered, labels
	c := cobClass{Name: name, Filename: filename, Complexity: "0"}
	for _, n := range nums {
		ln := cobLine{Number: n, Hits: lines[n], Branch: "false"}
		st[1]++
		if ln.Hits > 0 {
			st[0]++
		}
		if lb := byLine[n]; len(lb) > 0 {
			cov := 0
			var crits []string
			per := map[string][2]int{}
			for _, l := range lb {
				p := per[l.crit]
				if p[1] == 0 {
					crits = append(crits, l.crit)
				}
				p[1]++
				if l.covered {
					cov++
					p[0]++
				}
				per[l.crit] = p
			}
			ln.Branch = "true"
			ln.ConditionCoverage = fmt.Sprintf("%s (%d/%d)", percentText(cov, len(lb)), cov, len(lb))
			ln.Conditions = &cobConditions{}
			for i, k := range crits {
				ln.Conditions.List = append(ln.Conditions.List, cobCondition{Number: i, Type: k, Coverage: percentText(per[k][0], per[k][1])})
			}
			st[2] += cov
			st[3] += len(lb)
		}
		c.Lines = append(c.Lines, ln)
	}
	c.LineRate, c.BranchRate = rate(st[0], st[1]), rate(st[2], st[3])
	return c, st
}

func writeCobertura(w io.Writer, sources []string, pkg string, classes []cobClass, st [4]int) error {
	doc := cobCoverage{LineRate: rate(st[0], st[1]), BranchRate: rate(st[2], st[3]), LinesCovered: st[0], LinesValid: st[1],
		BranchesCovered: st[2], BranchesValid: st[3], Complexity: "0", Version: "labelcov", Timestamp: "0", Sources: sources,
		Packages: []cobPackage{{Name: pkg, LineRate: rate(st[0], st[1]), BranchRate: rate(st[2], st[3]), Complexity: "0", Classes: classes}}}
	bw := bufio.NewWriter(w)
	bw.WriteString(xml.Header)
	bw.WriteString(`<!DOCTYPE coverage SYSTEM "http://cobertura.sourceforge.net/xml/coverage-04.dtd">` + "\n")
	enc := xml.NewEncoder(bw)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing Cobertura XML: %w", err)
	}
	bw.WriteString("\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing Cobertura XML: %w", err)
	}
	return nil
}

// Cobertura writes r as Cobertura XML, for every front end: one class
// per file with labels, named by the file's path relative to the source
// directory (a plan's: the plan's directory, so its base name; Go: "/",
// so the path without its leading slash). Its lines are the plan's lines
// with instructions, with their execution counts, and elsewhere the
// labelled lines with, as hits, the number of covered labels; labels are
// line conditions.
func Cobertura(w io.Writer, r *measure.Report) error {
	root, pkg := "/", r.Plan
	if r.File != "" {
		root = filepath.Dir(r.File)
	}
	if len(r.Packages) > 0 {
		pkg = r.Packages[0]
	}
	files, byFile := labelsByFile(r)
	if len(files) == 0 && r.File != "" {
		files = []string{r.File}
	}
	var classes []cobClass
	var st [4]int
	for _, f := range files {
		var ls []cobLabel
		lines := map[int]int{}
		for _, l := range byFile[f] {
			ls = append(ls, cobLabel{line: l.At.Line, crit: string(l.Criterion), covered: l.Covered})
		}
		if f == r.File && r.Source != nil {
			for _, ln := range r.Lines {
				lines[ln.Line] = ln.Hits
			}
		} else {
			for _, l := range ls {
				if l.covered {
					lines[l.line]++
				}
			}
		}
		name, err := filepath.Rel(root, f)
		if err != nil || !filepath.IsLocal(name) {
			name = strings.TrimPrefix(filepath.ToSlash(f), "/")
		}
		c, s := cobFile(filepath.Base(f), filepath.ToSlash(name), lines, ls)
		classes = append(classes, c)
		for i := range st {
			st[i] += s[i]
		}
	}
	return writeCobertura(w, []string{root}, pkg, classes, st)
}
