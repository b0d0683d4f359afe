package syntax

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Width is the column budget of Format: a list that fits in Width columns
// (closing brackets that follow it included) is printed on one line.
const Width = 100

// Format prints f canonically, keeping every comment in place relative to
// the code. The layout follows the usual Lisp conventions:
//
//   - a list that fits on the current line, holds no line comment and was
//     written on one line is printed on one line with single spaces (a
//     list the author broke over lines stays broken, as gofmt keeps the
//     line breaks of a composite literal);
//   - otherwise the head and the form's distinguished arguments (defun name
//     and parameters, let bindings, the test of when/unless/while, the spec
//     of dolist/dotimes, ...) stay on the first line and the body is
//     indented by 2; the arguments of an ordinary call are aligned under the
//     first argument; data lists (bindings, parameters, cond clauses) align
//     their elements under the first element;
//   - one blank line separates top-level forms; inside a broken list a
//     single blank line is kept where the author left one or more.
//
// Literals print as written (1.50 stays 1.50). Format is idempotent:
// Format(Parse(Format(f))) equals Format(f).
func Format(f *File) []byte {
	p := &printer{lay: buildLayout(f)}
	p.buf.Grow(len(f.Src) + len(f.Src)/8 + 64)
	p.top()
	return p.buf.Bytes()
}

// style says how a list is broken over lines when it does not fit.
type style int

const (
	styleCall    style = iota // (f a b): arguments aligned under the first
	styleData                 // ((x 1) (y 2)): elements aligned under the first
	styleClause               // (kind (var) body...): one distinguished arg, body by 2
	styleClauses              // a data list of styleClause lists
)

// distinguished gives, for special forms, how many arguments after the head
// stay on the first line; the rest is a body indented by 2. Read-only.
var distinguished = map[string]int{
	"defun": 2, "def-plan": 2, "def-check": 2, "def-policy": 2, "defmacro": 2,
	"def-cram-function": 2, "def-top-level-cram-function": 2, "defmethod": 2,
	"defgeneric": 2, "defclass": 2, "def-fact-group": 2,
	"lambda": 1, "let": 1, "let*": 1, "flet": 1, "labels": 1, "macrolet": 1,
	"destructuring-bind": 2, "multiple-value-bind": 2,
	"when": 1, "unless": 1, "while": 1,
	"dolist": 1, "dotimes": 1, "case": 1, "ecase": 1, "typecase": 1, "etypecase": 1,
	"with-failure-handling": 1, "with-retry-counters": 1, "handler-case": 1,
	"unwind-protect": 1, "block": 1, "define-test": 1,
	"defparameter": 2, "defvar": 2, "defconstant": 2,
	"a": 1, "an": 1,
	"defpackage": 1, "multiple-value-prog1": 1,
	"progn": 0, "par": 0, "pursue": 0, "seq": 0, "try-in-order": 0, "top-level": 0,
}

type printer struct {
	lay *layout
	buf bytes.Buffer
	col int // column (in runes) of the next byte written, 0-based
}

func (p *printer) write(s string) {
	p.buf.WriteString(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		p.col = utf8.RuneCountInString(s[i+1:])
	} else {
		p.col += utf8.RuneCountInString(s)
	}
}

func (p *printer) newline(blank bool) {
	if blank {
		p.buf.WriteByte('\n')
	}
	p.buf.WriteByte('\n')
	p.col = 0
}

func (p *printer) indent(col int) {
	for i := 0; i < col; i++ {
		p.buf.WriteByte(' ')
	}
	p.col = col
}

// top prints the file's top-level items: forms start in column 1, separated
// by one blank line; comments keep their line (trailing) or their own line.
func (p *printer) top() {
	afterNode := false
	for i, it := range p.lay.top {
		switch {
		case i == 0:
		case it.comment != nil && it.trailing:
			p.write(" ")
		case afterNode:
			p.newline(true)
		default:
			p.newline(it.blank)
		}
		if it.comment != nil {
			p.write(it.comment.Text)
			// A trailing comment belongs to the form before it: the next
			// form still gets its blank line.
			afterNode = afterNode && it.trailing
			continue
		}
		p.node(it.node, styleCall, 0)
		afterNode = true
	}
	if len(p.lay.top) > 0 {
		p.buf.WriteByte('\n')
	}
}

