package vm

import "github.com/labelcov/labelcov/interp/compile"

// Coverage summarises a counter array: instructions executed at least once
// and branch outcomes (each conditional jump has two: test true, test
// false) seen at least once.
type Coverage struct {
	InstrCovered, InstrTotal   int
	BranchCovered, BranchTotal int
}

// Summarize computes Coverage for counters laid out as p describes.
func Summarize(p *compile.Program, counters []uint8) Coverage {
	n := p.NumInstructions()
	c := Coverage{InstrTotal: n, BranchTotal: 2 * p.NumBranches()}
	for i, v := range counters {
		if v == 0 {
			continue
		}
		if i < n {
			c.InstrCovered++
		} else {
			c.BranchCovered++
		}
	}
	return c
}
