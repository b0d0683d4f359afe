package golang

import (
	"bytes"
	"go/scanner"
	"go/token"
	"strconv"
)

// lineWindow is how far ahead in the original a line of the annotated file
// is looked for.
const lineWindow = 64

// minUniqueLine is the length from which a line found once in the original
// is matched wherever it is.
const minUniqueLine = 16

// lineMap maps each line of the annotated file ann (1-based; index 0
// unused) to the line of the original orig it stands for: a line found
// verbatim (spaces aside) in the original (other than a label's `if P {`
// and `} // label N` lines), at or after the last one
// matched and within lineWindow, is that line; any other line (a label,
// code normalization hoisted or restructured) belongs to the statement
// after the last matched line — labels and hoisted code run just before
// their statement. A line of a single closing token only matches the next
// unmatched original line, so that `}` does not skip ahead. A line of
// minUniqueLine bytes or more that occurs once in the original matches it
// wherever it is.
func lineMap(orig, ann []byte) []int {
	ol := splitTrim(orig)
	al := splitTrim(ann)
	out := make([]int, len(al)+1)
	label := make([]bool, len(al)) // the two lines of an injected label
	for i, l := range al {
		if i > 0 && bytes.HasPrefix(l, []byte("} // label ")) {
			label[i], label[i-1] = true, true
		}
	}
	// Lines found once in the original (a function's signature, say)
	// resynchronize the map wherever they are: after a stretch of
	// rewritten code longer than the window, nothing else would match.
	once := map[string]int{}
	for j, l := range ol {
		if len(l) < minUniqueLine {
			continue
		}
		if _, seen := once[string(l)]; seen {
			once[string(l)] = -1
		} else {
			once[string(l)] = j
		}
	}
	next := 0 // index into ol of the first unmatched line
	for i, l := range al {
		found := -1
		if len(l) > 0 && !label[i] {
			limit := min(len(ol), next+lineWindow)
			if len(l) <= 2 {
				limit = min(len(ol), next+1)
			}
			for j := next; j < limit; j++ {
				if bytes.Equal(ol[j], l) {
					found = j
					break
				}
			}
			if j, ok := once[string(l)]; found < 0 && ok && j >= 0 {
				found = j
			}
		}
		if found >= 0 {
			out[i+1] = found + 1
			next = found + 1
		} else {
			out[i+1] = min(next+1, max(len(ol), 1))
		}
	}
	return out
}

func splitTrim(src []byte) [][]byte {
	ls := bytes.Split(src, []byte("\n"))
	if len(ls) > 0 && len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	for i, l := range ls {
		ls[i] = bytes.TrimSpace(l)
	}
	return ls
}

// withLineDirectives returns the annotated file ann with /*line*/
// directives that make positions in it (panics and stack traces, go vet,
// compiler errors) read as the original file path's lines: one at the
// start of the first line of code and of every line that does not follow
// its predecessor's original line,
// except lines inside a multi-line raw string or comment and comment
// lines. The directives
// add no line and do not change the code.
func withLineDirectives(path string, orig, ann []byte) []byte {
	m := lineMap(orig, ann)
	inside := map[int]bool{} // lines that begin inside a token
	fset := token.NewFileSet()
	f := fset.AddFile(path, -1, len(ann))
	var s scanner.Scanner
	s.Init(f, ann, nil, scanner.ScanComments)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.STRING || tok == token.COMMENT {
			start := fset.Position(pos).Line
			for k := 1; k <= bytes.Count([]byte(lit), []byte("\n")); k++ {
				inside[start+k] = true
			}
		}
	}
	var b bytes.Buffer
	b.Grow(len(ann) + len(ann)/8)
	line := 1
	prev := 0
	first := true // the first line of code names the file
	for rest := ann; len(rest) > 0; line++ {
		end := bytes.IndexByte(rest, '\n')
		cur := rest
		if end >= 0 {
			cur, rest = rest[:end+1], rest[end+1:]
		} else {
			rest = nil
		}
		want := m[min(line, len(m)-1)]
		t := bytes.TrimSpace(cur)
		// A comment line keeps its column: //go: and //line directives
		// only count at the start of a line.
		if (first || want != prev+1) && !inside[line] && len(t) > 0 && !bytes.HasPrefix(t, []byte("//")) {
			b.WriteString("/*line " + path + ":" + strconv.Itoa(want) + ":1*/")
			prev, first = want, false
		} else {
			prev++
		}
		b.Write(cur)
	}
	return b.Bytes()
}
