package golang

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/internal/testenv"
)

// ladderModule copies testdata/go/ladder into a temporary directory.
func ladderModule(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../testdata/go/ladder")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := CopyModule(src, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestOverlaySeedsAndLines: with dist, the overlay's copy of the fuzz
// test file gets the constants of the package's relations as seeds typed
// by each target's signature (a uint64 argument the 64-bit sensor ID, a
// uint32 one the neighbour of an off-by-one bound), so the seed corpus
// alone crashes two targets that the original's seeds do not; the panics
// under -overlay name the original file and lines (the annotated file
// has hundreds of label lines more); go vet passes on the overlay; the
// user's test file is untouched.
func TestOverlaySeedsAndLines(t *testing.T) {
	needGo(t)
	dir := ladderModule(t)
	testFile := filepath.Join(dir, "ladder_test.go")
	before, err := os.ReadFile(testFile)
	if err != nil {
		t.Fatal(err)
	}
	res := annotate(t, dir, "dist")
	ov, err := res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(filepath.Join(dir, "ladder.go"))
	if err != nil {
		t.Fatal(err)
	}
	// A panic ends the test binary: one target a run.
	for target, marker := range map[string]string{"FuzzReading": "ladder: sensor table is nil", "FuzzBucket": "ladder: bucket index"} {
		run := "^" + target + "$"
		goTest(t, dir, "-run", run, ".")
		out, err := runGoTest(dir, "-overlay", ov, "-run", run, ".")
		if err == nil || !strings.Contains(out, "--- FAIL: "+target+"/seed#") {
			t.Errorf("%s: the seeds crashed nothing:\n%s", target, out)
		}
		at := filepath.Join(dir, "ladder.go") + ":" + strconv.Itoa(lineOf(t, string(orig), marker))
		if !strings.Contains(out, at+" ") && !strings.Contains(out, at+"\n") {
			t.Errorf("%s: no frame at %s:\n%s", target, at, out)
		}
	}
	// Each target gets the constants of what it calls: FuzzEasy none (its
	// function compares bytes with '{' and '}'), FuzzHeader the magic.
	seeded, err := os.ReadFile(filepath.Join(filepath.Dir(ov), "example.com", "ladder", "ladder_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(string(seeded), "\nfunc ")[1:] {
		name := part[:strings.IndexByte(part, '(')]
		adds := strings.Count(part, ".Add(")
		switch {
		case name == "FuzzEasy" && adds != 1:
			t.Errorf("FuzzEasy: %d f.Add calls, want its own one", adds)
		case name == "FuzzHeader" && !strings.Contains(part, `"\xc0\xde\xf0\r"`):
			t.Errorf("FuzzHeader: no big-endian magic among its seeds:\n%s", part)
		}
	}
	if after, err := os.ReadFile(testFile); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the user's test file changed (%v)", err)
	}
	cmd := exec.Command("go", "vet", "-overlay", ov, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("go vet on the overlay: %v\n%s", err, out)
	}
}

// TestLineDirectivesKeepCode: the directives change no token of the
// annotated file (raw strings and comments spanning lines included), and
// each token's position as the compiler reads it is the original line of
// the code it matched.
func TestLineDirectivesKeepCode(t *testing.T) {
	orig := "package p\n\n//go:noinline\nfunc f(x int) string {\n\ts := `a\nb`\n\t/* c\n\td */\n\tif x > 0 {\n\t\treturn s\n\t}\n\treturn \"\"\n}\n"
	ann := "package p\n\n//go:noinline\nfunc f(x int) string {\n\ts := `a\nb`\n\t/* c\n\td */\n\tif x > 1 {\n\t} // label 1\n\tif x > 0 {\n\t} // label 2\n\tif x > 0 {\n\t\treturn s\n\t}\n\treturn \"\"\n}\n"
	got := withLineDirectives("/src/p.go", []byte(orig), []byte(ann))
	toks := func(src []byte) []string {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "x.go", src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		var out []string
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				out = append(out, n.Value)
			case *ast.Ident:
				out = append(out, n.Name)
			}
			return true
		})
		return out
	}
	if a, b := toks([]byte(ann)), toks(got); strings.Join(a, " ") != strings.Join(b, " ") {
		t.Fatalf("tokens changed:\n%v\n%v\n%s", a, b, got)
	}
	if bytes.Count(got, []byte("\n")) != bytes.Count([]byte(ann), []byte("\n")) {
		t.Errorf("lines added:\n%s", got)
	}
	if !bytes.Contains(got, []byte("\n//go:noinline\n")) || !bytes.Contains(got, []byte("`a\nb`")) {
		t.Errorf("directive or raw string moved:\n%s", got)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "x.go", got, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The labels are at line 9 (the if they precede), the if x > 0 with a
	// body at line 9, return s at 10.
	var lines []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ReturnStmt:
			p := fset.Position(n.Pos())
			lines = append(lines, p.Filename+":"+strconv.Itoa(p.Line))
		}
		return true
	})
	want := "/src/p.go:9 /src/p.go:9 /src/p.go:9 /src/p.go:10 /src/p.go:12"
	if strings.Join(lines, " ") != want {
		t.Errorf("positions %v, want %s\n%s", lines, want, got)
	}
}

