package vm

import (
	"math"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// coreTable returns the core builtins indexed by their compile ids. Arity
// has been checked by the compiler (or by funcall) before they run.
func coreTable() []builtinFn {
	impl := coreImpls()
	sigs := compile.CoreBuiltins()
	t := make([]builtinFn, len(sigs))
	for i, s := range sigs {
		fn := impl[s.Name]
		if fn == nil {
			name := s.Name
			fn = func(*Machine, []value.Value) (value.Value, error) {
				return value.Nil, Fail("undefined-function", "core builtin %s has no implementation", name)
			}
		}
		t[i] = fn
	}
	return t
}

func coreImpls() map[string]builtinFn {
	return map[string]builtinFn{
		"+": foldArith('+', 0), "*": foldArith('*', 1),
		"-": func(m *Machine, a []value.Value) (value.Value, error) {
			if len(a) == 1 {
				return ret(arith('-', value.Int(0), a[0]))
			}
			return foldFrom('-', a)
		},
		"/": func(m *Machine, a []value.Value) (value.Value, error) {
			if len(a) == 1 {
				return ret(arith('/', value.Int(1), a[0]))
			}
			return foldFrom('/', a)
		},
		"mod": func(m *Machine, a []value.Value) (value.Value, error) { return ret(modRem("mod", a[0], a[1], true)) },
		"rem": func(m *Machine, a []value.Value) (value.Value, error) { return ret(modRem("rem", a[0], a[1], false)) },
		"abs": func(m *Machine, a []value.Value) (value.Value, error) {
			switch x := a[0]; x.Kind() {
			case value.KInt:
				if x.Int() < 0 {
					return value.Int(-x.Int()), nil
				}
				return x, nil
			case value.KFloat:
				return value.Float(math.Abs(x.Float())), nil
			}
			return value.Nil, typeError("abs", "a number", a[0])
		},
		"min": extremum("min", '<'), "max": extremum("max", '>'),
		"floor": func(m *Machine, a []value.Value) (value.Value, error) {
			x := a[0]
			if len(a) == 2 {
				y := a[1]
				if x.Kind() == value.KInt && y.Kind() == value.KInt {
					r, f := modRem("floor", x, y, true)
					if f != nil {
						return value.Nil, f
					}
					// (x - r) / y is exact; -1 divisors wrap like /.
					return ret(arith('/', value.Int(x.Int()-r.Int()), y))
				}
				q, f := arith('/', x, y)
				if f != nil {
					return value.Nil, f
				}
				x = q
			}
			switch x.Kind() {
			case value.KInt:
				return x, nil
			case value.KFloat:
				return ret(toInt("floor", math.Floor(x.Float())))
			}
			return value.Nil, typeError("floor", "a number", x)
		},
		"round": func(m *Machine, a []value.Value) (value.Value, error) {
			switch x := a[0]; x.Kind() {
			case value.KInt:
				return x, nil
			case value.KFloat:
				return ret(toInt("round", math.RoundToEven(x.Float())))
			}
			return value.Nil, typeError("round", "a number", a[0])
		},
		"sqrt": func(m *Machine, a []value.Value) (value.Value, error) {
			if !a[0].IsNumber() {
				return value.Nil, typeError("sqrt", "a number", a[0])
			}
			if a[0].Number() < 0 {
				return value.Nil, Fail("arithmetic-error", "sqrt: negative argument %s", a[0].String())
			}
			return value.Float(math.Sqrt(a[0].Number())), nil
		},
		"1+": func(m *Machine, a []value.Value) (value.Value, error) { return ret(arith('+', a[0], value.Int(1))) },
		"1-": func(m *Machine, a []value.Value) (value.Value, error) { return ret(arith('-', a[0], value.Int(1))) },

		"<": chain('<'), "<=": chain('l'), ">": chain('>'), ">=": chain('g'), "=": chain('='),
		"/=": func(m *Machine, a []value.Value) (value.Value, error) {
			for i := range a {
				for j := i + 1; j < len(a); j++ {
					eq, f := numCompare('=', a[i], a[j])
					if f != nil {
						f.Message = strings.Replace(f.Message, "=:", "/=:", 1)
						return value.Nil, f
					}
					if eq {
						return value.Nil, nil
					}
				}
			}
			if len(a) == 1 && !a[0].IsNumber() {
				return value.Nil, typeError("/=", "a number", a[0])
			}
			return value.T, nil
		},
		"eq":  pred2(value.Eq),
		"eql": pred2(value.Eql),
		"equal": func(m *Machine, a []value.Value) (value.Value, error) {
			eq, n := value.EqualSteps(a[0], a[1])
			m.Charge(n)
			return value.Bool(eq), nil
		},
		"string=": func(m *Machine, a []value.Value) (value.Value, error) {
			for _, x := range a {
				switch x.Kind() {
				case value.KString, value.KSymbol, value.KNil, value.KT:
				default:
					return value.Nil, typeError("string=", "a string or symbol", x)
				}
			}
			m.Charge(min(len(a[0].Str()), len(a[1].Str())) / 16)
			return value.Bool(a[0].Str() == a[1].Str()), nil
		},

		"not":         pred(func(x value.Value) bool { return x.IsNil() }),
		"null":        pred(func(x value.Value) bool { return x.IsNil() }),
		"numberp":     pred(value.Value.IsNumber),
		"integerp":    kindp(value.KInt),
		"floatp":      kindp(value.KFloat),
		"symbolp":     pred(func(x value.Value) bool { k := x.Kind(); return k == value.KSymbol || k == value.KNil || k == value.KT }),
		"keywordp":    kindp(value.KKeyword),
		"listp":       pred(value.Value.IsList),
		"consp":       kindp(value.KCons),
		"stringp":     kindp(value.KString),
		"functionp":   kindp(value.KFunc),
		"designatorp": kindp(value.KDesignator),
		"zerop":       numPred("zerop", func(f float64) bool { return f == 0 }),
		"plusp":       numPred("plusp", func(f float64) bool { return f > 0 }),
		"minusp":      numPred("minusp", func(f float64) bool { return f < 0 }),
		"evenp":       intPred("evenp", func(i int64) bool { return i%2 == 0 }),
		"oddp":        intPred("oddp", func(i int64) bool { return i%2 != 0 }),

		"list": func(m *Machine, a []value.Value) (value.Value, error) {
			if f := m.alloc(int64(len(a))); f != nil {
				return value.Nil, f
			}
			return value.List(a...), nil
		},
		"cons": func(m *Machine, a []value.Value) (value.Value, error) {
			if f := m.alloc(1); f != nil {
				return value.Nil, f
			}
			return value.NewCons(a[0], a[1]), nil
		},
		"car": listOp("car", 0, false), "first": listOp("first", 0, false),
		"second": listOp("second", 1, false), "third": listOp("third", 2, false),
		"cdr": listOp("cdr", 0, true), "rest": listOp("rest", 0, true),
		"nth": func(m *Machine, a []value.Value) (value.Value, error) {
			if a[0].Kind() != value.KInt || a[0].Int() < 0 {
				return value.Nil, typeError("nth", "a non-negative integer index", a[0])
			}
			l := a[1]
			n := 0
			for i := a[0].Int(); i > 0 && l.Kind() == value.KCons; i-- {
				l = l.Cdr()
				n++
			}
			m.Charge(n)
			if !l.IsList() {
				return value.Nil, typeError("nth", "a list", a[1])
			}
			return l.Car(), nil
		},
		"length": lengthBuiltin,
		"append": func(m *Machine, a []value.Value) (value.Value, error) {
			if len(a) == 0 {
				return value.Nil, nil
			}
			total := 0
			for _, l := range a[:len(a)-1] {
				n, proper := l.ProperLen()
				m.Charge(n)
				if !proper {
					return value.Nil, typeError("append", "a proper list", l)
				}
				total += n
			}
			if f := m.alloc(int64(total)); f != nil {
				return value.Nil, f
			}
			// Copy the elements into fresh conses made in one piece.
			out := value.Conses(total, a[len(a)-1])
			c := out.Cons()
			for _, l := range a[:len(a)-1] {
				for ; l.Kind() == value.KCons; l = l.Cdr() {
					c.Car = l.Car()
					c = c.Cdr.Cons()
				}
			}
			return out, nil
		},
		"reverse": func(m *Machine, a []value.Value) (value.Value, error) {
			x := a[0]
			if x.Kind() == value.KString {
				m.Charge(len(x.Str()) / 16)
				r := []rune(x.Str())
				for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
					r[i], r[j] = r[j], r[i]
				}
				if f := m.allocString(len(x.Str())); f != nil {
					return value.Nil, f
				}
				return value.String(string(r)), nil
			}
			n, proper := x.ProperLen()
			m.Charge(n)
			if !proper {
				return value.Nil, typeError("reverse", "a proper list or string", x)
			}
			if f := m.alloc(int64(n)); f != nil {
				return value.Nil, f
			}
			if n == 0 {
				return value.Nil, nil
			}
			// Fill fresh conses (made in one piece) from the back.
			cs := make([]value.Cons, n)
			next := value.Nil
			for i := n - 1; i >= 0; i-- {
				cs[i] = value.Cons{Car: x.Car(), Cdr: next}
				next = value.FromCons(&cs[i])
				x = x.Cdr()
			}
			return next, nil
		},
		"member": func(m *Machine, a []value.Value) (value.Value, error) {
			l := a[1]
			n := 0
			defer func() { m.Charge(n) }()
			for ; l.Kind() == value.KCons; l = l.Cdr() {
				n++
				if value.Eql(a[0], l.Car()) {
					return l, nil
				}
			}
			if !l.IsNil() {
				return value.Nil, typeError("member", "a proper list", a[1])
			}
			return value.Nil, nil
		},
		"remove": func(m *Machine, a []value.Value) (value.Value, error) {
			n, proper := a[1].ProperLen()
			m.Charge(n)
			if !proper {
				return value.Nil, typeError("remove", "a proper list", a[1])
			}
			kept := 0
			for l := a[1]; l.Kind() == value.KCons; l = l.Cdr() {
				if !value.Eql(a[0], l.Car()) {
					kept++
				}
			}
			if f := m.alloc(int64(kept)); f != nil {
				return value.Nil, f
			}
			out := value.Conses(kept, value.Nil)
			c := out.Cons()
			for l := a[1]; l.Kind() == value.KCons; l = l.Cdr() {
				if x := l.Car(); !value.Eql(a[0], x) {
					c.Car = x
					c = c.Cdr.Cons()
				}
			}
			return out, nil
		},
		"assoc": func(m *Machine, a []value.Value) (value.Value, error) {
			l := a[1]
			n := 0
			defer func() { m.Charge(n) }()
			for ; l.Kind() == value.KCons; l = l.Cdr() {
				n++
				if p := l.Car(); p.Kind() == value.KCons && value.Eql(a[0], p.Car()) {
					return p, nil
				}
			}
			if !l.IsNil() {
				return value.Nil, typeError("assoc", "an association list", a[1])
			}
			return value.Nil, nil
		},

		"print": func(m *Machine, a []value.Value) (value.Value, error) {
			var b strings.Builder
			if !value.WriteLimit(&b, a[0], true, m.room()) {
				return value.Nil, outputLimit(m.cfg.MaxOutput)
			}
			b.WriteByte('\n')
			if f := m.write(b.String()); f != nil {
				return value.Nil, f
			}
			return a[0], nil
		},
		"format": func(m *Machine, a []value.Value) (value.Value, error) {
			if a[1].Kind() != value.KString {
				return value.Nil, typeError("format", "a control string", a[1])
			}
			max := int(min(m.cfg.MaxAlloc*16, 1<<30)) // a string result is charged one object per 16 bytes
			if a[0].Kind() == value.KT {
				max = m.room()
			}
			s, f := formatLimit(a[1].Str(), a[2:], max)
			if f != nil {
				if f.Kind == KindOutputLimit && a[0].Kind() != value.KT {
					f = Fail(KindAllocationLimit, "format: the string would exceed the allocation budget of %d objects", m.cfg.MaxAlloc)
				}
				return value.Nil, f
			}
			m.Charge(len(s) / 16)
			switch a[0].Kind() {
			case value.KT:
				if f := m.write(s); f != nil {
					return value.Nil, f
				}
				return value.Nil, nil
			case value.KNil:
				if f := m.allocString(len(s)); f != nil {
					return value.Nil, f
				}
				return value.String(s), nil
			}
			return value.Nil, typeError("format", "t or nil as destination", a[0])
		},

		"desig-prop": func(m *Machine, a []value.Value) (value.Value, error) {
			d := a[0].Designator()
			if d == nil {
				return value.Nil, typeError("desig-prop", "a designator", a[0])
			}
			switch a[1].Kind() {
			case value.KSymbol, value.KKeyword:
			default:
				return value.Nil, typeError("desig-prop", "a property name (symbol)", a[1])
			}
			v, _ := d.Get(a[1].Str())
			return v, nil
		},
		// (make-designator CLASS PROPERTIES): CPL's constructor, which its
		// a/an macro expands to; the compiler calls it for designators
		// with desig:when or ?variable properties. A nil property is
		// skipped, as CPL's (remove nil ...) does. CPL's optional third
		// argument, a parent designator the new one succeeds, is accepted
		// and has no effect: labelcov's designators are values without a
		// history.
		"subseq": subseqBuiltin, "mismatch": mismatchBuiltin,
		"code-char": codeCharBuiltin, "char-code": charCodeBuiltin,

		"make-designator": func(m *Machine, a []value.Value) (value.Value, error) {
			switch a[0].Kind() {
			case value.KSymbol, value.KKeyword:
			default:
				return value.Nil, typeError("make-designator", "a designator class (symbol)", a[0])
			}
			class := a[0].Str()
			if !compile.IsDesignatorClass(class) {
				return value.Nil, Fail("type-error", "make-designator: the class must be action, location, object or motion, got %s", a[0].String())
			}
			n, proper := a[1].ProperLen()
			m.Charge(n)
			if !proper {
				return value.Nil, typeError("make-designator", "a list of properties", a[1])
			}
			props := 0
			for l := a[1]; l.Kind() == value.KCons; l = l.Cdr() {
				p := l.Car()
				if p.IsNil() {
					continue
				}
				if k, ok := p.ProperLen(); !ok || k != 2 || (p.Car().Kind() != value.KSymbol && p.Car().Kind() != value.KKeyword) {
					return value.Nil, typeError("make-designator", "a property (KEY VALUE)", p)
				}
				props++
			}
			if f := m.alloc(1); f != nil {
				return value.Nil, f
			}
			d := value.NewDesignator(class, props)
			i := 0
			for l := a[1]; l.Kind() == value.KCons; l = l.Cdr() {
				if p := l.Car(); !p.IsNil() {
					d.Props[i] = value.Prop{Key: p.Car().Str(), Val: p.Cdr().Car()}
					i++
				}
			}
			return value.FromDesignator(d), nil
		},
		"perform": func(m *Machine, a []value.Value) (value.Value, error) {
			d := a[0].Designator()
			if d == nil || d.Class != "action" {
				return value.Nil, typeError("perform", "an action designator", a[0])
			}
			if m.cfg.Host == nil {
				return value.Nil, Fail("no-world", "perform: no world is loaded, so %s cannot be performed", a[0].String())
			}
			v, err := m.cfg.Host.Perform(m, d)
			if err != nil {
				return value.Nil, asFailure(err)
			}
			return v, nil
		},
		"fail": func(m *Machine, a []value.Value) (value.Value, error) {
			kind := a[0]
			if kind.Kind() != value.KSymbol && kind.Kind() != value.KKeyword {
				return value.Nil, typeError("fail", "a failure kind (symbol)", kind)
			}
			if !Catchable(kind.Str()) {
				return value.Nil, Fail("type-error", "fail: %s is reserved for the VM and cannot be signalled", kind.Str())
			}
			msg := ""
			if len(a) > 1 {
				if a[1].Kind() != value.KString {
					return value.Nil, typeError("fail", "a message string", a[1])
				}
				s, f := formatLimit(a[1].Str(), a[2:], maxMessage)
				if f != nil && f.Kind == KindOutputLimit {
					s, f = s+"...", nil // a message of any size costs at most maxMessage bytes
				}
				if f != nil {
					return value.Nil, f
				}
				m.Charge(len(s) / 16)
				msg = s
			}
			return value.Nil, &Failure{Kind: kind.Str(), Message: msg}
		},
	}
}

