package syntax

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the plan lexer, named in planLexer.Symbols().
const (
	tokWhitespace lexer.TokenType = iota + 1
	tokComment
	tokBlockComment
	tokString
	tokOpen   // (
	tokClose  // )
	tokPrefix // a reader macro that applies to the next form: ' ` , ,@ ,. #' #. #+ #- #( (as "#") #p ...
	tokAtom   // a symbol, keyword or number token, escapes included
	tokChar   // #\x, #\Space
)

// planLexer is the participle lexer.Definition of the plan language. It is
// hand-written: Common Lisp tokens (|escaped| parts, \x escapes, nested
// #| |# comments, #\( characters) are context-dependent in ways a regular
// expression lexer expresses poorly, and the reader wants tokens one at a
// time without materialising them (see reader.go).
var planLexer lexer.Definition = lexDef{}

type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":          lexer.EOF,
		"Whitespace":   tokWhitespace,
		"Comment":      tokComment,
		"BlockComment": tokBlockComment,
		"String":       tokString,
		"Open":         tokOpen,
		"Close":        tokClose,
		"Prefix":       tokPrefix,
		"Atom":         tokAtom,
		"Char":         tokChar,
	}
}

func (d lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	src, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", filename, err)
	}
	return d.LexBytes(filename, src)
}

func (lexDef) LexBytes(filename string, src []byte) (lexer.Lexer, error) {
	return newScanner(filename, string(src)), nil
}

// scanner is the streaming lexer: Next returns one token at a time, so
// reading a file never holds more than one token.
type scanner struct {
	filename  string
	text      string
	i         int
	line      int
	lineStart int
	// tokLine and tokLineStart describe the first byte of the token last
	// returned: a token may span lines (strings, block comments, |a b|).
	tokLine, tokLineStart int
	err                   *lexError
}

func newScanner(filename, text string) *scanner {
	return &scanner{filename: filename, text: text, line: 1}
}

type lexError struct {
	offset int
	msg    string
}

func (e *lexError) Error() string { return e.msg }

// Next implements lexer.Lexer. After a lexical error it keeps returning it.
func (s *scanner) Next() (lexer.Token, error) {
	typ, start, end := s.next()
	if s.err != nil {
		return lexer.Token{}, &lexer.Error{Msg: s.err.msg, Pos: lexer.Position{Filename: s.filename, Offset: s.err.offset}}
	}
	t := lexer.Token{Type: typ, Value: s.text[start:end], Pos: lexer.Position{Filename: s.filename, Offset: start, Line: s.tokLine, Column: start - s.tokLineStart + 1}}
	return t, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// isTerminating reports whether c ends a token: whitespace and Common
// Lisp's terminating macro characters. '#' is non-terminating (a#b is one
// symbol), as in CL.
func isTerminating(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '(', ')', '\'', '"', ';', '`', ',':
		return true
	}
	return false
}

// next scans one token and returns its type and byte range; lexer.EOF at
// the end. tokLine/tokLineStart describe the token's first byte. On a
// malformed token it sets s.err and returns lexer.EOF.
func (s *scanner) next() (lexer.TokenType, int, int) {
	s.tokLine, s.tokLineStart = s.line, s.lineStart
	text := s.text
	i := s.i
	if i >= len(text) || s.err != nil {
		return lexer.EOF, len(text), len(text)
	}
	start := i
	var typ lexer.TokenType
	c := text[i]
	switch {
	case isSpace(c):
		for i < len(text) && isSpace(text[i]) {
			if text[i] == '\n' {
				s.line++
				s.lineStart = i + 1
			}
			i++
		}
		typ = tokWhitespace
	case c == '(':
		i, typ = i+1, tokOpen
	case c == ')':
		i, typ = i+1, tokClose
	case c == '\'' || c == '`':
		i, typ = i+1, tokPrefix
	case c == ',':
		i++
		if i < len(text) && (text[i] == '@' || text[i] == '.') {
			i++
		}
		typ = tokPrefix
	case c == ';':
		for i < len(text) && text[i] != '\n' {
			i++
		}
		typ = tokComment
	case c == '"':
		i++
		for {
			if i >= len(text) {
				return s.fail(start, "unterminated string (missing '\"')")
			}
			if text[i] == '\\' {
				i += 2
				continue
			}
			if text[i] == '"' {
				i++
				break
			}
			i++
		}
		s.newlines(start, i)
		typ = tokString
	case c == '#':
		return s.hash(start)
	case c == '|' && i+1 < len(text) && text[i+1] == '#':
		return s.fail(start, "unexpected \"|#\" (block comments are written #| ... |#)")
	default:
		j, ok := s.atomEnd(i)
		if !ok {
			return lexer.EOF, len(text), len(text)
		}
		i, typ = j, tokAtom
	}
	s.i = i
	return typ, start, i
}