// TestSeedsSkipBodilessFuncs: a function declared without a body (its
// code is in assembly, as in github.com/cespare/xxhash) calls nothing the
// seed harvest can see; annotating its package with dist must neither
// crash nor drop the other functions' seeds.
func TestSeedsSkipBodilessFuncs(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{
		"m.go": `package m

// sum is implemented in stub.s.
func sum(b []byte) uint64

func Check(x uint64) bool { return x == 0xC0FFEE5EED1234 }
`,
		"stub.s": "// sum's body would be here.\n",
		"m_test.go": `package m

import "testing"

func FuzzCheck(f *testing.F) {
	f.Add(uint64(7))
	f.Fuzz(func(t *testing.T, x uint64) { _ = Check(x) })
}
`,
	})
	res := annotate(t, dir, "dist")
	ov, err := res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(ov)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "m_test.go") {
		t.Errorf("the overlay has no seeded copy of m_test.go (the constant of Check is a seed):\n%s", data)
	}
}

// TestSeedsFollowConstantsIntoTables: a relation between two variables
// has no constant of its own, but when one operand reads a field or
// variable that only ever holds constants (a command table compared with
// the input, a limit in a struct literal, a range over a literal), those
// constants are its seeds: each target below crashes in its seed corpus
// under the overlay and not on the original.
func TestSeedsFollowConstantsIntoTables(t *testing.T) {
	needGo(t)
	dir := writeModule(t, map[string]string{
		"m.go": `package m

import "bytes"

type command struct {
	name string
	run  func()
}

var commands = []command{
	{"status", func() {}},
	{"reboot-now!", func() { panic("m: reboot") }},
}

// Run runs the command the input starts with.
func Run(in []byte) {
	for _, c := range commands {
		if bytes.HasPrefix(in, []byte(c.name)) {
			c.run()
		}
	}
}

type config struct{ max uint32 }

var cfg = config{max: 3_000_000}

// Check panics at the configured maximum.
func Check(n uint32) {
	if n == cfg.max {
		panic("m: at max")
	}
}

// Key panics on the second key.
func Key(s string) {
	for i, k := range []string{"alpha-key", "omega-key"} {
		if s == k && i == 1 {
			panic("m: omega")
		}
	}
}
`,
		"m_test.go": `package m

import "testing"

func FuzzRun(f *testing.F) {
	f.Add([]byte("status"))
	f.Fuzz(func(t *testing.T, in []byte) { Run(in) })
}

func FuzzCheck(f *testing.F) {
	f.Add(uint32(7))
	f.Fuzz(func(t *testing.T, n uint32) { Check(n) })
}

func FuzzKey(f *testing.F) {
	f.Add("alpha")
	f.Fuzz(func(t *testing.T, s string) { Key(s) })
}
`,
	})
	res := annotate(t, dir, "dist")
	ov, err := res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	for target, msg := range map[string]string{"FuzzRun": "m: reboot", "FuzzCheck": "m: at max", "FuzzKey": "m: omega"} {
		run := "^" + target + "$"
		goTest(t, dir, "-run", run, ".")
		out, err := runGoTest(dir, "-overlay", ov, "-run", run, ".")
		if err == nil || !strings.Contains(out, "--- FAIL: "+target+"/seed#") || !strings.Contains(out, msg) {
			t.Errorf("%s: no seed reached %q:\n%s", target, msg, out)
		}
	}
}