// ret adapts a (value, *Failure) pair to a builtin's (value, error) so that
// a nil *Failure never becomes a non-nil error.
func ret(v value.Value, f *Failure) (value.Value, error) {
	if f != nil {
		return value.Nil, f
	}
	return v, nil
}

func foldArith(op byte, unit int64) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) {
		acc := value.Int(unit)
		for _, x := range a {
			var f *Failure
			if acc, f = arith(op, acc, x); f != nil {
				return value.Nil, f
			}
		}
		return acc, nil
	}
}

func foldFrom(op byte, a []value.Value) (value.Value, error) {
	acc := a[0]
	for _, x := range a[1:] {
		var f *Failure
		if acc, f = arith(op, acc, x); f != nil {
			return value.Nil, f
		}
	}
	if !acc.IsNumber() {
		return value.Nil, typeError(opName(op), "a number", acc)
	}
	return acc, nil
}

func chain(op byte) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) {
		if len(a) == 1 && !a[0].IsNumber() {
			return value.Nil, typeError(cmpNames[op], "a number", a[0])
		}
		for i := 0; i+1 < len(a); i++ {
			ok, f := numCompare(op, a[i], a[i+1])
			if f != nil {
				return value.Nil, f
			}
			if !ok {
				// Keep type-checking the rest, as a strict Lisp would.
				for _, x := range a[i+2:] {
					if !x.IsNumber() {
						return value.Nil, typeError(cmpNames[op], "a number", x)
					}
				}
				return value.Nil, nil
			}
		}
		return value.T, nil
	}
}

