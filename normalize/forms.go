package normalize

import (
	"github.com/labelcov/labelcov/interp/forms"
	"github.com/labelcov/labelcov/interp/syntax"
)

// Slot is the place of one evaluated subexpression inside a form; the
// special forms' shapes live in interp/forms, shared with the compiler.
type Slot = forms.Slot

// At returns the node at path below l, or nil if the path does not exist.
func At(l *syntax.List, path []int) syntax.Node { return forms.At(l, path) }

// Slots lists the evaluated subexpressions of form l in evaluation order
// (see forms.Slots).
func Slots(l *syntax.List) []Slot { return forms.Slots(l) }

// pureBuiltins are the core builtins without effects: calling them twice
// with the same arguments gives the same value or the same failure.
var pureBuiltins = setOf(
	"+", "-", "*", "/", "mod", "rem", "abs", "min", "max", "floor", "round", "sqrt", "1+", "1-",
	"<", "<=", ">", ">=", "=", "/=", "eq", "eql", "equal", "string=",
	"not", "null", "numberp", "integerp", "floatp", "symbolp", "keywordp", "listp", "consp",
	"stringp", "functionp", "designatorp", "zerop", "plusp", "minusp", "evenp", "oddp",
	"list", "cons", "car", "cdr", "first", "second", "third", "rest", "nth", "length",
	"append", "reverse", "member", "remove", "assoc", "desig-prop",
	"subseq", "mismatch", "code-char", "char-code",
)

// Relational and arithmetic builtins: the sites of ROR, AOR and ABS.
var (
	relational = setOf("<", "<=", ">", ">=", "=", "/=")
	arithmetic = setOf("+", "-", "*", "/")
	numeric    = setOf("+", "-", "*", "/", "mod", "rem", "abs", "min", "max", "floor", "round",
		"sqrt", "1+", "1-", "<", "<=", ">", ">=", "=", "/=", "zerop", "plusp", "minusp")
)

// stringEqualities are the comparisons of strings that dist splits into
// prefix stones.
var stringEqualities = setOf("string=", "equal")

// IsStringEquality reports whether name is string= or equal, whose binary
// calls are label sites (dist's prefix stones).
func IsStringEquality(name string) bool { return stringEqualities[name] }

// IsRelational reports whether name is a numeric comparison (ROR sites).
func IsRelational(name string) bool { return relational[name] }

// IsArithmetic reports whether name is one of + - * / (AOR sites).
func IsArithmetic(name string) bool { return arithmetic[name] }

// IsNumeric reports whether name is a builtin whose operands are numbers: a
// variable that is an operand of one of these is an ABS site.
func IsNumeric(name string) bool { return numeric[name] }

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// IsConstant reports whether n is a literal whose value never changes:
// numbers, strings, characters, keywords, quoted data, t and nil.
func IsConstant(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.Int, *syntax.Float, *syntax.String, *syntax.Keyword, *syntax.Quote, *syntax.Char:
		return true
	case *syntax.Symbol:
		return n.Name == "t" || n.Name == "nil"
	case *syntax.List:
		return len(n.Elems) == 0 || forms.Head(n) == "quote"
	}
	return false
}
