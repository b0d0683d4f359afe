package syntax

import (
	"bytes"
	"fmt"
	"sort"
)

// TreeWriter writes source text and builds, as it writes, the tree Parse
// would read from that text: every node and comment gets the position a
// parse of the finished text gives it. A pass that generates a file (the
// annotated plan) hands its tree on without parsing the text back.
//
// Text is written as copies of a source file (Copy, CopyNode: the copied
// nodes and comments are cloned with their positions moved), as
// parentheses opened and closed around the elements written between them
// (Open, Close, or OpenAt and CloseAt around copied parentheses), as
// generated forms or comments (Text: parsed alone, a small piece; Symbol;
// Comment), and as bare whitespace (Blank). Positions are
// asked for in increasing offset order, which writing in order gives.
type TreeWriter struct {
	out bytes.Buffer
	src *File // the file Copy and CopyNode read (nil: none)

	// line and bol are the line and start of line at offset scanned.
	scanned, line, bol int

	frames   []twFrame
	stack    []Node // finished nodes: top-level, or a list's elements
	comments []*Comment
	err      error
	textOnly bool // NewTextWriter: no tree is built

	// b reads the generated pieces (Text), one after the other; its
	// slabs also hold the nodes the writer makes, so that a tree costs
	// about the allocations a parse of the text costs.
	b       builder
	sc      scanner
	scratch []Node // children of the copies being made
}

type twFrame struct {
	list  bool // a list (else a quote waiting for its form)
	start Pos
	base  int // a list's first element in stack
}

// NewTreeWriter returns a TreeWriter whose copies come from src (nil: the
// writer copies nothing); grow is a hint of the text's length.
func NewTreeWriter(src *File, grow int) *TreeWriter {
	w := &TreeWriter{src: src, line: 1}
	w.out.Grow(grow)
	return w
}

// NewTextWriter is NewTreeWriter for a caller that wants the text only:
// the writer builds no tree (Finish returns a nil *File).
func NewTextWriter(src *File, grow int) *TreeWriter {
	w := NewTreeWriter(src, grow)
	w.textOnly = true
	return w
}

// Bytes is the text written so far; the caller must not modify it.
func (w *TreeWriter) Bytes() []byte { return w.out.Bytes() }

// Len is the length of the text written so far.
func (w *TreeWriter) Len() int { return w.out.Len() }

// Blank writes s, which is whitespace only.
func (w *TreeWriter) Blank(s string) { w.out.WriteString(s) }

// pos is the position of offset off of the text (off at least every
// offset asked before).
func (w *TreeWriter) pos(off int) Pos {
	b := w.out.Bytes()
	for {
		i := bytes.IndexByte(b[w.scanned:off], '\n')
		if i < 0 {
			break
		}
		w.scanned += i + 1
		w.line, w.bol = w.line+1, w.scanned
	}
	w.scanned = off
	return Pos{Offset: off, Line: w.line, Col: off - w.bol + 1}
}

// Open writes '(' and starts a list.
func (w *TreeWriter) Open() {
	w.OpenAt(w.out.Len())
	w.out.WriteByte('(')
}

// Close writes ')' and finishes the innermost list, which it returns (nil
// from a NewTextWriter).
func (w *TreeWriter) Close() *List {
	l := w.CloseAt(w.out.Len())
	w.out.WriteByte(')')
	return l
}

// OpenAt starts a list whose '(' is at offset off (written or to be
// written by a Copy).
func (w *TreeWriter) OpenAt(off int) {
	if w.textOnly {
		return
	}
	w.frames = append(w.frames, twFrame{list: true, start: w.pos(off), base: len(w.stack)})
}

// CloseAt finishes the innermost list, whose ')' is at offset off, and
// returns it (nil from a NewTextWriter).
func (w *TreeWriter) CloseAt(off int) *List {
	if w.textOnly {
		return nil
	}
	if n := len(w.frames); n == 0 || !w.frames[n-1].list {
		w.fail("unbalanced ')' at %d", off)
		return nil
	}
	top := w.frames[len(w.frames)-1]
	w.frames = w.frames[:len(w.frames)-1]
	l := w.b.lists.new()
	l.Open, l.Close = top.start, w.pos(off)
	l.Elems = w.b.elems.take(w.stack[top.base:])
	clear(w.stack[top.base:])
	w.stack = w.stack[:top.base]
	w.complete(l)
	return l
}

