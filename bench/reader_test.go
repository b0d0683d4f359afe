package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

// The reader benchmark compares labelcov's plan reader with Go's own, as
// gofmt uses it, on inputs of the same size:
//
//   - system=labelcov: syntax.Parse, and for op=fmt also syntax.Format;
//   - system=gofmt: go/parser.ParseFile (with comments), and for op=fmt
//     also go/printer with gofmt's settings.
//
// The plan input repeats the warehouse-sort benchmark plan (definitions
// renamed per copy); the Go input repeats go/printer's nodes.go from
// GOROOT (declarations only after the first copy), both cut to readerSize
// bytes at a top-level boundary. Figures: MB/s, bytes allocated per source
// byte (alloc-B/srcB), and — in a child process that does one read, so the
// peak is the reader's and not the benchmark loop's — the growth of the
// peak resident set per source byte (RSS-B/srcB).

// readerSize is the size of both inputs (bytes).
const readerSize = 4 << 20

func planInput(tb testing.TB, size int) []byte {
	tb.Helper()
	src, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "warehouse-sort", "warehouse-sort.plan"))
	if err != nil {
		tb.Fatal(err)
	}
	f, err := syntax.Parse("warehouse-sort.plan", src)
	if err != nil {
		tb.Fatal(err)
	}
	// Rename every defun, def-plan and defparameter per copy so that the
	// result is a plausible (compilable) large plan, not one definition
	// repeated.
	var names []string
	for _, form := range f.Forms {
		if l, ok := form.(*syntax.List); ok && len(l.Elems) > 1 {
			if s, ok := l.Elems[1].(*syntax.Symbol); ok {
				names = append(names, s.Name)
			}
		}
	}
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		text := string(src)
		for _, n := range names {
			text = strings.ReplaceAll(text, n+" ", fmt.Sprintf("%s-%d ", strings.TrimRight(n, "*"), i))
		}
		b.WriteString(text)
		b.WriteString("\n")
	}
	return cutAt(b.Bytes(), size, "\n(")
}

func goInput(tb testing.TB, size int) []byte {
	tb.Helper()
	name := filepath.Join(runtime.GOROOT(), "src", "go", "printer", "nodes.go")
	src, err := os.ReadFile(name)
	if err != nil {
		tb.Skipf("no Go source to compare with: %v", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		tb.Fatal(err)
	}
	var body []byte // everything after the imports
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		body = src[fset.Position(d.Pos()).Offset:]
		break
	}
	var b bytes.Buffer
	b.Write(src)
	for i := 0; b.Len() < size; i++ {
		// Rename functions and types per copy by a suffix on "func (" and
		// "func name(": duplicates are fine for the parser, but a suffix
		// keeps identifiers as varied as real code.
		b.WriteString("\n")
		b.Write(bytes.ReplaceAll(body, []byte("(p *printer) "), fmt.Appendf(nil, "(p%d *printer) ", i)))
	}
	return cutAt(b.Bytes(), size, "\nfunc ")
}

// cutAt truncates src to at most size bytes at the last occurrence of sep
// (which starts a top-level form) before size.
func cutAt(src []byte, size int, sep string) []byte {
	if len(src) <= size {
		return src
	}
	i := bytes.LastIndex(src[:size], []byte(sep))
	if i < 0 {
		return src[:size]
	}
	return src[:i+1]
}

// readOnce is one read (op=parse) or read and print (op=fmt) by system.
func readOnce(system, op string, src []byte) error {
	switch system {
	case "labelcov":
		f, err := syntax.Parse("big.plan", src)
		if err != nil {
			return err
		}
		if op == "fmt" {
			syntax.Format(f)
		}
	case "gofmt":
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "big.go", src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if op == "fmt" {
			var out bytes.Buffer
			cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
			if err := cfg.Fprint(&out, fset, f); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unknown system %q", system)
	}
	return nil
}

func BenchmarkReader(b *testing.B) {
	inputs := map[string][]byte{"labelcov": planInput(b, readerSize), "gofmt": goInput(b, readerSize)}
	for _, op := range []string{"parse", "fmt"} {
		for _, system := range []string{"labelcov", "gofmt"} {
			src := inputs[system]
			b.Run(fmt.Sprintf("op=%s/system=%s", op, system), func(b *testing.B) {
				if err := readOnce(system, op, src); err != nil {
					b.Fatal(err)
				}
				r, rssOK := childRSS(b, system, op, src)
				b.SetBytes(int64(len(src)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				n := 0
				for b.Loop() {
					if err := readOnce(system, op, src); err != nil {
						b.Fatal(err)
					}
					n++
				}
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(n)/float64(len(src)), "alloc-B/srcB")
				// Reported after the loop: b.Loop's start deletes metrics.
				if rssOK {
					b.ReportMetric(float64(r.After-r.Before)/float64(r.Bytes), "RSS-B/srcB")
					b.ReportMetric(float64(r.After)/float64(r.Bytes), "peakRSS-B/srcB")
				}
			})
		}
	}
}

// rssReport is what the child process of childRSS prints.
type rssReport struct {
	Bytes  int   `json:"bytes"`
	Before int64 `json:"before"` // peak RSS after reading the input file
	After  int64 `json:"after"`  // peak RSS after the read
}

const rssChildEnv = "LABELCOV_BENCH_READER_CHILD"

// childRSS runs this test binary again to do one read of src in a fresh
// process, so that the peak resident set is the reader's alone.
func childRSS(tb testing.TB, system, op string, src []byte) (rssReport, bool) {
	tb.Helper()
	if !rssSupported {
		return rssReport{}, false
	}
	path := filepath.Join(tb.TempDir(), "input")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestReaderRSSChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), rssChildEnv+"="+system+":"+op+":"+path)
	out, err := cmd.Output()
	if err != nil {
		tb.Fatalf("RSS child: %v\n%s", err, out)
	}
	i := bytes.IndexByte(out, '{')
	if i < 0 {
		tb.Fatalf("RSS child printed %q", out)
	}
	var r rssReport
	if err := json.NewDecoder(bytes.NewReader(out[i:])).Decode(&r); err != nil {
		tb.Fatalf("RSS child: %v in %q", err, out)
	}
	return r, true
}

// TestReaderRSSChild is the child of childRSS; without its environment
// variable it checks only that both inputs read.
func TestReaderRSSChild(t *testing.T) {
	spec := os.Getenv(rssChildEnv)
	if spec == "" {
		for _, system := range []string{"labelcov", "gofmt"} {
			src := planInput(t, 64<<10)
			if system == "gofmt" {
				src = goInput(t, 64<<10)
			}
			if err := readOnce(system, "fmt", src); err != nil {
				t.Fatalf("%s: %v", system, err)
			}
		}
		return
	}
	parts := strings.SplitN(spec, ":", 3)
	if len(parts) != 3 {
		t.Fatalf("%s=%q, want SYSTEM:OP:FILE", rssChildEnv, spec)
	}
	system, op := parts[0], parts[1]
	src, err := os.ReadFile(parts[2])
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	before := peakRSS()
	if err := readOnce(system, op, src); err != nil {
		t.Fatal(err)
	}
	after := peakRSS()
	out, _ := json.Marshal(rssReport{Bytes: len(src), Before: before, After: after})
	fmt.Printf("%s\n", out)
}
