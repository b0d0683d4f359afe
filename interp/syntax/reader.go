package syntax

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// MaxDepth bounds nesting so that hostile input cannot exhaust the stack of
// the reader or of any later recursive pass. Every form that contains
// another counts: a list, a quote, every reader-macro prefix (#' ` , ,@ #.
// #( ...) and a #+/#- conditional.
const MaxDepth = 1000

// ParseFile reads the file at path and parses it with Parse; errors name
// path. A read error is returned wrapped (errors.Is works on it).
func ParseFile(path string) (*File, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading %w", err)
	}
	return Parse(path, src)
}

// Parse reads src, the contents of the file named filename. On error it
// returns a *Error (reachable with errors.As) naming file:line:col. Errors
// are reported in source order: the first problem in the text wins.
func Parse(filename string, src []byte) (*File, error) {
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			c, size := utf8.DecodeRune(src[off:])
			if c == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return nil, errAt(filename, src, off, "invalid UTF-8 encoding")
	}
	b := &builder{file: filename, src: src, sc: newScanner(filename, string(src))}
	if err := b.run(); err != nil {
		return nil, err
	}
	f := &File{Name: filename, Src: src, Comments: b.comments}
	if len(b.stack) > 0 {
		f.Forms = make([]Node, len(b.stack))
		copy(f.Forms, b.stack)
	}
	return f, nil
}

// ParseExpr reads exactly one expression, for command-line arguments and
// similar snippets.
func ParseExpr(filename string, src []byte) (Node, error) {
	f, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	switch len(f.Forms) {
	case 1:
		return f.Forms[0], nil
	case 0:
		return nil, &Error{File: filename, Pos: Pos{Offset: len(src), Line: 1, Col: 1}, Msg: "expected an expression"}
	default:
		start, _ := f.Forms[1].Span()
		return nil, errAt(filename, src, start.Offset, "expected a single expression")
	}
}

// errAt builds the *Error for byte offset off of src.
func errAt(file string, src []byte, off int, format string, args ...any) *Error {
	return Errorf(file, src, posAt(src, off), format, args...)
}

// posAt computes the position of byte offset off by counting lines; only
// errors need it, the reader tracks positions as it goes.
func posAt(src []byte, off int) Pos {
	off = max(0, min(off, len(src)))
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return Pos{Offset: off, Line: line, Col: off - lineStart + 1}
}

// frame is one form under construction: an open list, or a prefix (quote,
// reader macro, reader conditional) waiting for the form it applies to.
type frame struct {
	kind    frameKind
	start   Pos
	mark    string // the prefix as written (prefix and conditional frames)
	base    int    // list frames: index in builder.stack of the first element
	feature Node   // conditional frames: the feature expression, once read
}

type frameKind uint8

const (
	frameList frameKind = iota
	framePrefix
	frameCond
)

// builder turns the scanner's tokens into a tree without recursion: frames
// holds the forms still open, stack the finished forms that belong to them
// (and, at its bottom, the finished top-level forms). Nodes are allocated
// from slabs, so a large file costs a few hundred allocations per megabyte
// rather than one per node, and no memory becomes garbage while reading.
type builder struct {
	file     string
	src      []byte
	sc       *scanner
	frames   []frame
	stack    []Node
	comments []*Comment

	lists    slab[List]
	symbols  slab[Symbol]
	keywords slab[Keyword]
	ints     slab[Int]
	quotes   slab[Quote]
	elems    nodeSlab
	commentz slab[Comment]

	// base is added to the offsets of the positions read: the text read
	// is a piece of a larger text at offset base (TreeWriter.Text, whose
	// scanner starts at the piece's line and column).
	base int
}

func (b *builder) errAt(off int, format string, args ...any) *Error {
	return errAt(b.file, b.src, off, format, args...)
}

