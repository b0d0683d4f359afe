package syntax

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// dump renders a node with its type, so tests see what the reader decided
// (an Int is not a Symbol that prints the same).
func dump(n Node) string {
	switch n := n.(type) {
	case *List:
		parts := make([]string, len(n.Elems))
		for i, e := range n.Elems {
			parts[i] = dump(e)
		}
		return "List(" + strings.Join(parts, " ") + ")"
	case *Quote:
		return "Quote(" + dump(n.X) + ")"
	case *Symbol:
		switch {
		case n.Uninterned:
			return "Sym(#:" + n.Name + ")"
		case n.Internal:
			return "Sym(" + n.Pkg + "::" + n.Name + ")"
		case n.Pkg != "":
			return "Sym(" + n.Pkg + ":" + n.Name + ")"
		}
		return "Sym(" + n.Name + ")"
	case *Prefixed:
		return "Pre(" + n.Mark + " " + dump(n.X) + ")"
	case *Conditional:
		return fmt.Sprintf("Cond(%v %s %s)", n.Plus, dump(n.Feature), dump(n.X))
	case *Char:
		return fmt.Sprintf("Char(%q)", n.Value)
	case *Keyword:
		return "Kw(" + n.Name + ")"
	case *Int:
		return fmt.Sprintf("Int(%d)", n.Value)
	case *Float:
		return fmt.Sprintf("Float(%g %s)", n.Value, n.Raw)
	case *String:
		return fmt.Sprintf("Str(%q)", n.Value)
	}
	return fmt.Sprintf("?%T", n)
}

func TestReadAtoms(t *testing.T) {
	tests := []struct {
		src, want string
	}{
		// integers
		{"0", "Int(0)"},
		{"42", "Int(42)"},
		{"-7", "Int(-7)"},
		{"+7", "Int(7)"},
		{"007", "Int(7)"},
		{"9223372036854775807", "Int(9223372036854775807)"},
		{"-9223372036854775808", "Int(-9223372036854775808)"},
		// floats
		{"1.5", "Float(1.5 1.5)"},
		{"1.50", "Float(1.5 1.50)"},
		{"-0.25", "Float(-0.25 -0.25)"},
		{".5", "Float(0.5 .5)"},
		{"5.", "Float(5 5.)"},
		{"1e3", "Float(1000 1e3)"},
		{"1E3", "Float(1000 1E3)"},
		{"2.5e-3", "Float(0.0025 2.5e-3)"},
		{"-1.5E+2", "Float(-150 -1.5E+2)"},
		// things that look numeric but are symbols, as in Lisp
		{"1+", "Sym(1+)"},
		{"1-", "Sym(1-)"},
		{"-", "Sym(-)"},
		{"+", "Sym(+)"},
		{".", "Sym(.)"},
		{"1e", "Sym(1e)"},
		{"e3", "Sym(e3)"},
		{"1.2.3", "Sym(1.2.3)"},
		{"3d-thing", "Sym(3d-thing)"},
		// symbols
		{"picking-up", "Sym(picking-up)"},
		{"?obj", "Sym(?obj)"},
		{"*boards*", "Sym(*boards*)"},
		{"Foo", "Sym(foo)"},
		{"t", "Sym(t)"},
		{"nil", "Sym(nil)"},
		{"string=", "Sym(string=)"},
		{"a#b", "Sym(a#b)"},
		// keywords
		{":left", "Kw(left)"},
		{":x-1", "Kw(x-1)"},
		// strings and each escape
		{`""`, `Str("")`},
		{`"plain"`, `Str("plain")`},
		{`"say \"hi\""`, `Str("say \"hi\"")`},
		{`"back\\slash"`, `Str("back\\slash")`},
		{`"two\nlines"`, `Str("two\nlines")`},
		{`"tab\there"`, `Str("tab\there")`},
		{"\"raw\nnewline\"", `Str("raw\nnewline")`},
		{`"semi ; not a comment"`, `Str("semi ; not a comment")`},
		{`"#| not a comment |#"`, `Str("#| not a comment |#")`},
		{`"ünïcödé"`, `Str("ünïcödé")`},
		// quote
		{"'x", "Quote(Sym(x))"},
		{"''x", "Quote(Quote(Sym(x)))"},
		{"'(a 1)", "Quote(List(Sym(a) Int(1)))"},
		{"' x", "Quote(Sym(x))"},
		// lists
		{"()", "List()"},
		{"(a)", "List(Sym(a))"},
		{"(a (b (c)) ())", "List(Sym(a) List(Sym(b) List(Sym(c))) List())"},
		{"(an action (type picking-up) (arm :left))", "List(Sym(an) Sym(action) List(Sym(type) Sym(picking-up)) List(Sym(arm) Kw(left)))"},
		{"(a\"s\"b)", `List(Sym(a) Str("s") Sym(b))`},
		{"(a'b)", "List(Sym(a) Quote(Sym(b)))"},
		{"(1+ 2)", "List(Sym(1+) Int(2))"},
		// comments are not forms
		{"; only a comment\nx", "Sym(x)"},
		{"#| block |# x", "Sym(x)"},
		{"(a ; c\n b)", "List(Sym(a) Sym(b))"},
		{"(a #| c |# b)", "List(Sym(a) Sym(b))"},
		{"x;c", "Sym(x)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			n, err := ParseExpr("t.plan", []byte(tt.src))
			if err != nil {
				t.Fatalf("ParseExpr(%q): %v", tt.src, err)
			}
			if got := dump(n); got != tt.want {
				t.Errorf("ParseExpr(%q) = %s, want %s", tt.src, got, tt.want)
			}
		})
	}
}

