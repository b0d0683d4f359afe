package golang

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"math/big"
	"strconv"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
)

// dist adds the dist labels of the relation x op y on numbers: for each k
// of labels.DistRungs of the operands' type (every integer width, float32,
// float64), |x - y| < 2^k, written so that it cannot overflow or panic and
// without calls:
//
//   - floats: x - y < K && y - x < K (false for NaN, as |NaN| < K is);
//   - integers against a constant c: x > c-K && x < c+K, a side that
//     always holds left out (a side beyond 32 bits is written on int64(x)
//     or uint64(x) when x is an int, uint or uintptr, whose size depends on
//     the platform);
//   - two signed integers: (x >= y && uint64(x)-uint64(y) < K) ||
//     (x < y && uint64(y)-uint64(x) < K), where the uint64 difference is
//     exact (below 2^64) although x - y may overflow; unsigned ones
//     subtract in their own type, which cannot wrap once x >= y.
//
// A rung that holds for every value against a constant (both sides left
// out) is trivial; rungs beyond the type's width are not in its ladder; an
// 8-bit integer equal (or not) to a constant and len or cap compared with a
// constant below 256 get no ladder. The operands are
// written in a canonical order (a constant last), so a < b and b > a
// evaluated together share one ladder.
func (e *enumerator) dist(x, y dst.Expr, at dst.Expr, lz []lazy, point dst.Stmt) {
	for _, o := range []dst.Expr{x, y} {
		if isUntyped(e.t.TypeOf(o)) && e.t.Const(o) == nil {
			return // a shift of an untyped constant: its type is the context's
		}
	}
	b := e.basicOf(x, y)
	if b == nil || b.Info()&(types.IsInteger|types.IsFloat) == 0 {
		return
	}
	if e.t.Const(x) != nil || (e.t.Const(y) == nil && ExprString(y) < ExprString(x)) {
		x, y = y, x
	}
	c := e.t.Const(y)
	isFloat := b.Info()&types.IsFloat != 0
	bits, _ := intBits(b.Kind())
	if c != nil && isLen(x) && constant.Compare(constant.ToInt(c), token.LSS, constant.MakeInt64(256)) {
		// A length compared with a small constant needs no gradient
		// (insert and remove mutations reach it), and Go's edge counters
		// see both outcomes of each rung, so the rungs above it keep
		// ever longer inputs (10-30 KB within a second on FuzzEasy).
		return
	}
	if !isFloat && bits == 8 && c != nil && isEquality(at) {
		// A byte equal to a constant needs no gradient (one byte mutation
		// in 256 writes it), and rungs only dilute the corpus: Go's fuzzer
		// took 2-4 times the executions on testdata/go/ladder's FuzzEasy
		// with them.
		return
	}
	if isFloat {
		bits = 64
		if b.Kind() == types.Float32 {
			bits = 32
		}
	}
	skip := e.ladderSkipped(x, y, c, bits, isFloat, at)
	rank := rankVars
	if c != nil {
		rank = rankConst
		if v := constant.ToFloat(c); constant.Compare(v, token.GEQ, constant.MakeInt64(1<<16)) || constant.Compare(v, token.LEQ, constant.MakeInt64(-1<<16)) {
			rank = rankWideConst
		}
	}
	for _, k := range labels.DistRungs(labels.DistType{Bits: bits, Float: isFloat}) {
		bound := constant.Shift(constant.MakeInt64(1), token.SHL, uint(k))
		// A dst node has one place in the tree: each use is a fresh one.
		kl := func() pe { return lit(token.INT, bound.ExactString()) }
		if isFloat && k > 63 {
			// 2^512 is beyond the integer constants go/types accepts.
			s := floatPow2(k, e.goAtLeast("go1.13"))
			kl = func() pe { return lit(token.FLOAT, s) }
		}
		op := labels.DistOperator(k)
		var conj []pe
		why := ""
		switch {
		case isFloat:
			conj = []pe{bin(bin(of(x), token.SUB, of(y)), token.LSS, kl()), bin(bin(of(y), token.SUB, of(x)), token.LSS, kl())}
		case c != nil:
			var ok bool
			conj, ok = distConst(func() pe { return of(x) }, b, constant.ToInt(c), bound)
			if !ok {
				why = fmt.Sprintf("predicate is constant true: every %s is within %s of %s", b.Name(), bound.ExactString(), ExprString(y))
			}
		default:
			diff := func(x, y pe) pe {
				if b.Info()&types.IsUnsigned == 0 {
					x, y = conv("uint64", x), conv("uint64", y)
				}
				return bin(bin(x, token.SUB, y), token.LSS, kl())
			}
			conj = []pe{bin(paren(and(bin(of(x), token.GEQ, of(y)), diff(of(x), of(y)))), token.LOR,
				paren(and(bin(of(x), token.LSS, of(y)), diff(of(y), of(x)))))}
		}
		gl := e.addConj(labels.DIST, op, point, at, conj, lz, []dst.Expr{x, y})
		if gl != nil {
			gl.distRank, gl.thinRung = rank, k%4 != 0
		}
		switch {
		case why != "":
			e.setStatus(gl, labels.Trivial, why)
		case skip != "" && gl != nil && gl.Status == labels.Active:
			e.setStatus(gl, labels.Skipped, skip)
		}
	}
}

