package syntax

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden/fmt/*.golden from the current Format")

const goldenDir = "../../testdata/golden/fmt"

// TestFormatGolden formats every testdata/golden/fmt/NAME.input (a plan
// deliberately not in canonical layout) and compares with NAME.golden. It also checks the printer's contract on each file: no
// comment lost or duplicated, same forms, idempotent, golden files already
// canonical.
func TestFormatGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(goldenDir, "*.input"))
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatalf("no golden inputs in %s", goldenDir)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".input")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			f, err := Parse(in, src)
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, f)
			got := Format(f)
			golden := strings.TrimSuffix(in, ".input") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./interp/syntax -run TestFormatGolden -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("Format(%s) differs from %s:\n%s", in, golden, lineDiff(string(want), string(got)))
			}
			if n, m := len(f.Comments), strings.Count(string(want), ";")+strings.Count(string(want), "#|"); n > m {
				t.Errorf("golden has fewer comment markers (%d) than the input has comments (%d)", m, n)
			}
		})
	}
}

// lineDiff shows the first differing line of two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "line " + itoa(i+1) + ":\nwant: " + a + "\n got: " + b
		}
	}
	return "(same lines)"
}

func itoa(i int) string {
	var b [20]byte
	n := len(b)
	for {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			return string(b[n:])
		}
	}
}

// TestFormatLayout pins the layout rules one at a time.
func TestFormatLayout(t *testing.T) {
	long := strings.Repeat("x", 40)
	tests := []struct {
		name, src, want string
	}{
		{"fits on one line", "(defun  f (x)   (+ x  1) )", "(defun f (x) (+ x 1))\n"},
		{"a broken call keeps the author's lines", "(ros-info (fetch) \"waiting for ~a\"\n name)",
			"(ros-info (fetch) \"waiting for ~a\"\n          name)\n"},
		{"a broken data list keeps the author's lines", "(defun f (a b\n &key c d) a)",
			"(defun f (a b\n          &key c d)\n  a)\n"},
		{"defparameter value stays after the name", "(defvar *x* (make-hash-table)\n \"Doc.\")",
			"(defvar *x* (make-hash-table)\n  \"Doc.\")\n"},
		{"defparameter value that does not fit", "(defparameter *" + long + "* '(" + long + " " + long + "))",
			"(defparameter *" + long + "*\n  '(" + long + " " + long + "))\n"},
		{"unknown definer is laid out like defun", "(cpm:def-process-module wait-pm (d)\n (sleep d))",
			"(cpm:def-process-module wait-pm (d)\n  (sleep d))\n"},
		{"author's line breaks are kept", "(defun f (x)\n  (+ x\n     1))", "(defun f (x)\n  (+ x\n     1))\n"},
		{"author's line breaks are kept, layout canonical", "(defun f (x) (+ x\n 1)\n (g))", "(defun f (x)\n  (+ x\n     1)\n  (g))\n"},
		{"literals keep raw text", "(list 1.50 007 1e3 \"a\\tb\" :k 'q)", "(list 1.50 007 1e3 \"a\\tb\" :k 'q)\n"},
		{"blank line between top-level forms", "(a)\n(b)\n\n\n\n(c)", "(a)\n\n(b)\n\n(c)\n"},
		{"defun breaks after params",
			"(defun " + long + " (a b) (print a) (print " + long + "))",
			"(defun " + long + " (a b)\n  (print a)\n  (print " + long + "))\n"},
		{"call aligns under first argument",
			"(foo " + long + " " + long + " " + long + ")",
			"(foo " + long + "\n     " + long + "\n     " + long + ")\n"},
		{"when keeps its test", "(when (> x 1) (print \"" + long + "\") (print \"" + long + "\"))",
			"(when (> x 1)\n  (print \"" + long + "\")\n  (print \"" + long + "\"))\n"},
		{"if aligns branches", "(if (> x 1) (print \"" + long + "\") (print \"" + long + "\"))",
			"(if (> x 1)\n    (print \"" + long + "\")\n    (print \"" + long + "\"))\n"},
		{"let bindings align", "(let ((a \"" + long + long + "\") (b 1234567)) a)",
			"(let ((a \"" + long + long + "\")\n      (b 1234567))\n  a)\n"},
		{"cond clauses align", "(cond ((> x 1) (print \"" + long + "\")) (t (print \"" + long + "\")))",
			"(cond ((> x 1) (print \"" + long + "\"))\n      (t (print \"" + long + "\")))\n"},
		{"blank line kept once in a body", "(progn (a)\n\n\n\n (b) ; c\n (c))",
			"(progn\n  (a)\n\n  (b) ; c\n  (c))\n"},
		{"trailing comment stays on its line", "(a) ; after a\n(b)", "(a) ; after a\n\n(b)\n"},
		{"own-line comment before form", ";; about a\n(a)", ";; about a\n(a)\n"},
		{"comment before close paren", "(f b\n ; end\n )", "(f b\n   ; end\n   )\n"},
		{"comment before close paren of a body", "(progn b\n ; end\n )", "(progn\n  b\n  ; end\n  )\n"},
		{"comment after open paren", "( ; c\n a b)", "( ; c\n a b)\n"},
		{"inline block comment stays flat", "(a #| x |# b)", "(a #| x |# b)\n"},
		{"comment inside quote moves before it", "(list ' ; why\n x)", "(list ; why\n 'x)\n"},
		{"empty file", "", ""},
		{"only comments", "; a\n\n\n; b", "; a\n\n; b\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse("l.plan", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(Format(f)); got != tt.want {
				t.Errorf("Format(%q)\n got:\n%s\nwant:\n%s", tt.src, got, tt.want)
			}
			checkRoundTrip(t, f)
		})
	}
}

// TestFormatNoLongLines checks that breaking keeps lines within Width when
// the atoms allow it.
func TestFormatNoLongLines(t *testing.T) {
	f, err := Parse("big.plan", largePlan(200))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(Format(f)), "\n") {
		if len(line) > Width {
			t.Errorf("line %d is %d columns: %s", i+1, len(line), line)
		}
	}
}

// TestFormatSyntheticTree formats a tree built in code (no source, no
// positions), as a pass that generates plans would.
func TestFormatSyntheticTree(t *testing.T) {
	f := &File{Forms: []Node{
		&List{Elems: []Node{&Symbol{Name: "defparameter"}, &Symbol{Name: "*n*"}, &Int{Value: 3, Raw: "3"}}},
		&Quote{X: &String{Value: "a\"b"}},
	}}
	want := "(defparameter *n* 3)\n\n'\"a\\\"b\"\n"
	if got := string(Format(f)); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRepositoryPlansAreCanonical is `labelcov fmt --check` over every .plan
// in the repository's testdata: the plans a newcomer formats first (the
// README tour's fib.plan among them) must already be canonical. The one
// exception is annotate's golden output, which is generated text (as Go's
// generated files are exempt from gofmt): transform's tests own its bytes.
func TestRepositoryPlansAreCanonical(t *testing.T) {
	var plans []string
	err := filepath.WalkDir("../../testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".plan") && !strings.HasSuffix(path, ".annotated.plan") {
			plans = append(plans, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) < 10 {
		t.Fatalf("found only %d plans: %v", len(plans), plans)
	}
	for _, path := range plans {
		f, src, err := readFile(t, path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if got := Format(f); !bytes.Equal(got, src) {
			t.Errorf("%s is not in canonical layout (labelcov fmt -w %s)", path, path)
		}
	}
}
