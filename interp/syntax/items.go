package syntax

import "bytes"

// item is one entry of a container's content as the printer sees it: a node
// or a comment, in source order. Comments are not fields of nodes (the tree
// stays a plain s-expression tree); instead the printer pairs File.Comments
// with the innermost list that encloses them, which is enough to put each
// comment back in the same place relative to the code.
type item struct {
	node    Node     // nil for a comment
	comment *Comment // nil for a node
	// trailing: the comment starts on the line where the previous token
	// (previous item, or the container's '(') ends, so it stays there.
	trailing bool
	// blank: the author left at least one empty line before this item.
	blank bool
}

// layout holds the item lists of every container in a file, built once.
type layout struct {
	src   []byte
	lists map[*List][]item
	top   []item
}

// buildLayout distributes f's comments over the lists that enclose them.
// Comments inside a quote ('  ; note
// x) are hoisted to just before the quote in its container: a quote has no
// closing bracket to keep them in, and before the quote they read the same.
func buildLayout(f *File) *layout {
	lay := &layout{src: f.Src, lists: make(map[*List][]item)}
	c := &collector{lay: lay, comments: f.Comments}
	lay.top = c.container(f.Forms, -1, len(f.Src)+1)
	return lay
}

type collector struct {
	lay      *layout
	comments []*Comment
	next     int // index of the first comment not yet placed
}

// container builds the items of a sequence of nodes whose opening delimiter
// ends at openEnd (-1 at top level) and whose closing delimiter starts at
// closeOff.
func (c *collector) container(nodes []Node, openEnd, closeOff int) []item {
	var items []item
	prevEnd := openEnd
	emitComments := func(before int) {
		for c.next < len(c.comments) && c.comments[c.next].Start.Offset < before {
			cm := c.comments[c.next]
			c.next++
			it := item{comment: cm}
			if prevEnd >= 0 {
				nl := c.newlines(prevEnd, cm.Start.Offset)
				it.trailing = nl == 0
				it.blank = nl >= 2
			}
			items = append(items, it)
			prevEnd = cm.End.Offset
		}
	}
	for _, n := range nodes {
		start, end := n.Span()
		emitComments(start.Offset)
		// Comments between a quote and its operand go before the quote.
		inner := n
		for {
			q, ok := inner.(*Quote)
			if !ok {
				break
			}
			inner = q.X
		}
		innerStart, _ := inner.Span()
		emitComments(innerStart.Offset)
		it := item{node: n}
		if prevEnd >= 0 {
			it.blank = c.newlines(prevEnd, start.Offset) >= 2
		}
		if l, ok := inner.(*List); ok {
			c.lay.lists[l] = c.container(l.Elems, l.Open.Offset+1, l.Close.Offset)
		}
		items = append(items, it)
		prevEnd = end.Offset
	}
	emitComments(closeOff)
	return items
}

// newlines counts line breaks in src[from:to]; the reader guarantees only
// whitespace lies between consecutive tokens.
func (c *collector) newlines(from, to int) int {
	src := c.lay.src
	if from < 0 || to > len(src) || from >= to {
		return 0
	}
	return bytes.Count(src[from:to], []byte{'\n'})
}
