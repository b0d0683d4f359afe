package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is a problem found in source text. Its message names the place as
// file:line:col, the convention editors and terminals understand.
type Error struct {
	File string
	Pos  Pos
	Msg  string
	// Line is the text of the source line holding Pos, for Snippet: at
	// most a window of snippetWidth bytes around Pos, with control
	// characters escaped, so that a binary or minified file cannot flood
	// a terminal.
	Line string
	// caret is 1 + the byte index of Pos in Line when Errorf clipped or
	// escaped the line (0: Pos.Col indexes Line directly).
	caret int
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
	if e.caret > 0 {
		col = e.caret - 1
	}
	if col < 0 {
		col = 0
	}
	if col > len(e.Line) {
		col = len(e.Line)
	}
	// Columns count bytes (as Go's do), but a terminal shows a character
	// per rune, two for a wide one: pad by what the line shows.
	var pad strings.Builder
	for _, r := range e.Line[:col] {
		switch {
		case r == '\t':
			pad.WriteByte('\t')
		case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
			// combining marks and format characters take no column
		case wideRune(r):
			pad.WriteString("  ")
		default:
			pad.WriteByte(' ')
		}
	}
	return e.Line + "\n" + pad.String() + "^"
}

// wideRune reports whether a terminal shows r two columns wide: the East
// Asian wide and fullwidth blocks and emoji.
func wideRune(r rune) bool {
	return r >= 0x1100 && r <= 0x115f || // Hangul Jamo
		r >= 0x2e80 && r <= 0x303e || // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33ff || // kana, CJK symbols
		r >= 0x3400 && r <= 0x4dbf || // CJK extension A
		r >= 0x4e00 && r <= 0x9fff || // CJK unified ideographs
		r >= 0xa000 && r <= 0xa4cf || // Yi
		r >= 0xac00 && r <= 0xd7a3 || // Hangul syllables
		r >= 0xf900 && r <= 0xfaff || // CJK compatibility ideographs
		r >= 0xfe30 && r <= 0xfe4f || // CJK compatibility forms
		r >= 0xff00 && r <= 0xff60 || // fullwidth forms
		r >= 0xffe0 && r <= 0xffe6 ||
		r >= 0x1f300 && r <= 0x1f64f || // emoji
		r >= 0x1f900 && r <= 0x1f9ff ||
		r >= 0x20000 && r <= 0x3fffd // CJK extensions B and later
}

// Errorf builds an Error at pos in src. Downstream stages (compiler, label
// passes) use it so that every error in labelcov looks the same.
func Errorf(file string, src []byte, pos Pos, format string, args ...any) *Error {
	line, caret := snippetLine(src, pos.Offset)
	return &Error{File: file, Pos: pos, Msg: fmt.Sprintf(format, args...), Line: line, caret: caret}
}

// NodeErrorf is Errorf at the start of node n of file f.
func (f *File) NodeErrorf(n Node, format string, args ...any) *Error {
	start, _ := n.Span()
	return Errorf(f.Name, f.Src, start, format, args...)
}

// snippetWidth bounds the text quoted on either side of the error's
// column in a snippet.
const snippetWidth = 72

// snippetLine returns the line of src holding offset off for Snippet: the
// whole line when it is short and printable, otherwise up to snippetWidth
// characters on either side of off, with "..." where it was cut and
// control characters and invalid UTF-8 written as Go escapes (\x00).
// caret is 1 + the byte index of off in the result when that differs
// from the column, else 0.
func snippetLine(src []byte, off int) (line string, caret int) {
	if off < 0 || off > len(src) {
		return "", 0
	}
	// Each byte escapes to at most 6 characters, so 4*snippetWidth bytes
	// either side are enough to fill the window.
	start := off
	for start > 0 && src[start-1] != '\n' && off-start < 4*snippetWidth {
		start--
	}
	end := off
	for end < len(src) && src[end] != '\n' && end-off < 4*snippetWidth {
		end++
	}
	if raw := src[start:end]; (start == 0 || src[start-1] == '\n') && len(raw) <= 2*snippetWidth && printable(raw) {
		return strings.TrimRight(string(raw), "\r"), 0
	}
	left, right := escapeRunes(src[start:off]), escapeRunes(src[off:end])
	cutLeft := start > 0 && src[start-1] != '\n'
	for width(left) > snippetWidth {
		left, cutLeft = left[1:], true
	}
	cutRight := end < len(src) && src[end] != '\n'
	for width(right) > snippetWidth {
		right, cutRight = right[:len(right)-1], true
	}
	var b strings.Builder
	if cutLeft {
		b.WriteString("...")
	}
	for _, s := range left {
		b.WriteString(s)
	}
	caret = b.Len() + 1
	for _, s := range right {
		b.WriteString(s)
	}
	if cutRight {
		b.WriteString("...")
	}
	return b.String(), caret
}

// escapeRunes splits text into runes, each printable one as itself and
// each other byte or rune as a Go escape.
func escapeRunes(text []byte) []string {
	var out []string
	for len(text) > 0 {
		r, size := utf8.DecodeRune(text)
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, fmt.Sprintf("\\x%02x", text[0]))
			size = 1
		case r == '\t' || unicode.IsPrint(r):
			out = append(out, string(text[:size]))
		case r < 0x100:
			out = append(out, fmt.Sprintf("\\x%02x", r))
		default:
			out = append(out, fmt.Sprintf("\\u%04x", r))
		}
		text = text[size:]
	}
	return out
}

func width(parts []string) int {
	n := 0
	for _, s := range parts {
		n += len(s)
	}
	return n
}

// printable reports whether line holds only printable UTF-8 and tabs (and
// a final '\r', which snippetLine trims).
func printable(line []byte) bool {
	line = bytes.TrimRight(line, "\r")
	for len(line) > 0 {
		r, size := utf8.DecodeRune(line)
		if r == utf8.RuneError && size <= 1 || r != '\t' && !unicode.IsPrint(r) {
			return false
		}
		line = line[size:]
	}
	return true
}
