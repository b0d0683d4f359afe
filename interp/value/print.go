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

// Write prints v to b; readably selects prin1 over princ style.
func Write(b *strings.Builder, v Value, readably bool) {
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
	case KCons:
		b.WriteByte('(')
		first := true
		for v.kind == KCons {
			c := v.ref.(*Cons)
			if !first {
				b.WriteByte(' ')
			}
			first = false
			Write(b, c.Car, readably)
			v = c.Cdr
		}
		if v.kind != KNil {
			b.WriteString(" . ")
			Write(b, v, readably)
		}
		b.WriteByte(')')
	case KDesignator:
		d := v.ref.(*Designator)
		b.WriteByte('(')
		b.WriteString(Article(d.Class))
		b.WriteByte(' ')
		b.WriteString(d.Class)
		for _, p := range d.Props {
			b.WriteString(" (")
			b.WriteString(p.Key)
			b.WriteByte(' ')
			Write(b, p.Val, readably)
			b.WriteByte(')')
		}
		b.WriteByte(')')
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
