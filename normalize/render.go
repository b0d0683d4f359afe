package normalize

import (
	"bytes"
	"strings"

	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/labels/srcpos"
)

// Wrapper lets a later pass (transform) wrap chosen nodes of a normalized
// tree while it is rendered, keeping everything else as written.
type Wrapper interface {
	// Wraps reports whether n is to be wrapped.
	Wraps(n syntax.Node) bool
	// Wrap writes n wrapped: whatever goes before, then body() (which
	// renders n itself), then whatever goes after, through out, which
	// builds the rendered tree as it writes (out.Bytes is the text
	// rendered so far, so a wrapper can learn offsets and columns).
	Wrap(out *syntax.TreeWriter, n syntax.Node, body func())
}

// Render renders the normalized forms. Unchanged nodes are copied from the
// original source byte for byte (comments and layout included); edited
// lists keep the original text between their elements; new code is
// written in canonical one-line form. w may be nil.
func (r *Result) Render(w Wrapper) []byte {
	src, _, _ := r.render(w, nil, false) // no error without a tree
	return src
}

// RenderMapped is Render that also maps every position of the rendered
// text to the original plan's text (srcpos.Map): a byte copied from the
// plan to itself, a byte written for a node to the node of the original
// plan it stands for (Origin; the nearest enclosing one for scaffolding).
// With tree it returns the rendered text's tree too, built while it is
// written (syntax.TreeWriter): the tree syntax.Parse reads from the text,
// without parsing it (nil without tree). An error is a bug (of the
// renderer or of w).
func (r *Result) RenderMapped(w Wrapper, tree bool) ([]byte, *syntax.File, *srcpos.Map, error) {
	b := srcpos.NewMapBuilder(r.Orig.Name, r.Orig.Src)
	src, f, err := r.render(w, b, tree)
	if err != nil {
		return nil, nil, nil, err
	}
	return src, f, b.Map(), nil
}

func (r *Result) render(w Wrapper, m *srcpos.MapBuilder, tree bool) ([]byte, *syntax.File, error) {
	grow := len(r.Orig.Src) + len(r.Orig.Src)/4
	rd := &renderer{r: r, w: w, src: r.Orig.Src, m: m}
	if tree {
		rd.out = syntax.NewTreeWriter(r.Orig, grow)
	} else {
		rd.out = syntax.NewTextWriter(r.Orig, grow)
	}
	if w != nil {
		rd.inside = map[syntax.Node]bool{}
		for _, f := range r.Forms {
			rd.mark(f)
		}
	}
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
			rd.copy(pos, at)
			rd.written(at)
			rd.writeGlobals(at > pos || i == 0)
			pos = at
		}
		rd.copy(pos, start.Offset)
		rd.node(f)
		pos = end.Offset
	}
	rd.copy(pos, len(rd.src))
	rd.written(len(rd.src))
	if r.Temps > 0 {
		// After a newline, as the globals below. The compiler reads it
		// (forms.TempsDeclared): the temporaries cost no step. Guarded by
		// labelcov's feature, so that other Lisps never see it.
		rd.out.Text("\n;; labelcov: normalize's temporaries cost no step (read by labelcov only)\n" +
			forms.TempsDeclaration(r.Prefix) + "\n")
	}
	if gi == len(r.Forms) && len(r.globals) > 0 {
		// After a newline: the plan may end in a line comment.
		rd.out.Blank("\n")
		rd.writeGlobals(true)
	}
	return rd.out.Finish(r.Orig.Name)
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
		rd.out.Blank("\n")
	}
	var b strings.Builder
	b.WriteString(";; labelcov: globals of shared label atoms\n")
	for _, g := range rd.r.globals {
		b.WriteString("(defvar " + g + ")\n")
	}
	rd.out.Text(b.String())
}

type renderer struct {
	r      *Result
	w      Wrapper
	src    []byte
	out    *syntax.TreeWriter
	inside map[syntax.Node]bool // nodes with a wrapped node at or below them
	// m, when set, maps the output to src; at is the offset in src of
	// the original node the text being written stands for.
	m  *srcpos.MapBuilder
	at int
}

// copy writes src[from:to], mapped to itself.
func (rd *renderer) copy(from, to int) {
	if rd.m != nil && to > from {
		rd.m.Copy(rd.out.Len(), from)
	}
	rd.out.Copy(from, to)
}

// written says that what is written next stands for the original node at
// offset at of src.
func (rd *renderer) written(at int) {
	if rd.m != nil {
		rd.m.Written(rd.out.Len(), at)
	}
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
	outer := rd.at
	if rd.m != nil {
		if o := rd.r.Origin(n); o != nil {
			start, _ := o.Span()
			rd.at = start.Offset
		}
		defer func() { rd.at = outer }()
	}
	if rd.w != nil && rd.w.Wraps(n) {
		rd.written(rd.at)
		rd.w.Wrap(rd.out, n, func() {
			rd.inner(n)
			rd.written(rd.at)
		})
		rd.written(outer)
		return
	}
	rd.inner(n)
}

func (rd *renderer) inner(n syntax.Node) {
	if rd.r.orig[n] && !rd.inside[n] || rd.r.orig[n] && !isList(n) {
		start, _ := n.Span()
		if rd.m != nil {
			rd.m.Copy(rd.out.Len(), start.Offset)
		}
		rd.out.CopyNode(n)
		rd.written(rd.at)
		return
	}
	rd.written(rd.at)
	switch n := n.(type) {
	case *syntax.List:
		base, edited := rd.r.copyOf[n]
		if rd.r.orig[n] {
			base, edited = n, true
		}
		if !edited || len(base.Elems) != len(n.Elems) {
			rd.out.Open()
			for i, e := range n.Elems {
				if i > 0 {
					rd.written(rd.at)
					rd.out.Blank(" ")
				}
				rd.node(e)
			}
			rd.written(rd.at)
			rd.out.Close()
			return
		}
		// An edited original list: keep the text between its elements
		// (and its parentheses, mapped to themselves).
		pos := base.Open.Offset
		rd.out.OpenAt(rd.out.Len())
		for i, e := range n.Elems {
			start, end := base.Elems[i].Span()
			rd.copy(pos, start.Offset)
			rd.node(e)
			pos = end.Offset
		}
		at := rd.out.Len() + base.Close.Offset - pos
		rd.copy(pos, base.Close.Offset+1)
		rd.out.CloseAt(at)
		rd.written(rd.at)
	case *syntax.Quote:
		rd.out.Quote()
		rd.node(n.X)
		rd.written(rd.at)
	default:
		rd.out.Text(syntax.NodeString(n))
	}
}

func isList(n syntax.Node) bool { _, ok := n.(*syntax.List); return ok }