func extremum(name string, op byte) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) {
		best := a[0]
		if !best.IsNumber() {
			return value.Nil, typeError(name, "a number", best)
		}
		for _, x := range a[1:] {
			better, f := numCompare(op, x, best)
			if f != nil {
				f.Message = name + strings.TrimPrefix(f.Message, cmpNames[op])
				return value.Nil, f
			}
			if better {
				best = x
			}
		}
		return best, nil
	}
}

func pred(p func(value.Value) bool) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) { return value.Bool(p(a[0])), nil }
}

func pred2(p func(a, b value.Value) bool) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) { return value.Bool(p(a[0], a[1])), nil }
}

func kindp(k value.Kind) builtinFn {
	return pred(func(x value.Value) bool { return x.Kind() == k })
}

func numPred(name string, p func(float64) bool) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) {
		if !a[0].IsNumber() {
			return value.Nil, typeError(name, "a number", a[0])
		}
		return value.Bool(p(a[0].Number())), nil
	}
}

func intPred(name string, p func(int64) bool) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) {
		if a[0].Kind() != value.KInt {
			return value.Nil, typeError(name, "an integer", a[0])
		}
		return value.Bool(p(a[0].Int())), nil
	}
}

// listOp is car/cdr after skipping n conses: first, second, third, rest.
func listOp(name string, n int, cdr bool) builtinFn {
	return func(m *Machine, a []value.Value) (value.Value, error) {
		l := a[0]
		for i := 0; i < n && l.Kind() == value.KCons; i++ {
			l = l.Cdr()
		}
		if !l.IsList() {
			return value.Nil, typeError(name, "a list", a[0])
		}
		if cdr {
			return l.Cdr(), nil
		}
		return l.Car(), nil
	}
}

