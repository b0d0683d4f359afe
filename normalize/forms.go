package normalize

import "github.com/labelcov/labelcov/interp/syntax"

// Slot is the place of one evaluated subexpression inside a form.
type Slot struct {
	// Path indexes from the form down to the subexpression: [i] is
	// form.Elems[i]; [i, j] is form.Elems[i].Elems[j], and so on.
	Path []int
	// Test marks the test of a decision: the test of if, when, unless and
	// while, and the test of each cond clause.
	Test bool
}

// At returns the node at path below l, or nil if the path does not exist.
func At(l *syntax.List, path []int) syntax.Node {
	var n syntax.Node = l
	for _, i := range path {
		ll, ok := n.(*syntax.List)
		if !ok || i < 0 || i >= len(ll.Elems) {
			return nil
		}
		n = ll.Elems[i]
	}
	return n
}

// IsDesignatorVar reports whether a bare symbol used as a designator
// property value is evaluated (a ?-variable) rather than a literal symbol.
func IsDesignatorVar(name string) bool { return len(name) > 1 && name[0] == '?' }

// Slots lists the evaluated subexpressions of form l in evaluation order,
// following the plan language's special forms: binding names, designator
// keys and literal property values, quoted data and case keys are not
// expressions. Malformed forms yield the slots that exist; the compiler
// reports the malformation.
func Slots(l *syntax.List) []Slot {
	n := len(l.Elems)
	if n == 0 || Opaque(l) {
		return nil
	}
	var out []Slot
	add := func(path ...int) { out = append(out, Slot{Path: path}) }
	from := func(i int) {
		for ; i < n; i++ {
			add(i)
		}
	}
	switch syntax.Head(l) {
	case "quote", "function":
		return nil
	case "lambda":
		from(2)
	case "defun", "def-plan", "def-check", "def-policy":
		from(3)
	case "defparameter":
		from(2)
	case "let", "let*":
		if n < 2 {
			return nil
		}
		if bl, ok := l.Elems[1].(*syntax.List); ok {
			for k, b := range bl.Elems {
				if b, ok := b.(*syntax.List); ok && len(b.Elems) >= 2 {
					add(1, k, 1)
				}
			}
		}
		from(2)
	case "dolist", "dotimes":
		if n > 1 {
			if spec, ok := l.Elems[1].(*syntax.List); ok {
				for j := 1; j < len(spec.Elems) && j <= 2; j++ {
					add(1, j)
				}
			}
		}
		from(2)
	case "setq", "setf":
		for i := 2; i < n; i += 2 {
			add(i)
		}
	case "incf", "decf":
		from(2)
	case "push":
		if n > 1 {
			add(1)
		}
	case "pop", "retry":
		return nil
	case "with-failure-handling":
		if n > 1 {
			if cl, ok := l.Elems[1].(*syntax.List); ok {
				for k, c := range cl.Elems {
					if c, ok := c.(*syntax.List); ok {
						for j := 2; j < len(c.Elems); j++ {
							add(1, k, j)
						}
					}
				}
			}
		}
		from(2)
	case "case":
		if n > 1 {
			add(1)
		}
		for i := 2; i < n; i++ {
			if c, ok := l.Elems[i].(*syntax.List); ok {
				for j := 1; j < len(c.Elems); j++ {
					add(i, j)
				}
			}
		}
	case "cond":
		for i := 1; i < n; i++ {
			if c, ok := l.Elems[i].(*syntax.List); ok {
				for j := range c.Elems {
					out = append(out, Slot{Path: []int{i, j}, Test: j == 0})
				}
			}
		}
	case "if", "when", "unless", "while":
		if n > 1 {
			out = append(out, Slot{Path: []int{1}, Test: true})
		}
		from(2)
	case "a", "an":
		if n > 1 {
			if _, ok := l.Elems[1].(*syntax.Symbol); !ok {
				return nil
			}
		}
		for i := 2; i < n; i++ {
			p, ok := l.Elems[i].(*syntax.List)
			if !ok || len(p.Elems) != 2 {
				continue
			}
			if s, ok := p.Elems[1].(*syntax.Symbol); ok && !IsDesignatorVar(s.Name) {
				continue // a literal symbol such as left in (arm left)
			}
			add(i, 1)
		}
	default:
		from(1)
	}
	return out
}

// pureBuiltins are the core builtins without effects: calling them twice
// with the same arguments gives the same value or the same failure.
var pureBuiltins = setOf(
	"+", "-", "*", "/", "mod", "rem", "abs", "min", "max", "floor", "round", "sqrt", "1+", "1-",
	"<", "<=", ">", ">=", "=", "/=", "eq", "eql", "equal", "string=",
	"not", "null", "numberp", "integerp", "floatp", "symbolp", "keywordp", "listp", "consp",
	"stringp", "functionp", "designatorp", "zerop", "plusp", "minusp", "evenp", "oddp",
	"list", "cons", "car", "cdr", "first", "second", "third", "rest", "nth", "length",
	"append", "reverse", "member", "remove", "assoc", "desig-prop",
)

// Relational and arithmetic builtins: the sites of ROR, AOR and ABS.
var (
	relational = setOf("<", "<=", ">", ">=", "=", "/=")
	arithmetic = setOf("+", "-", "*", "/")
	numeric    = setOf("+", "-", "*", "/", "mod", "rem", "abs", "min", "max", "floor", "round",
		"sqrt", "1+", "1-", "<", "<=", ">", ">=", "=", "/=", "zerop", "plusp", "minusp")
)

// IsRelational reports whether name is a numeric comparison (ROR sites).
func IsRelational(name string) bool { return relational[name] }

// IsArithmetic reports whether name is one of + - * / (AOR sites).
func IsArithmetic(name string) bool { return arithmetic[name] }

// IsNumeric reports whether name is a builtin whose operands are numbers: a
// variable that is an operand of one of these is an ABS site.
func IsNumeric(name string) bool { return numeric[name] }

// IsPureBuiltin reports whether name is a core builtin without effects.
func IsPureBuiltin(name string) bool { return pureBuiltins[name] }

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// IsConstant reports whether n is a literal whose value never changes:
// numbers, strings, keywords, quoted data, t and nil.
func IsConstant(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Int, *syntax.Float, *syntax.String, *syntax.Keyword, *syntax.Quote:
		return true
	case *syntax.Symbol:
		return n.Name == "t" || n.Name == "nil"
	case *syntax.List:
		return len(n.Elems) == 0 || syntax.Head(n) == "quote"
	}
	return false
}