// node prints n at the current column. tail is the number of closing
// brackets that will follow n on the same line.
func (p *printer) node(n Node, st style, tail int) {
	switch n := n.(type) {
	case *List:
		if w := p.width(n); w >= 0 && p.col+w+tail <= Width {
			p.flat(n)
			return
		}
		p.broken(n, st, tail)
	case *Quote:
		p.write("'")
		p.node(n.X, styleCall, tail)
	case *Prefixed:
		p.write(prefixText(n))
		p.node(n.X, st, tail)
	case *Conditional:
		col := p.col
		p.write(conditionalMark(n))
		p.node(n.Feature, styleData, 0)
		if p.ownLine(n) {
			p.newline(false)
			p.indent(col)
		} else {
			p.write(" ")
		}
		p.node(n.X, st, tail)
	default:
		p.write(atomString(n))
	}
}

// ownLine reports whether the author put the form of reader conditional n
// on a line of its own (#+sbcl, newline, form), as is usual for top-level
// forms; Format keeps that line break.
func (p *printer) ownLine(n *Conditional) bool {
	_, fend := n.Feature.Span()
	xstart, _ := n.X.Span()
	return p.lay.newlinesBetween(fend.Offset, xstart.Offset) > 0
}

// width returns the one-line width of n with its inline comments, or -1 if
// n holds a line comment or a multi-line block comment.
func (p *printer) width(n Node) int {
	var w int
	switch n := n.(type) {
	case *List:
		// Lists memoize their width: broken lists ask for the widths of
		// their elements again at every level.
		info := p.lay.lists[n]
		if info.width != widthUnknown {
			return info.width
		}
		defer func() { info.width = w }()
		w = 2
		for i, it := range info.items {
			if it.broke {
				// The author broke this list over lines: keep it broken.
				w = -1
				break
			}
			if i > 0 {
				w++
			}
			var iw int
			if it.comment != nil {
				iw = commentWidth(it.comment)
			} else {
				iw = p.width(it.node)
			}
			if iw < 0 {
				w = -1
				break
			}
			w += iw
		}
	case *Quote:
		w = p.width(n.X)
		if w >= 0 {
			w++
		}
	case *Prefixed:
		w = p.width(n.X)
		if w >= 0 {
			w += len(prefixText(n))
		}
	case *Conditional:
		fw, xw := p.width(n.Feature), p.width(n.X)
		w = -1
		if fw >= 0 && xw >= 0 && !p.ownLine(n) {
			w = 2 + fw + 1 + xw
		}
	default:
		w = atomWidth(n)
	}
	return w
}

func commentWidth(c *Comment) int {
	if !c.Block || strings.ContainsAny(c.Text, "\n\r") {
		return -1
	}
	return utf8.RuneCountInString(c.Text)
}

func (p *printer) flat(n Node) {
	switch n := n.(type) {
	case *List:
		p.write("(")
		for i, it := range p.lay.lists[n].items {
			if i > 0 {
				p.write(" ")
			}
			if it.comment != nil {
				p.write(it.comment.Text)
			} else {
				p.flat(it.node)
			}
		}
		p.write(")")
	case *Quote:
		p.write("'")
		p.flat(n.X)
	case *Prefixed:
		p.write(prefixText(n))
		p.flat(n.X)
	case *Conditional:
		p.write(conditionalMark(n))
		p.flat(n.Feature)
		p.write(" ")
		p.flat(n.X)
	default:
		p.write(atomString(n))
	}
}

// shape is how one list is broken: the first head nodes share the opening
// line; further nodes go on their own lines.
type shape struct {
	head    int  // nodes kept on the first line (head included)
	align   bool // align nodes under the first argument (ordinary call)
	fill    bool // keep nodes on the current line unless the author broke it (loop)
	fitHead bool // a distinguished arg that does not fit flat goes to the next line
	// fillable: a call or data list; when the author broke it over lines,
	// nodes stay on the line where the author put them.
	fillable bool
	dist     int // indent of distinguished args forced onto new lines
	body     int // indent of the body, relative to '('
	children func(i int) style
}

