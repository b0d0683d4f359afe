package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"
	"unicode/utf8"

	"github.com/dave/dst"
)

// resultKind says what an integer operand holds when it only ever holds
// a call's result: a position or size (count) or anything else a call
// returns (call).
type resultKind int

const (
	notResult resultKind = iota
	// countResult: len, cap, copy, a Len method, or an Index, LastIndex,
	// Count, RuneCount or RuneLen of package bytes, strings or utf8: a
	// position in the input or a number of its bytes, runes or matches.
	countResult
	// callResult: the result of any other call (not a conversion).
	callResult
)

// resultSkipped returns why the rungs and stones of the relation of x with
// the integer constant c are listed but not injected, or "":
//
//   - an index or a count (countResult) against a constant below 256 in
//     magnitude (`i == -1`, `n == 1`, `i > 8`): the result of
//     bytes.IndexByte is where the input has a '-', and insert and remove
//     mutations move it; the rungs would grade positions in the input, as
//     for a stepped index;
//   - any other call's result against -1, 0 or 1 (`bytes.Compare(a, b) !=
//     1`, `f() == 0`): the sentinel of a comparison, a search or a status,
//     which the callee decides by its own branches; the rungs would grade
//     how far the result is from the sentinel, and the top-byte stones of
//     -1 only ask for the 0xff bytes of a negative number; so is a
//     decoded rune against utf8.RuneError, which any invalid byte gives.
func (e *enumerator) resultSkipped(x dst.Expr, c constant.Value) string {
	if c == nil || c.Kind() != constant.Int {
		return ""
	}
	v, ok := constant.Int64Val(c)
	if !ok {
		return ""
	}
	switch e.resultOf(x) {
	case countResult:
		if v > -256 && v < 256 {
			return "an index or a count (len, copy, Index or Count of bytes or strings, a variable that only holds those) against a constant below 256: insert and remove mutations move it, the rungs would grade positions in the input (rungs and stones left out)"
		}
	case callResult:
		if v >= -1 && v <= 1 || v == utf8.RuneError {
			return "a call's result against -1, 0, 1 or utf8.RuneError (a comparison's, a search's, a status' or a decoder's sentinel): the callee's branches decide it, the rungs would grade the distance to the sentinel (rungs and stones left out)"
		}
	}
	return ""
}

// resultOf says whether x (maybe parenthesized) is a call's result: a call
// itself, a temporary normalization saved one in, or a local variable of
// e.results.
func (e *enumerator) resultOf(x dst.Expr) resultKind {
	for {
		p, ok := x.(*dst.ParenExpr)
		if !ok {
			break
		}
		x = p.X
	}
	switch n := x.(type) {
	case *dst.CallExpr:
		if e.t.IsType(n.Fun) {
			return notResult // a conversion
		}
		if isCountCall(n) {
			return countResult
		}
		return callResult
	case *dst.Ident:
		if n.Path != "" {
			return notResult
		}
		if o := e.t.Origin(n); o != nil {
			return e.resultOf(o)
		}
		if obj := e.t.ObjectOf(n); obj != nil {
			return e.results[obj]
		}
	}
	return notResult
}

// isCountCall reports whether call returns a position or a size:
// len, cap, copy, a method Len, or a function of bytes, strings or utf8
// whose name starts with Index, LastIndex, Count, RuneCount or RuneLen.
func isCountCall(call *dst.CallExpr) bool {
	switch f := call.Fun.(type) {
	case *dst.Ident:
		if f.Path == "" {
			return f.Name == "len" || f.Name == "cap" || f.Name == "copy"
		}
		switch f.Path {
		case "bytes", "strings", "unicode/utf8":
			for _, p := range []string{"Index", "LastIndex", "Count", "RuneCount", "RuneLen"} {
				if strings.HasPrefix(f.Name, p) {
					return true
				}
			}
		}
	case *dst.SelectorExpr:
		return f.Sel.Name == "Len"
	}
	return false
}

