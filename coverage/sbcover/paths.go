package sbcover

import (
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// DefaultFeatures are the features of Debian's SBCL on x86-64 that a plan's
// reader conditionals test: SBCL decides #+feature and #-feature while it
// reads, so which forms and elements exist, and so every source path,
// depends on them. labelcov's own feature is not among them: SBCL skips
// #+labelcov forms (the temporaries declaration).
var DefaultFeatures = []string{
	"sbcl", "common-lisp", "ansi-cl", "x86-64", "64-bit", "little-endian", "unix", "linux", "elf",
	"ieee-floating-point", "sb-thread", "sb-unicode", "sb-package-locks", "sb-ldb", "gencgc",
}

// features decides feature expressions: a name, (:or ...), (:and ...),
// (:not x).
type features map[string]bool

func newFeatures(names []string) features {
	fs := features{}
	for _, n := range names {
		fs[strings.ToLower(strings.TrimPrefix(n, ":"))] = true
	}
	return fs
}

// holds decides feature expression n; one it cannot decide is false.
func (fs features) holds(n syntax.Node) bool {
	v, err := forms.FeatureHolds(n, func(name string) bool { return fs[name] })
	return err == nil && v
}

// resolve returns what SBCL reads for n: n itself, the form of a reader
// conditional whose feature expression holds, or nothing (ok false).
func (fs features) resolve(n syntax.Node) (syntax.Node, bool) {
	for {
		c, ok := n.(*syntax.Conditional)
		if !ok {
			return n, true
		}
		if fs.holds(c.Feature) != c.Plus {
			return nil, false
		}
		n = c.X
	}
}

// testPaths finds, for each offset in want (the '(' of a label's injected
// (when TEST)), the source path SBCL gives TEST: the path sb-cover files
// the when's branch under. Offsets it does not find (inside a form SBCL
// does not read as a list, such as a backquote) are absent from the result.
func testPaths(f *syntax.File, fs features, want map[int]bool) map[int]Path {
	out := map[int]Path{}
	w := &pathWalker{fs: fs, want: want, out: out}
	tlf := 0
	for _, form := range f.Forms {
		n, ok := fs.resolve(form)
		if !ok {
			continue
		}
		w.walk(n, Path{tlf})
		tlf++
	}
	return out
}

type pathWalker struct {
	fs   features
	want map[int]bool
	out  map[int]Path
}

// walk visits n, whose source path is path, as SBCL's find-source-paths
// does: every element of a list (reader conditionals decided) and the
// form under 'x and #'x, which read as (quote x) and (function x); a
// backquote reads as (quasiquote x), but what its commas hold is not part
// of a list, so walk stops there.
func (w *pathWalker) walk(n syntax.Node, path Path) {
	switch n := n.(type) {
	case *syntax.List:
		if w.want[n.Open.Offset] && len(n.Elems) > 1 {
			p := append(append(Path{}, path...), 1)
			w.out[n.Open.Offset] = p
		}
		idx := 0
		elems := n.Elems
		for i := 0; i < len(elems); i++ {
			e, ok := w.fs.resolve(elems[i])
			if !ok {
				continue
			}
			if s, ok := e.(*syntax.Symbol); ok && s.Raw == "." {
				// A dotted tail: (a . (b c)) reads as (a b c); an atom
				// tail is no element.
				if i+1 < len(elems) {
					if t, ok := w.fs.resolve(elems[i+1]); ok {
						if tl, ok := t.(*syntax.List); ok {
							elems = append(elems[:i:i], tl.Elems...)
							i--
							continue
						}
					}
				}
				return
			}
			w.walk(e, append(path, idx))
			idx++
		}
	case *syntax.Quote:
		w.walk(n.X, append(path, 1))
	case *syntax.Prefixed:
		switch n.Mark {
		case syntax.MarkFunction, syntax.MarkBackquote:
			w.walk(n.X, append(path, 1))
		}
	}
}
