package vm

import (
	"math"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// Arithmetic follows Common Lisp where it can: integers are int64 and wrap
// around on overflow (two's complement); any float operand makes the result
// a float; / on integers truncates toward zero; division by zero, integer
// or float, is a division-by-zero failure.

func arithOp(op compile.Op) byte {
	switch op {
	case compile.ADD:
		return '+'
	case compile.SUB:
		return '-'
	}
	return '*'
}

func opName(op byte) string { return string(op) }

// arith applies op ('+', '-', '*', '/') to two numbers.
func arith(op byte, x, y value.Value) (value.Value, *Failure) {
	if !x.IsNumber() {
		return value.Nil, typeError(opName(op), "a number", x)
	}
	if !y.IsNumber() {
		return value.Nil, typeError(opName(op), "a number", y)
	}
	if x.Kind() == value.KInt && y.Kind() == value.KInt {
		a, b := x.Int(), y.Int()
		switch op {
		case '+':
			return value.Int(a + b), nil
		case '-':
			return value.Int(a - b), nil
		case '*':
			return value.Int(a * b), nil
		default:
			if b == 0 {
				return value.Nil, Fail("division-by-zero", "/: division of %d by zero", a)
			}
			if b == -1 {
				return value.Int(-a), nil // MinInt64 / -1 wraps
			}
			return value.Int(a / b), nil
		}
	}
	a, b := x.Number(), y.Number()
	switch op {
	case '+':
		return value.Float(a + b), nil
	case '-':
		return value.Float(a - b), nil
	case '*':
		return value.Float(a * b), nil
	default:
		if b == 0 {
			return value.Nil, Fail("division-by-zero", "/: division of %s by zero", value.Abbrev(x, maxShown))
		}
		return value.Float(a / b), nil
	}
}

func cmpOp(op compile.Op) byte {
	switch op {
	case compile.LT:
		return '<'
	case compile.LE:
		return 'l'
	case compile.GT:
		return '>'
	case compile.GE:
		return 'g'
	}
	return '='
}

func immCmpOp(op compile.Op) byte {
	switch op {
	case compile.LTI:
		return '<'
	case compile.LEI:
		return 'l'
	case compile.GTI:
		return '>'
	case compile.GEI:
		return 'g'
	}
	return '='
}

var cmpNames = map[byte]string{'<': "<", 'l': "<=", '>': ">", 'g': ">=", '=': "="}

// numCompare compares two numbers; op is '<', 'l' (<=), '>', 'g' (>=) or
// '='. Mixed int/float compares exactly where float64 can.
func numCompare(op byte, x, y value.Value) (bool, *Failure) {
	if !x.IsNumber() {
		return false, typeError(cmpNames[op], "a number", x)
	}
	if !y.IsNumber() {
		return false, typeError(cmpNames[op], "a number", y)
	}
	if x.Kind() == value.KInt && y.Kind() == value.KInt {
		return compareOrdered(op, x.Int(), y.Int()), nil
	}
	return compareOrdered(op, x.Number(), y.Number()), nil
}

// compareOrdered applies numCompare's op to two ints or two floats.
func compareOrdered[T int64 | float64](op byte, a, b T) bool {
	switch op {
	case '<':
		return a < b
	case 'l':
		return a <= b
	case '>':
		return a > b
	case 'g':
		return a >= b
	}
	return a == b
}

// floorDiv and the float variants implement mod (floored) and rem
// (truncated) and floor with a divisor.
func modRem(name string, x, y value.Value, floored bool) (value.Value, *Failure) {
	if !x.IsNumber() {
		return value.Nil, typeError(name, "a number", x)
	}
	if !y.IsNumber() {
		return value.Nil, typeError(name, "a number", y)
	}
	if x.Kind() == value.KInt && y.Kind() == value.KInt {
		a, b := x.Int(), y.Int()
		if b == 0 {
			return value.Nil, Fail("division-by-zero", "%s: %d by zero", name, a)
		}
		if b == -1 {
			return value.Int(0), nil
		}
		r := a % b
		if floored && r != 0 && (r < 0) != (b < 0) {
			r += b
		}
		return value.Int(r), nil
	}
	a, b := x.Number(), y.Number()
	if b == 0 {
		return value.Nil, Fail("division-by-zero", "%s: %s by zero", name, value.Abbrev(x, maxShown))
	}
	r := math.Mod(a, b)
	if floored && r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return value.Float(r), nil
}

// toInt converts a float that must become an integer (floor, round).
func toInt(name string, f float64) (value.Value, *Failure) {
	if math.IsNaN(f) || f >= 9.223372036854775807e18 || f < -9.223372036854775808e18 {
		return value.Nil, Fail("arithmetic-error", "%s: %s does not fit in an integer", name, value.FormatFloat(f))
	}
	return value.Int(int64(f)), nil
}
