package value

import "testing"

func TestProperLenMatchesSlice(t *testing.T) {
	for _, v := range []Value{Nil, T, Int(3), String("ab"), List(), List(Int(1)), List(Int(1), Nil, List(Int(2))),
		NewCons(Int(1), Int(2)), NewCons(Int(1), NewCons(Int(2), String("x")))} {
		vs, ok := v.Slice()
		n, pok := v.ProperLen()
		if n != len(vs) || pok != ok || n != v.Len() {
			t.Errorf("%s: ProperLen = %d, %v; Slice gives %d, %v", v, n, pok, len(vs), ok)
		}
	}
}

func TestListBuildersMakeFreshProperLists(t *testing.T) {
	for n := 0; n < 5; n++ {
		var vs []Value
		for i := range n {
			vs = append(vs, Int(int64(i)))
		}
		want := Nil
		for i := n - 1; i >= 0; i-- {
			want = NewCons(vs[i], want)
		}
		if got := List(vs...); !Equal(got, want) {
			t.Errorf("List(%d) = %s, want %s", n, got, want)
		}
		tail := List(Symbol("z"))
		wantTail := tail
		for i := n - 1; i >= 0; i-- {
			wantTail = NewCons(vs[i], wantTail)
		}
		got := ListTail(vs, tail)
		if got.String() != wantTail.String() {
			t.Errorf("ListTail(%d) = %s, want %s", n, got, wantTail)
		}
		// The tail is shared, the rest is fresh.
		l := got
		for range n {
			l = l.Cdr()
		}
		if !Eq(l, tail) {
			t.Errorf("ListTail(%d) does not end in its tail", n)
		}
		c := Conses(n, Int(9))
		if k, proper := c.ProperLen(); k != n || proper {
			t.Errorf("Conses(%d, 9) has %d conses, proper %v", n, k, proper)
		}
		for x := c; x.Kind() == KCons; x = x.Cdr() {
			if !x.Car().IsNil() {
				t.Errorf("Conses(%d): car %s, want nil", n, x.Car())
			}
		}
	}
	a, b := List(Int(1), Int(2)), List(Int(1), Int(2))
	if Eq(a, b) || Eq(a.Cdr(), b.Cdr()) {
		t.Error("two List calls share conses")
	}
}

func TestNewDesignator(t *testing.T) {
	for n := 0; n <= 10; n++ {
		d := NewDesignator("action", n)
		if d.Class != "action" || len(d.Props) != n || cap(d.Props) != n {
			t.Fatalf("NewDesignator(%d): class %q, %d props (cap %d)", n, d.Class, len(d.Props), cap(d.Props))
		}
		for i := range d.Props {
			if d.Props[i].Key != "" || !d.Props[i].Val.IsNil() {
				t.Fatalf("NewDesignator(%d): prop %d not zero", n, i)
			}
			d.Props[i] = Prop{Key: "k", Val: Int(int64(i))}
		}
		e := NewDesignator("action", n)
		if n > 0 && &e.Props[0] == &d.Props[0] {
			t.Fatalf("NewDesignator(%d) shares storage", n)
		}
	}
	if got := testing.AllocsPerRun(100, func() { NewDesignator("action", 3) }); got > 1 {
		t.Errorf("NewDesignator(3) makes %v allocations, want 1", got)
	}
	if got := testing.AllocsPerRun(100, func() { List(Int(1), Int(2), Int(3)) }); got > 1 {
		t.Errorf("List of 3 makes %v allocations, want 1", got)
	}
}