// ladderSkipped returns why the rungs of the relation between x and y
// (canonical order: c is y's constant value or nil) are listed but not
// injected, or "" when they are injected. Rungs cost a comparison each
// every time their point runs; where Go's mutator or the code itself
// already brings the operands together, they slow the fuzzer for
// nothing (docs/go.md, "Rungs left out"):
//
//   - a relation on 8-bit integers: one byte mutation writes any value,
//     and Go's mutator adds ±1…35 to a byte (an 8-bit equality with a
//     constant gets no ladder at all, as before);
//   - a case of a switch with more than longSwitch case expressions,
//     against a constant: the top-byte stones (16 bits and more) lead to
//     each case, the last byte is one byte mutation away, and a ladder
//     per case would run every case's rungs on every pass of the switch;
//   - a variable or field path the function steps by one (i++, z.pos--
//     somewhere in it; or the length of a slice it appends to one element
//     at a time, s = append(s, x); maybe in a sum or difference) against another value (`i ==
//     len(data)`, `i+3 <= n`, `end-start >= max`) or a constant below 256 in magnitude (`i >
//     0`): the scan itself walks the index there, and insert and remove
//     mutations move where it stops, so the rungs again only grade
//     positions in the input. A length read from the input (never
//     stepped) keeps its ladder, and so does a stepped counter against a
//     larger limit (`depth > 1000`);
//   - a flag test, x & mask (or a remainder, x % 2) equal (or not) to 0:
//     one bit flip decides it;
//   - an equality with a named constant of a defined integer type (`t.Type
//     == String`, `n.DataAtom == atom.Table`): an enumeration, whose values
//     code assigns by name; the distance between two of them grades
//     nothing;
//   - a rune against an ASCII character (`c == ' '`, `c < 0x80`): one byte
//     mutation writes it, as on bytes.
//
// The last three, and a stepped variable against a constant below 256,
// leave out the top-byte stones too (constSkipped).
func (e *enumerator) ladderSkipped(x, y dst.Expr, c constant.Value, bits int, isFloat bool, at dst.Expr) string {
	if (c == nil && (e.isStepped(x) || e.isStepped(y))) || (c != nil && e.isStepped(x) && smallConst(c)) {
		return "variable the function steps by one (i++) against another value or a constant below 256: the scan walks it there, the rungs would grade positions in the input (rungs left out)"
	}
	if why := e.constSkipped(x, y, c, at); why != "" {
		return why
	}
	switch {
	case !isFloat && c != nil && smallConst(c) && constant.Sign(c) != 0:
		return smallRelation
	case !isFloat && bits == 8:
		return "relation on 8-bit integers: one byte mutation writes any value (rungs left out)"
	case e.switchCases > longSwitch && c != nil:
		return fmt.Sprintf("case of a switch with %d case expressions: the top-byte stones lead to each case (rungs left out)", e.switchCases)
	}
	return ""
}