func (p *printer) shapeOf(l *List, st style) shape {
	data := shape{head: 1, dist: 1, body: 1, fillable: true, children: func(int) style { return styleCall }}
	if len(l.Elems) == 0 {
		return data
	}
	if st == styleClauses {
		data.children = func(int) style { return styleClause }
		return data
	}
	sym, ok := l.Elems[0].(*Symbol)
	if !ok || st == styleData {
		return data
	}
	if st == styleClause {
		return shape{head: 2, dist: 4, body: 2, children: func(int) style { return styleCall }}
	}
	k, special := distinguished[sym.Name]
	if !special && (strings.HasPrefix(sym.Name, "def-") || strings.HasPrefix(sym.Name, "define-")) {
		// A definer labelcov does not know (cpm:def-process-module,
		// def-fact-group): laid out like defun, as SLIME does.
		return shape{head: 3, dist: 4, body: 2, children: only(2, styleData)}
	}
	if !special {
		call := shape{head: 2, align: true, fillable: true, dist: 1, body: 1, children: func(int) style { return styleCall }}
		// loop clauses read as phrases (repeat n do ...): keep the
		// author's lines rather than one node per line.
		call.fill = sym.Name == "loop"
		if sym.Name == "cond" {
			// (cond (test body...)...): clauses aligned under the first.
			call.children = func(i int) style {
				if i >= 1 {
					return styleData
				}
				return styleCall
			}
		}
		return call
	}
	s := shape{head: 1 + k, dist: 4, body: 2, children: func(int) style { return styleCall }}
	switch sym.Name {
	case "defun", "def-plan", "def-check", "def-policy", "defmacro", "def-cram-function",
		"def-top-level-cram-function", "defmethod":
		s.children = only(2, styleData)
	case "lambda", "let", "let*", "destructuring-bind", "multiple-value-bind":
		s.children = only(1, styleData)
	case "flet", "labels", "macrolet":
		s.children = only(1, styleClauses)
	case "case", "ecase", "typecase", "etypecase":
		s.children = func(i int) style {
			if i >= 2 {
				return styleData
			}
			return styleCall
		}
	case "with-failure-handling":
		s.children = only(1, styleClauses)
	case "defparameter", "defvar", "defconstant":
		// The value stays after the name if it fits there, else on the
		// next line indented like the docstring that may follow it.
		s.dist, s.fitHead = 2, true
	}
	return s
}

// fits reports whether n, printed flat after a space at the current
// column with tail closing brackets after it, stays within Width.
func (p *printer) fits(n Node, tail int) bool {
	w := p.width(n)
	return w >= 0 && p.col+1+w+tail <= Width
}

func only(i int, st style) func(int) style {
	return func(j int) style {
		if j == i {
			return st
		}
		return styleCall
	}
}

// broken prints l over several lines according to its shape. Comments keep
// their line: a trailing comment follows the previous token, any other
// comment gets a line of its own at the indentation of the next node.
func (p *printer) broken(l *List, st style, tail int) {
	items := p.lay.lists[l].items
	sh := p.shapeOf(l, st)
	open := p.col
	alignCol := open + 1
	indentFor := func(k int) int {
		switch {
		case k == 0:
			return open + 1
		case sh.align:
			return alignCol
		case k < sh.head:
			return open + sh.dist
		default:
			return open + sh.body
		}
	}
	// An ordinary call or a data list the author broke over lines keeps
	// its nodes on the lines where the author put them: (ros-info (fetch)
	// "fmt ~a"\n name) and (a b\n &key c d) stay as written. One written
	// on one line and too long gets a node per line.
	// Only breaks the output reproduces count: before a node other than
	// the first, or an own-line comment.
	fill := false
	if sh.fillable {
		nodes := 0
		for _, it := range items {
			if it.comment != nil {
				fill = fill || !it.trailing
				continue
			}
			fill = fill || it.broke && nodes > 0
			nodes++
		}
	}
	p.write("(")
	justOpened := true // nothing printed yet after '('
	mustBreak := false // a line comment ends the current line
	inBody := false    // an item of the body has been printed
	k := 0             // index of the next node
	for i, it := range items {
		if it.comment != nil {
			if it.trailing && !mustBreak {
				p.write(" ")
			} else {
				// Blank lines are kept between body items only.
				p.newline(it.blank && inBody)
				p.indent(indentFor(k))
			}
			p.write(it.comment.Text)
			mustBreak = !it.comment.Block
			justOpened = false
			inBody = inBody || k >= sh.head
			continue
		}
		t := 0
		if i == len(items)-1 {
			t = tail + 1
		}
		// A distinguished argument stays on the first line unless a line
		// comment ends it or the author put the argument on a line of its
		// own (Emacs's layout of with-failure-handling and friends).
		head := k < sh.head && (!sh.fitHead || k < 2 || p.fits(it.node, t))
		if (head || sh.fill || fill) && !mustBreak && !(it.broke && k > 0) {
			if !justOpened {
				p.write(" ")
			}
		} else {
			p.newline(it.blank && inBody)
			p.indent(indentFor(k))
		}
		inBody = inBody || k >= sh.head
		if k == 1 && sh.align {
			alignCol = p.col
		}
		p.node(it.node, sh.children(k), t)
		mustBreak = false
		justOpened = false
		k++
	}
	if mustBreak {
		p.newline(false)
		p.indent(indentFor(k))
	}
	p.write(")")
}
