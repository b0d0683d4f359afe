package value

import (
	"math"
	"runtime/debug"
	"strings"
	"testing"
)

func TestPrintReadably(t *testing.T) {
	d := &Designator{Class: "action", Props: []Prop{{"type", Symbol("picking-up")}, {"arm", Symbol("left")}, {"n", Int(2)}}}
	loc := &Designator{Class: "location", Props: []Prop{{"on", String("table")}}}
	cases := []struct {
		v          Value
		prin1, pri string
	}{
		{Nil, "nil", "nil"},
		{T, "t", "t"},
		{Int(-42), "-42", "-42"},
		{Int(math.MinInt64), "-9223372036854775808", "-9223372036854775808"},
		{Float(2.5), "2.5", "2.5"},
		{Float(3), "3.0", "3.0"},
		{Float(1e21), "1.0e+21", "1.0e+21"},
		{Float(-0.5e-7), "-5.0e-08", "-5.0e-08"},
		{Float(math.Inf(1)), "inf", "inf"},
		{Float(math.NaN()), "nan", "nan"},
		{String("a\"b\\c\nd"), `"a\"b\\c\nd"`, "a\"b\\c\nd"},
		{Symbol("?obj"), "?obj", "?obj"},
		{Keyword("left"), ":left", ":left"},
		{List(Int(1), Float(2.5), String("s"), Keyword("k"), Symbol("sym"), Nil, T), `(1 2.5 "s" :k sym nil t)`, "(1 2.5 s :k sym nil t)"},
		{NewCons(Int(1), Int(2)), "(1 . 2)", "(1 . 2)"},
		{List(List(Int(1)), List()), "((1) nil)", "((1) nil)"},
		{FromDesignator(d), "(an action (type picking-up) (arm left) (n 2))", "(an action (type picking-up) (arm left) (n 2))"},
		{FromDesignator(loc), `(a location (on "table"))`, "(a location (on table))"},
		{Object(3, "milk-1"), "#<object milk-1>", "#<object milk-1>"},
	}
	for _, c := range cases {
		if got := c.v.String(); got != c.prin1 {
			t.Errorf("prin1: got %s, want %s", got, c.prin1)
		}
		if got := Princ(c.v); got != c.pri {
			t.Errorf("princ: got %s, want %s", got, c.pri)
		}
	}
}

func TestSymbolTAndNilAreConstants(t *testing.T) {
	if Symbol("nil") != Nil || Symbol("t") != T {
		t.Error("the symbols t and nil must read as the constants")
	}
	if Symbol("nil").Truthy() || !Symbol("t").Truthy() || !Int(0).Truthy() || !List(Nil).Truthy() {
		t.Error("only nil is false")
	}
}

func TestEquality(t *testing.T) {
	a := List(Int(1), String("x"))
	b := List(Int(1), String("x"))
	d1 := FromDesignator(&Designator{Class: "object", Props: []Prop{{"type", Symbol("milk")}}})
	d2 := FromDesignator(&Designator{Class: "object", Props: []Prop{{"type", Symbol("milk")}}})
	cases := []struct {
		name         string
		x, y         Value
		eq, eql, equ bool
	}{
		{"same int", Int(7), Int(7), true, true, true},
		{"int vs float", Int(1), Float(1), false, false, false},
		{"floats", Float(0.5), Float(0.5), true, true, true},
		{"symbols", Symbol("a"), Symbol("a"), true, true, true},
		{"symbol vs keyword", Symbol("a"), Keyword("a"), false, false, false},
		{"strings by content", String("ab"), String("ab"), true, true, true},
		{"distinct equal lists", a, b, false, false, true},
		{"same list", a, a, true, true, true},
		{"lists differing in tail", a, List(Int(1), String("y")), false, false, false},
		{"dotted vs proper", NewCons(Int(1), Int(2)), List(Int(1), Int(2)), false, false, false},
		{"equal designators", d1, d2, false, false, true},
		{"objects by id", Object(1, "milk-1"), Object(1, "milk-1"), true, true, true},
		{"different objects", Object(1, "milk-1"), Object(2, "milk-2"), false, false, false},
		{"nil and empty list", Nil, List(), true, true, true},
	}
	for _, c := range cases {
		if got := Eq(c.x, c.y); got != c.eq {
			t.Errorf("%s: eq = %v", c.name, got)
		}
		if got := Eql(c.x, c.y); got != c.eql {
			t.Errorf("%s: eql = %v", c.name, got)
		}
		if got := Equal(c.x, c.y); got != c.equ {
			t.Errorf("%s: equal = %v", c.name, got)
		}
	}
}

