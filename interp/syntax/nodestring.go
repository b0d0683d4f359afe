package syntax

import (
	"strings"
	"unicode/utf8"
)

// NodeString renders n on one line in canonical spacing, without comments.
// Passes that generate code (normalize, transform) use it to splice new
// forms into source text; the result reads back as an equal tree. Atoms
// print as written (their Raw text); generated atoms without Raw print from
// their value.
func NodeString(n Node) string {
	var b strings.Builder
	writeNode(&b, n)
	return b.String()
}

func writeNode(b *strings.Builder, n Node) {
	switch n := n.(type) {
	case *List:
		b.WriteByte('(')
		for i, e := range n.Elems {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeNode(b, e)
		}
		b.WriteByte(')')
	case *Quote:
		b.WriteByte('\'')
		writeNode(b, n.X)
	case *Prefixed:
		b.WriteString(prefixText(n))
		writeNode(b, n.X)
	case *Conditional:
		b.WriteString(conditionalMark(n))
		writeNode(b, n.Feature)
		b.WriteByte(' ')
		writeNode(b, n.X)
	default:
		b.WriteString(atomString(n))
	}
}

// prefixText is the mark of n as printed: the mark itself, followed by a
// space when X would otherwise fuse with it (", @x" is not ",@x", ", .5"
// is not ",.5").
func prefixText(n *Prefixed) string {
	if n.Mark == MarkUnquote {
		if c := firstByte(n.X); c == '@' || c == '.' {
			return ", "
		}
	}
	return n.Mark
}

// firstByte is the first byte n prints as.
func firstByte(n Node) byte {
	switch n := n.(type) {
	case *List:
		return '('
	case *Quote:
		return '\''
	case *Prefixed:
		return n.Mark[0]
	case *Conditional:
		return '#'
	}
	if s := atomString(n); s != "" {
		return s[0]
	}
	return 0
}

func conditionalMark(n *Conditional) string {
	if n.Plus {
		return "#+"
	}
	return "#-"
}

// atomString is the text of an atom: Raw when the reader set it, otherwise
// a spelling that reads back as the same value.
func atomString(n Node) string {
	switch n := n.(type) {
	case *Symbol:
		if n.Raw != "" {
			return n.Raw
		}
		s := n.Name
		switch {
		case n.Pkg != "" && n.Internal:
			s = n.Pkg + "::" + s
		case n.Pkg != "":
			s = n.Pkg + ":" + s
		case n.Uninterned:
			s = "#:" + s
		}
		return s
	case *Keyword:
		if n.Raw != "" {
			return n.Raw
		}
		return ":" + n.Name
	case *Int:
		return n.Raw
	case *Float:
		return n.Raw
	case *String:
		if n.Raw != "" {
			return n.Raw
		}
		return QuoteString(n.Value)
	case *Char:
		if n.Raw != "" {
			return n.Raw
		}
		for name, r := range charNames {
			if r == n.Value && len(name) > 3 && name != "linefeed" {
				return `#\` + strings.ToUpper(name[:1]) + name[1:]
			}
		}
		return `#\` + string(n.Value)
	case nil:
		return "nil"
	}
	return ""
}

// atomWidth is the printed width of an atom in runes.
func atomWidth(n Node) int { return utf8.RuneCountInString(atomString(n)) }

// NodeStringCut renders n as NodeString does, but stops once it has
// written more than limit bytes: its cost is bounded by limit, not by the
// size of n. The caller cuts the text to the length it wants.
func NodeStringCut(n Node, limit int) string {
	var b strings.Builder
	writeCut(&b, n, limit)
	return b.String()
}

func writeCut(b *strings.Builder, n Node, limit int) {
	if b.Len() > limit {
		return
	}
	switch n := n.(type) {
	case *List:
		b.WriteByte('(')
		for i, x := range n.Elems {
			if b.Len() > limit {
				return
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			writeCut(b, x, limit)
		}
		b.WriteByte(')')
	case *Quote:
		b.WriteByte('\'')
		writeCut(b, n.X, limit)
	default:
		writeNode(b, n)
	}
}