// Quote writes the apostrophe of 'X; the next form written is X.
func (w *TreeWriter) Quote() {
	if w.textOnly {
		w.out.WriteByte('\'')
		return
	}
	w.frames = append(w.frames, twFrame{start: w.pos(w.out.Len())})
	w.out.WriteByte('\'')
}

// complete hands a finished node to the list (or quote) that waits for it.
func (w *TreeWriter) complete(n Node) {
	for len(w.frames) > 0 {
		top := w.frames[len(w.frames)-1]
		if top.list {
			break
		}
		q := w.b.quotes.new()
		q.Start, q.X = top.start, n
		n = q
		w.frames = w.frames[:len(w.frames)-1]
	}
	w.stack = append(w.stack, n)
}

// Symbol writes name, a plain lower-case symbol name, as a symbol.
func (w *TreeWriter) Symbol(name string) {
	if w.textOnly {
		w.out.WriteString(name)
		return
	}
	start, end := w.writeLine(name)
	sym := w.b.symbols.new()
	*sym = Symbol{Start: start, End: end, Name: name, Raw: name}
	w.complete(sym)
}

// writeLine writes s, which holds no newline, and returns where it
// starts and ends.
func (w *TreeWriter) writeLine(s string) (start, end Pos) {
	start = w.pos(w.out.Len())
	w.out.WriteString(s)
	end = start
	end.Offset += len(s)
	end.Col += len(s)
	return start, end
}

// Comment writes the line comment text (';' first, no newline).
func (w *TreeWriter) Comment(text string) {
	if w.textOnly {
		w.out.WriteString(text)
		return
	}
	start, end := w.writeLine(text)
	c := w.b.commentz.new()
	*c = Comment{Start: start, End: end, Text: text}
	w.comments = append(w.comments, c)
}

// Text writes s, whole forms, comments and whitespace, and adds what a
// parse of s alone reads, placed where s is written. It returns the forms
// read (valid until the next call; nil if s does not parse: Finish
// reports it).
func (w *TreeWriter) Text(s string) []Node {
	if w.textOnly {
		w.out.WriteString(s)
		return nil
	}
	at := w.out.Len()
	base := w.pos(at)
	w.out.WriteString(s)
	// Parse's builder, kept from piece to piece (its slabs).
	b := &w.b
	// Positions as in the whole text: the scanner starts at the piece's
	// line, with the line's start before the piece's first byte, and the
	// builder adds the piece's offset.
	w.sc = scanner{text: s, line: base.Line, lineStart: 1 - base.Col}
	b.sc, b.src, b.base = &w.sc, nil, at
	b.frames, b.stack, b.comments = b.frames[:0], b.stack[:0], b.comments[:0]
	if err := b.run(); err != nil {
		_, err = Parse("", []byte(s)) // the error with its caret
		w.fail("generated text %q does not parse: %v", s, err)
		return nil
	}
	forms := b.stack
	for _, n := range forms {
		w.complete(n)
	}
	w.comments = append(w.comments, b.comments...)
	return forms
}

// Copy writes the source's bytes [from, to), which hold no form that is
// not written by CopyNode (whitespace and comments, or parentheses opened
// with OpenAt and closed with CloseAt), and adds the comments among them.
func (w *TreeWriter) Copy(from, to int) {
	if to <= from {
		return
	}
	at := w.out.Len()
	w.out.Write(w.src.Src[from:to])
	w.copyComments(from, to, at)
}

// CopyNode writes the source's text of n, a node of the source, and adds a
// copy of n (and the comments inside it) moved to where it is written.
func (w *TreeWriter) CopyNode(n Node) {
	if w.textOnly {
		start, end := n.Span()
		w.out.Write(w.src.Src[start.Offset:end.Offset])
		return
	}
	start, end := n.Span()
	at := w.out.Len()
	sh := shift{from: start, to: w.pos(at)}
	w.out.Write(w.src.Src[start.Offset:end.Offset])
	w.complete(sh.node(n, w))
	w.copyComments(start.Offset, end.Offset, at)
}

