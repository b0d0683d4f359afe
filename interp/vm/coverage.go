package vm

import (
	"sort"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/labels/fraction"
)

// Coverage summarises a counter array: instructions executed at least once
// and branch outcomes (each conditional jump has two: test true, test
// false) seen at least once.
type Coverage struct {
	Instructions, Branches fraction.Fraction
}

// Summarize computes Coverage for counters laid out as p describes.
func Summarize(p *compile.Program, counters []uint8) Coverage {
	n := p.NumInstructions()
	c := Coverage{Instructions: fraction.Fraction{Total: n}, Branches: fraction.Fraction{Total: 2 * p.NumBranches()}}
	for i, v := range counters {
		if v == 0 {
			continue
		}
		if i < n {
			c.Instructions.Covered++
		} else {
			c.Branches.Covered++
		}
	}
	return c
}

// LineCoverage is the coverage of one source line: its instructions and
// branch outcomes (two per conditional whose test starts on the line), with
// how many were hit and the total hits (saturated counters, so a lower
// bound), for line-based reports such as LCOV.
type LineCoverage struct {
	Line                       int
	Instructions, InstrCovered int
	Branches, BranchCovered    int
	Hits                       int
}

// Lines aggregates counters per source line, in line order.
func Lines(p *compile.Program, counters []uint8) []LineCoverage {
	byLine := map[int]*LineCoverage{}
	get := func(line int) *LineCoverage {
		lc := byLine[line]
		if lc == nil {
			lc = &LineCoverage{Line: line}
			byLine[line] = lc
		}
		return lc
	}
	for pc := 0; pc < p.NumInstructions() && pc < len(counters); pc++ {
		lc := get(p.Instr(pc).Line)
		lc.Instructions++
		lc.Hits += int(counters[pc])
		if counters[pc] > 0 {
			lc.InstrCovered++
		}
	}
	for b := 0; b < p.NumBranches(); b++ {
		lc := get(p.Branch(b).Test.Line)
		for _, outcome := range []bool{true, false} {
			lc.Branches++
			if c := p.BranchCounter(b, outcome); c < len(counters) && counters[c] > 0 {
				lc.BranchCovered++
			}
		}
	}
	out := make([]LineCoverage, 0, len(byLine))
	for _, lc := range byLine {
		out = append(out, *lc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}
