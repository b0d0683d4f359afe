package vm

import (
	"unicode/utf8"

	"github.com/labelcov/labelcov/interp/value"
)

// Sequence builtins with Common Lisp's semantics on strings and lists:
// length, subseq, mismatch, and the character codes code-char and
// char-code. A string's elements are its characters (Unicode code points;
// the reader accepts only valid UTF-8), so indices and lengths count
// characters, not bytes, as SBCL's do. A character is a one-character
// string in labelcov (#\a evaluates to "a"), so code-char returns one and
// char-code takes one. Strings walked are charged a step per 16 bytes,
// lists a step per element.

// isASCII reports whether s has only one-byte characters, so that its byte
// and character indices agree.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// charLen is the number of characters of s.
func charLen(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return utf8.RuneCountInString(s)
}

// charOffset is the byte offset of character i of s (len(s) for i =
// charLen(s)); i is in range.
func charOffset(s string, i int) int {
	off := 0
	for ; i > 0; i-- {
		_, n := utf8.DecodeRuneInString(s[off:])
		off += n
	}
	return off
}

func lengthBuiltin(m *Machine, a []value.Value) (value.Value, error) {
	x := a[0]
	if x.Kind() == value.KString {
		m.Charge(len(x.Str()) / 16)
		return value.Int(int64(charLen(x.Str()))), nil
	}
	n, proper := x.ProperLen()
	m.Charge(n)
	if !proper {
		return value.Nil, typeError("length", "a proper list or string", x)
	}
	return value.Int(int64(n)), nil
}

// index reads a bounding index of subseq: a non-negative integer, or nil
// (for end: the sequence's length, returned as -1).
func index(what string, v value.Value, nilOK bool) (int64, *Failure) {
	switch {
	case v.Kind() == value.KInt && v.Int() >= 0:
		return v.Int(), nil
	case nilOK && v.IsNil():
		return -1, nil
	}
	return 0, typeError("subseq", what, v)
}

// subseqBuiltin is (subseq SEQUENCE START [END]): a fresh copy of the
// elements START (inclusive) to END (exclusive, default the length) of a
// string or a proper list. Bad indices (negative, not integers, START >
// END, END beyond the length) are a type-error, as SBCL's
// bounding-indices-bad-error is one.
func subseqBuiltin(m *Machine, a []value.Value) (value.Value, error) {
	seq := a[0]
	start, f := index("a non-negative integer start index", a[1], false)
	if f != nil {
		return value.Nil, f
	}
	end := int64(-1)
	if len(a) > 2 {
		if end, f = index("a non-negative integer end index or nil", a[2], true); f != nil {
			return value.Nil, f
		}
	}
	bad := func(n int) (value.Value, error) {
		e := "nil"
		if end >= 0 {
			e = value.Int(end).String()
		}
		return value.Nil, Fail("type-error", "subseq: the bounding indices %d and %s are bad for a sequence of length %d", start, e, n)
	}
	switch seq.Kind() {
	case value.KString:
		s := seq.Str()
		m.Charge(len(s) / 16)
		n := charLen(s)
		if end < 0 {
			end = int64(n)
		}
		if end > int64(n) || start > end {
			return bad(n)
		}
		lo, hi := int(start), int(end)
		if n != len(s) {
			lo = charOffset(s, lo)
			hi = lo + charOffset(s[lo:], int(end-start))
		}
		if f := m.allocString(hi - lo); f != nil {
			return value.Nil, f
		}
		return value.String(s[lo:hi]), nil
	case value.KNil, value.KCons:
		n, proper := seq.ProperLen()
		m.Charge(n)
		if !proper {
			return value.Nil, typeError("subseq", "a proper list or string", seq)
		}
		if end < 0 {
			end = int64(n)
		}
		if end > int64(n) || start > end {
			return bad(n)
		}
		k := int(end - start)
		if k == 0 {
			return value.Nil, nil
		}
		if f := m.alloc(int64(k)); f != nil {
			return value.Nil, f
		}
		l := seq
		for i := int64(0); i < start; i++ {
			l = l.Cdr()
		}
		out := value.Conses(k, value.Nil)
		c := out.Cons()
		for i := 0; i < k; i++ {
			c.Car = l.Car()
			l = l.Cdr()
			if i < k-1 {
				c = c.Cdr.Cons()
			}
		}
		return out, nil
	}
	return value.Nil, typeError("subseq", "a proper list or string", seq)
}

