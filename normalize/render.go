package normalize

import (
	"bytes"

	"github.com/labelcov/labelcov/interp/forms"

	"github.com/labelcov/labelcov/interp/syntax"
)

// Wrapper lets a later pass (transform) wrap chosen nodes of a normalized
// tree while it is rendered, keeping everything else as written.
type Wrapper interface {
	// Wraps reports whether n is to be wrapped.
	Wraps(n syntax.Node) bool
	// Wrap writes n wrapped: whatever goes before, then body() (which
	// renders n itself), then whatever goes after. out is the text rendered
	// so far, so a wrapper can learn offsets and columns.
	Wrap(out *bytes.Buffer, n syntax.Node, body func())
}

// Render renders the normalized forms. Unchanged nodes are copied from the
// original source byte for byte (comments and layout included); edited
// lists keep the original text between their elements; new code is
// written in canonical one-line form. w may be nil.
func (r *Result) Render(w Wrapper) []byte {
	rd := &renderer{r: r, w: w, src: r.Orig.Src}
	if w != nil {
		rd.inside = map[syntax.Node]bool{}
		for _, f := range r.Forms {
			rd.mark(f)
		}
	}
	rd.out.Grow(len(rd.src) + len(rd.src)/4)
	pos := 0
	gi := r.globalsAt()
	for i, f := range r.Forms {
		start, end := syntax.Node.Span(r.Orig.Forms[i])
		if i == gi {
			// The globals' defvars go before their first use, so that a
			// Common Lisp compiler knows them as special variables
			// (SBCL warns of every use of an undeclared one): after the
			// line of the package forms, or before the first form.
			at := start.Offset
			if i > 0 {
				if nl := bytes.IndexByte(rd.src[pos:start.Offset], '\n'); nl >= 0 {
					at = pos + nl + 1
				}
			}
			rd.out.Write(rd.src[pos:at])
			rd.writeGlobals(at > pos || i == 0)
			pos = at
		}
		rd.out.Write(rd.src[pos:start.Offset])
		rd.node(f)
		pos = end.Offset
	}
	rd.out.Write(rd.src[pos:])
	if r.Temps > 0 {
		// After a newline, as the globals below. The compiler reads it
		// (forms.TempsDeclared): the temporaries cost no step. Guarded by
		// labelcov's feature, so that other Lisps never see it.
		rd.out.WriteString("\n;; labelcov: normalize's temporaries cost no step (read by labelcov only)\n")
		rd.out.WriteString(forms.TempsDeclaration(r.Prefix) + "\n")
	}
	if gi == len(r.Forms) && len(r.globals) > 0 {
		// After a newline: the plan may end in a line comment.
		rd.out.WriteString("\n")
		rd.writeGlobals(true)
	}
	return rd.out.Bytes()
}

// globalsAt is the index of the top-level form the defvars of the globals
// go before: the first that is not a package form (defpackage,
// in-package), or len(r.Forms) for after the last form.
func (r *Result) globalsAt() int {
	if len(r.globals) == 0 {
		return -1
	}
	for i, f := range r.Orig.Forms {
		switch forms.Head(f) {
		case "in-package", "defpackage":
			continue
		}
		if _, ok := f.(*syntax.Conditional); ok {
			continue
		}
		return i
	}
	return len(r.Forms)
}

// writeGlobals writes the defvars of the globals, one per line, after a
// comment line; atLineStart says the output is at the start of a line.
func (rd *renderer) writeGlobals(atLineStart bool) {
	if !atLineStart {
		rd.out.WriteByte('\n')
	}
	rd.out.WriteString(";; labelcov: globals of shared label atoms\n")
	for _, g := range rd.r.globals {
		rd.out.WriteString("(defvar " + g + ")\n")
	}
}

type renderer struct {
	r      *Result
	w      Wrapper
	src    []byte
	out    bytes.Buffer
	inside map[syntax.Node]bool // nodes with a wrapped node at or below them
}

func (rd *renderer) mark(n syntax.Node) bool {
	has := rd.w.Wraps(n)
	switch n := n.(type) {
	case *syntax.List:
		for _, e := range n.Elems {
			if rd.mark(e) {
				has = true
			}
		}
	case *syntax.Quote:
		if rd.mark(n.X) {
			has = true
		}
	}
	if has {
		rd.inside[n] = true
	}
	return has
}

func (rd *renderer) node(n syntax.Node) {
	if rd.w != nil && rd.w.Wraps(n) {
		rd.w.Wrap(&rd.out, n, func() { rd.inner(n) })
		return
	}
	rd.inner(n)
}

func (rd *renderer) inner(n syntax.Node) {
	if rd.r.orig[n] && !rd.inside[n] || rd.r.orig[n] && !isList(n) {
		start, end := n.Span()
		rd.out.Write(rd.src[start.Offset:end.Offset])
		return
	}
	switch n := n.(type) {
	case *syntax.List:
		base, edited := rd.r.copyOf[n]
		if rd.r.orig[n] {
			base, edited = n, true
		}
		if !edited || len(base.Elems) != len(n.Elems) {
			rd.out.WriteByte('(')
			for i, e := range n.Elems {
				if i > 0 {
					rd.out.WriteByte(' ')
				}
				rd.node(e)
			}
			rd.out.WriteByte(')')
			return
		}
		// An edited original list: keep the text between its elements.
		rd.out.WriteByte('(')
		pos := base.Open.Offset + 1
		for i, e := range n.Elems {
			start, end := base.Elems[i].Span()
			rd.out.Write(rd.src[pos:start.Offset])
			rd.node(e)
			pos = end.Offset
		}
		rd.out.Write(rd.src[pos:base.Close.Offset])
		rd.out.WriteByte(')')
	case *syntax.Quote:
		rd.out.WriteByte('\'')
		rd.node(n.X)
	default:
		rd.out.WriteString(syntax.NodeString(n))
	}
}

func isList(n syntax.Node) bool { _, ok := n.(*syntax.List); return ok }
