package golang

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"

	"github.com/dave/dst"
	"github.com/labelcov/labelcov/labels"
	gonorm "github.com/labelcov/labelcov/normalize/golang"
)

// Stepping stones of dist for equalities the ladder cannot grade:
//
//   - an integer of 16, 32 or 64 bits against a constant (== and !=, switch
//     cases): "the top j bytes agree", uintN(x)>>(8*(n-j)) == c>>(8*(n-j))
//     for j = 1 ... n-1, most significant first, as laf-intel's
//     split-compares: a byte mutation that fixes the next byte is kept;
//   - strings against a constant or another string (== and !=, switch
//     cases), and the []byte and string arguments of bytes.Equal,
//     bytes.HasPrefix and strings.HasPrefix: "the first k bytes agree",
//     len(x) >= k && x[:k] == "c[:k]" for k = 1 ... n-1 of a constant of n
//     bytes (at most labels.MaxPrefixStones), and for k in
//     labels.PrefixSteps(-1) against a value that is not constant (len(y)
//     >= k on it too), as laf-intel's strcmp splitting; the plan front end
//     shares these lengths (in characters).
//
// Each is a conjunction Go evaluates left to right, so the slice is taken
// only when it is in range.

// byteStones adds the byte-wise stones of x == y when y is a constant of
// an integer type of 16 bits or more.
func (e *enumerator) byteStones(x, y dst.Expr, at dst.Expr, lz []lazy, point dst.Stmt) {
	if e.t.Const(x) != nil {
		x, y = y, x
	}
	c := e.t.Const(y)
	b := gonorm.Basic(e.t.TypeOf(x))
	if c == nil || e.t.Const(x) != nil || b == nil || b.Info()&types.IsInteger == 0 || isUntyped(b) {
		return
	}
	bits, _ := intBits(b.Kind())
	if bits < 16 {
		return
	}
	u, ok := constant.Uint64Val(constant.ToInt(c))
	if !ok {
		i, ok := constant.Int64Val(constant.ToInt(c))
		if !ok {
			return
		}
		u = uint64(i) // two's complement; the top bytes of a narrower type are shifted out
	}
	ut := "uint" + strconv.Itoa(bits)
	n := bits / 8
	skip := e.constSkipped(x, y, c, at) // listed, not injected
	for j := 1; j < n; j++ {
		sh := 8 * (n - j)
		want := (u & (1<<(bits-1)<<1 - 1)) >> sh
		if bits == 64 {
			want = u >> sh
		}
		pred := bin(bin(conv(ut, of(x)), token.SHR, lit(token.INT, strconv.Itoa(sh))), token.EQL, lit(token.INT, strconv.FormatUint(want, 10)))
		gl := e.addConj(labels.DIST, "top "+strconv.Itoa(j)+" of "+strconv.Itoa(n)+" bytes =", point, at, []pe{pred}, lz, []dst.Expr{x, y})
		if skip != "" && gl != nil && gl.Status == labels.Active {
			e.setStatus(gl, labels.Skipped, skip)
		}
	}
}

// stringStones adds the prefix stones of x == y on strings.
func (e *enumerator) stringStones(x, y dst.Expr, at dst.Expr, lz []lazy, point dst.Stmt) {
	if e.t.Const(x) != nil {
		x, y = y, x
	}
	if e.t.Const(x) != nil || !isString(e.t.TypeOf(x)) || !isString(e.t.TypeOf(y)) {
		return
	}
	e.prefixStones(x, y, false, at, lz, point)
}

// callStones adds the prefix stones of bytes.Equal(a, b),
// bytes.HasPrefix(s, p) and strings.HasPrefix(s, p).
func (e *enumerator) callStones(call *dst.CallExpr, lz []lazy, point dst.Stmt) {
	if len(call.Args) != 2 || e.t.Impure(call.Args[0]) || e.t.Impure(call.Args[1]) {
		return
	}
	switch ExprString(call.Fun) {
	case "bytes.Equal", "bytes.HasPrefix", "strings.HasPrefix":
	default:
		return
	}
	x, y := call.Args[0], call.Args[1]
	if _, ok := e.constBytes(x); ok {
		x, y = y, x
	}
	if _, ok := e.constBytes(x); ok {
		return
	}
	e.prefixStones(x, y, isBytes(e.t.TypeOf(x)), call, lz, point)
}

// prefixStones adds the stones "the first k bytes of x and y agree"; x is
// not constant; asBytes: x is a []byte (compared as string(x[:k])).
func (e *enumerator) prefixStones(x, y dst.Expr, asBytes bool, at dst.Expr, lz []lazy, point dst.Stmt) {
	head := func(v dst.Expr, k int) pe {
		p := of(v)
		if _, ok := v.(*dst.UnaryExpr); ok || prec(p.d) < 6 {
			p = paren(p)
		}
		kl := lit(token.INT, strconv.Itoa(k))
		s := pe{&dst.SliceExpr{X: p.d, High: kl.d}, p.s + "[:" + kl.s + "]"}
		if isBytes(e.t.TypeOf(v)) {
			s = conv("string", s)
		}
		return s
	}
	long := func(v dst.Expr, k int) pe {
		return bin(pe{&dst.CallExpr{Fun: dst.NewIdent("len"), Args: []dst.Expr{of(v).d}}, "len(" + of(v).s + ")"}, token.GEQ, lit(token.INT, strconv.Itoa(k)))
	}
	if c, ok := e.constBytes(y); ok {
		for _, k := range labels.PrefixSteps(len(c)) {
			pred := []pe{long(x, k), bin(head(x, k), token.EQL, lit(token.STRING, strconv.Quote(c[:k])))}
			e.addConj(labels.DIST, labels.PrefixOperator(k), point, at, pred, lz, []dst.Expr{x})
		}
		return
	}
	for _, k := range labels.PrefixSteps(-1) {
		pred := []pe{long(x, k), long(y, k), bin(head(x, k), token.EQL, head(y, k))}
		e.addConj(labels.DIST, labels.PrefixOperator(k), point, at, pred, lz, []dst.Expr{x, y})
	}
}

// constBytes is the value of a constant string, or of a conversion of one
// to []byte.
func (e *enumerator) constBytes(x dst.Expr) (string, bool) {
	if c := e.t.Const(x); c != nil {
		if c.Kind() == constant.String {
			return constant.StringVal(c), true
		}
		return "", false
	}
	if call, ok := x.(*dst.CallExpr); ok && len(call.Args) == 1 && isBytes(e.t.TypeOf(x)) {
		if c := e.t.Const(call.Args[0]); c != nil && c.Kind() == constant.String {
			return constant.StringVal(c), true
		}
	}
	return "", false
}

func isString(t types.Type) bool {
	b := gonorm.Basic(t)
	return b != nil && b.Info()&types.IsString != 0
}

func isBytes(t types.Type) bool {
	if t == nil {
		return false
	}
	s, ok := t.Underlying().(*types.Slice)
	if !ok {
		return false
	}
	b, ok := s.Elem().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Byte
}
