package vm

import (
	"math"
	"strings"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// Compare probes with postfix code (compile.ProbeCmp.Ops). A rung of a
// dist ladder (Cmp 'd') is the compare probe of (and (< (abs (- x y)) K)
// (<= 0 (abs (- x y))) (eq (< x y) (< (- x y) 0))). distHolds evaluates
// that form as the plain code would; distance computes what all the
// rungs of one ladder need to know, once (a probe group's dist test,
// group.go), and distance.below is then one comparison a rung. An
// expression probe (Cmp 'x') runs its code on a small stack of its own
// (probeRun) with the builtins' own arithmetic and comparisons.

// distHolds is the rung |x-y| < k (k > 0) as the VM evaluates its form:
// the integer difference wraps, abs of the most negative integer is
// itself, a wrapped difference has the wrong sign; a float operand makes
// the difference a float (NaN holds no rung); a non-number fails (false).
func distHolds(x, y value.Value, k int64) bool {
	if x.Kind() == value.KInt && y.Kind() == value.KInt {
		a, b := x.Int(), y.Int()
		d := a - b
		ad := d
		if d < 0 {
			ad = -d
		}
		return ad < k && 0 <= ad && (a < b) == (d < 0)
	}
	if !x.IsNumber() || !y.IsNumber() {
		return false
	}
	a, b := x.Number(), y.Number()
	d := a - b
	ad := math.Abs(d)
	return ad < float64(k) && 0 <= ad && (a < b) == (d < 0)
}

// distance is what decides every rung of x and y: kind 0, no rung holds
// (a non-number, a wrapped difference, NaN); 1, integers |x-y| = u exactly
// (as an unsigned number); 2, a float distance f.
type distance struct {
	kind uint8
	u    uint64
	f    float64
}

func distanceOf(x, y value.Value) distance {
	if x.Kind() == value.KInt && y.Kind() == value.KInt {
		// The true |a-b| < 2^64 fits in a uint64. A rung's k is at
		// most 2^63-1, so a difference that wraps in int64 (2^63 or
		// more) holds none, as in distHolds.
		a, b := x.Int(), y.Int()
		if a >= b {
			return distance{kind: 1, u: uint64(a) - uint64(b)}
		}
		return distance{kind: 1, u: uint64(b) - uint64(a)}
	}
	if !x.IsNumber() || !y.IsNumber() {
		return distance{}
	}
	a, b := x.Number(), y.Number()
	d := a - b
	ad := math.Abs(d)
	if !(0 <= ad) || (a < b) != (d < 0) {
		return distance{}
	}
	return distance{kind: 2, f: ad}
}

// below is the rung |x-y| < k (k > 0) on the distance.
func (d distance) below(k int64) bool {
	switch d.kind {
	case 1:
		return d.u < uint64(k)
	case 2:
		return d.f < float64(k)
	}
	return false
}

// intCode tells that a dist rung's code (ProbeCmp.Ops) is made of
// locals, globals, integer constants, + - * and abs only, which intPair
// computes on integers.
func intCode(ops []compile.ProbeOp) bool {
	for _, o := range ops {
		if !strings.ContainsRune("LGK+-*a", rune(o.Op)) {
			return false
		}
	}
	return true
}

// intPair runs integer code ops (intCode) that leaves two values, in the
// frame at fp, on integers: the arithmetic wraps as the VM's does, and
// for a dist rung's operands absDiff(x, y) is what
// distanceOf(distOperands) computes then, without the values' copies
// and the general code's stack of values. ok is false when a variable
// it reads is not a bound integer (or the code is not integer code): the
// general code decides then. The dist callers take absDiff themselves:
// a wrapper doing it is not inlined, and its call cost battery's dist
// campaign 14 instructions a run.
func (m *Machine) intPair(ops []compile.ProbeOp, stack []value.Value, fp int) (x, y int64, ok bool) {
	if len(ops) == 2 {
		// Two variables or constants, the commonest case.
		x, okx := m.intLoad(&ops[0], stack, fp)
		y, oky := m.intLoad(&ops[1], stack, fp)
		return x, y, okx && oky
	}
	var st [compile.MaxProbeStack]int64
	n := 0
	for i := range ops {
		o := &ops[i]
		switch o.Op {
		case '+':
			n--
			st[n-1] += st[n]
		case '-':
			n--
			st[n-1] -= st[n]
		case '*':
			n--
			st[n-1] *= st[n]
		case 'a':
			if st[n-1] < 0 {
				st[n-1] = -st[n-1]
			}
		default:
			if st[n], ok = m.intLoad(o, stack, fp); !ok {
				return 0, 0, false
			}
			n++
		}
	}
	return st[0], st[1], true
}

// absDiff is |x-y| as an unsigned number (exact: it fits).
func absDiff(x, y int64) uint64 {
	if x < y {
		x, y = y, x
	}
	return uint64(x) - uint64(y)
}

// intLoad is intPair's variable or constant o (op 'L', 'G' or 'K') when
// it is a bound integer; ok is false otherwise (and for any other op).
func (m *Machine) intLoad(o *compile.ProbeOp, stack []value.Value, fp int) (int64, bool) {
	var v *value.Value
	switch o.Op {
	case 'K':
		return o.K, true
	case 'L':
		v = &stack[fp+int(o.Slot)]
	case 'G':
		if !m.gset[o.Slot] {
			return 0, false
		}
		v = &m.globals[o.Slot]
	default:
		return 0, false
	}
	return v.Int(), v.Kind() == value.KInt
}

// distOperands computes a dist rung's operands x and y (ProbeCmp.Ops)
// in the frame at fp; ok is false when that fails (a non-number in the
// arithmetic, an unbound global): the rung is then false.
func (m *Machine) distOperands(ops []compile.ProbeOp, stack []value.Value, fp int) (x, y value.Value, ok bool) {
	if len(ops) == 2 {
		// Two variables or constants, the commonest ladder.
		x, ok = m.probeLoad(ops[0], stack, fp)
		if !ok {
			return x, y, false
		}
		y, ok = m.probeLoad(ops[1], stack, fp)
		return x, y, ok
	}
	var st [compile.MaxProbeStack]value.Value
	if !m.probeRun(ops, &st, stack, fp) {
		return x, y, false
	}
	return st[0], st[1], true
}

// probeExpr is an expression probe's predicate (ProbeCmp.Ops, Cmp 'x')
// in the frame at fp: false when it fails.
func (m *Machine) probeExpr(ops []compile.ProbeOp, stack []value.Value, fp int) bool {
	var st [compile.MaxProbeStack]value.Value
	return m.probeRun(ops, &st, stack, fp) && st[0].Truthy()
}

// probeLoad is a probe's variable or constant (op 'L', 'G', 'K', 'T', 'N'
// or 'C'); ok is false for an unbound global.
func (m *Machine) probeLoad(o compile.ProbeOp, stack []value.Value, fp int) (value.Value, bool) {
	switch o.Op {
	case 'L':
		return stack[fp+int(o.Slot)], true
	case 'G':
		return m.globals[o.Slot], m.gset[o.Slot]
	case 'T':
		return value.T, true
	case 'N':
		return value.Nil, true
	case 'C':
		return o.V, true
	}
	return value.Int(o.K), true
}

// memberTail is (member x l) of a probe's proper constant list l: the
// tail of l that starts with x (eql), or nil.
func memberTail(x, l value.Value) value.Value {
	for ; l.Kind() == value.KCons; l = l.Cdr() {
		if value.Eql(x, l.Car()) {
			return l
		}
	}
	return value.Nil
}

// probeRun runs a probe's postfix code (compile.ProbeOp) in the frame at
// fp on st, as the builtins would: false when that fails (the operands'
// checks come first, so that a failing probe builds no failure).
func (m *Machine) probeRun(ops []compile.ProbeOp, st *[compile.MaxProbeStack]value.Value, stack []value.Value, fp int) bool {
	n := 0
	for i := 0; i < len(ops); i++ {
		o := &ops[i]
		switch o.Op {
		case 'L':
			st[n] = stack[fp+int(o.Slot)]
			n++
		case 'K':
			st[n] = value.Int(o.K)
			n++
		case 'a':
			v := &st[n-1]
			switch v.Kind() {
			case value.KInt:
				if v.Int() < 0 {
					*v = value.Int(-v.Int())
				}
			case value.KFloat:
				*v = value.Float(math.Abs(v.Float()))
			default:
				return false
			}
		case 'n':
			st[n-1] = value.Bool(!st[n-1].Truthy())
		case 'M':
			st[n-1] = memberTail(st[n-1], o.V)
		case '&', '|':
			if st[n-1].Truthy() == (o.Op == '|') {
				i = int(o.Slot) - 1
				continue
			}
			n--
		case 'e':
			n--
			st[n-1] = value.Bool(value.Eq(st[n-1], st[n]))
		case '+', '-', '*', '<', '(', '>', ')', '=', '!':
			if a, b := &st[n-2], &st[n-1]; a.Kind() == value.KInt && b.Kind() == value.KInt {
				// Two integers, the commonest case: what arith and
				// numCompare compute, without their calls.
				x, y := a.Int(), b.Int()
				n--
				switch o.Op {
				case '+':
					*a = value.Int(x + y)
				case '-':
					*a = value.Int(x - y)
				case '*':
					*a = value.Int(x * y)
				case '<':
					*a = value.Bool(x < y)
				case '(':
					*a = value.Bool(x <= y)
				case '>':
					*a = value.Bool(x > y)
				case ')':
					*a = value.Bool(x >= y)
				case '=':
					*a = value.Bool(x == y)
				default: // '!'
					*a = value.Bool(x != y)
				}
				continue
			}
			fallthrough
		case '/', '%':
			a, b := st[n-2], st[n-1]
			if !a.IsNumber() || !b.IsNumber() || (o.Op == '/' || o.Op == '%') && b.Number() == 0 {
				return false
			}
			n--
			var r value.Value
			var f *Failure
			switch o.Op {
			case '%':
				r, f = modRem("mod", a, b, true)
			case '+', '-', '*', '/':
				r, f = arith(o.Op, a, b)
			default:
				var t bool
				t, f = numCompare(probeCmpOp(o.Op), a, b)
				r = value.Bool(t != (o.Op == '!'))
			}
			if f != nil {
				return false
			}
			st[n-1] = r
		default:
			v, ok := m.probeLoad(*o, stack, fp)
			if !ok {
				return false
			}
			st[n] = v
			n++
		}
	}
	return true
}

// probeCmpOp is numCompare's op for a probe's comparison code.
func probeCmpOp(op byte) byte {
	switch op {
	case '(':
		return 'l'
	case ')':
		return 'g'
	case '!':
		return '='
	}
	return op
}
