package golang

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Const is a constant of a relation in a package (the operand of ==, <,
// a switch case, bytes.Equal, strings.HasPrefix ...), offered to the
// fuzzer: Go's mutator moves an integer argument by ±100 a step, so no
// ladder brings a uint64 from 7 to 0x00C0FFEE5EED1234; the constant itself
// as a seed does, as AFL++'s autodictionary and libFuzzer's CMP tables do
// for C.
type Const struct {
	// Value is the constant (an integer, float or string constant).
	Value constant.Value
	// Bits is the size of the compared operand's type in bits (8 ... 64;
	// 0 for strings): the width of its byte encodings.
	Bits int
	// Order is the byte order of the encoding the code compares: "be" or
	// "le" when the operand is read with binary.BigEndian or
	// binary.LittleEndian, "" when unknown (both are offered).
	Order string
	// Func names the function (or method) the relation is in: a fuzz
	// target gets the constants of the functions it may call only.
	Func string
	// Pkg is the import path of the package the relation is in.
	Pkg string
}

// KeepConsts keeps, of every package's constants (Package.Consts), those
// keep accepts, in their order: a campaign's guide offers as seeds the
// constants of the functions its target's own seeds execute only
// (gofuzz.AnnotateGuide).
func (r *Result) KeepConsts(keep func(Const) bool) {
	for _, p := range r.Packages {
		var cs []Const
		for _, c := range p.Consts {
			if keep(c) {
				cs = append(cs, c)
			}
		}
		p.Consts = cs
	}
}

// FuncSpan is the lines of a function declaration (its body's function
// literals included) in a file of a labelled package.
type FuncSpan struct {
	Pkg, Func  string // as Const names them: import path, declared name
	Start, End int    // lines, inclusive
}

// FuncSpans lists the function declarations of r's packages per file,
// keyed as coverage profiles name files ("IMPORTPATH/FILE.go"), in
// source order.
func (r *Result) FuncSpans() (map[string][]FuncSpan, error) {
	out := map[string][]FuncSpan{}
	for _, p := range r.Packages {
		for _, f := range p.Files {
			fset := token.NewFileSet()
			af, err := parser.ParseFile(fset, f.Path, nil, parser.SkipObjectResolution)
			if err != nil {
				return nil, fmt.Errorf("function lines: %w", err)
			}
			key := p.Path + "/" + filepath.Base(f.Path)
			for _, d := range af.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok {
					out[key] = append(out[key], FuncSpan{Pkg: p.Path, Func: fd.Name.Name,
						Start: fset.Position(fd.Pos()).Line, End: fset.Position(fd.End()).Line})
				}
			}
		}
	}
	return out, nil
}

// MaxConsts bounds the constants kept per package (the first ones in
// source order) and those offered to one fuzz target.
const MaxConsts = 64

