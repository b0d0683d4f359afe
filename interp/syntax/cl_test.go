package syntax

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadCommonLisp covers the Common Lisp syntax CRAM's plans use.
func TestReadCommonLisp(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		// case folding, as CL reads symbols
		{"NIL", "Sym(nil)"},
		{"T", "Sym(t)"},
		{"DEFUN", "Sym(defun)"},
		{"With-Failure-Handling", "Sym(with-failure-handling)"},
		{"|Odd Sym|", "Sym(Odd Sym)"},
		{"ab|Cd|E", "Sym(abCde)"},
		{`a\Bc`, "Sym(aBc)"},
		{`a\ b`, "Sym(a b)"},
		{"||", "Sym()"},
		{"ÄÖ", "Sym(äö)"},
		// packages
		{"cpl:par", "Sym(cpl:par)"},
		{"CPL:PAR", "Sym(cpl:par)"},
		{"desig:an", "Sym(desig:an)"},
		{"cram-tf::*robot-base-frame*", "Sym(cram-tf::*robot-base-frame*)"},
		{"#:cram-pr2", "Sym(#:cram-pr2)"},
		{"|pkg|:|Name|", "Sym(pkg:Name)"},
		{":KEY", "Kw(key)"},
		{":|Key|", "Kw(Key)"},
		// numbers
		{"1d0", "Float(1 1d0)"},
		{"0.5D0", "Float(0.5 0.5D0)"},
		{"1.5e3", "Float(1500 1.5e3)"},
		{"1.0f0", "Float(1 1.0f0)"},
		{"-2.5s-1", "Float(-0.25 -2.5s-1)"},
		{"1/2", "Float(0.5 1/2)"},
		{"-3/4", "Float(-0.75 -3/4)"},
		{"4/2", "Int(2)"},
		{"10.", "Float(10 10.)"},
		{"#x1F", "Int(31)"},
		{"#b101", "Int(5)"},
		{"#o17", "Int(15)"},
		{"#36rZ", "Int(35)"},
		{"1/x", "Sym(1/x)"},
		{"1d0x", "Sym(1d0x)"},
		// strings: \c is c, as in CL; \n and \t stay labelcov's escapes
		{`"\(DO-RETRY\)"`, `Str("(DO-RETRY)")`},
		{`"a\qb"`, `Str("aqb")`},
		// characters
		{`#\a`, `Char('a')`},
		{`#\A`, `Char('A')`},
		{`#\Space`, `Char(' ')`},
		{`#\NEWLINE`, `Char('\n')`},
		{`#\(`, `Char('(')`},
		{`#\)`, `Char(')')`},
		{`#\;`, `Char(';')`},
		{`#\ `, `Char(' ')`},
		{`#\é`, `Char('é')`},
		{`(#\S)`, `List(Char('S'))`},
		// reader macros
		{"#'f", "Pre(#' Sym(f))"},
		{"#'cpl:fail", "Pre(#' Sym(cpl:fail))"},
		{"#'(lambda (x) x)", "Pre(#' List(Sym(lambda) List(Sym(x)) Sym(x)))"},
		{"`(a ,b ,@c ,.d)", "Pre(` List(Sym(a) Pre(, Sym(b)) Pre(,@ Sym(c)) Pre(,. Sym(d))))"},
		{"`(a . ,b)", "Pre(` List(Sym(a) Sym(.) Pre(, Sym(b))))"},
		{"``(a ,',b)", "Pre(` Pre(` List(Sym(a) Pre(, Quote(Pre(, Sym(b)))))))"},
		{"#(1 2)", "Pre(# List(Int(1) Int(2)))"},
		{"#.(+ 1 2)", "Pre(#. List(Sym(+) Int(1) Int(2)))"},
		{`#p"/tmp/x"`, `Pre(#p Str("/tmp/x"))`},
		{`#P"/tmp/x"`, `Pre(#P Str("/tmp/x"))`},
		{"#2A((1 2) (3 4))", "Pre(#2A List(List(Int(1) Int(2)) List(Int(3) Int(4))))"},
		{"#+sbcl (foo)", "Cond(true Sym(sbcl) List(Sym(foo)))"},
		{"#-(or :sbcl ccl) x", "Cond(false List(Sym(or) Kw(sbcl) Sym(ccl)) Sym(x))"},
		{"#+a #+b x", "Cond(true Sym(a) Cond(true Sym(b) Sym(x)))"},
		{"#+sbcl\n;; why\n(foo)", "Cond(true Sym(sbcl) List(Sym(foo)))"},
		// block comments nest
		{"#| a #| b |# c |# x", "Sym(x)"},
		{"(a #|c|# b)", "List(Sym(a) Sym(b))"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			n, err := ParseExpr("t.lisp", []byte(tt.src))
			if err != nil {
				t.Fatalf("ParseExpr(%q): %v", tt.src, err)
			}
			if got := dump(n); got != tt.want {
				t.Errorf("ParseExpr(%q) = %s, want %s", tt.src, got, tt.want)
			}
			// Every atom keeps its spelling: the one-line printer gives the
			// source back for these single-spaced inputs.
			if got := NodeString(n); !strings.Contains(tt.src, "\n") && !strings.Contains(tt.src, "#|") && got != tt.src {
				t.Errorf("NodeString = %q, want %q", got, tt.src)
			}
		})
	}
}

func TestReadCommonLispErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"dangling function quote", "(a #')", "e.lisp:1:4: #' must be followed by an expression"},
		{"dangling backquote at end", "`", "e.lisp:1:1: ` must be followed by an expression"},
		{"conditional without form", "(#+sbcl)", "e.lisp:1:2: #+ must be followed by a feature expression and a form"},
		{"conditional at end", "#-sbcl x\n#+ccl", "e.lisp:2:1: #+ must be followed by a feature expression and a form"},
		{"unknown character", `(#\Bogus)`, `e.lisp:1:2: unknown character name "#\\Bogus"`},
		{"char at end", `#\`, `e.lisp:1:1: #\ at end of file (a character follows it)`},
		{"unterminated bar", "(a |b c)", "e.lisp:1:4: unterminated |escaped| name (missing '|')"},
		{"escape at end", `a\`, `e.lisp:1:2: '\' at end of file (it escapes the next character)`},
		{"too many colons", "a:b:c", `e.lisp:1:1: too many package markers (':') in "a:b:c"`},
		{"empty after package", "cpl:", `e.lisp:1:1: symbol "cpl:" needs a name after its package prefix`},
		{"label", "#1=(a . #1#)", "e.lisp:1:1: unsupported reader macro #1= (#n= and #n# labels are not supported)"},
		{"unknown dispatch", "#<foo>", "e.lisp:1:1: unsupported reader macro #<"},
		{"ratio by zero", "1/0", "e.lisp:1:1: ratio 1/0 divides by zero"},
		{"bad radix digits", "#xZZ", `e.lisp:1:1: "#xZZ" is not an integer in base 16 (or out of range)`},
		{"unterminated nested comment", "#| a #| b |# c", "e.lisp:1:1: unterminated block comment (missing '|#')"},
		{"quotes nested too deep", "(def-plan main () " + strings.Repeat("'", MaxDepth) + "x)", "e.lisp:1:1018: forms nested deeper than 1000"},
		{"prefixes nested too deep", strings.Repeat("#'`,", MaxDepth) + "x", "e.lisp:1:1335: forms nested deeper than 1000"},
		{"conditionals nested too deep", strings.Repeat("#+a ", MaxDepth+1) + "x", "e.lisp:1:4001: forms nested deeper than 1000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.lisp", []byte(tt.src))
			var serr *Error
			if !errors.As(err, &serr) {
				t.Fatalf("Parse(%q) = %v (%T), want *syntax.Error", clip(tt.src), err, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse(%q) error\n got %s\nwant %s", clip(tt.src), got, tt.want)
			}
		})
	}
}

// TestMillionQuotes is issue 11's hostile input: a million quotes end in a
// clear error, not a stack overflow.
func TestMillionQuotes(t *testing.T) {
	src := "(def-plan main () " + strings.Repeat("'", 1_000_000) + "x)"
	_, err := Parse("q.plan", []byte(src))
	var serr *Error
	if !errors.As(err, &serr) || !strings.Contains(err.Error(), "nested deeper than 1000") {
		t.Fatalf("got %v, want the nesting error", err)
	}
}