// TestSeedsSpliceLengthPrefixedFrame: a command name inside a
// length-prefixed frame (a length byte, the name, a count byte) is a seed
// only with its length in front: the token is offered in place of the
// seed's own length-prefixed name, so the frame stays whole and the
// target reaches the command from its seed corpus under the overlay (not
// on the original).
func TestSeedsSpliceLengthPrefixedFrame(t *testing.T) {
	testenv.Long(t) // annotates and builds a module twice (about 10 s under load)
	needGo(t)
	dir := writeModule(t, map[string]string{
		"m.go": `package m

import "errors"

// Run runs a stream of frames: a length byte, a command's name, a count.
func Run(in []byte) error {
	for len(in) > 0 {
		n := int(in[0])
		if len(in) < n+2 {
			return errors.New("m: short frame")
		}
		name, count := string(in[1:1+n]), in[1+n]
		in = in[2+n:]
		switch name {
		case "status":
		case "rehome-arm":
			if count > 0 {
				panic("m: rehome")
			}
		default:
			return errors.New("m: unknown command")
		}
	}
	return nil
}
`,
		"m_test.go": `package m

import "testing"

func FuzzRun(f *testing.F) {
	f.Add([]byte("\x06status\x01"))
	f.Fuzz(func(t *testing.T, in []byte) { _ = Run(in) })
}
`,
	})
	res := annotate(t, dir, "dist")
	ov, err := res.WriteOverlay(filepath.Join(t.TempDir(), "ov"))
	if err != nil {
		t.Fatal(err)
	}
	goTest(t, dir, "-run", "^FuzzRun$", ".")
	out, err := runGoTest(dir, "-overlay", ov, "-run", "^FuzzRun$", ".")
	if err == nil || !strings.Contains(out, "--- FAIL: FuzzRun/seed#") || !strings.Contains(out, "m: rehome") {
		t.Errorf("no seed framed the command:\n%s", out)
	}
}

// TestLineMapResynchronizes: after a stretch of rewritten lines longer
// than the window (a loop whose every line was restructured or labelled),
// the next function's signature, found once in the original, maps to its
// own line again, and the lines after it follow (gjson's validany used to
// map, with every function after it, to one line far before it).
func TestLineMapResynchronizes(t *testing.T) {
	var orig, ann strings.Builder
	orig.WriteString("package p\n\nfunc A(x int) int {\n")
	ann.WriteString("package p\n\nfunc A(x int) int {\n")
	for i := 0; i < 3*lineWindow; i++ {
		fmt.Fprintf(&orig, "\tx += %d // original\n", i)
		fmt.Fprintf(&ann, "\tlc%d := x + %d // rewritten\n", i, i)
	}
	orig.WriteString("\treturn x\n}\n\nfunc B(y int) int {\n\treturn y * 2\n}\n")
	ann.WriteString("\treturn x\n}\n\nfunc B(y int) int {\n\treturn y * 2\n}\n")
	m := lineMap([]byte(orig.String()), []byte(ann.String()))
	want := 3 + 3*lineWindow + 4 // func B's line in the original
	if got := m[want]; got != want {
		t.Errorf("func B maps to line %d, want %d", got, want)
	}
	if got := m[want+1]; got != want+1 {
		t.Errorf("the line after func B maps to line %d, want %d", got, want+1)
	}
}