// harvest collects the constants of the relations in p's function bodies,
// and for each function the names of the functions and methods it calls.
func harvest(p *packages.Package) ([]Const, map[string][]string) {
	var out []Const
	calls := map[string][]string{}
	seen := map[string]bool{}
	fn := ""
	add := func(v constant.Value, t types.Type, other ast.Expr) {
		if len(out) >= 4*MaxConsts || v == nil {
			return
		}
		c := Const{Value: v, Func: fn, Pkg: p.PkgPath}
		switch v.Kind() {
		case constant.String:
			if constant.StringVal(v) == "" {
				return
			}
		case constant.Int, constant.Float:
			b, _ := t.Underlying().(*types.Basic)
			if b == nil || b.Info()&types.IsNumeric == 0 || b.Info()&types.IsComplex != 0 {
				return
			}
			c.Bits = 64
			if b.Info()&types.IsInteger != 0 {
				c.Bits, _ = intBits(b.Kind())
			} else if b.Kind() == types.Float32 {
				c.Bits = 32
			}
			if b.Info()&types.IsFloat == 0 && v.Kind() == constant.Float {
				return
			}
			if other != nil {
				s := types.ExprString(other)
				switch {
				case strings.Contains(s, "BigEndian."):
					c.Order = "be"
				case strings.Contains(s, "LittleEndian."):
					c.Order = "le"
				}
			}
		default:
			return
		}
		k := v.ExactString() + "/" + strconv.Itoa(c.Bits) + c.Order + "/" + fn
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	constOf := func(x ast.Expr) constant.Value {
		if tv, ok := p.TypesInfo.Types[x]; ok {
			return tv.Value
		}
		return nil
	}
	flows := flowConsts(p)
	// addFlow adds the constants that flow into the field or variable x
	// reads (a command table's names compared with the input), typed as
	// the other operand t.
	addFlow := func(x ast.Expr, t types.Type, other ast.Expr) {
		for i, v := range flows[flowObject(p.TypesInfo, x)] {
			if i == MaxFlowConsts {
				break
			}
			add(v, t, other)
		}
	}
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				fn = n.Name.Name
				calls[fn] = append(calls[fn], calledNames(n.Body)...)
			case *ast.BinaryExpr:
				switch n.Op {
				case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				default:
					return true
				}
				cx, cy := constOf(n.X), constOf(n.Y)
				switch {
				case cx != nil && cy == nil:
					add(cx, p.TypesInfo.TypeOf(n.Y), n.Y)
				case cy != nil && cx == nil:
					add(cy, p.TypesInfo.TypeOf(n.X), n.X)
				case cx == nil && cy == nil:
					addFlow(n.X, p.TypesInfo.TypeOf(n.Y), n.Y)
					addFlow(n.Y, p.TypesInfo.TypeOf(n.X), n.X)
				}
			case *ast.SwitchStmt:
				if n.Tag == nil || constOf(n.Tag) != nil {
					return true
				}
				for _, s := range n.Body.List {
					for _, x := range s.(*ast.CaseClause).List {
						add(constOf(x), p.TypesInfo.TypeOf(n.Tag), n.Tag)
					}
				}
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				if pn, ok := p.TypesInfo.Uses[pkg].(*types.PkgName); !ok || (pn.Imported().Path() != "bytes" && pn.Imported().Path() != "strings") {
					return true
				}
				switch sel.Sel.Name {
				case "Equal", "HasPrefix", "HasSuffix", "Contains", "EqualFold", "Index", "TrimPrefix", "CutPrefix":
				default:
					return true
				}
				for _, a := range n.Args {
					if conv, ok := a.(*ast.CallExpr); ok && len(conv.Args) == 1 && constOf(a) == nil {
						a = conv.Args[0] // []byte("token")
					}
					if v := constOf(a); v != nil && v.Kind() == constant.String {
						add(v, types.Typ[types.String], nil)
					} else if v == nil {
						addFlow(a, types.Typ[types.String], nil)
					}
				}
			}
			return true
		})
	}
	return out, calls
}

// MaxFlowConsts bounds the constants that flow into one field or variable
// (flowConsts) offered for one comparison that reads it.
const MaxFlowConsts = 32

// flowConsts maps each struct field and variable of p to the constants
// stored in it anywhere in p, in source order: the elements of struct
// literals (keyed or positional), assignments and declarations (x = c,
// x.f = c, var x = c), and the values of a range over a literal of
// constants; integers that fit a byte are left out (a loop's start, which
// mutations reach anyway). A relation whose operands are both variables (a table of
// commands compared with the input, bytes.HasPrefix(in, []byte(cmd.name)))
// has no constant of its own, but the values its operand may hold are
// these: what libFuzzer's and AFL++'s comparison tracing see at run time.
func flowConsts(p *packages.Package) map[types.Object][]constant.Value {
	out := map[types.Object][]constant.Value{}
	seen := map[types.Object]map[string]bool{}
	info := p.TypesInfo
	put := func(obj types.Object, x ast.Expr) {
		tv, ok := info.Types[x]
		if obj == nil || !ok || tv.Value == nil {
			return
		}
		switch tv.Value.Kind() {
		case constant.String, constant.Float:
		case constant.Int:
			if small(tv.Value) { // a loop's i := 0: mutations reach it
				return
			}
		default:
			return
		}
		if seen[obj] == nil {
			seen[obj] = map[string]bool{}
		}
		if k := tv.Value.ExactString(); !seen[obj][k] {
			seen[obj][k] = true
			out[obj] = append(out[obj], tv.Value)
		}
	}
	for _, f := range p.Syntax {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				t := info.TypeOf(n)
				if t == nil {
					return true
				}
				if ptr, ok := t.Underlying().(*types.Pointer); ok {
					t = ptr.Elem()
				}
				st, ok := t.Underlying().(*types.Struct)
				if !ok {
					return true
				}
				for i, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if id, ok := kv.Key.(*ast.Ident); ok {
							put(info.Uses[id], kv.Value)
						}
					} else if i < st.NumFields() {
						put(st.Field(i), el)
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						put(flowObject(info, l), n.Rhs[i])
					}
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i, id := range n.Names {
						put(info.Defs[id], n.Values[i])
					}
				}
			case *ast.RangeStmt:
				lit, ok := ast.Unparen(n.X).(*ast.CompositeLit)
				if !ok || n.Value == nil {
					return true
				}
				obj := flowObject(info, n.Value)
				for _, el := range lit.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
					}
					put(obj, el)
				}
			}
			return true
		})
	}
	return out
}

