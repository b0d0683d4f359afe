package realshapes

import (
	"math"
	"testing"
)

func TestFloats(t *testing.T) {
	if !(Result{Type: 3, Num: 2}).Bool() || (Result{Type: 3}).Bool() || !(Result{Type: 2, Str: "true"}).Bool() {
		t.Error("Bool")
	}
	if !(Result{Type: 3, Num: 1}).Less(Result{Type: 3, Num: 2}, true) || (Result{Type: 2, Str: "b"}).Less(Result{Type: 2, Str: "a"}, true) {
		t.Error("Less")
	}
	if n, ok := SafeInt(42); !ok || n != 42 {
		t.Error("SafeInt 42")
	}
	if _, ok := SafeInt(1e300); ok {
		t.Error("SafeInt 1e300")
	}
	if !EqualFloat(math.NaN(), math.NaN()) || EqualFloat(1, math.NaN()) || !EqualFloat(2, 2) {
		t.Error("EqualFloat")
	}
	if !Near32(1, 1.25) || Near32(1, 3) {
		t.Error("Near32")
	}
}

func TestRenderer(t *testing.T) {
	for _, c := range []struct {
		flags    int
		in, want string
	}{
		{0, `a & "b"`, `a &amp;&nbsp; "b"`},
		{1, `a & b`, `a &laquo; b`},
		{5, `&`, `&laquo;&nbsp;`},
		{6, `x "q" y`, `x &rdquo;q&rdquo; y`},
	} {
		if got := NewRenderer(c.flags).Process(c.in); got != c.want {
			t.Errorf("NewRenderer(%d).Process(%q) = %q, want %q", c.flags, c.in, got, c.want)
		}
	}
}

func TestIsSimpleName(t *testing.T) {
	if !IsSimpleName("abc") || IsSimpleName("a|b") || IsSimpleName("a\tb") || !Both(true, true) || Both(true, false) {
		t.Error("IsSimpleName")
	}
}
