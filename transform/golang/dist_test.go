package golang

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
	"github.com/labelcov/labelcov/labels"
)

// lineOf is the 1-based line of the first line of src containing marker.
func lineOf(t *testing.T, src, marker string) int {
	t.Helper()
	for i, l := range strings.Split(src, "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("no line with %q", marker)
	return 0
}

const distSrc = `package m

import "bytes"

type Celsius int

const Boiling Celsius = 100

func g(n int) int { return n * 2 }

func F(a, b int, s8 int8, u uint, u8 uint8, x float64, f32 float32, c Celsius, t int64) int {
	n := 0
	if a < b { // L:ab
		n++
	}
	if s8 == 100 { // L:s8
		n++
	}
	if s8 < 100 { // L:s8lt
		n++
	}
	if u8 >= 250 { // L:u8
		n++
	}
	if u > 3 { // L:uint
		n++
	}
	if x <= 1.5 { // L:x
		n++
	}
	if f32 != 2 { // L:f32
		n++
	}
	if c > Boiling { // L:c
		n++
	}
	if t == -9223372036854775808 { // L:tmin
		n++
	}
	if 3 > a && b > a { // L:shared
		n++
	}
	if g(a) < b { // L:call
		n++
	}
	if "s" < "t" && 1+1 > a && x == x { // L:mixed
		n++
	}
	switch a {
	case 7: // L:switch
		n++
	}
	switch t {
	case 11, 12, 13, 14, 15, 16, 17, 18, 19: // L:long
	}
	for i := 0; i < a; i++ { // L:loop
	}
	for i := 0; i < a; i += 2 { // L:step2
	}
	return n
}

type Kind int

const (
	KA Kind = iota
	KB
)

func G(data []byte, k Kind, n int) int {
	for _, c := range string(data) {
		if c == ' ' || c == 0x7f { // L:ascii
			return 0
		}
		if c == 0x2028 { // L:unicode
			return 0
		}
	}
	i := 0
	var sc struct{ pos int }
	for {
		if i == len(data) { // L:stepped
			return i
		}
		if n > len(data) { // L:lenfield
			return -1
		}
		if k == KB { // L:enum
			return 1
		}
		if k == 1 { // L:enumlit
			return 2
		}
		if n&4 != 0 { // L:flag
			return 3
		}
		if n%2 == 0 { // L:parity
			return 6
		}
		if i > 0 && n < 5 { // L:stepsmall
			return 4
		}
		if i > 1000 { // L:steplimit
			return 5
		}
		if sc.pos < len(data) { // L:field
			return 7
		}
		sc.pos++
		i++
	}
}

type lexer struct {
	in  string
	pos int
}

func (l *lexer) peek() byte {
	if l.pos >= len(l.in) { // L:posfield
		return 0
	}
	return l.in[l.pos]
}

func (l *lexer) next(w int) { l.pos += w }

func cmp(a, b []byte) int {
	if len(a) < len(b) {
		return -1
	}
	return 0
}

func H(data []byte, xs []int, m int) int {
	i := bytes.IndexByte(data, '-')
	if i == -1 { // L:index
		i = m - 1
	}
	if i > 8 { // L:indexsmall
		return 1
	}
	if i > 1000 { // L:indexlimit
		return 2
	}
	r := cmp(data, data)
	if r == 1000 { // L:wideresult
		return 4
	}
	if r != 1 { // L:result
		return 3
	}
	for k := range xs {
		if k == m { // L:rangekey
			return 5
		}
	}
	p := 0
	for p < m { // L:advanced
		p += xs[p]
	}
	d := m - 2*len(xs)
	if d < 0 { // L:zero
		return 6
	}
	var lines []int
	for len(lines) <= m { // L:appended
		lines = append(lines, p)
	}
	for o := len(xs) - 1; ; o-- {
		if o == 0 { // L:stepzero
			return len(lines)
		}
	}
	return i + p
}
`

// TestDistLabels: dist puts the ladder on each relation between numbers
// (also against typed, untyped and named constants, on hoisted calls and
// switch cases; equalities against constants of 16 bits or more also get
// their byte-wise stones), leaves out rungs no value can miss, shares one ladder
// between a < b and b > a, and the annotated package builds and passes
// its tests.
func TestDistLabels(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{
		"m.go": distSrc,
		"m_test.go": `package m

import "testing"

func TestF(t *testing.T) {
	if n := F(1, 2, 100, 4, 251, 1, 2, 101, -9223372036854775808); n != 9 {
		t.Fatalf("F = %d", n)
	}
	if n := F(7, 0, 0, 0, 0, 3, 2, 0, 0); n != 2 {
		t.Fatalf("F = %d", n)
	}
}
`})
	// The rules, not the counter budget (TestDistCounterBudget).
	res, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, "dist"), Dir: dir, NoCounterBudget: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Packages {
		if len(p.Skipped) > 0 {
			t.Errorf("skipped: %v", p.Skipped)
		}
	}
	for _, c := range []struct {
		marker                   string
		active, trivial, skipped int
		preds                    map[string]string // operator -> predicate (of an active label, or a skipped one when skipped > 0)
	}{
		{"L:ab", 29, 0, 0, map[string]string{
			"|a-b| < 16": "(a >= b && uint64(a) - uint64(b) < 16) || (a < b && uint64(b) - uint64(a) < 16)"}},
		{"L:s8", 0, 0, 0, nil}, // a byte equal to a constant: no ladder
		{"L:s8lt", 0, 0, 8, map[string]string{"|a-b| < 16": "s8 > 84 && s8 < 116", "|a-b| < 1": "s8 > 99 && s8 < 101"}},
		{"L:u8", 0, 0, 8, map[string]string{"|a-b| < 16": "u8 > 234", "|a-b| < 4": "u8 > 246 && u8 < 254"}},
		{"L:uint", 0, 0, 29, map[string]string{"|a-b| < 65536": "u < 65539", "|a-b| < 4": "u < 7", "|a-b| < 2": "u > 1 && u < 5"}},
		{"L:x", 33, 0, 0, map[string]string{"|a-b| < 2": "x - 1.5 < 2 && 1.5 - x < 2"}},
		{"L:f32", 30, 0, 0, map[string]string{"|a-b| < 1": "f32 - 2 < 1 && 2 - f32 < 1"}},
		{"L:c", 0, 0, 29, map[string]string{"|a-b| < 256": "c > -156 && c < 356"}},
		{"L:tmin", 36, 0, 0, map[string]string{"|a-b| < 16": "t < -9223372036854775792"}},
		// 3 > a, then b > a behind it: two ladders, not three (the one
		// against 3, a constant below 256, listed as skipped).
		{"L:shared", 29, 0, 29, map[string]string{"|a-b| < 1": "a > 2 && a < 4"}},
		{"L:call", 29, 0, 0, nil},
		{"L:mixed", 33, 0, 29, nil}, // strings have no distance; x == x has one; the int against a small constant is skipped
		{"L:switch", 7, 0, 29, map[string]string{"|a-b| < 4": "a > 3 && a < 11"}},
		// More than 8 case expressions: each case keeps its 7 top-byte
		// stones, its 29 rungs are listed as skipped.
		{"L:long", 9 * 7, 0, 9 * 29, map[string]string{"|a-b| < 4": "t > 8 && t < 16"}},
		// A loop test stepping i by one: no rungs; by two: rungs.
		{"L:loop", 0, 0, 29, map[string]string{"|a-b| < 1": "(a >= i && uint64(a) - uint64(i) < 1) || (a < i && uint64(i) - uint64(a) < 1)"}},
		{"L:step2", 29, 0, 0, nil},
		// An index the function steps by one against a length: no rungs;
		// a length that is never stepped keeps them.
		{"L:stepped", 0, 0, 29, nil},
		{"L:lenfield", 29, 0, 0, nil},
		// An equality with a named constant of a defined type: neither
		// rungs nor stones; with a literal: both.
		{"L:enum", 0, 0, 29 + 7, map[string]string{"|a-b| < 1": "k > 0 && k < 2"}},
		// A rune against an ASCII character: neither; against a larger
		// constant: both.
		{"L:ascii", 0, 0, 2 * (21 + 3), nil},
		{"L:unicode", 21 + 3, 0, 0, nil},
		{"L:enumlit", 7, 0, 29, nil},
		// A flag test: no rungs. A stepped index against a constant below
		// 256: none (the other relation of the line keeps its 29); against
		// a larger limit: rungs.
		{"L:flag", 0, 0, 29 + 7, nil},
		{"L:parity", 0, 0, 29 + 7, nil},
		{"L:stepsmall", 0, 0, 58, nil},
		{"L:steplimit", 29, 0, 0, nil},
		// A field path stepped by one (sc.pos++) against a length: no rungs.
		{"L:field", 0, 0, 29, nil},
		// A struct field the package advances (l.pos += w in next) and
		// uses as an index (l.in[l.pos] in peek): stepped everywhere.
		{"L:posfield", 0, 0, 29, nil},
		// An index (bytes.IndexByte, else m - 1) against a
		// constant below 256: neither rungs nor stones; against 1000:
		// rungs.
		{"L:index", 0, 0, 29 + 7, nil},
		{"L:indexsmall", 0, 0, 29, nil},
		{"L:indexlimit", 29, 0, 0, nil},
		// A call's result against 1 (a sentinel): neither; against 1000:
		// both.
		{"L:result", 0, 0, 29 + 7, nil},
		{"L:wideresult", 29 + 7, 0, 0, nil},
		// A range key and a position advanced by += and used as an
		// index step too.
		{"L:rangekey", 0, 0, 29, nil},
		{"L:advanced", 0, 0, 29, nil},
		// A computed difference against 0 keeps its rungs (where an
		// exact relation a == b lands; a constant below 256 other than
		// 0 does not, as L:uint).
		{"L:zero", 29, 0, 0, nil},
		// The length of a slice the function appends to one element at
		// a time counts up as i++ does: no rungs against another value.
		// A stepped index equal to 0: neither rungs nor top-byte stones.
		{"L:appended", 0, 0, 29, nil},
		{"L:stepzero", 0, 0, 29 + 7, nil},
	} {
		line := lineOf(t, distSrc, c.marker)
		if got := count(res, line, labels.DIST, labels.Active); got != c.active {
			t.Errorf("%s: %d active dist labels, want %d", c.marker, got, c.active)
		}
		if got := count(res, line, labels.DIST, labels.Trivial); got != c.trivial {
			t.Errorf("%s: %d trivial dist labels, want %d", c.marker, got, c.trivial)
		}
		if got := count(res, line, labels.DIST, labels.Skipped); got != c.skipped {
			t.Errorf("%s: %d skipped dist labels, want %d", c.marker, got, c.skipped)
		}
		status := "|active"
		if c.skipped > 0 {
			status = "|skipped"
		}
		ops := byOp(res, line)
		for op, pred := range c.preds {
			if got := ops["dist "+op]; !strings.Contains(got, pred+status) {
				t.Errorf("%s %s: %q, want %q", c.marker, op, got, pred)
			}
		}
	}
	// Labels on a hoisted call show the original expression.
	for _, l := range res.Labels {
		if l.Pos.Line == lineOf(t, distSrc, "L:call") && !strings.Contains(l.Source, "g(a)") {
			t.Errorf("label on a call: source %q", l.Source)
		}
	}
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-overlay", ov, ".")
}

