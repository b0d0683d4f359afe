package syntax

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// FuzzParse checks the reader and the printer together: arbitrary bytes
// never panic; whatever parses prints to text that parses to the same forms
// with the same comments in the same order, and printing is idempotent.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "golden", "fmt", "*.input"))
	for _, name := range files {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := Parse("fuzz.plan", src)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error is %T, want *syntax.Error: %v", err, err)
			}
			return
		}
		checkSpans(t, file)
		checkRoundTrip(t, file)
	})
}

var fuzzSeeds = []string{
	"",
	"(a b c)",
	"(defun f (x) ; c\n  (+ x 1))",
	"'x ''(a . b) '#|c|# y",
	"#| block\n |# (a) ; t\n;; own\n(b)",
	"(a\n\n b ; x\n )",
	"(\"s\\n\\\"\" :k 1.50 -3 1+ - + 1e5 .5)",
	"(let ((x 1) ; one\n      (y 2))\n  ;; body\n  (+ x y))",
	"(with-failure-handling ((f (e) (retry))) (perform (an action (type go))))",
	"(cond ((> x 1) (print x)) (t nil))",
	// Common Lisp as CRAM writes it, and the nasty cases of its reader.
	"(in-package :cram-pr2)\n(defun f (&key (x 1d0)) `(a ,x ,@(list #'car 1/2)))",
	"#+sbcl\n(foo)\n#-(or sbcl ccl) (error \"no\") #+a #+b c",
	"(#\\( #\\) #\\Space #\\; #\\\" |a b| a\\ b cpl:par cpl::x #:y :KEY NIL T)",
	"#| a #| nested |# b |# (x) #|unterminated",
	"#'#'#'x '`,',@x #(1 2) #p\"/tmp\" #.(+ 1 2) #2A((1)) #x1F #36rZ 1.5e3 1.0f0 -3/4 4/2 1/0",
	"(a . b) (`(a . ,b)) ((|x|::|y|)) a:b:c pkg: |unterminated",
	"(def-plan main () ''''''''''''''''''''''''''''''''''''''''''''''''x)",
	"#\\",
	"\"\\(DO-RETRY\\)\" a\\",
	"#1=(a . #1#) #<foo> # #",
}

// checkSpans verifies that every atom's span covers exactly its text.
func checkSpans(t *testing.T, f *File) {
	t.Helper()
	for _, form := range f.Forms {
		Walk(form, func(n Node) bool {
			start, end := n.Span()
			if start.Offset < 0 || end.Offset > len(f.Src) || start.Offset >= end.Offset {
				t.Fatalf("bad span %v..%v (offsets %d..%d) for %s", start, end, start.Offset, end.Offset, NodeString(n))
			}
			text := string(f.Src[start.Offset:end.Offset])
			if p := posAt(f.Src, start.Offset); p != start {
				t.Fatalf("start %+v of %q, want %+v", start, text, p)
			}
			if p := posAt(f.Src, end.Offset); p != end {
				t.Fatalf("end %+v of %q, want %+v", end, text, p)
			}
			switch n := n.(type) {
			case *Int, *Float, *String, *Symbol, *Keyword, *Char:
				if raw := atomString(n); text != raw {
					t.Fatalf("%T span text %q, raw %q", n, text, raw)
				}
			case *Prefixed:
				if !strings.HasPrefix(text, n.Mark) {
					t.Fatalf("%s span text %q", n.Mark, text)
				}
			case *Conditional:
				if !strings.HasPrefix(text, conditionalMark(n)) {
					t.Fatalf("conditional span text %q", text)
				}
			case *List:
				if text[0] != '(' || text[len(text)-1] != ')' {
					t.Fatalf("list span text %q", text)
				}
			}
			return true
		})
	}
	for _, c := range f.Comments {
		if got := string(f.Src[c.Start.Offset:c.End.Offset]); got != c.Text {
			t.Fatalf("comment span text %q, text %q", got, c.Text)
		}
	}
}

// checkRoundTrip is the printer's contract, shared by the fuzz target and
// the golden tests.
func checkRoundTrip(t *testing.T, f *File) {
	t.Helper()
	out := Format(f)
	g, err := Parse("formatted.plan", out)
	if err != nil {
		t.Fatalf("formatted output does not parse: %v\ninput:\n%s\noutput:\n%s", err, f.Src, out)
	}
	if len(g.Forms) != len(f.Forms) {
		t.Fatalf("forms: %d before, %d after formatting\noutput:\n%s", len(f.Forms), len(g.Forms), out)
	}
	for i := range f.Forms {
		if a, b := NodeString(f.Forms[i]), NodeString(g.Forms[i]); a != b {
			t.Fatalf("form %d changed:\nbefore %s\nafter  %s", i, a, b)
		}
	}
	if a, b := commentTexts(f), commentTexts(g); !equalStrings(a, b) {
		t.Fatalf("comments changed:\nbefore %q\nafter  %q\ninput:\n%s\noutput:\n%s", a, b, f.Src, out)
	}
	if again := Format(g); !bytes.Equal(again, out) {
		t.Fatalf("Format is not idempotent:\ninput:\n%s\nfirst:\n%s\nsecond:\n%s", f.Src, out, again)
	}
}

