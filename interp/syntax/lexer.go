package syntax

import (
	"fmt"
	"io"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the plan lexer. The participle grammar refers to them by
// the names in planLexer.Symbols().
const (
	tokWhitespace lexer.TokenType = iota + 1
	tokComment
	tokBlockComment
	tokString
	tokPunct
	tokAtom
)

// planLexer is the lexer.Definition behind the grammar. It is hand-written
// rather than a participle regexp lexer: the regexp lexer cost about two
// thirds of the reader's time on large plans, and Parse lexes once and
// hands the same tokens to the grammar.
var planLexer lexer.Definition = lexDef{}

type lexDef struct{}

func (lexDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF":          lexer.EOF,
		"Whitespace":   tokWhitespace,
		"Comment":      tokComment,
		"BlockComment": tokBlockComment,
		"String":       tokString,
		"Punct":        tokPunct,
		"Atom":         tokAtom,
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
	toks, lerr := tokenize(filename, src)
	if lerr != nil {
		return nil, &lexer.Error{Msg: lerr.msg, Pos: lexer.Position{Filename: filename, Offset: lerr.offset}}
	}
	return &sliceLexer{toks: toks}, nil
}

// sliceLexer replays tokens that were lexed already.
type sliceLexer struct {
	toks []lexer.Token
	i    int
}

func (l *sliceLexer) Next() (lexer.Token, error) {
	if l.i >= len(l.toks) {
		return l.toks[len(l.toks)-1], nil // EOF, again
	}
	t := l.toks[l.i]
	l.i++
	return t, nil
}

type lexError struct {
	offset int
	msg    string
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isDelimiter(c byte) bool {
	return isSpace(c) || c == '(' || c == ')' || c == '\'' || c == '"' || c == ';'
}

// tokenize splits src into tokens, whitespace and comments included, ending
// with an EOF token; columns count bytes. Token values share one copy of
// src. On a malformed token it returns the tokens before it (without EOF)
// and the error, so that the reader can still report an earlier problem
// first.
func tokenize(filename string, src []byte) ([]lexer.Token, *lexError) {
	text := string(src)
	toks := make([]lexer.Token, 0, len(text)/3+1)
	line, lineStart := 1, 0
	pos := func(off int) lexer.Position {
		return lexer.Position{Filename: filename, Offset: off, Line: line, Column: off - lineStart + 1}
	}
	// advance accounts for the newlines in text[from:to].
	advance := func(from, to int) {
		for i := from; i < to; i++ {
			if text[i] == '\n' {
				line++
				lineStart = i + 1
			}
		}
	}
	i := 0
	for i < len(text) {
		start := i
		var typ lexer.TokenType
		c := text[i]
		switch {
		case c == '#' && i+1 < len(text) && text[i+1] == '|':
			end := -1
			for j := i + 2; j+1 < len(text); j++ {
				if text[j] == '|' && text[j+1] == '#' {
					end = j + 2
					break
				}
			}
			if end < 0 {
				return toks, &lexError{start, "unterminated block comment (missing '|#')"}
			}
			i, typ = end, tokBlockComment
		case c == ';':
			for i < len(text) && text[i] != '\n' {
				i++
			}
			typ = tokComment
		case isSpace(c):
			for i < len(text) && isSpace(text[i]) {
				i++
			}
			typ = tokWhitespace
		case c == '"':
			i++
			closed := false
			for i < len(text) {
				if text[i] == '\\' {
					if i+1 >= len(text) {
						break
					}
					i += 2
					continue
				}
				if text[i] == '"' {
					i++
					closed = true
					break
				}
				i++
			}
			if !closed {
				return toks, &lexError{start, "unterminated string (missing '\"')"}
			}
			typ = tokString
		case c == '(' || c == ')' || c == '\'':
			i++
			typ = tokPunct
		default:
			for i < len(text) && !isDelimiter(text[i]) {
				i++
			}
			typ = tokAtom
		}
		toks = append(toks, lexer.Token{Type: typ, Value: text[start:i], Pos: pos(start)})
		if typ != tokPunct && typ != tokAtom {
			advance(start, i)
		}
	}
	toks = append(toks, lexer.EOFToken(pos(len(text))))
	return toks, nil
}
