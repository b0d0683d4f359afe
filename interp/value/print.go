package value

import (
	"github.com/labelcov/labelcov/interp/syntax"
	"math"
	"strconv"
	"strings"
)

// String prints v readably (prin1 style): strings quoted, floats with a
// decimal point, lists in parentheses.
func (v Value) String() string {
	var b strings.Builder
	Write(&b, v, true)
	return b.String()
}

// Princ prints v for people (princ style): strings without quotes.
func Princ(v Value) string {
	var b strings.Builder
	Write(&b, v, false)
	return b.String()
}

// Write prints v to b; readably selects prin1 over princ style. It keeps
// its own stack of the lists and designators it is inside (one entry per
// level), so values nested a million deep print without deep recursion.
func Write(b *strings.Builder, v Value, readably bool) { write(b, v, readably, -1) }

// WriteLimit prints v as Write does but stops once b holds more than max
// bytes, so that printing a huge value costs no more than max bytes of
// work; it reports whether v was printed whole.
func WriteLimit(b *strings.Builder, v Value, readably bool, max int) bool {
	return write(b, v, readably, max)
}

// Abbrev is v printed readably, cut after max bytes with "..." marking the
// cut: for messages that show a value of any size.
func Abbrev(v Value, max int) string {
	var b strings.Builder
	if WriteLimit(&b, v, true, max) {
		return b.String()
	}
	return b.String()[:max] + "..."
}

// write is Write, stopping after max bytes unless max < 0.
func write(b *strings.Builder, v Value, readably bool, max int) bool {
	// One entry per list or designator being printed: 40 bytes a level.
	type open struct {
		rest  Value // a list's rest still to print, or the designator
		next  int32 // the designator's next property
		first bool  // no element of the list printed yet
	}
	var stack []open
	for {
		if max >= 0 && b.Len() > max {
			return false
		}
		// Print v, or open it.
		switch v.kind {
		case KCons:
			b.WriteByte('(')
			stack = append(stack, open{rest: v, first: true})
		case KDesignator:
			d := v.ref.(*Designator)
			b.WriteByte('(')
			b.WriteString(Article(d.Class))
			b.WriteByte(' ')
			b.WriteString(d.Class)
			stack = append(stack, open{rest: v})
		default:
			if v.kind == KString && max >= 0 && len(v.ref.(string)) > max-b.Len() {
				// Print only what fits of a long string.
				v = String(v.ref.(string)[:max-b.Len()+1])
				writeAtom(b, v, readably)
				return false
			}
			writeAtom(b, v, readably)
		}
		// Find the next value to print, closing what is done.
		for {
			if len(stack) == 0 {
				return max < 0 || b.Len() <= max
			}
			top := &stack[len(stack)-1]
			if top.rest.kind == KDesignator {
				d := top.rest.ref.(*Designator)
				if top.next > 0 {
					b.WriteByte(')') // the previous property
				}
				if int(top.next) == len(d.Props) {
					b.WriteByte(')')
					stack = stack[:len(stack)-1]
					continue
				}
				p := d.Props[top.next]
				top.next++
				b.WriteString(" (")
				b.WriteString(p.Key)
				b.WriteByte(' ')
				v = p.Val
				break
			}
			r := top.rest
			if r.kind == KCons {
				c := r.ref.(*Cons)
				if !top.first {
					b.WriteByte(' ')
				}
				top.first = false
				top.rest = c.Cdr
				v = c.Car
				break
			}
			if r.kind != KNil {
				// A dotted tail: print it, then close.
				b.WriteString(" . ")
				top.rest = Nil
				v = r
				break
			}
			b.WriteByte(')')
			stack = stack[:len(stack)-1]
		}
	}
}

// writeAtom prints a value that is neither a cons nor a designator.
func writeAtom(b *strings.Builder, v Value, readably bool) {
	switch v.kind {
	case KNil:
		b.WriteString("nil")
	case KT:
		b.WriteString("t")
	case KInt:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case KFloat:
		b.WriteString(FormatFloat(v.Float()))
	case KString:
		if readably {
			b.WriteString(syntax.QuoteString(v.ref.(string)))
		} else {
			b.WriteString(v.ref.(string))
		}
	case KSymbol:
		b.WriteString(v.ref.(string))
	case KKeyword:
		b.WriteByte(':')
		b.WriteString(v.ref.(string))
	case KFunc:
		b.WriteString("#<function ")
		b.WriteString(v.ref.(Func).FuncName())
		b.WriteByte('>')
	case KObject:
		b.WriteString("#<object ")
		b.WriteString(v.ref.(string))
		b.WriteByte('>')
	default:
		b.WriteString("#<unknown>")
	}
}

// Article is "an" before a vowel and "a" otherwise: (an action), (a location).
func Article(class string) string {
	if class != "" && strings.ContainsRune("aeiou", rune(class[0])) {
		return "an"
	}
	return "a"
}

// FormatFloat prints f so that it always reads back as a float: 1.0, 2.5,
// 1.0e+21, and the words inf, -inf and nan for non-finite values.
func FormatFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if strings.ContainsAny(s, ".n") {
		return s
	}
	if i := strings.IndexByte(s, 'e'); i >= 0 {
		return s[:i] + ".0" + s[i:]
	}
	return s + ".0"
}