// flowObject is the field or variable expression x reads, through
// parentheses and conversions ([]byte(cmd.name)); nil if it reads
// something else.
func flowObject(info *types.Info, x ast.Expr) types.Object {
	for {
		x = ast.Unparen(x)
		call, ok := x.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || !info.Types[call.Fun].IsType() {
			break
		}
		x = call.Args[0]
	}
	var obj types.Object
	switch x := x.(type) {
	case *ast.Ident:
		obj = info.ObjectOf(x)
	case *ast.SelectorExpr:
		obj = info.Uses[x.Sel]
	}
	if v, ok := obj.(*types.Var); ok {
		return v
	}
	return nil
}

// calledNames lists the names of the functions and methods body calls (the
// identifier or the selected name of each call). A function declared
// without a body (implemented in assembly, or linked by name) has a nil
// body: it calls nothing we can see. The parameter is the concrete type so
// that such a nil never becomes a non-nil ast.Node.
func calledNames(body *ast.BlockStmt) []string {
	var out []string
	if body == nil {
		return nil
	}
	ast.Inspect(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			switch f := c.Fun.(type) {
			case *ast.Ident:
				out = append(out, f.Name)
			case *ast.SelectorExpr:
				out = append(out, f.Sel.Name)
			}
		}
		return true
	})
	return out
}

// reachable filters cs to the constants of the functions roots may call,
// transitively (by name: a method name stands for every method so named),
// at most MaxConsts.
func reachable(cs []Const, calls map[string][]string, roots []string) []Const {
	seen := map[string]bool{}
	for work := roots; len(work) > 0; {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[n] {
			continue
		}
		seen[n] = true
		work = append(work, calls[n]...)
	}
	var out []Const
	for _, c := range cs {
		if seen[c.Func] && len(out) < MaxConsts {
			out = append(out, c)
		}
	}
	return out
}

// fuzzTarget is a fuzz target of a test file: FuzzX(f *testing.F) with a
// top-level f.Fuzz(func(t *testing.T, args...) {...}) statement.
type fuzzTarget struct {
	name   string   // FuzzX
	f      string   // the *testing.F parameter's name
	types  []string // the fuzzed arguments' types, as written
	rows   [][]string
	adds   int      // f.Add calls anywhere in the target, at its top level or not
	insert int      // offset of the f.Fuzz statement
	calls  []string // what the fuzz function calls
}

// fuzzTargets finds the fuzz targets of a parsed test file whose argument
// types are all ones Go's fuzzer takes.
func fuzzTargets(fset *token.FileSet, f *ast.File, src []byte) []fuzzTarget {
	text := func(n ast.Node) string {
		return string(src[fset.Position(n.Pos()).Offset:fset.Position(n.End()).Offset])
	}
	var out []fuzzTarget
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Recv != nil || fd.Body == nil || !strings.HasPrefix(fd.Name.Name, "Fuzz") ||
			len(fd.Type.Params.List) != 1 || len(fd.Type.Params.List[0].Names) != 1 || text(fd.Type.Params.List[0].Type) != "*testing.F" {
			continue
		}
		ft := fuzzTarget{name: fd.Name.Name, f: fd.Type.Params.List[0].Names[0].Name, insert: -1}
		for _, s := range fd.Body.List {
			es, ok := s.(*ast.ExprStmt)
			if !ok {
				continue
			}
			call, ok := es.X.(*ast.CallExpr)
			if !ok {
				continue
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || text(sel.X) != ft.f {
				continue
			}
			switch sel.Sel.Name {
			case "Add":
				var row []string
				for _, a := range call.Args {
					row = append(row, text(a))
				}
				ft.rows = append(ft.rows, row)
			case "Fuzz":
				lit, ok := call.Args[0].(*ast.FuncLit)
				if len(call.Args) != 1 || !ok || ft.insert >= 0 {
					continue
				}
				ps := lit.Type.Params.List
				ok = len(ps) > 1
				for i, p := range ps {
					if i == 0 {
						continue
					}
					t := text(p.Type)
					if _, known := zeroOf[t]; !known {
						ok = false
					}
					for range p.Names {
						ft.types = append(ft.types, t)
					}
				}
				if ok {
					ft.insert = fset.Position(s.Pos()).Offset
					ft.calls = calledNames(lit.Body)
				}
			}
		}
		if ft.insert < 0 {
			continue
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Add" && text(sel.X) == ft.f {
					ft.adds++
				}
			}
			return true
		})
		rows := ft.rows[:0]
		for _, r := range ft.rows {
			if len(r) == len(ft.types) {
				rows = append(rows, r)
			}
		}
		ft.rows = rows
		out = append(out, ft)
	}
	return out
}

