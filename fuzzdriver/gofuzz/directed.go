package gofuzz

// Directed seeds: corpus entries derived from the constants of the
// labelled packages' relations, for what a campaign left uncovered.

import (
	"bytes"
	"context"
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
	"unicode/utf8"

	"github.com/labelcov/labelcov/coverage/gotest"
	"github.com/labelcov/labelcov/fuzzdriver/reduce"
	gotransform "github.com/labelcov/labelcov/transform/golang"
)

// Arg is one fuzzed argument of a corpus entry.
type Arg struct {
	// Type is the argument's type as a corpus file writes it: "[]byte",
	// "string", "int64", "byte" (uint8), "rune" (int32), "float64", ...
	Type string
	// Int is the value of an integer argument; Bytes that of a []byte or
	// string argument; Line the corpus line of any other (floats, bools),
	// kept as read.
	Int   constant.Value
	Bytes []byte
	Line  string
}

// canonType is the name a corpus file gives type t.
func canonType(t string) string {
	switch t {
	case "uint8":
		return "byte"
	case "int32":
		return "rune"
	}
	return t
}

func isBytes(t string) bool { return t == "[]byte" || t == "string" }

// String is the argument's line in go test's corpus file format.
func (a Arg) String() string {
	switch {
	case isBytes(a.Type):
		return fmt.Sprintf("%s(%q)", a.Type, a.Bytes)
	case a.Int != nil:
		switch a.Type {
		case "byte":
			v, _ := constant.Uint64Val(a.Int)
			return fmt.Sprintf("byte(%q)", byte(v))
		case "rune":
			v, _ := constant.Int64Val(a.Int)
			if utf8.ValidRune(rune(v)) {
				return fmt.Sprintf("rune(%q)", rune(v))
			}
			return fmt.Sprintf("int32(%d)", v)
		}
		return a.Type + "(" + a.Int.ExactString() + ")"
	}
	return a.Line
}

