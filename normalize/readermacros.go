package normalize

import "github.com/labelcov/labelcov/interp/syntax"

// Opaque reports whether no pass may take list l apart: it holds a reader
// conditional (#+feature x, #-feature x) among its elements, so which
// elements exist depends on the feature set the compiler decides with.
// Copying l whole (into a label's predicate, say) is safe; pulling an
// operand out of it (into a temporary, a mutation, a condition of its own)
// is not. Backquotes and other reader macros need no such care: they are
// never lists, so the passes, which look into lists only, leave them as
// written.
func Opaque(l *syntax.List) bool {
	for _, e := range l.Elems {
		if _, ok := e.(*syntax.Conditional); ok {
			return true
		}
	}
	return false
}