// tokPos returns the positions of the first byte and of the byte after the
// token the scanner just returned.
func (b *builder) tokPos(start, end int) (Pos, Pos) {
	s := b.sc
	return Pos{Offset: start + b.base, Line: s.tokLine, Col: start - s.tokLineStart + 1},
		Pos{Offset: end + b.base, Line: s.line, Col: end - s.lineStart + 1}
}

func (b *builder) run() error {
	for {
		typ, off, end := b.sc.next()
		switch typ {
		case lexer.EOF:
			if e := b.sc.err; e != nil {
				return b.errAt(e.offset, "%s", e.msg)
			}
			return b.eof()
		case tokWhitespace:
		case tokComment, tokBlockComment:
			text := b.sc.text[off:end]
			if typ == tokComment {
				text = strings.TrimRight(text, "\r")
				end = off + len(text)
			}
			c := b.commentz.new()
			c.Start, c.End = b.tokPos(off, end)
			c.Text, c.Block = text, typ == tokBlockComment
			b.comments = append(b.comments, c)
		case tokOpen:
			if err := b.open(framePrefix, off, ""); err != nil {
				return err
			}
			b.frames[len(b.frames)-1].kind = frameList
			b.frames[len(b.frames)-1].base = len(b.stack)
		case tokClose:
			if len(b.frames) == 0 {
				return b.errAt(off, "unbalanced ')'")
			}
			top := b.frames[len(b.frames)-1]
			if top.kind != frameList {
				return b.dangling(top)
			}
			b.frames = b.frames[:len(b.frames)-1]
			l := b.lists.new()
			l.Open = top.start
			l.Close, _ = b.tokPos(off, end)
			l.Elems = b.elems.take(b.stack[top.base:])
			clear(b.stack[top.base:])
			b.stack = b.stack[:top.base]
			b.complete(l)
		case tokPrefix:
			mark := b.sc.text[off:end]
			kind := framePrefix
			if mark == "#+" || mark == "#-" {
				kind = frameCond
			}
			if err := b.open(kind, off, mark); err != nil {
				return err
			}
		default:
			n, err := b.atom(typ, off, end)
			if err != nil {
				return err
			}
			b.complete(n)
		}
	}
}

// open starts a frame, enforcing MaxDepth.
func (b *builder) open(kind frameKind, off int, mark string) error {
	if len(b.frames) >= MaxDepth {
		return b.errAt(off, "forms nested deeper than %d", MaxDepth)
	}
	start, _ := b.tokPos(off, off)
	b.frames = append(b.frames, frame{kind: kind, start: start, mark: mark})
	return nil
}

// dangling reports a prefix that has no form to apply to.
func (b *builder) dangling(f frame) error {
	switch {
	case f.mark == "'":
		return b.errAt(f.start.Offset, "quote ' must be followed by an expression")
	case f.kind == frameCond:
		return b.errAt(f.start.Offset, "%s must be followed by a feature expression and a form", f.mark)
	}
	return b.errAt(f.start.Offset, "%s must be followed by an expression", f.mark)
}

func (b *builder) eof() error {
	if len(b.frames) == 0 {
		return nil
	}
	top := b.frames[len(b.frames)-1]
	if top.kind != frameList {
		return b.dangling(top)
	}
	return b.errAt(top.start.Offset, "unclosed '(' (missing ')' before end of file)")
}

// complete hands a finished form to the frame that waits for it, closing
// every prefix frame it completes.
func (b *builder) complete(n Node) {
	for len(b.frames) > 0 {
		top := &b.frames[len(b.frames)-1]
		switch top.kind {
		case frameList:
			b.stack = append(b.stack, n)
			return
		case frameCond:
			if top.feature == nil {
				top.feature = n
				return
			}
			n = &Conditional{Start: top.start, Plus: top.mark == "#+", Feature: top.feature, X: n}
		default:
			if top.mark == "'" {
				q := b.quotes.new()
				q.Start, q.X = top.start, n
				n = q
			} else {
				n = &Prefixed{Start: top.start, Mark: top.mark, X: n}
			}
		}
		b.frames = b.frames[:len(b.frames)-1]
	}
	b.stack = append(b.stack, n)
}