// distType is an integer or float type of the differential test, with
// constants to compare against (64-bit int, uint and uintptr).
type distType struct {
	name, kind string // kind: Int, Uint or Float (the reference helper)
	consts     []string
	min, max   string
}

var distTypes = []distType{
	{"int8", "Int", []string{"-128", "-125", "-1", "0", "5", "124", "127"}, "-128", "127"},
	{"int16", "Int", []string{"-32768", "-32760", "0", "32767", "32700"}, "-32768", "32767"},
	{"int32", "Int", []string{"-2147483648", "0", "70000", "2147483647"}, "-2147483648", "2147483647"},
	{"int64", "Int", []string{"-9223372036854775808", "-9223372036854775800", "0", "9223372036854775807"}, "-9223372036854775808", "9223372036854775807"},
	{"int", "Int", []string{"-9223372036854775808", "-2147483649", "-2147483648", "0", "2147483647", "2147483648", "9223372036854775807"}, "-9223372036854775808", "9223372036854775807"},
	{"uint8", "Uint", []string{"0", "3", "250", "255"}, "0", "255"},
	{"uint16", "Uint", []string{"0", "65535", "65530", "300"}, "0", "65535"},
	{"uint32", "Uint", []string{"0", "4294967295", "4294967290", "65536"}, "0", "4294967295"},
	{"uint64", "Uint", []string{"0", "18446744073709551615", "18446744073709551610", "9223372036854775808"}, "0", "18446744073709551615"},
	{"uint", "Uint", []string{"0", "4294967295", "4294967296", "18446744073709551615"}, "0", "18446744073709551615"},
	{"uintptr", "Uint", []string{"0", "4294967300", "18446744073709551615"}, "0", "18446744073709551615"},
	{"float32", "Float", []string{"1.5", "-3", "0"}, "-3.4e38", "3.4e38"},
	{"float64", "Float", []string{"1.5", "-1e300", "65536"}, "-1.7e308", "1.7e308"},
}

