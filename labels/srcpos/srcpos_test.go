package srcpos

import (
	"encoding/json"
	"testing"
)

func TestString(t *testing.T) {
	for _, c := range []struct {
		p    Pos
		want string
	}{
		{Pos{File: "a.plan", Line: 3, Col: 7}, "a.plan:3:7"},
		{Pos{File: "pkg/x.go", Line: 12}, "pkg/x.go:12"},
		{Pos{Line: 1, Col: 2}, "<input>:1:2"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
	if (Pos{}).IsValid() || !(Pos{Line: 1}).IsValid() {
		t.Error("IsValid")
	}
}

// A position goes to JSON and back as it is, never as text.
func TestJSON(t *testing.T) {
	p := Pos{File: "a.plan", Line: 3, Col: 7, Offset: 40}
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != `{"file":"a.plan","line":3,"col":7,"offset":40}` {
		t.Errorf("JSON %s", data)
	}
	var q Pos
	if err := json.Unmarshal(data, &q); err != nil || q != p {
		t.Errorf("read back %+v, %v", q, err)
	}
}

// The map of a text made from "(a (b c))\n(d)" by wrapping (b c) in
// "(w " ... ")" and writing a new form before (d).
func TestMap(t *testing.T) {
	src := []byte("(a (b c))\n(d)")
	//         out: "(a (w (b c)))\n(new)(d)"
	b := NewMapBuilder("f.plan", src)
	b.Copy(0, 0)     // "(a "
	b.Written(3, 3)  // "(w " for (b c)
	b.Copy(6, 3)     // "(b c)"
	b.Written(11, 3) // ")"
	b.Copy(12, 8)    // ")\n"
	b.Written(14, 10)
	b.Copy(19, 10) // "(d)"
	m := b.Map()
	for _, c := range []struct{ out, line, col, off int }{
		{0, 1, 1, 0},   // (a
		{4, 1, 4, 3},   // w: written for (b c)
		{6, 1, 4, 3},   // (b c)
		{7, 1, 5, 4},   // b
		{11, 1, 4, 3},  // the wrapper's )
		{12, 1, 9, 8},  // a's )
		{15, 2, 1, 10}, // (new): written for (d)
		{20, 2, 2, 11}, // d
	} {
		got := m.Original(Pos{File: "f.plan.annotated", Line: 9, Col: 9, Offset: c.out})
		want := Pos{File: "f.plan", Line: c.line, Col: c.col, Offset: c.off}
		if got != want {
			t.Errorf("offset %d: %+v, want %+v", c.out, got, want)
		}
	}
	var none *Map
	if p := (Pos{File: "x", Line: 2, Col: 3}); none.Original(p) != p || m.Original(Pos{}) != (Pos{}) {
		t.Error("a nil map or an invalid position must map to itself")
	}
}
