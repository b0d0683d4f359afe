package golang

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
	"golang.org/x/tools/go/packages"
)

// distBudgetShare is the share of a package's own fuzzing counters (its
// estimated basic blocks, plainCounters) that its dist labels may add
// (labelCounters). Go's fuzzing worker copies and scans every 8-bit
// counter of the binary after each execution, whether or not the code
// with the counter ran (about a third of the CPU of a fast target), so
// execs/s fall with the number of counters the overlay injects, not with
// how often the labels run (docs/go.md, "A counter budget").
const distBudgetShare = 1.0

// distBudgetFloor is the least budget of one annotation, in estimated
// counters: every fuzzing binary holds the standard library's counters
// too (about 5,400 for a test of x/text or go-toml), so small packages
// may add this many (about 1/7 of them) whatever their own size. The
// packages annotated together that one binary holds (one imports the
// other) share it in proportion to their own counters (distFloors):
// each execution scans every counter of the binary.
const distBudgetFloor = 800

// distFloors shares distBudgetFloor among the packages annotated
// together that go into one binary — those one of them imports,
// directly or not, with it — in proportion to their own counters
// (plainCounters): the least budget of each (indexed as pkgs). Packages
// that import none of the others keep the whole floor each.
func distFloors(pkgs []*packages.Package) []int {
	idx := map[string]int{}
	for i, p := range pkgs {
		idx[p.ID] = i
	}
	group := make([]int, len(pkgs)) // union-find over import reachability
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for group[i] != i {
			group[i] = group[group[i]]
			i = group[i]
		}
		return i
	}
	for i, p := range pkgs {
		seen := map[string]bool{}
		var visit func(q *packages.Package)
		visit = func(q *packages.Package) {
			for _, d := range q.Imports {
				if seen[d.ID] {
					continue
				}
				seen[d.ID] = true
				if j, ok := idx[d.ID]; ok {
					group[find(j)] = find(i)
				}
				visit(d)
			}
		}
		visit(p)
	}
	own := make([]int, len(pkgs))
	total := map[int]int{}
	for i, p := range pkgs {
		own[i] = plainCounters(p.Syntax)
		total[find(i)] += own[i]
	}
	out := make([]int, len(pkgs))
	for i := range pkgs {
		if t := total[find(i)]; t > 0 {
			out[i] = distBudgetFloor * own[i] / t
		}
	}
	return out
}

// distRank orders dist labels for the budget: the lower, the more likely
// the label is to guide the fuzzer, the sooner it is kept.
type distRank int

const (
	rankStone     distRank = iota // byte-wise and prefix stones: magic values, tokens
	rankWideConst                 // a rung against a constant of 2^16 or more in magnitude
	rankConst                     // a rung against another constant (0, 256 … 65535)
	rankVars                      // a rung between two values
)

// budgetDist lists as skipped the active dist labels beyond the package's
// counter budget: distBudgetShare of plainCounters(files), at least
// floor (its share of distBudgetFloor, distFloors). Labels are
// kept in this order: stones, then the rungs every fourth bit (|a-b| <
// 2^k, k a multiple of 4: a nibble overwritten at random still climbs
// one), against wide constants, other constants, between values, then
// the rungs in between in the same order; ties in source order. So a
// ladder thins to every fourth bit before whole relations go.
func (e *enumerator) budgetDist(files []*ast.File, floor int) {
	plain := plainCounters(files)
	budget := max(int(distBudgetShare*float64(plain)), floor)
	var cand []*goLabel
	for _, gl := range e.labels {
		if gl.Criterion == labels.DIST && gl.Status == labels.Active {
			cand = append(cand, gl)
		}
	}
	key := func(gl *goLabel) int {
		k := int(gl.distRank)
		if gl.thinRung {
			k += 10
		}
		return k
	}
	sort.SliceStable(cand, func(i, j int) bool { return key(cand[i]) < key(cand[j]) })
	used, full := 0, false
	for _, gl := range cand {
		// In order: the first label that does not fit ends the kept ones.
		if c := labelCounters(gl.cond.d); !full && used+c <= budget {
			used += c
			continue
		}
		full = true
		e.setStatus(gl, labels.Skipped, fmt.Sprintf("over the package's counter budget (dist labels may add about %d fuzzing counters: as many as the package's own, about %d, at least %d, its share of the %d of the packages annotated together that one binary holds; every execution scans every counter of the binary): %s (left out)", budget, plain, floor, distBudgetFloor, gl.distRank.String(gl.thinRung)))
	}
}

// String says which labels a rank holds, for the reason of a skipped one.
func (r distRank) String(thin bool) string {
	s := [...]string{"a stone", "a rung against a wide constant", "a rung against a constant", "a rung between two values"}[r]
	if thin {
		s += ", between every fourth bit"
	}
	return "kept in this order: stones, rungs every fourth bit (wide constants, other constants, between values), the rungs in between; this is " + s
}

// labelCounters estimates the fuzzing counters the label if cond {} adds:
// its body and the block after it, one more per && and ||.
func labelCounters(cond dst.Expr) int {
	n := 2
	dst.Inspect(cond, func(x dst.Node) bool {
		if b, ok := x.(*dst.BinaryExpr); ok && (b.Op == token.LAND || b.Op == token.LOR) {
			n++
		}
		return true
	})
	return n
}

// plainCounters estimates the fuzzing counters of the original files:
// their basic blocks, one per function, two per if (three with else),
// for and range, one per switch case and per && and ||.
func plainCounters(files []*ast.File) int {
	n := 0
	for _, f := range files {
		ast.Inspect(f, func(x ast.Node) bool {
			switch x := x.(type) {
			case *ast.FuncDecl, *ast.FuncLit, *ast.CaseClause, *ast.CommClause:
				n++
			case *ast.IfStmt:
				n += 2
				if x.Else != nil {
					n++
				}
			case *ast.ForStmt, *ast.RangeStmt:
				n += 2
			case *ast.BinaryExpr:
				if x.Op == token.LAND || x.Op == token.LOR {
					n++
				}
			}
			return true
		})
	}
	return n
}