// TestDistLadderMatchesBigInt: the injected dist predicates of relations
// between two variables and between a variable and a constant, for every
// integer width, agree with |a-b| < 2^k computed on big.Int (floats: with
// math.Abs of the difference the program computes) on edge values, random
// values and values close to each other — so no rung overflows — and a
// trivial rung holds on every pair.
func TestDistLadderMatchesBigInt(t *testing.T) {
	needGo(t)
	if strconv.IntSize != 64 {
		t.Skip("the constants of int, uint and uintptr are 64-bit")
	}
	var src strings.Builder
	src.WriteString("package m\n")
	type fn struct {
		name, typ, kind, c string // c: the constant, "" for a relation between a and b
		line               int
	}
	var fns []fn
	line := 1
	emit := func(f fn, text string) {
		src.WriteString(text)
		f.line = line + 3
		line += strings.Count(text, "\n")
		fns = append(fns, f)
	}
	for _, ty := range distTypes {
		emit(fn{name: "V_" + ty.name, typ: ty.name, kind: ty.kind},
			fmt.Sprintf("\nfunc V_%s(a, b %s) bool {\n\treturn a < b\n}\n", ty.name, ty.name))
		for i, c := range ty.consts {
			emit(fn{name: fmt.Sprintf("C_%s_%d", ty.name, i), typ: ty.name, kind: ty.kind, c: c},
				fmt.Sprintf("\nfunc C_%s_%d(a %s) bool {\n\treturn a <= %s\n}\n", ty.name, i, ty.name, c))
		}
	}
	dir := writeModule(t, map[string]string{"m.go": src.String()})
	res := annotate(t, dir, "dist")
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var chk strings.Builder
	chk.WriteString(distCheckHeader)
	total := 0
	// Pairs drawn per function, from the same seeded sequence: the default
	// run checks its first 3,000 (every value list has at most a few dozen
	// edges), the long run (.ci/run) 20,000.
	iterations := testenv.Sized(3000, 20000)
	for _, f := range fns {
		var ty distType
		for _, d := range distTypes {
			if d.name == f.typ {
				ty = d
			}
		}
		center, b := "0", "pick(r, vs)"
		if f.c != "" {
			center, b = f.c, f.c
		}
		fmt.Fprintf(&chk, "\nfunc Test%s(t *testing.T) {\n\tr := rand.New(rand.NewPCG(1, 2))\n", f.name)
		fmt.Fprintf(&chk, "\tvs := vals%s[%s](r, %s, %s, %s)\n", ty.kind, f.typ, ty.min, ty.max, center)
		fmt.Fprintf(&chk, "\tfor i := 0; i < %d; i++ {\n\t\ta := pick(r, vs)\n\t\tvar b %s = %s\n", iterations, f.typ, b)
		if f.c == "" {
			fmt.Fprintf(&chk, "\t\tif i%%2 == 0 {\n\t\t\tb = a + %s(near(r))\n\t\t}\n", f.typ)
		}
		n := 0
		for _, l := range res.Labels {
			if l.Pos.Line != f.line || l.Criterion != labels.DIST {
				continue
			}
			exp := distExp(t, l.Operator)
			pred := l.Predicate
			switch l.Status {
			case labels.Trivial:
				pred = "true"
			case labels.Active, labels.Skipped: // a skipped rung (8-bit) is listed with the predicate it would have
			default:
				t.Errorf("%s: label %d is %s: %s", f.name, l.ID, l.Status, l.Reason)
				continue
			}
			fmt.Fprintf(&chk, "\t\tif got, want := %s, dist%s(a, b, %s); got != want {\n\t\t\tt.Fatalf(\"label %d %s: a=%%v b=%%v: %%v, want %%v\", a, b, got, want)\n\t\t}\n",
				pred, ty.kind, exp, l.ID, strings.ReplaceAll(pred, `"`, `\"`))
			n++
		}
		if want := len(labels.DistRungs(distTypeOf(ty))); n != want {
			t.Errorf("%s: %d dist labels, want %d", f.name, n, want)
		}
		total += n
		chk.WriteString("\t}\n}\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "check_test.go"), []byte(chk.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := goTest(t, dir, "-overlay", ov, "-v", ".")
	if got := strings.Count(out, "--- PASS"); got != len(fns) {
		t.Fatalf("%d tests passed, want %d (%d labels)\n%s", got, len(fns), total, out)
	}
}

// distExp is k of the dist operator |a-b| < 2^k (written 2^k or in
// decimal).
func distExp(t *testing.T, op string) string {
	t.Helper()
	k := strings.TrimPrefix(op, "|a-b| < ")
	if e, ok := strings.CutPrefix(k, "2^"); ok {
		return e
	}
	bound, err := strconv.ParseUint(k, 10, 64)
	if err != nil || bound&(bound-1) != 0 {
		t.Fatalf("operator %q", op)
	}
	return strconv.Itoa(len(strconv.FormatUint(bound, 2)) - 1)
}

// distTypeOf is the ladder type of a differential test's type.
func distTypeOf(ty distType) labels.DistType {
	switch ty.name {
	case "int8", "uint8":
		return labels.DistType{Bits: 8}
	case "int16", "uint16":
		return labels.DistType{Bits: 16}
	case "int32", "uint32", "float32":
		return labels.DistType{Bits: 32, Float: ty.kind == "Float"}
	}
	return labels.DistType{Bits: 64, Float: ty.kind == "Float"}
}

// distCheckHeader holds the references and value generators of the
// checks TestDistLadderMatchesBigInt writes.
const distCheckHeader = `package m

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

type sint interface{ ~int8 | ~int16 | ~int32 | ~int64 | ~int }
type uint_ interface{ ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr }

func below(d *big.Int, k uint) bool {
	return d.Abs(d).Cmp(new(big.Int).Lsh(big.NewInt(1), k)) < 0
}

func distInt[T sint](a, b T, k uint) bool {
	return below(new(big.Int).Sub(big.NewInt(int64(a)), big.NewInt(int64(b))), k)
}

func distUint[T uint_](a, b T, k uint) bool {
	return below(new(big.Int).Sub(new(big.Int).SetUint64(uint64(a)), new(big.Int).SetUint64(uint64(b))), k)
}

func distFloat[T ~float32 | ~float64](a, b T, k uint) bool {
	return math.Abs(float64(a-b)) < math.Ldexp(1, int(k))
}

// near is a small signed offset, at most beyond the largest rung.
func near(r *rand.Rand) int64 {
	if r.IntN(2) == 0 {
		return r.Int64N(41) - 20
	}
	return r.Int64N(140001) - 70000
}

func pick[T any](r *rand.Rand, vs []T) T { return vs[r.IntN(len(vs))] }

func edges[T sint | uint_](min, max, c T) []T {
	out := []T{min, min + 1, max, max - 1, 0, 1, c}
	for _, d := range []int64{1, 2, 3, 4, 15, 16, 17, 255, 256, 257, 65535, 65536, 65537} {
		out = append(out, c+T(d), c-T(d), min+T(d), max-T(d))
	}
	for _, k := range []uint{20, 24, 31, 32, 48, 60, 62, 63} {
		for _, d := range []uint64{1<<k - 1, 1 << k, 1<<k + 1} {
			out = append(out, c+T(d), c-T(d), min+T(d), max-T(d))
		}
	}
	return out
}

func valsInt[T sint](r *rand.Rand, min, max, c T) []T {
	out := edges(min, max, c)
	for i := 0; i < 2000; i++ {
		out = append(out, T(r.Uint64()), c+T(near(r)))
	}
	return out
}

func valsUint[T uint_](r *rand.Rand, min, max, c T) []T {
	out := edges(min, max, c)
	for i := 0; i < 2000; i++ {
		out = append(out, T(r.Uint64()), c+T(near(r)))
	}
	return out
}

func valsFloat[T ~float32 | ~float64](r *rand.Rand, min, max, c T) []T {
	nan, inf := T(math.NaN()), T(math.Inf(1))
	out := []T{min, max, 0, c, nan, inf, -inf, c + 0.5, c - 0.5, c + 1, c - 1, c + 65536, c - 65535.5,
		T(math.Ldexp(1, 64)), -T(math.Ldexp(1, 64)), T(math.Ldexp(1, 128)), T(math.Ldexp(1, 256)), T(math.Ldexp(1, 512)), T(math.Ldexp(1, 511))}
	for i := 0; i < 2000; i++ {
		out = append(out, T(r.NormFloat64()*1e5), c+T(r.NormFloat64()*20), T(math.Float64frombits(r.Uint64())),
			T(math.Ldexp(r.Float64(), r.IntN(1100)-40)), c+T(math.Ldexp(1, r.IntN(520))))
	}
	return out
}
`

// TestEveryCriterionLabelsOrFails: each criterion labels knows either
// gives the sample labels of its own or makes annotation fail naming it —
// never an empty manifest that reads as "nothing to label".
func TestEveryCriterionLabelsOrFails(t *testing.T) {
	needGo(t)
	dir := sampleDir(t)
	for _, k := range labels.AllKeys() {
		res, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, string(k)), Dir: dir})
		if !slices.Contains(implemented(), k) {
			if err == nil || !strings.Contains(err.Error(), string(k)) {
				t.Errorf("%s: not implemented, yet annotation gave %v", k, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		n := 0
		for _, l := range res.Labels {
			if l.Criterion == k && l.Status == labels.Active {
				n++
			}
		}
		if n == 0 {
			t.Errorf("%s: no active labels on the sample", k)
		}
	}
}

// TestDistCounterBudget: a package whose dist labels would add more
// fuzzing counters than its budget keeps its stones, then the rungs every
// fourth bit (against wide constants, other constants, between values),
// then the rungs in between, and lists the rest as skipped with the
// reason; without the budget every label the rules keep is active.
func TestDistCounterBudget(t *testing.T) {
	needGo(t)
	var b strings.Builder
	b.WriteString("package m\n\n")
	for i := range 30 {
		fmt.Fprintf(&b, "func F%d(a, c int64, m uint32) int {\n\tif m == 0xC0FFEE%02d {\n\t\treturn 1\n\t}\n\tif a == 9000000 {\n\t\treturn 2\n\t}\n\tif a < c {\n\t\treturn 3\n\t}\n\treturn 0\n}\n\n", i, i)
	}
	dir := writeModule(t, map[string]string{"m.go": b.String()})
	full, err := Annotate(context.Background(), []string{"./..."}, Options{Criteria: crit(t, "dist"), Dir: dir, NoCounterBudget: true})
	if err != nil {
		t.Fatal(err)
	}
	res := annotateWhole(t, dir, "dist")
	if len(full.Labels) != len(res.Labels) {
		t.Fatalf("%d labels with the budget, %d without: the budget must list, not drop", len(res.Labels), len(full.Labels))
	}
	rank := func(l *labels.Label) (int, bool) {
		switch {
		case strings.HasPrefix(l.Operator, "top "):
			return 0, false
		case strings.Contains(l.Source, "9000000"), strings.Contains(l.Source, "0xC0FFEE"):
			return 1, true
		case strings.Contains(l.Source, "a < c"):
			return 3, true
		}
		return -1, false
	}
	var active, budgeted, fullActive int
	var lastKept, firstCut [2][4]bool // [thin][rank]
	for i, l := range res.Labels {
		if full.Labels[i].Status == labels.Active {
			fullActive++
		}
		if l.Criterion != labels.DIST {
			continue
		}
		r, rung := rank(l)
		if r < 0 {
			t.Fatalf("unexpected label %s %q at %s", l.Operator, l.Source, l.Pos)
		}
		thin := 0
		if rung {
			if k, _ := strconv.Atoi(distExp(t, l.Operator)); k%4 != 0 {
				thin = 1
			}
		}
		switch {
		case l.Status == labels.Active:
			active++
			lastKept[thin][r] = true
		case strings.Contains(l.Reason, "counter budget"):
			budgeted++
			firstCut[thin][r] = true
			if full.Labels[i].Status != labels.Active {
				t.Errorf("%s %s: listed over the budget but not active without it", l.Pos, l.Operator)
			}
		}
	}
	if active == 0 || budgeted == 0 || active+budgeted != fullActive {
		t.Fatalf("active %d, over the budget %d, active without the budget %d", active, budgeted, fullActive)
	}
	if firstCut[0][0] {
		t.Errorf("a stone was left out while rungs were kept (%d active, %d over the budget)", active, budgeted)
	}
	// Order: stones, every fourth bit (wide constant, between values),
	// then the rest: nothing kept after a class that was cut.
	order := [][2]int{{0, 0}, {0, 1}, {0, 3}, {1, 1}, {1, 3}}
	for i, a := range order {
		for _, z := range order[i+1:] {
			if firstCut[a[0]][a[1]] && lastKept[z[0]][z[1]] {
				t.Errorf("class %v kept although class %v, before it, was cut", z, a)
			}
		}
	}
}

// TestDistFloorsShared: packages annotated together share the least
// counter budget when one binary holds them (one imports the other), in
// proportion to their own counters; a package that imports none of the
// others keeps the whole floor.
func TestDistFloorsShared(t *testing.T) {
	needGo(t)
	fn := func(name string, n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "func %s%d(x int) int {\n\tif x > %d {\n\t\treturn 1\n\t}\n\treturn 0\n}\n\n", name, i, i)
		}
		return b.String()
	}
	dir := writeModule(t, map[string]string{
		"a/a.go": "package a\n\nimport \"example.com/m/b\"\n\nvar _ = b.B0\n\n" + fn("A", 10),
		"b/b.go": "package b\n\n" + fn("B", 30),
		"c/c.go": "package c\n\n" + fn("C", 5),
	})
	pkgs, err := Load(context.Background(), []string{"./..."}, Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	floors := distFloors(pkgs)
	by := map[string]int{}
	for i, p := range pkgs {
		by[p.PkgPath] = floors[i]
	}
	a, b, c := by["example.com/m/a"], by["example.com/m/b"], by["example.com/m/c"]
	// a: 10 functions with an if each (3 counters), b: 30.
	if a+b < distBudgetFloor-1 || a+b > distBudgetFloor || a*3 > b+3 || a*3 < b-3 {
		t.Errorf("floors of a and b (one binary) = %d and %d, want about %d in all, 1:3", a, b, distBudgetFloor)
	}
	if c != distBudgetFloor {
		t.Errorf("floor of c (imports none of the others) = %d, want %d", c, distBudgetFloor)
	}
}