// Format expands a format control string: ~a (princ), ~s (prin1), ~d
// (integer; other values as ~a), ~% (newline), ~~ (tilde). Directives are
// case-insensitive. A missing argument or unknown directive is a
// format-error.
func Format(ctl string, args []value.Value) (string, *Failure) {
	return formatLimit(ctl, args, -1)
}

// maxMessage bounds the message of a failure a plan signals.
const maxMessage = 1 << 16

// formatLimit is Format, failing with KindOutputLimit (and the result's
// first max bytes) once the result would exceed max bytes (unless max < 0).
func formatLimit(ctl string, args []value.Value, max int) (string, *Failure) {
	var b strings.Builder
	next := 0
	for i := 0; i < len(ctl); i++ {
		c := ctl[i]
		if c != '~' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(ctl) {
			return "", Fail("format-error", "format: control string ends with ~")
		}
		i++
		d := ctl[i] | 0x20 // lower case
		switch d {
		case '%':
			b.WriteByte('\n')
			continue
		case '~':
			b.WriteByte('~')
			continue
		case 'a', 's', 'd':
		default:
			return "", Fail("format-error", "format: unknown directive ~%c", ctl[i])
		}
		if next >= len(args) {
			return "", Fail("format-error", "format: not enough arguments for %q", ctl)
		}
		v := args[next]
		next++
		if !value.WriteLimit(&b, v, d == 's', max) && max >= 0 {
			return b.String()[:max], Fail(KindOutputLimit, "format: the output exceeds %d bytes", max)
		}
	}
	if max >= 0 && b.Len() > max {
		return b.String()[:max], Fail(KindOutputLimit, "format: the output exceeds %d bytes", max)
	}
	return b.String(), nil
}