// TestSnippetOfBinaryFile: a binary file given as a plan yields a short,
// printable snippet whose caret still points at the offending byte.
func TestSnippetOfBinaryFile(t *testing.T) {
	bin := make([]byte, 6000)
	for i := range bin {
		bin[i] = byte(i*7 + 1)
		if bin[i] == '\n' {
			bin[i] = 'x'
		}
	}
	for _, src := range [][]byte{
		bin,
		append([]byte("(a "+strings.Repeat("\x01", 3000)), ')', ')'),
		[]byte("(a " + strings.Repeat("b ", 3000) + "))"),
	} {
		_, err := Parse("bin.plan", src)
		var serr *Error
		if !errors.As(err, &serr) {
			t.Fatalf("got %v, want *syntax.Error", err)
		}
		snip := serr.Snippet()
		if len(snip) > 2*snippetWidth+20 {
			t.Errorf("snippet of %d bytes:\n%s", len(snip), snip)
		}
		for _, r := range snip {
			if r != '\n' && r != '\t' && (r < ' ' || r == 0x7f || r == 0xfffd) {
				t.Fatalf("snippet holds %U:\n%q", r, snip)
			}
		}
		lines := strings.Split(snip, "\n")
		if len(lines) != 2 || !strings.HasSuffix(lines[1], "^") {
			t.Fatalf("snippet %q", snip)
		}
		caret := len(lines[1]) - 1
		if caret >= len(lines[0]) {
			t.Fatalf("caret beyond the line: %q", snip)
		}
		// The caret points at the token the message is about: the
		// escaped byte (invalid UTF-8 or \x01 is no token) or the ')'.
		if c := lines[0][caret]; c != '\\' && c != ')' {
			t.Errorf("caret under %q in %q (%v)", c, snip, err)
		}
	}
}

// TestCPLPlans reads the CPL-style plans in testdata/cpl: they read, their
// spans and positions are exact, formatting keeps every form and comment
// and leaves these (canonical) files byte for byte as they are, and the
// reader macros land in the tree as documented.
func TestCPLPlans(t *testing.T) {
	files, err := filepath.Glob("testdata/cpl/*.lisp")
	if err != nil || len(files) < 2 {
		t.Fatalf("plans: %v %v", files, err)
	}
	marks := map[string]int{}
	for _, name := range files {
		f, src, err := readFile(t, name)
		if err != nil {
			t.Fatalf("%v", err)
		}
		checkSpans(t, f)
		checkRoundTrip(t, f)
		if got := Format(f); !bytes.Equal(got, src) {
			t.Errorf("%s: Format changed the file:\n%s", name, got)
		}
		for _, form := range f.Forms {
			Walk(form, func(n Node) bool {
				switch n := n.(type) {
				case *Prefixed:
					marks[n.Mark]++
				case *Conditional:
					marks[conditionalMark(n)]++
				case *Char:
					marks["#\\"]++
				case *Symbol:
					if n.Pkg != "" {
						marks["pkg:"]++
					}
					if n.Uninterned {
						marks["#:"]++
					}
				}
				return true
			})
		}
	}
	for _, m := range []string{"#'", "`", ",", ",@", "#+", "#-", "#\\", "pkg:", "#:"} {
		if marks[m] == 0 {
			t.Errorf("no %s in the CPL test plans (marks %v)", m, marks)
		}
	}
	// Positions of a qualified symbol in a known place.
	src, _ := os.ReadFile("testdata/cpl/fetch.lisp")
	f, _ := Parse("fetch.lisp", src)
	found := false
	for _, form := range f.Forms {
		Walk(form, func(n Node) bool {
			if s, ok := n.(*Symbol); ok && s.Raw == "desig:an" {
				found = true
				off := bytes.Index(src, []byte("desig:an"))
				if s.Start != posAt(src, off) || s.Name != "an" || s.Pkg != "desig" || s.Internal {
					t.Errorf("desig:an = %+v at %v", s, posAt(src, off))
				}
				if Head(form) != "def-cram-function" {
					t.Errorf("Head = %q", Head(form))
				}
			}
			return true
		})
	}
	if !found {
		t.Error("desig:an not found")
	}
}