// zeroOf is the zero value of each argument type Go's fuzzer takes.
var zeroOf = map[string]string{
	"[]byte": "[]byte{}", "string": `""`, "bool": "false", "byte": "byte(0)", "rune": "rune(0)",
	"int": "int(0)", "int8": "int8(0)", "int16": "int16(0)", "int32": "int32(0)", "int64": "int64(0)",
	"uint": "uint(0)", "uint8": "uint8(0)", "uint16": "uint16(0)", "uint32": "uint32(0)", "uint64": "uint64(0)",
	"float32": "float32(0)", "float64": "float64(0)",
}

// MaxSeedRows bounds the base rows (the target's own top-level f.Add
// calls) each constant is combined with.
const MaxSeedRows = 2

// seedCalls writes the statements that add the constants cs as seeds of
// target ft (on one line, so the test file keeps its line numbers): for
// each base row (the target's first top-level f.Add calls, or zero
// values) and each argument, the row with that argument replaced by every
// constant its type holds — an integer argument the value and its
// neighbours, a []byte or string argument the string constants and the
// byte encodings of integer ones (big and little endian, unless the code
// reads it with one), alone, appended, written over the base at 0 and
// where its first byte occurs, and in place of a length-prefixed field of
// the base with its length (labelcovSeedsB/S).
//
// A []byte argument of a target whose seeds are all built at run time
// (f.Add only inside a loop or a branch, of an encoder's output, as x/image/tiff's target adds
// images) gets no seeds: labelcov cannot splice into inputs it does not
// see, and the tokens alone, binary fragments no decoder gets past, would
// be most of the seed corpus, which Go's fuzzer mutates in turn (on that
// target 47 of 53 seeds, and campaigns covered less than plain ones). A
// string argument keeps them: a token of a text format alone is a
// fragment its parser reads (x/text's "x-" of a private-use tag). Without
// any f.Add the tokens alone are the only inputs that hold them, and stay.
func seedCalls(ft fuzzTarget, cs []Const) (string, bool) {
	rows := ft.rows
	if len(rows) > MaxSeedRows {
		rows = rows[:MaxSeedRows]
	}
	unseen := len(rows) == 0 && ft.adds > 0
	if len(rows) == 0 {
		var zero []string
		for _, t := range ft.types {
			zero = append(zero, zeroOf[t])
		}
		rows = [][]string{zero}
	}
	// The byte-string seeds of one row and argument are one loop over
	// all their tokens, not a loop per token: the test package is built
	// with Go's fuzzing counters too, two a loop, and every execution
	// scans every counter of the binary (budgetDist).
	var b strings.Builder
	seen := map[string]bool{}
	helpers := false
	for _, row := range rows {
		for i, t := range ft.types {
			var toks []string
			bytesArg := t == "[]byte" || t == "string"
			if t == "[]byte" && unseen {
				continue
			}
			for _, c := range cs {
				for _, v := range argValues(t, c) {
					r := append([]string(nil), row...)
					if bytesArg {
						if k := fmt.Sprint(row, i, v); !seen[k] {
							seen[k] = true
							toks = append(toks, v)
						}
						continue
					}
					r[i] = v
					stmt := fmt.Sprintf("%s.Add(%s); ", ft.f, strings.Join(r, ", "))
					if !seen[stmt] {
						seen[stmt] = true
						b.WriteString(stmt)
					}
				}
			}
			if len(toks) == 0 {
				continue
			}
			r := append([]string(nil), row...)
			r[i] = "lcs"
			fn := "labelcovSeedsB"
			if t == "string" {
				fn = "labelcovSeedsS"
			}
			fmt.Fprintf(&b, "for _, lcs := range %s(%s, %s) { %s.Add(%s) }; ", fn, row[i], strings.Join(toks, ", "), ft.f, strings.Join(r, ", "))
			helpers = true
		}
	}
	return b.String(), helpers
}