// constSkipped returns why both the rungs and the top-byte stones of the
// relation of x with the constant y (value c, nil when y is none) are
// listed but not injected, or "": flag tests (x & mask or x % m equal to
// 0), equalities with an enumeration's named constant, and a rune
// against an ASCII character (one byte mutation writes it, as on bytes).
func (e *enumerator) constSkipped(x, y dst.Expr, c constant.Value, at dst.Expr) string {
	if c == nil {
		return ""
	}
	if why := e.resultSkipped(x, c); why != "" {
		return why
	}
	if e.isStepped(x) && smallConst(c) {
		return steppedSmall
	}
	if b, ok := types.Unalias(e.t.TypeOf(x)).(*types.Basic); ok && b.Name() == "rune" {
		if v, ok := constant.Int64Val(constant.ToInt(c)); ok && v >= 0 && v < 128 {
			return "a rune against an ASCII character: one byte mutation writes it (rungs and stones left out)"
		}
	}
	if !isEquality(at) {
		return ""
	}
	if constant.Sign(c) == 0 && isMask(x) {
		return flagTest
	}
	if isName(y) {
		if n, ok := types.Unalias(e.t.TypeOf(y)).(*types.Named); ok {
			return "equality with a constant of the enumeration " + n.Obj().Name() + ": code assigns its values by name, there is no distance to climb (rungs and stones left out)"
		}
	}
	return ""
}

// steppedSmall is the reason the dist labels of a variable the function
// steps by one against a constant below 256 in magnitude are skipped.
const steppedSmall = "variable the function steps by one (i++) against a constant below 256: the scan walks it there, and its top bytes are those of every position in the input (rungs and stones left out)"

// smallRelation is the reason the dist labels of an integer's relation
// with a constant below 256 in magnitude are skipped.
const smallRelation = "relation with a constant below 256 in magnitude other than 0: Go's mutator writes such a value in one step (a random byte, ±35, its interesting values 0, ±1, 16, 32, 64, 100, 127, 255…), and each rung adds fuzzing counters that every execution scans (rungs left out)"

// flagTest is the reason the dist labels of x & mask == 0 are skipped.
const flagTest = "flag test (x & mask or x % m against 0): one bit flip decides it (rungs and stones left out)"

// smallConst reports whether the integer constant c lies in -255 … 255.
func smallConst(c constant.Value) bool {
	v, ok := constant.Int64Val(constant.ToInt(c))
	return ok && v > -256 && v < 256
}

