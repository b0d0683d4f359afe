// Package srcpos holds labelcov's one source position, from the VM that
// signals a failure to the SARIF log that shows it, and the map from
// positions in a generated text (an annotated plan) to positions in the
// text it was made from. It imports only the standard library, so every
// package can use it without layering trouble: labels (as
// labels.Position), the VM, the simulator, the fuzzing engines (findings)
// and the reports.
//
// A position is never written as text and read back: File, Line and Col
// travel as they are (JSON included); String is for people and for keys.
package srcpos

import (
	"fmt"
	"sort"
)

// Pos is a place in a source file: 1-based line and byte column, 0-based
// byte offset. Col 0 says the column is unknown (a Go stack frame names a
// line only). The zero Pos is no position (IsValid is false).
type Pos struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Offset int    `json:"offset"`
}

// IsValid reports whether p names a line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String is FILE:LINE:COL, or FILE:LINE without a column; "<input>"
// stands for an empty File.
func (p Pos) String() string {
	name := p.File
	if name == "" {
		name = "<input>"
	}
	if p.Col == 0 {
		return fmt.Sprintf("%s:%d", name, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", name, p.Line, p.Col)
}

// Map maps positions in a generated text to positions in the source it
// was made from. A renderer that copies parts of the source and writes
// new text around them builds one as it writes (MapBuilder): a copied
// byte maps to itself in the source, a written byte to the source node it
// was written for. The zero Map and a nil *Map map nothing.
type Map struct {
	file  string
	lines []int // offsets in the source at which its lines start
	segs  []seg // sorted by out
}

// seg starts at offset out of the generated text: from there on the text
// is a copy of the source from offset src on (copy), or was written for
// the source node at offset src.
type seg struct {
	out, src int
	copy     bool
}

// MapBuilder builds a Map, segment by segment in the order the generated
// text is written.
type MapBuilder struct{ m Map }

// NewMapBuilder starts the Map of a text generated from src, which is
// the file named file.
func NewMapBuilder(file string, src []byte) *MapBuilder {
	lines := []int{0}
	for i, c := range src {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &MapBuilder{m: Map{file: file, lines: lines}}
}

// Copy says that from offset out of the generated text on, the text is a
// copy of the source from offset src on.
func (b *MapBuilder) Copy(out, src int) { b.add(seg{out, src, true}) }

// Written says that from offset out of the generated text on, the text
// was written for the source node at offset src.
func (b *MapBuilder) Written(out, src int) { b.add(seg{out, src, false}) }

func (b *MapBuilder) add(s seg) {
	n := len(b.m.segs)
	if n > 0 && b.m.segs[n-1].out == s.out {
		b.m.segs[n-1] = s // the earlier segment is empty
		return
	}
	if n > 0 && b.m.segs[n-1] == (seg{s.out, s.src, s.copy}) {
		return
	}
	b.m.segs = append(b.m.segs, s)
}

// Map returns the map built so far.
func (b *MapBuilder) Map() *Map {
	m := b.m
	return &m
}

// Original is the position in the source of p, a position in the
// generated text (its Offset counts). A p the map knows nothing of (an
// invalid p, a nil map, text before the first segment) is returned as it
// is.
func (m *Map) Original(p Pos) Pos {
	if m == nil || !p.IsValid() || len(m.segs) == 0 || p.Offset < m.segs[0].out {
		return p
	}
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].out > p.Offset }) - 1
	s := m.segs[i]
	off := s.src
	if s.copy {
		off += p.Offset - s.out
	}
	return m.at(off)
}

// at is the position of source offset off.
func (m *Map) at(off int) Pos {
	i := sort.Search(len(m.lines), func(i int) bool { return m.lines[i] > off }) - 1
	i = max(i, 0)
	return Pos{File: m.file, Line: i + 1, Col: off - m.lines[i] + 1, Offset: off}
}
