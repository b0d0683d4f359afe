package syntax

import "fmt"

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes, as go/token does. Offset is the 0-based byte offset.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// IsValid reports whether p was set by the reader.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Node is an s-expression. Span returns the position of its first byte and
// the position just after its last byte.
type Node interface {
	Span() (start, end Pos)
	node()
}

// List is a parenthesised list. Open is the position of '(' and Close the
// position of ')'.
type List struct {
	Open, Close Pos
	Elems       []Node
}

// Symbol is a name such as picking-up, ?obj, *boards*, t, nil, cpl:par or
// |Odd Name|, read as Common Lisp reads it.
type Symbol struct {
	Start, End Pos
	// Name is the local name without package prefix, folded to lower case
	// except for escaped parts (|Foo| and \F keep their case): WHEN,
	// When and cpl:when all have Name "when".
	Name string
	// Pkg is the package prefix folded like Name ("cpl" for CPL:PAR), ""
	// when none was written.
	Pkg string
	// Internal is true for pkg::name (two colons).
	Internal bool
	// Uninterned is true for #:name.
	Uninterned bool
	// Raw is the exact source text; the printers print it, so formatting
	// keeps every symbol as written. Generated symbols leave Raw empty and
	// print as Name.
	Raw string
}

// Keyword is a name written with a leading colon. Name excludes the colon
// and is folded to lower case like a symbol's; Raw is the source text
// (colon included), "" for generated keywords.
type Keyword struct {
	Start, End Pos
	Name       string
	Raw        string
}

// Char is a character literal #\a or #\Space. Value is the character,
// Raw the source text.
type Char struct {
	Start, End Pos
	Value      rune
	Raw        string
}

// Reader-macro marks of Prefixed, as written in the source.
const (
	MarkFunction  = "#'" // #'f, i.e. (function f)
	MarkBackquote = "`"  // `(a ,b ,@c)
	MarkUnquote   = ","  // ,x inside a backquote
	MarkSplice    = ",@" // ,@x inside a backquote
	MarkNSplice   = ",." // ,.x (destructive splice) inside a backquote
	MarkEval      = "#." // #.x, read-time evaluation
	MarkVector    = "#"  // #(a b): X is the list
)

// Prefixed is a form preceded by a reader macro other than quote: #'f,
// `x, ,x, ,@x, ,.x, #.x, #(...) (Mark "#", X the list), #p"..." and the
// like (Mark "#p" as written, X the string or list), #2A(...). Mark is the
// exact source text of the prefix; no space separates it from X.
type Prefixed struct {
	Start Pos
	Mark  string
	X     Node
}

// Conditional is a reader conditional: #+feature form (Plus) or #-feature
// form. Feature is the feature expression (a symbol, keyword or list such
// as (:or :sbcl :ccl)); X is the form it guards. The reader keeps both;
// whether X counts is decided downstream against a feature set.
type Conditional struct {
	Start   Pos
	Plus    bool
	Feature Node
	X       Node
}

// Int is an integer literal. Raw is the text as written.
type Int struct {
	Start, End Pos
	Value      int64
	Raw        string
}

// Float is a floating-point literal. Raw is the text as written.
type Float struct {
	Start, End Pos
	Value      float64
	Raw        string
}

// String is a string literal. Value is unescaped; Raw is the text as
// written, quotes included.
type String struct {
	Start, End Pos
	Value      string
	Raw        string
}

// Quote is 'X, which reads as (quote X). Start is the position of the
// apostrophe.
type Quote struct {
	Start Pos
	X     Node
}

func (n *List) Span() (Pos, Pos) {
	end := n.Close
	end.Offset++
	end.Col++
	return n.Open, end
}
func (n *Symbol) Span() (Pos, Pos)  { return n.Start, n.End }
func (n *Keyword) Span() (Pos, Pos) { return n.Start, n.End }
func (n *Int) Span() (Pos, Pos)     { return n.Start, n.End }
func (n *Float) Span() (Pos, Pos)   { return n.Start, n.End }
func (n *String) Span() (Pos, Pos)  { return n.Start, n.End }
func (n *Quote) Span() (Pos, Pos) {
	_, end := n.X.Span()
	return n.Start, end
}
func (n *Char) Span() (Pos, Pos) { return n.Start, n.End }
func (n *Prefixed) Span() (Pos, Pos) {
	_, end := n.X.Span()
	return n.Start, end
}
func (n *Conditional) Span() (Pos, Pos) {
	_, end := n.X.Span()
	return n.Start, end
}

func (*List) node()        {}
func (*Symbol) node()      {}
func (*Keyword) node()     {}
func (*Int) node()         {}
func (*Float) node()       {}
func (*String) node()      {}
func (*Quote) node()       {}
func (*Char) node()        {}
func (*Prefixed) node()    {}
func (*Conditional) node() {}

// Comment is a ';' line comment (Text without the trailing newline) or a
// '#| ... |#' block comment (Block true). Text includes the delimiters.
type Comment struct {
	Start, End Pos
	Text       string
	Block      bool
}

// File is a parsed source file: its top-level forms and all its comments in
// source order. Src is the text it was read from; positions index into it.
type File struct {
	Name     string
	Src      []byte
	Forms    []Node
	Comments []*Comment
}

// Head returns the name of the symbol heading list n, or "" when n is not a
// list that starts with a symbol. It is the usual way to ask "which form is
// this?".
func Head(n Node) string {
	l, ok := n.(*List)
	if !ok || len(l.Elems) == 0 {
		return ""
	}
	if s, ok := l.Elems[0].(*Symbol); ok {
		return s.Name
	}
	return ""
}

// IsSymbol reports whether n is the symbol name.
func IsSymbol(n Node, name string) bool {
	s, ok := n.(*Symbol)
	return ok && s.Name == name
}

// Walk calls fn for n and, when fn returns true, for each of n's children in
// source order.
func Walk(n Node, fn func(Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	switch n := n.(type) {
	case *List:
		for _, e := range n.Elems {
			Walk(e, fn)
		}
	case *Quote:
		Walk(n.X, fn)
	case *Prefixed:
		Walk(n.X, fn)
	case *Conditional:
		Walk(n.Feature, fn)
		Walk(n.X, fn)
	}
}
