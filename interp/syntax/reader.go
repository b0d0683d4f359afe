package syntax

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// MaxDepth bounds list nesting so that hostile input cannot exhaust the
// stack of the reader or of any later recursive pass.
const MaxDepth = 1000

// The grammar elides whitespace and comments; Parse lexes the text once
// (see lexer.go), collects comments and checks brackets and quotes on those
// tokens, and hands the same tokens to the grammar, so that an unbalanced
// ')' is reported as such rather than as a generic grammar error.
type pExpr struct {
	Pos   lexer.Position
	Quote *pExpr  `parser:"  \"'\" @@"`
	List  *pList  `parser:"| @@"`
	Str   *string `parser:"| @String"`
	Atom  *string `parser:"| @Atom"`
}

type pList struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Elems  []*pExpr `parser:"\"(\" @@* \")\""`
}

type pFile struct {
	Forms []*pExpr `parser:"@@*"`
}

var grammar = participle.MustBuild[pFile](
	participle.Lexer(planLexer),
	participle.Elide("Whitespace", "Comment", "BlockComment"),
	participle.UseLookahead(1),
)

// Parse reads src, the contents of the file named filename. On error it
// returns a *Error (reachable with errors.As) naming file:line:col.
func Parse(filename string, src []byte) (*File, error) {
	r := &reader{file: filename, src: src, lines: lineStarts(src)}
	if !utf8.Valid(src) {
		off := 0
		for off < len(src) {
			c, size := utf8.DecodeRune(src[off:])
			if c == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return nil, r.errAt(off, "invalid UTF-8 encoding")
	}
	toks, lerr := tokenize(filename, src)
	comments, err := r.scan(toks)
	if err != nil {
		return nil, err // at or before the lexical error, if any
	}
	if lerr != nil {
		return nil, r.errAt(lerr.offset, "%s", lerr.msg)
	}
	peek, err := lexer.Upgrade(&sliceLexer{toks: toks}, tokWhitespace, tokComment, tokBlockComment)
	if err != nil {
		return nil, &Error{File: filename, Pos: Pos{Line: 1, Col: 1}, Msg: err.Error()}
	}
	tree, err := grammar.ParseFromLexer(peek)
	if err != nil {
		// scan has already caught every bracket and token problem, so this
		// is unexpected; still report it with a position.
		var perr participle.Error
		if errors.As(err, &perr) {
			return nil, r.errAt(perr.Position().Offset, "%s", perr.Message())
		}
		return nil, &Error{File: filename, Pos: Pos{Line: 1, Col: 1}, Msg: err.Error()}
	}
	f := &File{Name: filename, Src: src, Comments: comments}
	for _, e := range tree.Forms {
		n, err := r.convert(e)
		if err != nil {
			return nil, err
		}
		f.Forms = append(f.Forms, n)
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
		return nil, r0(filename, src).errAt(start.Offset, "expected a single expression")
	}
}

func r0(filename string, src []byte) *reader {
	return &reader{file: filename, src: src, lines: lineStarts(src)}
}

type reader struct {
	file  string
	src   []byte
	lines []int // byte offset of each line start
}

func lineStarts(src []byte) []int {
	lines := []int{0}
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return lines
}

func (r *reader) pos(off int) Pos {
	i := sort.Search(len(r.lines), func(i int) bool { return r.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Pos{Offset: off, Line: i + 1, Col: off - r.lines[i] + 1}
}

func (r *reader) errAt(off int, format string, args ...any) *Error {
	return Errorf(r.file, r.src, r.pos(off), format, args...)
}

// scan walks the tokens once, collecting comments and checking that
// brackets balance, that nesting stays within MaxDepth and that every quote
// is followed by an expression.
func (r *reader) scan(toks []lexer.Token) ([]*Comment, error) {
	var comments []*Comment
	var open []int     // offsets of unclosed '('
	pendingQuote := -1 // offset of a quote still waiting for its expression
	for _, tok := range toks {
		off := tok.Pos.Offset
		switch tok.Type {
		case tokWhitespace:
			continue
		case tokComment, tokBlockComment:
			text := tok.Value
			if tok.Type == tokComment {
				text = strings.TrimRight(text, "\r")
			}
			comments = append(comments, &Comment{
				Start: r.pos(off), End: r.pos(off + len(text)),
				Text: text, Block: tok.Type == tokBlockComment,
			})
			continue
		}
		if pendingQuote >= 0 && (tok.EOF() || tok.Value == ")") {
			return nil, r.errAt(pendingQuote, "quote ' must be followed by an expression")
		}
		pendingQuote = -1
		if tok.EOF() {
			break
		}
		if tok.Type != tokPunct {
			continue
		}
		switch tok.Value {
		case "'":
			pendingQuote = off
		case "(":
			if len(open) >= MaxDepth {
				return nil, r.errAt(off, "lists nested deeper than %d", MaxDepth)
			}
			open = append(open, off)
		case ")":
			if len(open) == 0 {
				return nil, r.errAt(off, "unbalanced ')'")
			}
			open = open[:len(open)-1]
		}
	}
	if len(toks) == 0 || !toks[len(toks)-1].EOF() {
		return comments, nil // tokens stop at a lexical error
	}
	if len(open) > 0 {
		return nil, r.errAt(open[len(open)-1], "unclosed '(' (missing ')' before end of file)")
	}
	return comments, nil
}

func (r *reader) convert(e *pExpr) (Node, error) {
	off := e.Pos.Offset
	switch {
	case e.Quote != nil:
		x, err := r.convert(e.Quote)
		if err != nil {
			return nil, err
		}
		return &Quote{Start: r.pos(off), X: x}, nil
	case e.List != nil:
		l := &List{Open: r.pos(off), Close: r.pos(e.List.EndPos.Offset - 1)}
		for _, el := range e.List.Elems {
			n, err := r.convert(el)
			if err != nil {
				return nil, err
			}
			l.Elems = append(l.Elems, n)
		}
		return l, nil
	case e.Str != nil:
		raw := *e.Str
		v, err := unquote(raw)
		if err != nil {
			return nil, r.errAt(off+err.offset, "%s", err.msg)
		}
		return &String{Start: r.pos(off), End: r.pos(off + len(raw)), Value: v, Raw: raw}, nil
	case e.Atom != nil:
		return r.atom(off, *e.Atom)
	}
	return nil, r.errAt(off, "expected an expression")
}

func (r *reader) atom(off int, text string) (Node, error) {
	start, end := r.pos(off), r.pos(off+len(text))
	if strings.HasPrefix(text, ":") {
		if len(text) == 1 {
			return nil, r.errAt(off, "keyword needs a name after ':'")
		}
		return &Keyword{Start: start, End: end, Name: text[1:]}, nil
	}
	switch classify(text) {
	case numInt:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return nil, r.errAt(off, "integer %s out of range (int64)", text)
		}
		return &Int{Start: start, End: end, Value: v, Raw: text}, nil
	case numFloat:
		v, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsInf(v, 0) {
			return nil, r.errAt(off, "float %s out of range", text)
		}
		return &Float{Start: start, End: end, Value: v, Raw: text}, nil
	}
	if strings.ContainsAny(text, "#|") && (strings.HasPrefix(text, "#") || strings.Contains(text, "|#")) {
		return nil, r.errAt(off, "unexpected %q (block comments are written #| ... |#)", clip(text))
	}
	return &Symbol{Start: start, End: end, Name: text}, nil
}

type numKind int

const (
	notNum numKind = iota
	numInt
	numFloat
)

// classify decides whether an atom is a number, following Lisp: an optional
// sign, digits, and for floats a '.' with digits on at least one side and/or
// an exponent. Anything else (1+, -, 3d-thing) is a symbol.
func classify(s string) numKind {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i == len(s) {
		if digits > 0 {
			return numInt
		}
		return notNum
	}
	isFloat := false
	if s[i] == '.' {
		i++
		frac := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			frac++
		}
		if digits+frac == 0 {
			return notNum
		}
		digits += frac
		isFloat = true
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') && digits > 0 {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
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

type unquoteError struct {
	offset int
	msg    string
}

// unquote decodes a string literal with the escapes \" \\ \n (and \t).
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
		case '"', '\\':
			b.WriteByte(body[i])
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		default:
			c, _ := utf8.DecodeRuneInString(body[i:])
			esc := `\` + string(c)
			if !unicode.IsPrint(c) {
				esc = fmt.Sprintf(`\ followed by %U`, c)
			}
			return "", &unquoteError{offset: 1 + i - 1, msg: fmt.Sprintf("unknown escape %s in string (use \\\" \\\\ \\n \\t)", esc)}
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