// elems walks the elements of a string (each a one-character string) or a
// proper list.
type elems struct {
	v   value.Value
	s   string
	str bool
}

func newElems(v value.Value) (elems, bool) {
	switch v.Kind() {
	case value.KString:
		return elems{s: v.Str(), str: true}, true
	case value.KNil, value.KCons:
		if _, proper := v.ProperLen(); !proper {
			return elems{}, false
		}
		return elems{v: v}, true
	}
	return elems{}, false
}

func (e *elems) done() bool {
	if e.str {
		return e.s == ""
	}
	return e.v.Kind() != value.KCons
}

// next returns the next element (a string's next character as a rune, -1
// for a list element).
func (e *elems) next() (value.Value, rune) {
	if e.str {
		r, n := utf8.DecodeRuneInString(e.s)
		e.s = e.s[n:]
		return value.Nil, r
	}
	x := e.v.Car()
	e.v = e.v.Cdr()
	return x, -1
}

// sameElem is eql between two elements of sequences: characters by code,
// a character and a list element by the one-character string the list
// element must be.
func sameElem(x value.Value, rx rune, y value.Value, ry rune) bool {
	switch {
	case rx >= 0 && ry >= 0:
		return rx == ry
	case rx >= 0:
		return isChar(y, rx)
	case ry >= 0:
		return isChar(x, ry)
	}
	return value.Eql(x, y)
}

func isChar(v value.Value, r rune) bool {
	if v.Kind() != value.KString {
		return false
	}
	c, n := utf8.DecodeRuneInString(v.Str())
	return n == len(v.Str()) && n > 0 && c == r
}

// mismatchBuiltin is (mismatch A B) on two sequences (strings or proper
// lists, mixed too): nil when they have the same length and eql elements,
// else the index of the first position where they differ (the length of
// the shorter when one is a prefix of the other).
func mismatchBuiltin(m *Machine, a []value.Value) (value.Value, error) {
	if a[0].Kind() == value.KString && a[1].Kind() == value.KString {
		x, y := a[0].Str(), a[1].Str()
		i := 0
		for i < len(x) && i < len(y) && x[i] == y[i] {
			i++
		}
		m.Charge(i / 16)
		if i == len(x) && i == len(y) {
			return value.Nil, nil
		}
		// Back to the start of the character the bytes differ in (the
		// common bytes end on the same boundaries in both strings).
		for i > 0 && ((i < len(x) && !utf8.RuneStart(x[i])) || (i < len(y) && !utf8.RuneStart(y[i]))) {
			i--
		}
		return value.Int(int64(charLen(x[:i]))), nil
	}
	ex, ok := newElems(a[0])
	if !ok {
		return value.Nil, typeError("mismatch", "a proper list or string", a[0])
	}
	ey, ok := newElems(a[1])
	if !ok {
		return value.Nil, typeError("mismatch", "a proper list or string", a[1])
	}
	i := 0
	defer func() { m.Charge(i) }()
	for !ex.done() && !ey.done() {
		x, rx := ex.next()
		y, ry := ey.next()
		if !sameElem(x, rx, y, ry) {
			return value.Int(int64(i)), nil
		}
		i++
	}
	if ex.done() && ey.done() {
		return value.Nil, nil
	}
	return value.Int(int64(i)), nil
}

// codeCharBuiltin is (code-char CODE): the character (a one-character
// string) of a Unicode code point. Codes outside 0 ... #x10FFFF and the
// surrogates #xD800 ... #xDFFF, which are not characters a UTF-8 string
// can hold, are a type-error.
func codeCharBuiltin(m *Machine, a []value.Value) (value.Value, error) {
	c := a[0]
	if c.Kind() != value.KInt || c.Int() < 0 || c.Int() > utf8.MaxRune || (c.Int() >= 0xD800 && c.Int() <= 0xDFFF) {
		return value.Nil, typeError("code-char", "a character code (0 to #x10FFFF, not a surrogate)", c)
	}
	if f := m.allocString(4); f != nil {
		return value.Nil, f
	}
	return value.String(string(rune(c.Int()))), nil
}

// charCodeBuiltin is (char-code CHARACTER), the code point of a
// one-character string.
func charCodeBuiltin(m *Machine, a []value.Value) (value.Value, error) {
	c := a[0]
	if c.Kind() == value.KString {
		r, n := utf8.DecodeRuneInString(c.Str())
		if n > 0 && n == len(c.Str()) {
			return value.Int(int64(r)), nil
		}
	}
	return value.Nil, typeError("char-code", "a character", c)
}
