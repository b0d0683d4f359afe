package syntax

import (
	"fmt"
	"strings"
)

// Error is a problem found in source text. Its message names the place as
// file:line:col, the convention editors and terminals understand.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	// Line is the text of the source line holding Pos, for Snippet.
	Line string
}

func (e *Error) Error() string {
	name := e.File
	if name == "" {
		name = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d: %s", name, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Snippet returns the offending source line with a caret under the column,
// for human-facing output.
func (e *Error) Snippet() string {
	if e.Line == "" {
		return ""
	}
	col := e.Pos.Col - 1
	if col < 0 {
		col = 0
	}
	if col > len(e.Line) {
		col = len(e.Line)
	}
	pad := make([]byte, col)
	for i := range pad {
		if e.Line[i] == '\t' {
			pad[i] = '\t'
		} else {
			pad[i] = ' '
		}
	}
	return e.Line + "\n" + string(pad) + "^"
}

// Errorf builds an Error at pos in src. Downstream stages (compiler, label
// passes) use it so that every error in labelcov looks the same.
func Errorf(file string, src []byte, pos Pos, format string, args ...any) *Error {
	return &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...), Line: lineAt(src, pos.Offset)}
}

// NodeErrorf is Errorf at the start of node n of file f.
func (f *File) NodeErrorf(n Node, format string, args ...any) *Error {
	start, _ := n.Span()
	return Errorf(f.Name, f.Src, start, format, args...)
}

func lineAt(src []byte, off int) string {
	if off < 0 || off > len(src) {
		return ""
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	end := off
	for end < len(src) && src[end] != '\n' {
		end++
	}
	return strings.TrimRight(string(src[start:end]), "\r")
}