// MarshalEntry is args as a corpus file ("go test fuzz v1").
func MarshalEntry(args []Arg) []byte {
	var b bytes.Buffer
	b.WriteString("go test fuzz v1\n")
	for _, a := range args {
		b.WriteString(a.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ParseEntry reads a corpus file's arguments.
func ParseEntry(data []byte) ([]Arg, error) {
	lines := strings.Split(string(data), "\n")
	if strings.TrimSuffix(lines[0], "\r") != "go test fuzz v1" {
		return nil, fmt.Errorf("gofuzz: not a corpus file (go test fuzz v1)")
	}
	var out []Arg
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		a, err := parseLine(l)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

// parseLine reads one corpus line: T(literal).
func parseLine(l string) (Arg, error) {
	x, err := parser.ParseExpr(l)
	if err != nil {
		return Arg{}, fmt.Errorf("gofuzz: corpus line %q: %w", l, err)
	}
	call, ok := x.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return Arg{}, fmt.Errorf("gofuzz: corpus line %q: not T(value)", l)
	}
	t := canonType(types.ExprString(call.Fun))
	a := Arg{Type: t, Line: l}
	lit, neg := call.Args[0], false
	if u, ok := lit.(*ast.UnaryExpr); ok && u.Op == token.SUB {
		lit, neg = u.X, true
	}
	bl, ok := lit.(*ast.BasicLit)
	if !ok {
		return a, nil // bool, math.Float64frombits(...): kept as read
	}
	switch {
	case isBytes(t) && bl.Kind == token.STRING:
		s, err := strconv.Unquote(bl.Value)
		if err != nil {
			return Arg{}, fmt.Errorf("gofuzz: corpus line %q: %w", l, err)
		}
		a.Bytes = []byte(s)
	case isIntType(t) && (bl.Kind == token.INT || bl.Kind == token.CHAR):
		v := constant.MakeFromLiteral(bl.Value, bl.Kind, 0)
		if v.Kind() == constant.Unknown {
			return Arg{}, fmt.Errorf("gofuzz: corpus line %q: bad literal", l)
		}
		if neg {
			v = constant.UnaryOp(token.SUB, v, 0)
		}
		a.Int = constant.ToInt(v)
	}
	return a, nil
}

var intKinds = map[string]types.BasicKind{
	"int": types.Int, "int8": types.Int8, "int16": types.Int16, "rune": types.Int32, "int64": types.Int64,
	"uint": types.Uint, "byte": types.Uint8, "uint16": types.Uint16, "uint32": types.Uint32, "uint64": types.Uint64,
}

func isIntType(t string) bool { _, ok := intKinds[t]; return ok }

// inRange reports whether v fits integer type t.
func inRange(t string, v constant.Value) bool {
	k := intKinds[t]
	bits := 64
	switch k {
	case types.Int8, types.Uint8:
		bits = 8
	case types.Int16, types.Uint16:
		bits = 16
	case types.Int32, types.Uint32:
		bits = 32
	}
	one := constant.MakeInt64(1)
	var lo, hi constant.Value
	if k == types.Uint || k == types.Uint8 || k == types.Uint16 || k == types.Uint32 || k == types.Uint64 {
		lo, hi = constant.MakeInt64(0), constant.BinaryOp(constant.Shift(one, token.SHL, uint(bits)), token.SUB, one)
	} else {
		half := constant.Shift(one, token.SHL, uint(bits-1))
		lo, hi = constant.UnaryOp(token.SUB, half, 0), constant.BinaryOp(half, token.SUB, one)
	}
	return !constant.Compare(v, token.LSS, lo) && !constant.Compare(v, token.GTR, hi)
}

// evalArg evaluates the Go source text of an f.Add argument of type t:
// a constant expression, a []byte{...} of constants or []byte("...").
func evalArg(t, text string) (Arg, bool) {
	t = canonType(t)
	a := Arg{Type: t}
	fset := token.NewFileSet()
	if tv, err := types.Eval(fset, nil, token.NoPos, text); err == nil && tv.Value != nil {
		v := tv.Value
		switch {
		case isBytes(t) && v.Kind() == constant.String:
			a.Bytes = []byte(constant.StringVal(v))
			return a, true
		case isIntType(t) && (v.Kind() == constant.Int || v.Kind() == constant.Float):
			if iv := constant.ToInt(v); iv.Kind() == constant.Int && inRange(t, iv) {
				a.Int = iv
				return a, true
			}
		case t == "bool" && v.Kind() == constant.Bool:
			a.Line = fmt.Sprintf("bool(%v)", constant.BoolVal(v))
			return a, true
		}
		return a, false
	}
	if t != "[]byte" {
		return a, false
	}
	x, err := parser.ParseExpr(text)
	if err != nil {
		return a, false
	}
	switch y := x.(type) {
	case *ast.CompositeLit:
		for _, e := range y.Elts {
			tv, err := types.Eval(fset, nil, token.NoPos, types.ExprString(e))
			if err != nil || tv.Value == nil {
				return a, false
			}
			v, ok := constant.Uint64Val(constant.ToInt(tv.Value))
			if !ok || v > 255 {
				return a, false
			}
			a.Bytes = append(a.Bytes, byte(v))
		}
		return a, true
	case *ast.CallExpr:
		if types.ExprString(y.Fun) != "[]byte" || len(y.Args) != 1 {
			return a, false
		}
		tv, err := types.Eval(fset, nil, token.NoPos, types.ExprString(y.Args[0]))
		if err != nil || tv.Value == nil || tv.Value.Kind() != constant.String {
			return a, false
		}
		a.Bytes = []byte(constant.StringVal(tv.Value))
		return a, true
	}
	return a, false
}

// SeedRows are the f.Add seeds of t that evalArg reads, and the types of
// t's fuzzed arguments; a target whose seeds it cannot read gets one row
// of zero values.
func SeedRows(t Target) ([]string, [][]Arg, error) {
	ts, rows, ok, err := gotransform.FuzzArgs(t.Dir, t.Name)
	if err != nil || !ok {
		return nil, nil, err
	}
	var out [][]Arg
	for _, r := range rows {
		row := make([]Arg, len(ts))
		good := true
		for i, text := range r {
			if row[i], good = evalArg(ts[i], text); !good {
				break
			}
		}
		if good {
			out = append(out, row)
		}
	}
	if len(out) == 0 {
		row := make([]Arg, len(ts))
		for i, typ := range ts {
			typ = canonType(typ)
			switch {
			case isBytes(typ):
				row[i] = Arg{Type: typ, Bytes: []byte{}}
			case isIntType(typ):
				row[i] = Arg{Type: typ, Int: constant.MakeInt64(0)}
			case typ == "bool":
				row[i] = Arg{Type: typ, Line: "bool(false)"}
			default:
				row[i] = Arg{Type: typ, Line: typ + "(0)"}
			}
		}
		out = append(out, row)
	}
	for i := range ts {
		ts[i] = canonType(ts[i])
	}
	return ts, out, nil
}

// MaxWordTokens bounds the "WORD N" tokens of tokens.
const MaxWordTokens = 32

// tokens are the byte strings the constants cs offer a []byte or string
// argument: string constants; each integer constant's byte encodings (big
// and little endian, of its operand's width, unless the code reads it
// with one order) and, for one that fits a byte, the byte and its
// neighbours (a relation's boundaries); and first, each string constant
// that is a word followed by a space and an integer in decimal (0, the
// integer constants and their neighbours: a command and its count, a key
// and its value; at most MaxWordTokens).
func tokens(cs []gotransform.Const) [][]byte {
	var out [][]byte
	seen := map[string]bool{}
	add := func(b []byte) {
		if len(b) > 0 && !seen[string(b)] {
			seen[string(b)] = true
			out = append(out, b)
		}
	}
	var words []string
	for _, c := range cs {
		if c.Value.Kind() == constant.String {
			if w := constant.StringVal(c.Value); w != "" && !strings.ContainsAny(w, " \t\r\n") {
				words = append(words, w)
			}
		}
	}
	// The word tokens first: a round stops at its maximum.
	nums := intValues("int64", cs)
	n := 0
	for _, w := range words {
		for _, v := range nums {
			if n < MaxWordTokens {
				n++
				add([]byte(w + " " + v.ExactString()))
			}
		}
	}
	for _, c := range cs {
		switch c.Value.Kind() {
		case constant.String:
			add([]byte(constant.StringVal(c.Value)))
		case constant.Int:
			v := constant.ToInt(c.Value)
			if i, ok := constant.Int64Val(v); ok && i >= -128 && i <= 255 {
				for _, d := range []int64{0, -1, 1} {
					if w := i + d; w >= -128 && w <= 255 {
						add([]byte{byte(w)})
					}
				}
				continue
			}
			if c.Bits < 16 {
				continue
			}
			for _, b := range c.Encodings() {
				add(b)
			}
		}
	}
	return out
}

// intValues are the values the constants cs offer an integer argument of
// type t: 0 and its neighbours (the ABS labels' boundaries), then each
// integer constant and its neighbours, in t's range.
func intValues(t string, cs []gotransform.Const) []constant.Value {
	var out []constant.Value
	seen := map[string]bool{}
	cs = append([]gotransform.Const{{Value: constant.MakeInt64(0)}}, cs...)
	for _, c := range cs {
		if c.Value.Kind() != constant.Int && c.Value.Kind() != constant.Float {
			continue
		}
		v := constant.ToInt(c.Value)
		if v.Kind() != constant.Int {
			continue
		}
		for _, d := range []int64{0, -1, 1} {
			w := constant.BinaryOp(v, token.ADD, constant.MakeInt64(d))
			if inRange(t, w) && !seen[w.ExactString()] {
				seen[w.ExactString()] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// MaxSplices bounds the positions of a base input a token is inserted
// at or written over (the first ones).
const MaxSplices = 48

// byteVariants are base with tok: alone, appended, written over base at
// every position (extended as needed) and inserted at every position (at
// most MaxSplices each), and in place of a length-prefixed field (a byte
// n, then n bytes; at most 4) with its length.
func byteVariants(base, tok []byte) [][]byte {
	out := [][]byte{append([]byte{}, tok...), append(append([]byte{}, base...), tok...)}
	for at := 0; at < len(base) && at < MaxSplices; at++ {
		b := append([]byte{}, base...)
		for len(b) < at+len(tok) {
			b = append(b, 0)
		}
		copy(b[at:], tok)
		out = append(out, b)
		ins := append(append(append([]byte{}, base[:at]...), tok...), base[at:]...)
		out = append(out, ins)
	}
	for i, n := 0, 0; i < len(base) && n < 4 && len(tok) < 256; i++ {
		if l := int(base[i]); l > 0 && i+1+l <= len(base) {
			b := append(append([]byte{}, base[:i]...), byte(len(tok)))
			out = append(out, append(append(b, tok...), base[i+1+l:]...))
			n++
		}
	}
	return out
}

// DirectedRows derives candidate argument rows from base rows and the
// constants cs, deterministically: each argument of each row replaced by
// what the constants offer (integers: 0, each constant and their
// neighbours;
// []byte and string: byteVariants of each token), and, for rows of two
// integer arguments or more, each pair of integer arguments set to a pair
// of those values. Rows equal to a base row are left out; at most max.
func DirectedRows(base [][]Arg, cs []gotransform.Const, max int) [][]Arg {
	var out [][]Arg
	seen := map[string]bool{}
	for _, r := range base {
		seen[string(MarshalEntry(r))] = true
	}
	add := func(r []Arg) bool {
		if len(out) >= max {
			return false
		}
		k := string(MarshalEntry(r))
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
		return true
	}
	with := func(r []Arg, i int, a Arg) []Arg {
		c := append([]Arg(nil), r...)
		c[i] = a
		return c
	}
	toks := tokens(cs)
	for _, r := range base {
		for i, a := range r {
			switch {
			case isIntType(a.Type):
				for _, v := range intValues(a.Type, cs) {
					if !add(with(r, i, Arg{Type: a.Type, Int: v})) {
						return out
					}
				}
			case isBytes(a.Type):
				for _, tok := range toks {
					for _, b := range byteVariants(a.Bytes, tok) {
						if !add(with(r, i, Arg{Type: a.Type, Bytes: b})) {
							return out
						}
					}
				}
			}
		}
	}
	for _, r := range base {
		for i := range r {
			for j := i + 1; j < len(r); j++ {
				if !isIntType(r[i].Type) || !isIntType(r[j].Type) {
					continue
				}
				for _, v := range intValues(r[i].Type, cs) {
					for _, w := range intValues(r[j].Type, cs) {
						c := with(with(r, i, Arg{Type: r[i].Type, Int: v}), j, Arg{Type: r[j].Type, Int: w})
						if !add(c) {
							return out
						}
					}
				}
			}
		}
	}
	return out
}

// DirectedOptions configure Directed.
type DirectedOptions struct {
	Yardstick *Yardstick
	// Base are the rows to derive candidates from (the target's seeds,
	// its suite and the entries gentests keeps).
	Base [][]Arg
	// Have is what the suite and the kept entries cover.
	Have []string
	// Rounds bounds the rounds (each derives candidates from the last
	// round's finds); Max the candidates of one round.
	Rounds, Max int
	Work        string
	Env         []string
}

// Directed derives candidate entries from the constants of the labelled
// packages' relations (DirectedRows, on o.Base, then on each round's finds),
// replays them on the yardstick (together, then halves of the sets that
// cover something new, down to single entries: a few runs where most
// candidates add nothing) and keeps a small set covering what o.Have does
// not (reduce.ExtendAdds). It returns the entries kept (files under
// o.Work, named directed-NNNNN) and what each adds, in order.
func Directed(ctx context.Context, o DirectedOptions) ([]CorpusEntry, [][]string, error) {
	y := o.Yardstick
	var cs []gotransform.Const
	for _, p := range y.Annotation.Packages {
		cs = append(cs, p.Consts...)
	}
	if len(cs) == 0 || len(o.Base) == 0 {
		return nil, nil, nil
	}
	if len(y.Annotation.Packages) > 0 && y.Annotation.Packages[0].Module != y.Target.Module {
		return nil, nil, nil // labels inside dependencies: not screened
	}
	have := map[string]bool{}
	for _, it := range o.Have {
		have[it] = true
	}
	if err := os.MkdirAll(o.Work, 0o755); err != nil {
		return nil, nil, fmt.Errorf("gofuzz: %w", err)
	}
	screenBin, err := y.buildScreen(ctx, filepath.Join(o.Work, "build"), o.Env)
	if err != nil {
		return nil, nil, err
	}
	var found []CorpusEntry
	var foundItems [][]string
	base := o.Base
	n := 0
	for round := 0; round < o.Rounds && len(base) > 0; round++ {
		rows := DirectedRows(base, cs, o.Max)
		entries := make([]CorpusEntry, len(rows))
		for i, r := range rows {
			data := MarshalEntry(r)
			p := filepath.Join(o.Work, fmt.Sprintf("directed-%05d", n))
			n++
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return nil, nil, fmt.Errorf("gofuzz: %w", err)
			}
			entries[i] = CorpusEntry{Name: filepath.Base(p), Path: p, Size: len(data)}
		}
		news, err := y.screen(ctx, screenBin, entries, have, filepath.Join(o.Work, "screen"), o.Env)
		if err != nil {
			return nil, nil, err
		}
		base = nil
		idx := make([]int, 0, len(news))
		for i := range news {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		for _, i := range idx {
			found = append(found, entries[i])
			foundItems = append(foundItems, news[i])
			base = append(base, rows[i])
		}
		for _, i := range idx {
			for _, it := range news[i] {
				have[it] = true
			}
		}
	}
	if len(found) == 0 {
		return nil, nil, nil
	}
	// What each find covers alone on the yardstick's binaries (a run that
	// panics covers no label there: the screen saw what it reached).
	cov, err := y.Items(ctx, found, filepath.Join(o.Work, "items"), o.Env)
	if err != nil {
		return nil, nil, err
	}
	sizes := make([]int, len(found))
	for i, e := range found {
		sizes[i] = e.Size
	}
	keep, adds := reduce.ExtendAdds(o.Have, cov.Entries, sizes)
	var kept []CorpusEntry
	for _, i := range keep {
		kept = append(kept, found[i])
	}
	return kept, adds, nil
}

// screen replays entries on bin (buildScreen) and returns entries that
// cover labels outside have, each with those labels (what it covers with
// the seeds, run alone, less have and less what the entries found before
// it cover): the whole set runs together, and a set that covers something
// new is split in halves down to single entries, so a few runs do where
// most candidates add nothing.
func (y *Yardstick) screen(ctx context.Context, bin string, entries []CorpusEntry, have map[string]bool, scratch string, env []string) (map[int][]string, error) {
	out := map[int][]string{}
	seen := map[string]bool{}
	for it := range have {
		seen[it] = true
	}
	var rec func(idx []int) error
	rec = func(idx []int) error {
		if len(idx) == 0 {
			return nil
		}
		es := make([]CorpusEntry, len(idx))
		for i, j := range idx {
			es[i] = entries[j]
		}
		dir, err := y.corpusDir(es, scratch, false)
		if err != nil {
			return err
		}
		prof := filepath.Join(dir, "screen.cover")
		if _, err := gotest.RunCorpus(ctx, bin, dir, env, y.Target.Name, prof, nil); err != nil {
			return fmt.Errorf("gofuzz: screening directed entries of %s: %w", y.Target, err)
		}
		items, err := y.profileItems(prof, true)
		if err != nil {
			return err
		}
		var fresh []string
		for _, it := range items {
			if !seen[it] {
				fresh = append(fresh, it)
			}
		}
		if len(fresh) == 0 {
			return nil
		}
		if len(idx) == 1 {
			out[idx[0]] = fresh
			for _, it := range fresh {
				seen[it] = true
			}
			return nil
		}
		h := len(idx) / 2
		if err := rec(idx[:h]); err != nil {
			return err
		}
		return rec(idx[h:])
	}
	all := make([]int, len(entries))
	for i := range all {
		all[i] = i
	}
	return out, rec(all)
}

// buildScreen builds, under work, a coverage binary of the target's
// package annotated as the yardstick, whose fuzz function recovers from
// panics (recoveringTests): an entry that panics still says which labels
// it reached, and a set of entries runs in one process to its end.
func (y *Yardstick) buildScreen(ctx context.Context, work string, env []string) (string, error) {
	t := y.Target
	tests, err := recoveringTests(t)
	if err != nil {
		return "", err
	}
	mod := filepath.Join(work, "module")
	if err := y.Annotation.Materialize(mod); err != nil {
		return "", err
	}
	own, _ := filepath.Glob(filepath.Join(t.Dir, "*_test.go"))
	for _, f := range own {
		rel, err := filepath.Rel(t.Module, f)
		if err != nil {
			return "", err
		}
		if err := copyFile(f, filepath.Join(mod, rel)); err != nil {
			return "", err
		}
	}
	if err := writeTests(t, mod, tests); err != nil {
		return "", err
	}
	bin := filepath.Join(work, "screen.cover.test")
	if err := BuildCover(ctx, t, mod, bin, env); err != nil {
		return "", err
	}
	return bin, nil
}

// recoveringTests is the test file of t's package that declares t's fuzz
// target (path -> contents) with `defer func() { _ = recover() }();` at
// the start of the function f.Fuzz runs, on the same line (lines keep
// their numbers).
func recoveringTests(t Target) (map[string][]byte, error) {
	names, err := filepath.Glob(filepath.Join(t.Dir, "*_test.go"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			return nil, fmt.Errorf("gofuzz: %w", err)
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, n, src, parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Name.Name != t.Name || fd.Body == nil || fd.Recv != nil {
				continue
			}
			at := -1
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok || at >= 0 {
					return at < 0
				}
				if sel, ok := c.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Fuzz" && len(c.Args) == 1 {
					if lit, ok := c.Args[0].(*ast.FuncLit); ok {
						at = fset.Position(lit.Body.Lbrace).Offset + 1
					}
				}
				return at < 0
			})
			if at < 0 {
				return nil, fmt.Errorf("gofuzz: %s: no f.Fuzz(func ...) in %s", t, n)
			}
			out := append(append(append([]byte{}, src[:at]...), " defer func() { _ = recover() }();"...), src[at:]...)
			return map[string][]byte{n: out}, nil
		}
	}
	return nil, fmt.Errorf("gofuzz: %s: no test file declares it", t)
}
