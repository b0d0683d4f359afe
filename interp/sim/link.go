package sim

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// LinkOptions says what will be linked to a plan, for CheckCalls.
type LinkOptions struct {
	// World: a world is linked, so its queries (Queries) resolve. Without
	// one, labelcov links them to stubs that fail with no-world.
	World bool
	// Builtins are further names the caller links (vm.Config.Builtins).
	Builtins []string
	// Later: the plan is only read here (labels, annotate) and may be run
	// by another host, so a name defined nowhere is a warning, not an
	// error.
	Later bool
}

// LinkProblem is one call that will not reach a function when the plan runs.
type LinkProblem struct {
	// Err names the call's file:line:col and carries the source line for
	// a caret (Err.Snippet).
	Err *syntax.Error
	// Warning: the plan may still link it (a world query without a world,
	// an unknown name with LinkOptions.Later); otherwise the call can only
	// fail with undefined-function.
	Warning bool
}

func (lp LinkProblem) String() string {
	if lp.Warning {
		return "warning: " + lp.Err.Error()
	}
	return lp.Err.Error()
}

// CheckCalls reports, in source order, every call of p (compiled from f)
// to a function that no defun, core builtin, world query or
// opts.Builtins defines: the VM would only say undefined-function at run
// time, and only on runs that reach the call. A misspelled name gets a
// "did you mean" from the names that exist.
func CheckCalls(f *syntax.File, p *compile.Program, opts LinkOptions) []LinkProblem {
	calls := p.ExternalCalls()
	if len(calls) == 0 {
		return nil
	}
	queries := map[string]bool{}
	for _, q := range Queries() {
		queries[q.Name] = true
	}
	linked := map[string]bool{}
	for _, b := range opts.Builtins {
		linked[b] = true
	}
	var out []LinkProblem
	var known []string // built on the first unknown name
	for _, c := range calls {
		if linked[c.Name] || (opts.World && queries[c.Name]) {
			continue
		}
		pos := namePos(f.Src, c.Pos)
		if queries[c.Name] {
			out = append(out, LinkProblem{Warning: true, Err: syntax.Errorf(f.Name, f.Src, pos,
				"%s is a world query: without a world (--world) the call fails with no-world", c.Name)})
			continue
		}
		if known == nil {
			known = knownNames(p, queries, opts.Builtins)
		}
		msg := fmt.Sprintf("undefined function %s: no defun, builtin or world query has this name", c.Name)
		if s := closest(c.Name, known); s != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", s)
		}
		out = append(out, LinkProblem{Warning: opts.Later, Err: syntax.Errorf(f.Name, f.Src, pos, "%s", msg)})
	}
	return out
}

// namePos moves a call's position from its '(' to the function name, where
// the caret belongs.
func namePos(src []byte, pos syntax.Pos) syntax.Pos {
	if pos.Offset >= 0 && pos.Offset+1 < len(src) && src[pos.Offset] == '(' && src[pos.Offset+1] > ' ' {
		pos.Offset++
		pos.Col++
	}
	return pos
}

// knownNames lists every name a call can reach: user functions, core
// builtins, special forms, world queries and extra builtins, sorted.
func knownNames(p *compile.Program, queries map[string]bool, extra []string) []string {
	var names []string
	for _, fn := range p.Funcs {
		if fn.Name != "" && p.Func(fn.Name) == fn {
			names = append(names, fn.Name)
		}
	}
	for _, b := range compile.CoreBuiltins() {
		names = append(names, b.Name)
	}
	for _, f := range forms.All() {
		names = append(names, f.Name)
	}
	for q := range queries {
		names = append(names, q)
	}
	names = append(names, extra...)
	sort.Strings(names)
	return slices.Compact(names)
}

// closest is the known name nearest to name by edit distance, if it is
// near enough to be a likely misspelling (at most 2 edits, fewer than the
// name's length); ties go to the alphabetically first.
func closest(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(strings.ToLower(name), k); d < bestD && d < len(name) {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
