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
	// broke: the author started this item on a new line.
	broke bool
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
	k := &items{c: c, prevEnd: openEnd}
	for _, n := range nodes {
		start, end := n.Span()
		k.emitComments(start.Offset)
		it := item{node: n}
		if k.prevEnd >= 0 {
			nl := c.newlines(k.prevEnd, start.Offset)
			it.blank, it.broke = nl >= 2, nl > 0
		}
		k.operand(n)
		k.list = append(k.list, it)
		k.prevEnd = end.Offset
	}
	k.emitComments(closeOff)
	return k.list
}

// items is a container's item list under construction.
type items struct {
	c       *collector
	list    []item
	prevEnd int
}

// emitComments places the comments that start before offset before.
func (k *items) emitComments(before int) {
	c := k.c
	for c.next < len(c.comments) && c.comments[c.next].Start.Offset < before {
		cm := c.comments[c.next]
		c.next++
		it := item{comment: cm}
		if k.prevEnd >= 0 {
			nl := c.newlines(k.prevEnd, cm.Start.Offset)
			it.trailing = nl == 0
			it.blank, it.broke = nl >= 2, nl > 0
		}
		k.list = append(k.list, it)
		k.prevEnd = cm.End.Offset
	}
}

// operand registers the lists inside n. Comments between a prefix (quote,
// reader macro, #+feature) and its operand go before the prefix, in this
// container: a prefix has no closing bracket to keep them in, and before
// it they read the same.
func (k *items) operand(n Node) {
	for {
		switch q := n.(type) {
		case *Quote:
			n = q.X
			continue
		case *Prefixed:
			n = q.X
			continue
		case *Conditional:
			start, _ := q.Feature.Span()
			k.emitComments(start.Offset)
			k.operand(q.Feature)
			n = q.X
			continue
		}
		break
	}
	start, _ := n.Span()
	k.emitComments(start.Offset)
	if l, ok := n.(*List); ok {
		k.c.lay.lists[l] = k.c.container(l.Elems, l.Open.Offset+1, l.Close.Offset)
	}
}

func (c *collector) newlines(from, to int) int { return c.lay.newlinesBetween(from, to) }

// newlinesBetween counts line breaks in src[from:to]; the reader guarantees
// only whitespace lies between consecutive tokens.
func (lay *layout) newlinesBetween(from, to int) int {
	src := lay.src
	if from < 0 || to > len(src) || from >= to {
		return 0
	}
	return bytes.Count(src[from:to], []byte{'\n'})
}