func (s *scanner) fail(off int, msg string) (lexer.TokenType, int, int) {
	s.err = &lexError{offset: off, msg: msg}
	return lexer.EOF, len(s.text), len(s.text)
}

// newlines accounts for the line breaks inside text[from:to].
func (s *scanner) newlines(from, to int) {
	for k := from; k < to && k < len(s.text); k++ {
		if s.text[k] == '\n' {
			s.line++
			s.lineStart = k + 1
		}
	}
}

// atomEnd returns the end of the token that starts at i: constituents, \x
// single escapes and |...| multiple escapes, up to a terminating character.
func (s *scanner) atomEnd(i int) (int, bool) {
	text := s.text
	start := i
	for i < len(text) {
		switch c := text[i]; {
		case c == '\\':
			if i+1 >= len(text) {
				s.fail(i, "'\\' at end of file (it escapes the next character)")
				return 0, false
			}
			_, size := utf8.DecodeRuneInString(text[i+1:])
			i += 1 + size
		case c == '|':
			j := i + 1
			for {
				if j >= len(text) {
					s.fail(i, "unterminated |escaped| name (missing '|')")
					return 0, false
				}
				if text[j] == '\\' {
					j += 2
					continue
				}
				if text[j] == '|' {
					break
				}
				j++
			}
			i = j + 1
		case isTerminating(c):
			s.newlines(start, i)
			return i, true
		default:
			i++
		}
	}
	s.newlines(start, i)
	return min(i, len(text)), true
}

// hash scans a token that starts with '#': Common Lisp's dispatching macro
// character.
func (s *scanner) hash(start int) (lexer.TokenType, int, int) {
	text := s.text
	i := start + 1
	if i >= len(text) {
		return s.fail(start, "'#' at end of file")
	}
	c := text[i]
	var typ lexer.TokenType
	switch {
	case c == '|':
		depth := 1
		j := i + 1
		for depth > 0 {
			if j+1 >= len(text) {
				return s.fail(start, "unterminated block comment (missing '|#')")
			}
			switch {
			case text[j] == '|' && text[j+1] == '#':
				depth--
				j += 2
			case text[j] == '#' && text[j+1] == '|':
				depth++
				j += 2
			default:
				j++
			}
		}
		s.newlines(start, j)
		i, typ = j, tokBlockComment
	case c == '\'' || c == '+' || c == '-' || c == '.':
		i, typ = i+1, tokPrefix
	case c == '(':
		typ = tokPrefix // "#" before a list: a vector
	case c == '\\':
		i++
		if i >= len(text) {
			return s.fail(start, "#\\ at end of file (a character follows it)")
		}
		_, size := utf8.DecodeRuneInString(text[i:])
		i += size
		for i < len(text) && !isTerminating(text[i]) {
			i++
		}
		s.newlines(start, i) // #\ followed by a line break
		typ = tokChar
	case c == ':' || c == '*' || c == 'x' || c == 'X' || c == 'b' || c == 'B' || c == 'o' || c == 'O':
		j, ok := s.atomEnd(i + 1)
		if !ok {
			return lexer.EOF, len(text), len(text)
		}
		i, typ = j, tokAtom
	case c >= '0' && c <= '9':
		j := i
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j < len(text) && (text[j] == 'r' || text[j] == 'R') {
			k, ok := s.atomEnd(j + 1)
			if !ok {
				return lexer.EOF, len(text), len(text)
			}
			i, typ = k, tokAtom
			break
		}
		if j < len(text) && (text[j] == 'a' || text[j] == 'A') && j+1 < len(text) && text[j+1] == '(' {
			i, typ = j+1, tokPrefix // #2A((1 2) (3 4))
			break
		}
		return s.fail(start, "unsupported reader macro "+clip(text[start:min(j+1, len(text))])+" (#n= and #n# labels are not supported)")
	case isLetter(c) && i+1 < len(text) && (text[i+1] == '(' || text[i+1] == '"'):
		i, typ = i+1, tokPrefix // #p"/tmp", #s(point), #c(1 2), #a(...)
	default:
		r, _ := utf8.DecodeRuneInString(text[i:])
		return s.fail(start, fmt.Sprintf("unsupported reader macro #%s", quoteRune(r)))
	}
	s.i = i
	return typ, start, i
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// quoteRune prints r for an error message: printable as is, else escaped.
func quoteRune(r rune) string {
	q := fmt.Sprintf("%q", r)
	if q[1] == '\\' || r == utf8.RuneError {
		return q
	}
	return q[1 : len(q)-1]
}