// Encodings are integer constant c's bytes at its operand's width: big
// endian, little endian, or the one order the code reads it with
// (c.Order). A negative constant is its two's complement.
func (c Const) Encodings() [][]byte {
	v := constant.ToInt(c.Value)
	u, ok := constant.Uint64Val(v)
	if !ok {
		i, _ := constant.Int64Val(v)
		u = uint64(i)
	}
	n := c.Bits / 8
	be, le := make([]byte, 8), make([]byte, 8)
	binary.BigEndian.PutUint64(be, u)
	binary.LittleEndian.PutUint64(le, u)
	var out [][]byte
	if c.Order != "le" {
		out = append(out, be[8-n:])
	}
	if c.Order != "be" {
		out = append(out, le[:n])
	}
	return out
}

// argValues are the Go expressions of type t that constant c offers.
func argValues(t string, c Const) []string {
	switch t {
	case "[]byte", "string":
		var toks []string
		if c.Value.Kind() == constant.String {
			toks = append(toks, constant.StringVal(c.Value))
		} else if c.Value.Kind() == constant.Int && c.Bits >= 16 && !small(c.Value) {
			for _, b := range c.Encodings() {
				toks = append(toks, string(b))
			}
		}
		var out []string
		for _, s := range toks {
			out = append(out, strconv.Quote(s))
		}
		return out
	case "bool":
		return nil
	}
	if c.Value.Kind() == constant.String {
		return nil
	}
	typ := t
	if t == "byte" {
		typ = "uint8"
	} else if t == "rune" {
		typ = "int32"
	}
	var out []string
	if strings.HasPrefix(typ, "float") {
		if f, _ := constant.Float64Val(c.Value); !isInfOrTooBig(f, typ) {
			out = append(out, t+"("+constant.ToFloat(c.Value).String()+")")
		}
		return out
	}
	v := constant.ToInt(c.Value)
	if v.Kind() != constant.Int {
		return nil
	}
	b := types.Typ[basicKinds[typ]]
	bits, _ := intBits(b.Kind())
	min, max := intRange(b, bits)
	for _, d := range []int64{0, -1, 1} {
		w := constant.BinaryOp(v, token.ADD, constant.MakeInt64(d))
		if constant.Compare(w, token.LSS, min) || constant.Compare(w, token.GTR, max) {
			continue
		}
		out = append(out, t+"("+w.ExactString()+")")
	}
	return out
}

// small reports whether v fits in a byte (signed or not): byte mutations
// reach it without help.
func small(v constant.Value) bool {
	return constant.Compare(v, token.GEQ, constant.MakeInt64(-128)) && constant.Compare(v, token.LEQ, constant.MakeInt64(255))
}

var basicKinds = map[string]types.BasicKind{
	"int": types.Int, "int8": types.Int8, "int16": types.Int16, "int32": types.Int32, "int64": types.Int64,
	"uint": types.Uint, "uint8": types.Uint8, "uint16": types.Uint16, "uint32": types.Uint32, "uint64": types.Uint64,
}

func isInfOrTooBig(f float64, typ string) bool {
	if typ == "float32" {
		return f > 3.4e38 || f < -3.4e38
	}
	return f > 1.7e308 || f < -1.7e308
}