func TestReadComments(t *testing.T) {
	src := ";;; header\n(a ; trailing\n #| inline |# b)\n#| multi\nline |#\n; last"
	f, err := Parse("c.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []Comment{
		{Start: Pos{0, 1, 1}, End: Pos{10, 1, 11}, Text: ";;; header"},
		{Start: Pos{14, 2, 4}, End: Pos{24, 2, 14}, Text: "; trailing"},
		{Start: Pos{26, 3, 2}, End: Pos{38, 3, 14}, Text: "#| inline |#", Block: true},
		{Start: Pos{42, 4, 1}, End: Pos{58, 5, 8}, Text: "#| multi\nline |#", Block: true},
		{Start: Pos{59, 6, 1}, End: Pos{65, 6, 7}, Text: "; last"},
	}
	if len(f.Comments) != len(want) {
		t.Fatalf("got %d comments, want %d", len(f.Comments), len(want))
	}
	for i, c := range f.Comments {
		if *c != want[i] {
			t.Errorf("comment %d = %+v, want %+v", i, *c, want[i])
		}
	}
	if len(f.Forms) != 1 || NodeString(f.Forms[0]) != "(a b)" {
		t.Errorf("forms = %d, first %s", len(f.Forms), NodeString(f.Forms[0]))
	}
}