func TestListAccessors(t *testing.T) {
	l := List(Int(1), Int(2), Int(3))
	if l.Len() != 3 || l.Car().Int() != 1 || l.Cdr().Car().Int() != 2 {
		t.Errorf("accessors on %s", l)
	}
	if Nil.Car() != Nil || Nil.Cdr() != Nil || Int(3).Car() != Nil {
		t.Error("car/cdr of non-conses must be nil")
	}
	xs, proper := l.Slice()
	if !proper || len(xs) != 3 || xs[2].Int() != 3 {
		t.Errorf("Slice: %v %v", xs, proper)
	}
	if _, proper := NewCons(Int(1), Int(2)).Slice(); proper {
		t.Error("a dotted list is not proper")
	}
	d := &Designator{Class: "action", Props: []Prop{{"type", Symbol("navigating")}}}
	if d.Type() != "navigating" {
		t.Errorf("Type() = %q", d.Type())
	}
	if _, ok := d.Get("arm"); ok {
		t.Error("absent property reported present")
	}
}

// TestDeepValues: printing and comparing values nested 200,000 deep
// neither recurses (a Go stack overflow kills the process) nor differs
// from the shallow rules.
func TestDeepValues(t *testing.T) {
	// With at most 8 MB of goroutine stack, recursing once per level
	// would crash the test binary long before the bottom.
	defer debug.SetMaxStack(debug.SetMaxStack(8 << 20))
	const depth = 200_000
	build := func() Value {
		x := Nil
		for i := 0; i < depth; i++ {
			x = List(x)
		}
		return x
	}
	x, y := build(), build()
	s := x.String()
	if len(s) != 2*depth+3 || s != strings.Repeat("(", depth)+"nil"+strings.Repeat(")", depth) {
		t.Fatalf("deep list printed as %d bytes: %.20s...%s", len(s), s, s[len(s)-20:])
	}
	if !Equal(x, y) {
		t.Fatal("equal deep lists compare unequal")
	}
	// The innermost element differs: (((... (1) ...))) versus (((... (nil) ...))).
	z := List(Int(1))
	for i := 1; i < depth; i++ {
		z = List(z)
	}
	if Equal(x, z) {
		t.Fatal("deep lists differing at the bottom compare equal")
	}
	d := NewDesignator("action", 2)
	d.Props[0] = Prop{Key: "type", Val: Symbol("go")}
	d.Props[1] = Prop{Key: "to", Val: x}
	if got := FromDesignator(d).String(); got != "(an action (type go) (to "+s+"))" {
		t.Fatalf("designator around a deep list: %.40s...%s", got, got[len(got)-20:])
	}
}

// TestWriteShapes: the iterative printer prints dotted tails, nested
// designators and empty designators as before.
func TestWriteShapes(t *testing.T) {
	loc := NewDesignator("location", 0)
	d := NewDesignator("action", 2)
	d.Props[0] = Prop{Key: "at", Val: FromDesignator(loc)}
	d.Props[1] = Prop{Key: "l", Val: NewCons(Int(1), NewCons(String("s"), Float(2)))}
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{NewCons(Int(1), Int(2)), "(1 . 2)"},
		{List(Nil, List(), List(Keyword("k"), Symbol("x"))), "(nil nil (:k x))"},
		{FromDesignator(d), `(an action (at (a location)) (l (1 "s" . 2.0)))`},
		{List(FromDesignator(loc), NewCons(List(Int(1)), Int(3))), "((a location) ((1) . 3))"},
	} {
		if got := tc.v.String(); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
}