// seedHelpers are appended to the first test file of each test package
// that gets seeds: the byte-string seeds of a token tok on a base input.
const seedHelpers = `

// labelcovSeedsB returns, for each token tok: tok alone, base with tok
// appended, base with tok written over it at 0 and where tok's first
// byte occurs (at most 8), extended as needed, and base with a
// length-prefixed field (a byte n, then n bytes) replaced by tok and its
// length (at most 4). Added by labelcov (the overlay's copy only).
func labelcovSeedsB(base []byte, toks ...string) [][]byte {
	var out [][]byte
	for _, tok := range toks {
		out = append(out, []byte(tok), append(append([]byte{}, base...), tok...))
		put := func(at int) {
			b := append([]byte{}, base...)
			for len(b) < at+len(tok) {
				b = append(b, 0)
			}
			copy(b[at:], tok)
			out = append(out, b)
		}
		put(0)
		for i, n := 1, 0; i < len(base) && n < 8; i++ {
			if base[i] == tok[0] {
				put(i)
				n++
			}
		}
		for i, n := 0, 0; i < len(base) && n < 4 && len(tok) < 256; i++ {
			if l := int(base[i]); l > 0 && i+1+l <= len(base) {
				b := append(append([]byte{}, base[:i]...), byte(len(tok)))
				out = append(out, append(append(b, tok...), base[i+1+l:]...))
				n++
			}
		}
	}
	return out
}

// labelcovSeedsS is labelcovSeedsB for string arguments.
func labelcovSeedsS(base string, toks ...string) []string {
	var out []string
	for _, b := range labelcovSeedsB([]byte(base), toks...) {
		out = append(out, string(b))
	}
	return out
}
`

// seedTestFiles writes, under dir, copies of p's test files whose fuzz
// targets get the constants cs as seeds, and returns original -> copy.
// Lines keep their numbers: the seeds go on the line of f.Fuzz, the
// helpers after the last line.
func seedTestFiles(p *Package, dir string) (map[string]string, error) {
	out := map[string]string{}
	if len(p.Consts) == 0 {
		return out, nil
	}
	names, err := filepath.Glob(filepath.Join(p.Dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	helped := map[string]bool{} // test package names that have the helpers
	for _, name := range names {
		src, err := os.ReadFile(name)
		if err != nil {
			return nil, fmt.Errorf("seeding fuzz targets: %w", err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			continue // go test reports it
		}
		fts := fuzzTargets(fset, f, src)
		if len(fts) == 0 {
			continue
		}
		var b bytes.Buffer
		last := 0
		needHelpers := false
		for _, ft := range fts {
			calls, h := seedCalls(ft, reachable(p.Consts, p.Calls, ft.calls))
			needHelpers = needHelpers || h
			b.Write(src[last:ft.insert])
			if calls != "" {
				// In a function literal of its own, not in FuzzX's
				// body: FuzzX's frame is on the stack of every
				// execution, and the testing package unwinds that stack
				// (runtime.Callers) once per input, a walk over the
				// frame's PC tables up to the call of f.Fuzz; a hundred
				// seed statements before it made that walk a few percent
				// of a fast target's CPU (docs/go.md, "What a label
				// costs under go test -fuzz").
				calls = "func() { " + calls + "}(); "
			}
			b.WriteString(calls)
			last = ft.insert
		}
		b.Write(src[last:])
		if needHelpers && !helped[f.Name.Name] {
			helped[f.Name.Name] = true
			b.WriteString(seedHelpers)
		}
		copyPath := filepath.Join(dir, filepath.Base(name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("seeding fuzz targets: %w", err)
		}
		if err := os.WriteFile(copyPath, b.Bytes(), 0o644); err != nil {
			return nil, fmt.Errorf("seeding fuzz targets: %w", err)
		}
		out[name] = copyPath
	}
	return out, nil
}

// FuzzArgs reads fuzz target name in the test files of the package in
// dir: the types of its fuzzed arguments, as written ("[]byte", "uint32"),
// and the arguments of its top-level f.Add calls with as many arguments
// (Go source text). ok is false when no test file holds the target with
// argument types Go's fuzzer takes.
func FuzzArgs(dir, name string) (types []string, rows [][]string, ok bool, err error) {
	names, err := filepath.Glob(filepath.Join(dir, "*_test.go"))
	if err != nil {
		return nil, nil, false, err
	}
	sort.Strings(names)
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, nil, false, fmt.Errorf("reading fuzz targets: %w", err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, n, src, parser.SkipObjectResolution)
		if err != nil {
			continue // go test reports it
		}
		for _, ft := range fuzzTargets(fset, f, src) {
			if ft.name == name {
				return ft.types, ft.rows, true, nil
			}
		}
	}
	return nil, nil, false, nil
}

// ArgValues are the Go expressions of fuzzed argument type t that
// constant c offers (argValues: an integer's value and neighbours, a
// string or byte encoding for []byte and string arguments).
func ArgValues(t string, c Const) []string { return argValues(t, c) }