func TestReadCRLF(t *testing.T) {
	f, err := Parse("crlf.plan", []byte("; c\r\n(a\r\n b)\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Comments[0].Text != "; c" {
		t.Errorf("comment text %q, want without \\r", f.Comments[0].Text)
	}
	b := f.Forms[0].(*List).Elems[1]
	if start, _ := b.Span(); start != (Pos{Offset: 10, Line: 3, Col: 2}) {
		t.Errorf("b at %+v", start)
	}
}

// TestPositions pins down line, column, offset and span end of each kind of
// node, including multi-byte characters (columns count bytes).
func TestPositions(t *testing.T) {
	src := "(defun f (x)\n  ;; c\n  (+ x 1.5 \"é\" :k 'y))\n"
	f, err := Parse("p.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type span struct {
		node       string
		start, end Pos
	}
	var got []span
	for _, form := range f.Forms {
		Walk(form, func(n Node) bool {
			s, e := n.Span()
			got = append(got, span{NodeString(n), s, e})
			return true
		})
	}
	want := []span{
		{`(defun f (x) (+ x 1.5 "é" :k 'y))`, Pos{0, 1, 1}, Pos{43, 3, 24}},
		{"defun", Pos{1, 1, 2}, Pos{6, 1, 7}},
		{"f", Pos{7, 1, 8}, Pos{8, 1, 9}},
		{"(x)", Pos{9, 1, 10}, Pos{12, 1, 13}},
		{"x", Pos{10, 1, 11}, Pos{11, 1, 12}},
		{`(+ x 1.5 "é" :k 'y)`, Pos{22, 3, 3}, Pos{42, 3, 23}},
		{"+", Pos{23, 3, 4}, Pos{24, 3, 5}},
		{"x", Pos{25, 3, 6}, Pos{26, 3, 7}},
		{"1.5", Pos{27, 3, 8}, Pos{30, 3, 11}},
		{`"é"`, Pos{31, 3, 12}, Pos{35, 3, 16}},
		{":k", Pos{36, 3, 17}, Pos{38, 3, 19}},
		{"'y", Pos{39, 3, 20}, Pos{41, 3, 22}},
		{"y", Pos{40, 3, 21}, Pos{41, 3, 22}},
	}
	if len(got) != len(want) {
		t.Fatalf("walked %d nodes, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("node %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	l := f.Forms[0].(*List)
	if l.Close != (Pos{42, 3, 23}) {
		t.Errorf("Close = %+v", l.Close)
	}
}

func TestReadErrors(t *testing.T) {
	deep := strings.Repeat("(", MaxDepth+1) + strings.Repeat(")", MaxDepth+1)
	tests := []struct {
		name, src, want string
	}{
		{"unbalanced close", "(a b))", "e.plan:1:6: unbalanced ')'"},
		{"unbalanced close line 2", "(a)\n  )", "e.plan:2:3: unbalanced ')'"},
		{"unclosed open", "(a\n  (b c)", "e.plan:1:1: unclosed '(' (missing ')' before end of file)"},
		{"innermost unclosed", "(a (b\n", "e.plan:1:4: unclosed '(' (missing ')' before end of file)"},
		{"unterminated string", `(print "abc)`, `e.plan:1:8: unterminated string (missing '"')`},
		{"unterminated string with escape", `"abc\`, `e.plan:1:1: unterminated string (missing '"')`},
		{"unterminated block comment", "(a)\n  #| never closed", "e.plan:2:3: unterminated block comment (missing '|#')"},
		{"stray block comment end", "(a |# b)", `e.plan:1:4: unexpected "|#" (block comments are written #| ... |#)`},
		{"invalid utf-8", "(a \"\xff\")", "e.plan:1:5: invalid UTF-8 encoding"},
		{"invalid utf-8 line 2", "(a)\n(b \xc3)", "e.plan:2:4: invalid UTF-8 encoding"},
		{"int too large", "(+ 9223372036854775808 1)", "e.plan:1:4: integer 9223372036854775808 out of range (int64)"},
		{"int too small", "-9223372036854775809", "e.plan:1:1: integer -9223372036854775809 out of range (int64)"},
		{"float too large", "1e400", "e.plan:1:1: float 1e400 out of range"},
		{"empty keyword", "(a :)", "e.plan:1:4: keyword needs a name after ':'"},
		{"dangling quote", "(a ')", "e.plan:1:4: quote ' must be followed by an expression"},
		{"quote at end", "'", "e.plan:1:1: quote ' must be followed by an expression"},
		{"earliest error first", ") \"abc", "e.plan:1:1: unbalanced ')'"},
		{"string before unclosed paren", "(a \"abc", `e.plan:1:4: unterminated string (missing '"')`},
		{"huge bad atom is clipped", "#" + strings.Repeat("9", 100), `e.plan:1:1: unsupported reader macro #999999999999999999999999999999999999999... (#n= and #n# labels are not supported)`},
		{"nesting limit", deep, fmt.Sprintf("e.plan:1:%d: forms nested deeper than %d", MaxDepth+1, MaxDepth)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("e.plan", []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse(%q) succeeded, want error %q", tt.src, tt.want)
			}
			var serr *Error
			if !errors.As(err, &serr) {
				t.Fatalf("error %v is %T, want *syntax.Error", err, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("Parse(%q) error\n got %s\nwant %s", tt.src, got, tt.want)
			}
			if serr.Snippet() == "" {
				t.Errorf("no snippet for %q", tt.src)
			}
		})
	}
}

func TestNestingAtLimit(t *testing.T) {
	src := strings.Repeat("(", MaxDepth) + strings.Repeat(")", MaxDepth)
	if _, err := Parse("deep.plan", []byte(src)); err != nil {
		t.Fatalf("%d levels should parse: %v", MaxDepth, err)
	}
}

func TestErrorSnippet(t *testing.T) {
	_, err := Parse("w.plan", []byte("(defun f ()\n\t(g))) ; extra\n"))
	var serr *Error
	if !errors.As(err, &serr) {
		t.Fatalf("got %v", err)
	}
	want := "\t(g))) ; extra\n\t    ^"
	if got := serr.Snippet(); got != want {
		t.Errorf("snippet\n%s\nwant\n%s", got, want)
	}
}

func TestParseExprCount(t *testing.T) {
	if _, err := ParseExpr("a", []byte("  ")); err == nil || !strings.Contains(err.Error(), "expected an expression") {
		t.Errorf("empty: %v", err)
	}
	if _, err := ParseExpr("a", []byte("x y")); err == nil || err.Error() != "a:1:3: expected a single expression" {
		t.Errorf("two: %v", err)
	}
}

// TestErrorSnippetMultibyte: columns count bytes, but the caret must sit
// under the character a terminal shows there, whatever runes (accented,
// wide, combining) come before it on the line.
func TestErrorSnippetMultibyte(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"(print \"ééé\") ))\n", "(print \"ééé\") ))\n" + strings.Repeat(" ", 8+3+3) + "^"},
		{"(print \"日本\") )\n", "(print \"日本\") )\n" + strings.Repeat(" ", 8+4+3) + "^"},
		{"(print \"e\u0301\") )\n", "(print \"e\u0301\") )\n" + strings.Repeat(" ", 8+1+3) + "^"},
		{"\t(print \"ü\") )\n", "\t(print \"ü\") )\n\t" + strings.Repeat(" ", 8+1+3) + "^"},
	} {
		_, err := Parse("m.plan", []byte(tc.src))
		var serr *Error
		if !errors.As(err, &serr) {
			t.Fatalf("%q: got %v", tc.src, err)
		}
		if got := serr.Snippet(); got != tc.want {
			t.Errorf("%q: snippet\n%s\nwant\n%s", tc.src, got, tc.want)
		}
	}
}