func commentTexts(f *File) []string {
	var s []string
	for _, c := range f.Comments {
		s = append(s, c.Text)
	}
	return s
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// referenceLexer is a participle regular-expression lexer for the part of
// the language without '#' and '|' (whose nested comments and escapes a
// regular expression cannot express); FuzzTokenize checks that the
// hand-written lexer splits such text the same way.
var referenceLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `;[^\n]*`},
	{Name: "Whitespace", Pattern: `[ \t\r\n\f]+`},
	{Name: "String", Pattern: `"(?:\\(?s:.)|[^"\\])*"`},
	{Name: "BadString", Pattern: `"(?:\\(?s:.)|[^"\\])*\\?`},
	{Name: "Open", Pattern: `\(`},
	{Name: "Close", Pattern: `\)`},
	{Name: "Prefix", Pattern: `,[@.]?|['\x60]`},
	{Name: "BadAtom", Pattern: `(?:\\(?s:.)|[^\s()'";\x60,\\])*\\\z`},
	{Name: "Atom", Pattern: `(?:\\(?s:.)|[^\s()'";\x60,\\])+`},
})

// lexAll returns the tokens of src up to EOF or the lexical error.
func lexAll(src []byte) ([]lexer.Token, error) {
	lx, err := planLexer.Lex("f.plan", bytes.NewReader(src))
	if err != nil {
		return nil, err
	}
	var toks []lexer.Token
	for {
		t, err := lx.Next()
		if err != nil {
			return toks, err
		}
		toks = append(toks, t)
		if t.EOF() {
			return toks, nil
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(`"abc\`))
	f.Add([]byte(`a#|b |# #| x`))
	f.Add([]byte("\"é\\\xc3\xa9\""))
	f.Add([]byte("a\\ b c\\"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if !utf8.Valid(src) {
			return // Parse rejects it before lexing
		}
		got, lerr := lexAll(src)
		// Invariants for every input: tokens tile the text and carry the
		// positions posAt computes.
		off := 0
		for _, g := range got {
			if g.Pos.Offset != off {
				t.Fatalf("token %q at %d, want %d", g.Value, g.Pos.Offset, off)
			}
			if p := posAt(src, off); p.Line != g.Pos.Line || p.Col != g.Pos.Column {
				t.Fatalf("token %q at %d:%d, posAt says %v", g.Value, g.Pos.Line, g.Pos.Column, p)
			}
			off += len(g.Value)
		}
		if lerr == nil && off != len(src) {
			t.Fatalf("tokens end at %d of %d", off, len(src))
		}
		if bytes.ContainsAny(src, "#|") {
			return
		}
		lx, err := referenceLexer.Lex("f.plan", bytes.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		names := lexer.SymbolsByRune(referenceLexer)
		want := map[string]lexer.TokenType{
			"Comment": tokComment, "Whitespace": tokWhitespace, "String": tokString,
			"Open": tokOpen, "Close": tokClose, "Prefix": tokPrefix, "Atom": tokAtom,
		}
		for i := 0; ; i++ {
			ref, err := lx.Next()
			if err != nil {
				t.Fatalf("reference lexer: %v", err)
			}
			name := names[ref.Type]
			if name == "BadString" || name == "BadAtom" {
				if lerr == nil || i != len(got) {
					t.Fatalf("reference fails with %s at %d; lexer: %d tokens, error %v", name, ref.Pos.Offset, len(got), lerr)
				}
				return
			}
			if i >= len(got) {
				t.Fatalf("lexer stopped after %d tokens (error %v); reference has %s %q at %d", len(got), lerr, name, ref.Value, ref.Pos.Offset)
			}
			g := got[i]
			if ref.EOF() {
				if !g.EOF() || g.Pos.Offset != ref.Pos.Offset || lerr != nil {
					t.Fatalf("at end: got %v at %d, error %v", g, g.Pos.Offset, lerr)
				}
				return
			}
			// Columns differ on purpose: participle counts runes, labelcov
			// counts bytes (as go/token does).
			if g.Type != want[name] || g.Value != ref.Value || g.Pos.Offset != ref.Pos.Offset || g.Pos.Line != ref.Pos.Line {
				t.Fatalf("token %d: got %d %q at %+v, reference %s %q at %+v", i, g.Type, g.Value, g.Pos, name, ref.Value, ref.Pos)
			}
		}
	})
}