// slab hands out pointers into chunks of T, so that a tree of many small
// nodes costs few allocations and no size-class rounding. Chunks grow from
// small (snippets, fuzzing) to a fixed size (large files).
type slab[T any] struct {
	buf []T
}

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, min(max(2*cap(s.buf), 4), 256))
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// nodeSlab hands out element slices of lists, carved from shared chunks.
// Each slice's capacity is its length, so appending to a list's Elems
// copies instead of overwriting its neighbour.
type nodeSlab struct {
	buf []Node
}

func (s *nodeSlab) take(elems []Node) []Node {
	n := len(elems)
	if n == 0 {
		return nil
	}
	if n > 64 {
		out := make([]Node, n)
		copy(out, elems)
		return out
	}
	if cap(s.buf)-len(s.buf) < n {
		s.buf = make([]Node, 0, min(max(2*cap(s.buf), 16), 1024))
	}
	at := len(s.buf)
	s.buf = append(s.buf, elems...)
	return s.buf[at : at+n : at+n]
}

// atom builds the node of a string, character or atom token.
func (b *builder) atom(typ lexer.TokenType, off, end int) (Node, error) {
	raw := b.sc.text[off:end]
	start, stop := b.tokPos(off, end)
	switch typ {
	case tokString:
		v, err := unquote(raw)
		if err != nil {
			return nil, b.errAt(off+err.offset, "%s", err.msg)
		}
		return &String{Start: start, End: stop, Value: v, Raw: raw}, nil
	case tokChar:
		r, ok := charValue(raw[2:])
		if !ok {
			return nil, b.errAt(off, "unknown character name %q", clip(raw))
		}
		return &Char{Start: start, End: stop, Value: r, Raw: raw}, nil
	}
	// Fast path: a lower-case symbol without escapes, colons or '#' is its
	// own name, shared with the source text.
	plain := true
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c >= 'A' && c <= 'Z' || c == '\\' || c == '|' || c == ':' || c == '#' || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain && !maybeNumber(raw) {
		s := b.symbols.new()
		s.Start, s.End, s.Name, s.Raw = start, stop, raw, raw
		return s, nil
	}
	if !strings.ContainsAny(raw, `\|`) {
		n, isNum, err := b.number(raw, off)
		if err != nil {
			return nil, err
		}
		if isNum {
			setSpan(n, start, stop)
			return n, nil
		}
	}
	return b.symbol(raw, off, start, stop)
}

func maybeNumber(s string) bool {
	c := s[0]
	return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'
}

func setSpan(n Node, start, end Pos) {
	switch n := n.(type) {
	case *Int:
		n.Start, n.End = start, end
	case *Float:
		n.Start, n.End = start, end
	}
}

// number reads raw as a Common Lisp number if it is one: integers (and
// #x #b #o #nR radix integers), ratios and floats with any exponent marker
// (e s f d l). Ratios read as floats unless they are whole (4/2 is 2);
// every float is a float64.
func (b *builder) number(raw string, off int) (Node, bool, error) {
	if strings.HasPrefix(raw, "#") {
		return b.radix(raw, off)
	}
	switch classify(raw) {
	case numInt:
		v, err := strconv.ParseInt(strings.TrimSuffix(raw, "."), 10, 64)
		if err != nil {
			return nil, false, b.errAt(off, "integer %s out of range (int64)", clip(raw))
		}
		n := b.ints.new()
		n.Value, n.Raw = v, raw
		return n, true, nil
	case numRatio:
		i := strings.IndexByte(raw, '/')
		num, err1 := strconv.ParseInt(raw[:i], 10, 64)
		den, err2 := strconv.ParseInt(raw[i+1:], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, false, b.errAt(off, "ratio %s out of range (int64)", clip(raw))
		}
		if den == 0 {
			return nil, false, b.errAt(off, "ratio %s divides by zero", clip(raw))
		}
		if num%den == 0 {
			return &Int{Value: num / den, Raw: raw}, true, nil
		}
		return &Float{Value: float64(num) / float64(den), Raw: raw}, true, nil
	case numFloat:
		text := raw
		if i := strings.IndexAny(raw, "sSfFdDlL"); i >= 0 {
			text = raw[:i] + "e" + raw[i+1:]
		}
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, false, b.errAt(off, "float %s out of range", clip(raw))
		}
		return &Float{Value: v, Raw: raw}, true, nil
	}
	return nil, false, nil
}

