package golang

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/labels"
)

// TestStonesMatchPlainComparison: the byte-wise stones of x == c for every
// integer width of 16 bits or more (signed, unsigned, platform-sized) and
// the prefix stones of strings and []byte (==, switch cases against a
// constant or another value, bytes.Equal, bytes.HasPrefix,
// strings.HasPrefix) agree, on edge and random inputs, with references
// written from the plain comparison: the top j bytes of the big-endian
// encodings are equal; the common prefix is at least k bytes long. Each
// also holds whenever the comparison itself does.
func TestStonesMatchPlainComparison(t *testing.T) {
	needGo(t)
	if strconv.IntSize != 64 {
		t.Skip("int, uint and uintptr are 64-bit here")
	}
	type fn struct {
		name, body, kind, typ, c string // kind: int, str, bytes; c: the constant ("" for two values)
		line                     int
	}
	var fns []fn
	intConsts := map[string][]string{
		"int16": {"-32768", "-2", "258", "32767"}, "uint16": {"0", "65535", "4660"},
		"int32": {"-2147483648", "-1", "323584398", "2147483647"}, "uint32": {"3235839949", "0", "4294967295"},
		"int64":  {"-9223372036854775808", "-1", "54321987654321", "9223372036854775807"},
		"uint64": {"54308428790203956", "0", "18446744073709551615"},
		"int":    {"-5", "54308428790203956"}, "uint": {"18446744073709551614"}, "uintptr": {"305419896"},
	}
	for _, ty := range sortedKeys(intConsts) {
		for i, c := range intConsts[ty] {
			fns = append(fns, fn{name: fmt.Sprintf("I_%s_%d", ty, i), kind: "int", typ: ty, c: c,
				body: fmt.Sprintf("(a %s) bool {\n\treturn a == %s\n}", ty, c)})
		}
		fns = append(fns, fn{name: "W_" + ty, kind: "int", typ: ty, c: intConsts[ty][0],
			body: fmt.Sprintf("(a %s) bool {\n\tswitch a {\n\tcase %s:\n\t\treturn true\n\t}\n\treturn false\n}", ty, intConsts[ty][0])})
	}
	for i, c := range []string{`"calibrate!"`, `"ab"`, `"\xff\x00é"`} {
		fns = append(fns, fn{name: fmt.Sprintf("S_%d", i), kind: "str", typ: "string", c: c, body: fmt.Sprintf("(a string) bool {\n\treturn a != %s\n}", c)},
			fn{name: fmt.Sprintf("H_%d", i), kind: "str", typ: "string", c: c, body: fmt.Sprintf("(a string) bool {\n\treturn strings.HasPrefix(a, %s)\n}", c)},
			fn{name: fmt.Sprintf("B_%d", i), kind: "bytes", typ: "[]byte", c: c, body: fmt.Sprintf("(a []byte) bool {\n\treturn bytes.HasPrefix(a, []byte(%s))\n}", c)},
			fn{name: fmt.Sprintf("C_%d", i), kind: "str", typ: "string", c: c, body: fmt.Sprintf("(a string) int {\n\tswitch a {\n\tcase %s:\n\t\treturn 1\n\t}\n\treturn 0\n}", c)})
	}
	fns = append(fns, fn{name: "SS", kind: "str", typ: "string", body: "(a, b string) bool {\n\treturn a == b\n}"},
		fn{name: "BB", kind: "bytes", typ: "[]byte", body: "(a, b []byte) bool {\n\treturn bytes.Equal(a, b)\n}"})
	var src strings.Builder
	src.WriteString("package m\n\nimport (\n\t\"bytes\"\n\t\"strings\"\n)\n\nvar _ = bytes.Equal\nvar _ = strings.HasPrefix\n")
	line := strings.Count(src.String(), "\n") + 1
	for i := range fns {
		text := "\nfunc " + fns[i].name + fns[i].body + "\n"
		src.WriteString(text)
		fns[i].line = line + 2
		if strings.Contains(fns[i].body, "switch") {
			fns[i].line = line + 3 // the case
		}
		line += strings.Count(text, "\n")
	}
	dir := writeModule(t, map[string]string{"m.go": src.String()})
	res := annotate(t, dir, "dist")
	ov, err := res.WriteOverlay(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var chk strings.Builder
	chk.WriteString(stoneCheckHeader)
	total := 0
	for _, f := range fns {
		fmt.Fprintf(&chk, "\nfunc Test%s(t *testing.T) {\n\tr := rand.New(rand.NewPCG(5, 6))\n", f.name)
		switch f.kind {
		case "int":
			fmt.Fprintf(&chk, "\tvar c %s = %s\n\tfor _, a := range intVals[%s](r, c) {\n", f.typ, f.c, f.typ)
		default:
			c := f.c
			if c == "" {
				c = `"calibrate!"`
			}
			fmt.Fprintf(&chk, "\tfor _, p := range strPairs(r, %s) {\n\t\ta, b := %s(p[0]), %s(p[1])\n\t\t_ = b\n", c, f.typ, f.typ)
			if f.c != "" {
				fmt.Fprintf(&chk, "\t\tb = %s(%s)\n", f.typ, f.c)
			}
		}
		n := 0
		for _, l := range res.Labels {
			if l.Pos.Line != f.line || l.Criterion != labels.DIST || strings.HasPrefix(l.Operator, "|a-b|") {
				continue
			}
			if l.Status != labels.Active {
				t.Errorf("%s: %s is %s: %s", f.name, l.Operator, l.Status, l.Reason)
				continue
			}
			var want string
			switch {
			case strings.HasPrefix(l.Operator, "top "):
				var j, of int
				fmt.Sscanf(l.Operator, "top %d of %d bytes =", &j, &of)
				want = fmt.Sprintf("topBytes(a, c, %d, %d)", j, of)
				fmt.Fprintf(&chk, "\t\tif a == c && !(%s) {\n\t\t\tt.Fatalf(\"label %d: a == c but not %%s\", %q)\n\t\t}\n", l.Predicate, l.ID, l.Predicate)
			default:
				var k int
				fmt.Sscanf(l.Operator, "prefix %d =", &k)
				want = fmt.Sprintf("common(string(a), string(b)) >= %d", k)
			}
			fmt.Fprintf(&chk, "\t\tif got, want := %s, %s; got != want {\n\t\t\tt.Fatalf(\"label %d %s: a=%%q: %%v, want %%v\", a, got, want)\n\t\t}\n",
				l.Predicate, want, l.ID, strings.ReplaceAll(strings.ReplaceAll(l.Predicate, `\`, `\\`), `"`, `\"`))
			n++
		}
		if n == 0 {
			t.Errorf("%s: no stones", f.name)
		}
		total += n
		chk.WriteString("\t}\n}\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "check_test.go"), []byte(chk.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := goTest(t, dir, "-overlay", ov, "-v", ".")
	if got := strings.Count(out, "--- PASS"); got != len(fns) {
		t.Fatalf("%d tests passed, want %d (%d stones)\n%s", got, len(fns), total, out)
	}
}

func sortedKeys(m map[string][]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// stoneCheckHeader holds the references and value generators of the
// checks TestStonesMatchPlainComparison writes.
const stoneCheckHeader = `package m

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unsafe"
)

type integer interface {
	~int16 | ~int32 | ~int64 | ~int | ~uint16 | ~uint32 | ~uint64 | ~uint | ~uintptr
}

// topBytes: the first j of the n big-endian bytes of a and c are equal.
func topBytes[T integer](a, c T, j, n int) bool {
	if int(unsafe.Sizeof(a)) != n {
		panic("width")
	}
	var ba, bc [8]byte
	binary.BigEndian.PutUint64(ba[:], uint64(a))
	binary.BigEndian.PutUint64(bc[:], uint64(c))
	return string(ba[8-n:8-n+j]) == string(bc[8-n:8-n+j])
}

func intVals[T integer](r *rand.Rand, c T) []T {
	out := []T{c, c + 1, c - 1, 0, ^T(0)}
	for s := 0; s < 64; s++ {
		out = append(out, c^(T(1)<<s), c^(T(0xff)<<s), c+(T(1)<<s))
	}
	for i := 0; i < 3000; i++ {
		v := c
		b := r.IntN(8)
		v ^= T(r.Uint64()) >> (8 * b) // agree on a random number of top bytes
		out = append(out, v, T(r.Uint64()))
	}
	return out
}

func common(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func strPairs(r *rand.Rand, c string) [][2]string {
	edge := []string{"", c, c[:1], c[:len(c)-1], c + "x", "x" + c, c[:len(c)/2] + "\x00", "\xff", "calibrate", "ab", "a", "\xff\x00\xc3"}
	var out [][2]string
	for _, a := range edge {
		for _, b := range edge {
			out = append(out, [2]string{a, b})
		}
	}
	for i := 0; i < 3000; i++ {
		k := r.IntN(len(c) + 2)
		a := c[:min(k, len(c))]
		for len(a) < k || r.IntN(3) == 0 {
			a += string(rune('a' + r.IntN(4)))
		}
		b := edge[r.IntN(len(edge))]
		if r.IntN(2) == 0 {
			b = a[:r.IntN(len(a)+1)] + "q"
		}
		out = append(out, [2]string{a, b})
	}
	return out
}
`
