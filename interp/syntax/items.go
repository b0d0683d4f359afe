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
	lists map[*List]*listLayout
	top   []item
}

// listLayout is what the printer knows of one list: its items and, once
// computed, its one-line width.
type listLayout struct {
	items []item
	width int // widthUnknown until the printer computes it; -1: cannot be flat
}

const widthUnknown = -2

// buildLayout distributes f's comments over the lists that enclose them.
// Comments inside a quote ('  ; note
// x) are hoisted to just before the quote in its container: a quote has no
// closing bracket to keep them in, and before the quote they read the same.
func buildLayout(f *File) *layout {
	lay := &layout{src: f.Src, lists: make(map[*List]*listLayout)}
	c := &collector{lay: lay, comments: f.Comments}
	lay.top = c.container(f.Forms, -1, len(f.Src)+1)
	c.scratch = nil
	return lay
}

type collector struct {
	lay      *layout
	comments []*Comment
	next     int // index of the first comment not yet placed
	// scratch holds the items of the containers being built, innermost
	// last; each finished container is copied out to an exact-size slice
	// carved from itemChunk, so building creates no garbage.
	scratch   []item
	itemChunk []item
	infos     slab[listLayout]
}

// container builds the items of a sequence of nodes whose opening delimiter
// ends at openEnd (-1 at top level) and whose closing delimiter starts at
// closeOff.
func (c *collector) container(nodes []Node, openEnd, closeOff int) []item {
	k := &items{c: c, prevEnd: openEnd, base: len(c.scratch)}
	for _, n := range nodes {
		start, end := n.Span()
		k.emitComments(start.Offset)
		it := item{node: n}
		if k.prevEnd >= 0 {
			nl := c.newlines(k.prevEnd, start.Offset)
			it.blank, it.broke = nl >= 2, nl > 0
		}
		k.operand(n)
		k.c.scratch = append(k.c.scratch, it)
		k.prevEnd = end.Offset
	}
	k.emitComments(closeOff)
	return c.take(k.base)
}

// take moves the scratch items from base on into their own slice.
func (c *collector) take(base int) []item {
	n := len(c.scratch) - base
	if n == 0 {
		return nil
	}
	if cap(c.itemChunk)-len(c.itemChunk) < n {
		c.itemChunk = make([]item, 0, max(n, min(max(2*cap(c.itemChunk), 16), 4096)))
	}
	at := len(c.itemChunk)
	c.itemChunk = append(c.itemChunk, c.scratch[base:]...)
	clear(c.scratch[base:])
	c.scratch = c.scratch[:base]
	return c.itemChunk[at : at+n : at+n]
}

// items is a container's item list under construction.
type items struct {
	c       *collector
	base    int // this container's first item in c.scratch
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
		k.c.scratch = append(k.c.scratch, it)
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
		info := k.c.infos.new()
		info.width = widthUnknown
		info.items = k.c.container(l.Elems, l.Open.Offset+1, l.Close.Offset)
		k.c.lay.lists[l] = info
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