// radix reads #x1F, #b101, #o17 and #36rZZ; any other '#' token is a
// symbol (#:name) or an error.
func (b *builder) radix(raw string, off int) (Node, bool, error) {
	if len(raw) < 2 {
		return nil, false, nil
	}
	base, digits := 0, ""
	switch raw[1] {
	case 'x', 'X':
		base, digits = 16, raw[2:]
	case 'b', 'B':
		base, digits = 2, raw[2:]
	case 'o', 'O':
		base, digits = 8, raw[2:]
	case ':':
		return nil, false, nil
	default:
		i := strings.IndexAny(raw, "rR")
		if i < 0 {
			return nil, false, b.errAt(off, "unsupported reader macro %q", clip(raw))
		}
		bs, err := strconv.Atoi(raw[1:i])
		if err != nil || bs < 2 || bs > 36 {
			return nil, false, b.errAt(off, "radix %q must be between 2 and 36", clip(raw[1:i]))
		}
		base, digits = bs, raw[i+1:]
	}
	v, err := strconv.ParseInt(digits, base, 64)
	if err != nil {
		return nil, false, b.errAt(off, "%q is not an integer in base %d (or out of range)", clip(raw), base)
	}
	n := b.ints.new()
	n.Value, n.Raw = v, raw
	return n, true, nil
}

// symbol reads a symbol or keyword token the way Common Lisp's reader does:
// unescaped characters fold to lower case (CL folds to upper case and
// prints in lower case; labelcov keeps names in lower case), \x and |...|
// escape, and unescaped colons separate a package prefix.
func (b *builder) symbol(raw string, off int, start, stop Pos) (Node, error) {
	text := raw
	uninterned := false
	if strings.HasPrefix(text, "#:") {
		uninterned, text = true, text[2:]
	} else if strings.HasPrefix(text, "#") {
		return nil, b.errAt(off, "unsupported reader macro %q", clip(raw))
	}
	var name strings.Builder
	name.Grow(len(text))
	colonAt, colons := -1, 0 // output index of the first package marker
	escaped := false
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\\':
			r, size := utf8.DecodeRuneInString(text[i+1:])
			name.WriteRune(r)
			i += 1 + size
			escaped = true
		case c == '|':
			j := i + 1
			for text[j] != '|' {
				if text[j] == '\\' {
					j++
				}
				name.WriteByte(text[j])
				j++
			}
			i = j + 1
			escaped = true
		case c == ':':
			if colons > 0 && colonAt != name.Len() {
				return nil, b.errAt(off, "too many package markers (':') in %q", clip(raw))
			}
			if colons >= 2 {
				return nil, b.errAt(off, "too many package markers (':') in %q", clip(raw))
			}
			colonAt = name.Len()
			colons++
			i++
		case c < utf8.RuneSelf:
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			name.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(text[i:])
			name.WriteRune(unicode.ToLower(r))
			i += size
		}
	}
	full := name.String()
	if colons == 0 {
		if full == "" && !escaped {
			return nil, b.errAt(off, "empty symbol %q", clip(raw))
		}
		return &Symbol{Start: start, End: stop, Name: intern(full, raw), Raw: raw, Uninterned: uninterned}, nil
	}
	pkg, local := full[:colonAt], full[colonAt:]
	if local == "" {
		if colonAt == 0 && colons == 1 && !escaped {
			return nil, b.errAt(off, "keyword needs a name after ':'")
		}
		return nil, b.errAt(off, "symbol %q needs a name after its package prefix", clip(raw))
	}
	if uninterned {
		return nil, b.errAt(off, "uninterned symbol %q cannot have a package prefix", clip(raw))
	}
	if colonAt == 0 {
		k := b.keywords.new()
		k.Start, k.End, k.Name, k.Raw = start, stop, intern(local, raw), raw
		return k, nil
	}
	s := b.symbols.new()
	s.Start, s.End, s.Name, s.Raw = start, stop, intern(local, raw), raw
	s.Pkg, s.Internal = pkg, colons == 2
	return s, nil
}