// isMask reports whether x is x & y, x &^ y or x % y (a remainder: a
// parity test like n%2 == 0 is a flag test of its low bits).
func isMask(x dst.Expr) bool {
	for {
		p, ok := x.(*dst.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	b, ok := x.(*dst.BinaryExpr)
	return ok && (b.Op == token.AND || b.Op == token.AND_NOT || b.Op == token.REM)
}

// isName reports whether x is a (possibly qualified) identifier.
func isName(x dst.Expr) bool {
	switch n := x.(type) {
	case *dst.Ident:
		return true
	case *dst.SelectorExpr:
		_, ok := n.X.(*dst.Ident)
		return ok
	}
	return false
}

// isStepped reports whether x is a variable the function steps by one
// (e.stepped), or the length of a slice it appends to one element at a
// time, alone or as an operand of + or - (i+3, end-start).
func (e *enumerator) isStepped(x dst.Expr) bool {
	for {
		switch n := x.(type) {
		case *dst.ParenExpr:
			x = n.X
			continue
		case *dst.BinaryExpr:
			if n.Op == token.ADD || n.Op == token.SUB {
				return e.isStepped(n.X) || e.isStepped(n.Y)
			}
		case *dst.SelectorExpr:
			if e.positions[e.t.ObjectOf(n.Sel)] {
				return true
			}
			k := e.stepKey(n)
			return k != nil && e.stepped[k]
		case *dst.Ident:
			k := e.stepKey(n)
			return k != nil && e.stepped[k]
		case *dst.CallExpr:
			if len(n.Args) == 1 && e.isBuiltin(n.Fun, "len") {
				k := e.stepKey(n.Args[0])
				return k != nil && e.stepped[lenOf{k}]
			}
		}
		return false
	}
}

// distConst writes |x - c| < bound, for x (a fresh copy at each call) of
// integer type b and the integer constant c, as the conjuncts x > c-bound
// and x < c+bound without the sides every value of b satisfies; ok is
// false when both are left out (the result then has both, for the
// manifest only: its literals may not be values of b).
func distConst(x func() pe, b *types.Basic, c constant.Value, kv constant.Value) (conj []pe, ok bool) {
	lo, hi := constant.BinaryOp(c, token.SUB, kv), constant.BinaryOp(c, token.ADD, kv)
	wide := "int64"
	if b.Info()&types.IsUnsigned != 0 {
		wide = "uint64"
	}
	bits, fixed := intBits(b.Kind())
	min, max := intRange(b, bits)
	smin, smax := min, max
	if !fixed { // int, uint, uintptr: 32 bits on some platforms
		smin, smax = intRange(b, 32)
	}
	var parts []pe
	side := func(v constant.Value, op token.Token, always bool) {
		if always {
			return
		}
		xv := x()
		if constant.Compare(v, token.LSS, smin) || constant.Compare(v, token.GTR, smax) {
			xv = conv(wide, x())
		}
		parts = append(parts, bin(xv, op, intLit(v)))
	}
	side(lo, token.GTR, constant.Compare(lo, token.LSS, min))
	side(hi, token.LSS, constant.Compare(hi, token.GTR, max))
	if len(parts) == 0 {
		return []pe{bin(x(), token.GTR, intLit(lo)), bin(x(), token.LSS, intLit(hi))}, false
	}
	return parts, true
}

// intBits is the size in bits of integer kind k; fixed is false for int,
// uint and uintptr, whose size is the platform's (64 bits at most).
func intBits(k types.BasicKind) (bits int, fixed bool) {
	switch k {
	case types.Int8, types.Uint8:
		return 8, true
	case types.Int16, types.Uint16:
		return 16, true
	case types.Int32, types.Uint32:
		return 32, true
	case types.Int64, types.Uint64:
		return 64, true
	}
	return 64, false
}

// intRange is the range of the integers of b's signedness with bits bits.
func intRange(b *types.Basic, bits int) (min, max constant.Value) {
	one := constant.MakeInt64(1)
	if b.Info()&types.IsUnsigned != 0 {
		return constant.MakeInt64(0), constant.BinaryOp(constant.Shift(one, token.SHL, uint(bits)), token.SUB, one)
	}
	half := constant.Shift(one, token.SHL, uint(bits-1))
	return constant.UnaryOp(token.SUB, half, 0), constant.BinaryOp(half, token.SUB, one)
}

// intLit writes the integer constant v (a negative one as -n).
func intLit(v constant.Value) pe {
	if constant.Sign(v) < 0 {
		abs := lit(token.INT, constant.UnaryOp(token.SUB, v, 0).ExactString())
		return pe{&dst.UnaryExpr{Op: token.SUB, X: abs.d}, "-" + abs.s}
	}
	return lit(token.INT, v.ExactString())
}

// isEquality reports whether the relation at is == or != (a switch case,
// at being its expression, is an equality).
func isEquality(at dst.Expr) bool {
	b, ok := at.(*dst.BinaryExpr)
	return !ok || b.Op == token.EQL || b.Op == token.NEQ
}

// isLen reports whether x is a call of the builtin len or cap.
func isLen(x dst.Expr) bool {
	c, ok := x.(*dst.CallExpr)
	if !ok {
		return false
	}
	id, ok := c.Fun.(*dst.Ident)
	return ok && (id.Name == "len" || id.Name == "cap") && id.Path == ""
}

// floatPow2 writes the float constant 2^k: as the hexadecimal literal
// 0x1pK when hex allows it (Go 1.13 and later), else as the decimal
// literal of its exact value (every power of two has finite decimal
// digits), which denotes the same float64 in every Go version.
func floatPow2(k int, hex bool) string {
	if hex {
		return "0x1p" + strconv.Itoa(k)
	}
	return new(big.Int).Lsh(big.NewInt(1), uint(k)).String() + ".0"
}