// TestFuncSpansAndKeepConsts: each constant names its package and
// function; FuncSpans gives each declaration's lines keyed as coverage
// profiles name files; KeepConsts keeps those accepted, in order.
func TestFuncSpansAndKeepConsts(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/go/seedreach")
	if err != nil {
		t.Fatal(err)
	}
	res := annotate(t, dir, "dist")
	spans, err := res.FuncSpans()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range spans["example.com/seedreach/seedreach.go"] {
		got = append(got, fmt.Sprintf("%s.%s:%d-%d", s.Pkg, s.Func, s.Start, s.End))
	}
	want := []string{"example.com/seedreach.Decode:11-16", "example.com/seedreach.field:19-27", "example.com/seedreach.wide:30-35"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spans %v, want %v", got, want)
	}
	funcs := func() []string {
		var out []string
		for _, c := range res.Packages[0].Consts {
			out = append(out, c.Pkg+"."+c.Func+":"+c.Value.ExactString())
		}
		return out
	}
	all := funcs()
	if len(all) < 2 || !slices.Contains(all, `example.com/seedreach.field:"labelcov-magic-key"`) ||
		!slices.Contains(all, "example.com/seedreach.wide:9146178479567208449") {
		t.Fatalf("constants %v", all)
	}
	res.KeepConsts(func(c Const) bool { return c.Func != "wide" })
	for _, c := range funcs() {
		if strings.Contains(c, ".wide:") {
			t.Errorf("kept %s", c)
		}
	}
	if len(funcs()) == 0 || funcs()[0] != all[0] {
		t.Errorf("KeepConsts changed the order or kept nothing: %v", funcs())
	}
}

// TestSeedsSkipTokensAloneForRuntimeSeeds: the []byte argument of a
// target whose f.Add calls all sit in a loop (its seeds built at run
// time) gets no seeds, since the tokens alone would be most of its corpus;
// its integer argument still gets the constant, and a string argument
// keeps its tokens (text); a target without any f.Add keeps the tokens
// alone (they are then its only inputs holding them), and one with a
// top-level f.Add gets the tokens spliced into that row.
func TestSeedsSkipTokensAloneForRuntimeSeeds(t *testing.T) {
	src := `package m

import "testing"

func FuzzLoop(f *testing.F) {
	for _, s := range []string{"II*\x00", "MM\x00*"} {
		f.Add([]byte(s), 7)
	}
	f.Fuzz(func(t *testing.T, b []byte, n int) {})
}

func FuzzNone(f *testing.F) {
	f.Fuzz(func(t *testing.T, b []byte, n int) {})
}

func FuzzTop(f *testing.F) {
	f.Add([]byte("II*\x00"), 7)
	f.Fuzz(func(t *testing.T, b []byte, n int) {})
}

func FuzzText(f *testing.F) {
	for _, s := range []string{"en-US", "de"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {})
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "m_test.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	cs := []Const{
		{Value: constant.MakeString("tag"), Func: "Decode"},
		{Value: constant.MakeInt64(0x1234), Bits: 16, Order: "le", Func: "Decode"},
	}
	got := map[string]string{}
	for _, ft := range fuzzTargets(fset, file, []byte(src)) {
		calls, _ := seedCalls(ft, cs)
		got[ft.name] = calls
	}
	if len(got) != 4 {
		t.Fatalf("targets found: %v, want FuzzLoop, FuzzNone, FuzzTop and FuzzText", got)
	}
	if c := got["FuzzText"]; !strings.Contains(c, `labelcovSeedsS("", "tag", "4\x12")`) {
		t.Errorf("FuzzText: its string argument lost the tokens:\n%s", c)
	}
	for name, want := range map[string]struct{ tokens, base, ints bool }{
		"FuzzLoop": {false, false, true},
		"FuzzNone": {true, false, true},
		"FuzzTop":  {true, true, true},
	} {
		c := got[name]
		if has := strings.Contains(c, `"tag"`) && strings.Contains(c, `"4\x12"`); has != want.tokens {
			t.Errorf("%s: byte-string tokens offered %v, want %v:\n%s", name, has, want.tokens, c)
		}
		if has := strings.Contains(c, `labelcovSeedsB([]byte("II*\x00"),`); has != want.base {
			t.Errorf("%s: tokens spliced into its own row %v, want %v:\n%s", name, has, want.base, c)
		}
		if has := strings.Contains(c, "int(4660)"); has != want.ints {
			t.Errorf("%s: integer constant offered %v, want %v:\n%s", name, has, want.ints, c)
		}
	}
}