// intern returns name as a substring of raw when raw spells it exactly, so
// that the common case (":key", "pkg:name" in lower case) shares the
// source text instead of holding a copy.
func intern(name, raw string) string {
	if i := strings.LastIndex(raw, name); i >= 0 && i+len(name) == len(raw) {
		return raw[i:]
	}
	return name
}

type numKind int

const (
	notNum numKind = iota
	numInt
	numFloat
	numRatio
)

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// isExponent reports whether c is a Common Lisp exponent marker.
func isExponent(c byte) bool {
	switch c {
	case 'e', 'E', 's', 'S', 'f', 'F', 'd', 'D', 'l', 'L':
		return true
	}
	return false
}

// classify decides whether an atom is a number, following Common Lisp: an
// optional sign, then digits with an optional trailing '.' (an integer),
// digits '/' digits (a ratio), or digits with a '.' between digits on at
// least one side and/or an exponent (a float). Anything else (1+, -,
// 3d-thing) is a symbol. "5." stays the float labelcov always read it as.
func classify(s string) numKind {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && isDigit(s[i]) {
		i++
		digits++
	}
	if i == len(s) {
		if digits > 0 {
			return numInt
		}
		return notNum
	}
	if s[i] == '/' && digits > 0 {
		i++
		den := 0
		for i < len(s) && isDigit(s[i]) {
			i++
			den++
		}
		if den > 0 && i == len(s) {
			return numRatio
		}
		return notNum
	}
	isFloat := false
	if s[i] == '.' {
		i++
		frac := 0
		for i < len(s) && isDigit(s[i]) {
			i++
			frac++
		}
		if digits+frac == 0 {
			return notNum
		}
		digits += frac
		isFloat = true
	}
	if i < len(s) && isExponent(s[i]) && digits > 0 {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && isDigit(s[i]) {
			i++
			exp++
		}
		if exp == 0 {
			return notNum
		}
		isFloat = true
	}
	if i != len(s) || !isFloat {
		return notNum
	}
	return numFloat
}

// charNames are the character names of #\Name, as SBCL reads them (case
// does not matter).
var charNames = map[string]rune{
	"space": ' ', "newline": '\n', "tab": '\t', "return": '\r', "linefeed": '\n',
	"page": '\f', "backspace": '\b', "rubout": 0x7f, "null": 0, "nul": 0,
	"escape": 0x1b, "esc": 0x1b, "bell": 7,
}

// charValue decodes the text after #\: one character, or a name.
func charValue(s string) (rune, bool) {
	r, size := utf8.DecodeRuneInString(s)
	if size == len(s) {
		return r, true
	}
	v, ok := charNames[strings.ToLower(s)]
	return v, ok
}

type unquoteError struct {
	offset int
	msg    string
}

// unquote decodes a string literal. \" and \\ stand for themselves, \n and
// \t are newline and tab (labelcov's plans have always used them), and any
// other \c is c, as in Common Lisp ("\(" is "(").
func unquote(raw string) (string, *unquoteError) {
	body := raw[1 : len(raw)-1]
	if !strings.Contains(body, `\`) {
		return body, nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		switch body[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			b.WriteByte(body[i])
		}
	}
	return b.String(), nil
}

// QuoteString is the inverse of the reader's string decoding.
func QuoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// clip shortens text quoted in error messages, so that a huge bad token
// cannot flood a terminal.
func clip(text string) string {
	const max = 40
	if len(text) <= max {
		return text
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "..."
}