// resultVars returns the local variables a function body declares that
// hold only calls' results: every assignment to one (its declaration
// included) gives it a call's result, directly or through a temporary,
// and it is never stepped, assigned with an operator, ranged over or has
// its address taken. Its kind is countResult when every call is one of
// isCountCall's, else callResult. A count may also be assigned a
// constant or a sum or difference of plain operands (i = s.end - s.start
// after i := bytes.IndexByte(...), n = 8 after n == -1): a position
// derived from positions.
func (e *enumerator) resultVars(b *dst.BlockStmt) map[types.Object]resultKind {
	kinds := map[types.Object]resultKind{}
	bad := map[types.Object]bool{}
	declared := map[types.Object]bool{}
	arith := map[types.Object]bool{}
	set := func(id dst.Expr, rhs dst.Expr) {
		n, ok := id.(*dst.Ident)
		if !ok || n.Path != "" {
			return
		}
		obj := e.t.ObjectOf(n)
		if obj == nil {
			return
		}
		k := notResult
		if rhs != nil {
			k = e.resultOf(rhs)
		}
		if k == notResult && rhs != nil && e.isOffset(rhs) {
			arith[obj] = true
			return
		}
		switch {
		case k == notResult:
			bad[obj] = true
		case kinds[obj] == notResult || kinds[obj] == countResult:
			kinds[obj] = k
		}
	}
	define := func(id dst.Expr) {
		if n, ok := id.(*dst.Ident); ok && n.Path == "" {
			if a, ok := e.t.Ast(n).(*ast.Ident); ok && e.t.Info != nil {
				if obj := e.t.Info.Defs[a]; obj != nil {
					declared[obj] = true
				}
			}
		}
	}
	dst.Inspect(b, func(n dst.Node) bool {
		switch s := n.(type) {
		case *dst.AssignStmt:
			for i, l := range s.Lhs {
				if s.Tok == token.DEFINE {
					define(l)
				}
				var rhs dst.Expr
				switch {
				case s.Tok != token.DEFINE && s.Tok != token.ASSIGN:
				case len(s.Rhs) == len(s.Lhs):
					rhs = s.Rhs[i]
				case len(s.Rhs) == 1:
					if _, ok := s.Rhs[0].(*dst.CallExpr); ok {
						rhs = s.Rhs[0] // x, err := f()
					}
				}
				set(l, rhs)
			}
		case *dst.ValueSpec:
			for i, id := range s.Names {
				define(id)
				var rhs dst.Expr
				switch {
				case len(s.Values) == len(s.Names):
					rhs = s.Values[i]
				case len(s.Values) == 1:
					rhs = s.Values[0]
				}
				set(id, rhs)
			}
		case *dst.IncDecStmt:
			set(s.X, nil)
		case *dst.RangeStmt:
			set(s.Key, nil)
			set(s.Value, nil)
		case *dst.UnaryExpr:
			if s.Op == token.AND {
				set(s.X, nil)
			}
		}
		return true
	})
	out := map[types.Object]resultKind{}
	for obj, k := range kinds {
		if declared[obj] && !bad[obj] && (k == countResult || !arith[obj]) {
			out[obj] = k
		}
	}
	return out
}

// isOffset reports whether x is a constant, or a sum or difference whose
// operands are identifiers, field paths, constants or such sums.
func (e *enumerator) isOffset(x dst.Expr) bool {
	if e.t.Const(x) != nil {
		return true
	}
	switch n := x.(type) {
	case *dst.ParenExpr:
		return e.isOffset(n.X)
	case *dst.BinaryExpr:
		if n.Op != token.ADD && n.Op != token.SUB {
			return false
		}
		return e.isOffset(n.X) && e.isOffset(n.Y)
	case *dst.Ident:
		return n.Path == ""
	case *dst.SelectorExpr:
		return e.stepKey(n) != nil
	}
	return false
}