// copyComments adds the source's comments that start in [from, to),
// written from offset at on.
func (w *TreeWriter) copyComments(from, to, at int) {
	if w.textOnly {
		return
	}
	cs := w.src.Comments
	i := sort.Search(len(cs), func(i int) bool { return cs[i].Start.Offset >= from })
	for ; i < len(cs) && cs[i].Start.Offset < to; i++ {
		c := w.b.commentz.new()
		*c = *cs[i]
		c.Start = w.pos(c.Start.Offset - from + at)
		c.End = w.pos(c.End.Offset - from + at)
		w.comments = append(w.comments, c)
	}
}

func (w *TreeWriter) fail(format string, args ...any) {
	if w.err == nil {
		w.err = fmt.Errorf("syntax: TreeWriter: "+format, args...)
	}
}

// Finish returns the text written and its tree, named name; an error is a
// bug of the caller (unbalanced lists, generated text that does not
// parse).
func (w *TreeWriter) Finish(name string) ([]byte, *File, error) {
	if w.err == nil && len(w.frames) > 0 {
		w.fail("%d forms left open", len(w.frames))
	}
	if w.err != nil {
		return nil, nil, w.err
	}
	src := w.out.Bytes()
	if w.textOnly {
		return src, nil, nil
	}
	f := &File{Name: name, Src: src}
	if len(w.stack) > 0 {
		f.Forms = make([]Node, len(w.stack))
		copy(f.Forms, w.stack)
	}
	if len(w.comments) > 0 {
		f.Comments = w.comments
	}
	return src, f, nil
}

// shift moves positions of a text written elsewhere: the byte at from is
// written at to.
type shift struct{ from, to Pos }

func (s shift) pos(p Pos) Pos {
	if !p.IsValid() {
		return p
	}
	q := Pos{Offset: p.Offset - s.from.Offset + s.to.Offset, Line: p.Line - s.from.Line + s.to.Line, Col: p.Col}
	if p.Line == s.from.Line {
		q.Col = p.Col - s.from.Col + s.to.Col
	}
	return q
}

// node returns a copy of n, made from w's slabs, with its positions
// moved.
func (s shift) node(n Node, w *TreeWriter) Node {
	switch n := n.(type) {
	case *List:
		l := w.b.lists.new()
		base := len(w.scratch)
		for _, e := range n.Elems {
			w.scratch = append(w.scratch, s.node(e, w))
		}
		l.Elems = w.b.elems.take(w.scratch[base:])
		clear(w.scratch[base:])
		w.scratch = w.scratch[:base]
		l.Open, l.Close = s.pos(n.Open), s.pos(n.Close)
		return l
	case *Symbol:
		c := w.b.symbols.new()
		*c = *n
		n = c
		n.Start, n.End = s.pos(n.Start), s.pos(n.End)
		return n
	case *Keyword:
		c := w.b.keywords.new()
		*c = *n
		n = c
		n.Start, n.End = s.pos(n.Start), s.pos(n.End)
		return n
	case *Int:
		c := w.b.ints.new()
		*c = *n
		n = c
		n.Start, n.End = s.pos(n.Start), s.pos(n.End)
		return n
	case *Char:
		c := *n
		n = &c
		n.Start, n.End = s.pos(n.Start), s.pos(n.End)
		return n
	case *Float:
		c := *n
		n = &c
		n.Start, n.End = s.pos(n.Start), s.pos(n.End)
		return n
	case *String:
		c := *n
		n = &c
		n.Start, n.End = s.pos(n.Start), s.pos(n.End)
		return n
	case *Quote:
		x := s.node(n.X, w)
		c := w.b.quotes.new()
		*c = *n
		n = c
		n.Start, n.X = s.pos(n.Start), x
		return n
	case *Prefixed:
		x := s.node(n.X, w)
		c := *n
		n = &c
		n.Start, n.X = s.pos(n.Start), x
		return n
	case *Conditional:
		f, x := s.node(n.Feature, w), s.node(n.X, w)
		c := *n
		n = &c
		n.Start, n.Feature, n.X = s.pos(n.Start), f, x
		return n
	}
	return n
}
