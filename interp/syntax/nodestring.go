package syntax

import "strings"

// NodeString renders n on one line in canonical spacing, without comments.
// Passes that generate code (normalize, transform) use it to splice new
// forms into source text; the result reads back as an equal tree.
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
	case *Symbol:
		b.WriteString(n.Name)
	case *Keyword:
		b.WriteByte(':')
		b.WriteString(n.Name)
	case *Int:
		b.WriteString(n.Raw)
	case *Float:
		b.WriteString(n.Raw)
	case *String:
		if n.Raw != "" {
			b.WriteString(n.Raw)
		} else {
			b.WriteString(QuoteString(n.Value))
		}
	}
}
