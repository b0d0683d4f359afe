package sim

import (
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
)

func TestCheckCalls(t *testing.T) {
	src := `(defun helper (x) x)
(def-plan main (a)
  (whn (> a 0) (helper a))
  (iff a 1 2)
  (object-type 'cup)
  (my-ext 3)
  (helper 1))
`
	f, p := compileSrc(t, src)
	got := func(o LinkOptions) []string {
		var out []string
		for _, lp := range CheckCalls(f, p, o) {
			out = append(out, lp.String())
		}
		return out
	}
	want := []string{
		"p.plan:3:4: undefined function whn: no defun, builtin or world query has this name (did you mean when?)",
		"p.plan:4:4: undefined function iff: no defun, builtin or world query has this name (did you mean if?)",
		"warning: p.plan:5:4: object-type is a world query: without a world (--world) the call fails with no-world",
		"p.plan:6:4: undefined function my-ext: no defun, builtin or world query has this name",
	}
	if g := got(LinkOptions{}); strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Errorf("no world:\n%s\nwant\n%s", strings.Join(g, "\n"), strings.Join(want, "\n"))
	}
	// With a world the query links; a caller's builtin links too; Later
	// turns the rest into warnings.
	g := got(LinkOptions{World: true, Builtins: []string{"my-ext"}, Later: true})
	if len(g) != 2 || !strings.HasPrefix(g[0], "warning: p.plan:3:4: undefined function whn") || !strings.HasPrefix(g[1], "warning: p.plan:4:4") {
		t.Errorf("world, my-ext, later: %q", g)
	}
	// The caret sits under the name.
	lp := CheckCalls(f, p, LinkOptions{})[0]
	if s := lp.Err.Snippet(); !strings.HasSuffix(s, "\n   ^") {
		t.Errorf("snippet %q", s)
	}
}

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"whn", "when", 1}, {"iff", "if", 1}, {"kitten", "sitting", 3}, {"abc", "", 3}} {
		if d := editDistance(c.a, c.b); d != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, d, c.d)
		}
	}
}

// compileSrc parses and compiles src as p.plan.
func compileSrc(t *testing.T, src string) (*syntax.File, *compile.Program) {
	t.Helper()
	f, err := syntax.Parse("p.plan", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, p
}
