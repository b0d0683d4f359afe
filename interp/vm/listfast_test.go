package vm

import (
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/value"
)

// The list builtins walk lists instead of materialising them with Slice.
// These are the slice-based versions they replaced; the differential test
// checks that both give the same values, failures and allocation charges.
var refListImpls = map[string]builtinFn{
	"length": func(m *Machine, a []value.Value) (value.Value, error) {
		x := a[0]
		if x.Kind() == value.KString {
			return value.Int(int64(len(x.Str()))), nil
		}
		if _, proper := x.Slice(); !proper || !x.IsList() {
			return value.Nil, typeError("length", "a proper list or string", x)
		}
		return value.Int(int64(x.Len())), nil
	},
	"append": func(m *Machine, a []value.Value) (value.Value, error) {
		if len(a) == 0 {
			return value.Nil, nil
		}
		var elems []value.Value
		for _, l := range a[:len(a)-1] {
			vs, proper := l.Slice()
			if !proper {
				return value.Nil, typeError("append", "a proper list", l)
			}
			elems = append(elems, vs...)
		}
		if f := m.alloc(int64(len(elems))); f != nil {
			return value.Nil, f
		}
		out := a[len(a)-1]
		for i := len(elems) - 1; i >= 0; i-- {
			out = value.NewCons(elems[i], out)
		}
		return out, nil
	},
	"reverse": func(m *Machine, a []value.Value) (value.Value, error) {
		x := a[0]
		vs, proper := x.Slice()
		if !proper {
			return value.Nil, typeError("reverse", "a proper list or string", x)
		}
		if f := m.alloc(int64(len(vs))); f != nil {
			return value.Nil, f
		}
		out := value.Nil
		for _, v := range vs {
			out = value.NewCons(v, out)
		}
		return out, nil
	},
	"remove": func(m *Machine, a []value.Value) (value.Value, error) {
		vs, proper := a[1].Slice()
		if !proper {
			return value.Nil, typeError("remove", "a proper list", a[1])
		}
		kept := vs[:0]
		for _, v := range vs {
			if !value.Eql(a[0], v) {
				kept = append(kept, v)
			}
		}
		if f := m.alloc(int64(len(kept))); f != nil {
			return value.Nil, f
		}
		out := value.Nil
		for i := len(kept) - 1; i >= 0; i-- {
			out = value.NewCons(kept[i], out)
		}
		return out, nil
	},
	"list": func(m *Machine, a []value.Value) (value.Value, error) {
		if f := m.alloc(int64(len(a))); f != nil {
			return value.Nil, f
		}
		out := value.Nil
		for i := len(a) - 1; i >= 0; i-- {
			out = value.NewCons(a[i], out)
		}
		return out, nil
	},
}

// consesOf returns the conses of l's spine.
func consesOf(l value.Value) map[*value.Cons]bool {
	out := map[*value.Cons]bool{}
	for ; l.Kind() == value.KCons; l = l.Cdr() {
		out[l.Cons()] = true
	}
	return out
}

func TestListBuiltinsMatchSliceVersions(t *testing.T) {
	i := value.Int
	lists := []value.Value{
		value.Nil,
		value.List(i(1)),
		value.List(i(1), i(2), i(1), i(3)),
		value.List(value.Symbol("a"), value.List(i(1), i(2)), value.String("s"), value.Float(1)),
		value.NewCons(i(1), i(2)),                      // dotted
		value.NewCons(i(1), value.NewCons(i(2), i(3))), // dotted, longer
		i(7),
		value.String("abc"),
		value.Symbol("x"),
	}
	type call struct {
		name string
		args []value.Value
	}
	var calls []call
	for _, l := range lists {
		calls = append(calls, call{"length", []value.Value{l}}, call{"reverse", []value.Value{l}},
			call{"list", []value.Value{l}}, call{"list", []value.Value{l, l, i(1)}}, call{"append", []value.Value{l}})
		for _, x := range []value.Value{i(1), i(2), value.Float(1), value.Symbol("a")} {
			calls = append(calls, call{"remove", []value.Value{x, l}})
		}
		for _, k := range lists {
			calls = append(calls, call{"append", []value.Value{l, k}}, call{"append", []value.Value{k, l, k}},
				call{"append", []value.Value{l, value.Nil, k, i(9)}})
		}
	}
	calls = append(calls, call{"append", nil}, call{"list", nil})
	p := compileSrc(t, "(def-plan main () nil)")
	for _, budget := range []int64{1_000_000, 3} {
		for _, c := range calls {
			if c.name == "reverse" && c.args[0].Kind() == value.KString {
				continue // strings take a separate path, unchanged
			}
			fast, err := New(p, Config{MaxAlloc: budget})
			if err != nil {
				t.Fatal(err)
			}
			ref, _ := New(p, Config{MaxAlloc: budget})
			id, ok := compile.CoreBuiltin(c.name)
			if !ok {
				t.Fatalf("%s is no core builtin", c.name)
			}
			fv, ferr := fast.core[id](fast, c.args)
			rv, rerr := refListImpls[c.name](ref, c.args)
			what := c.name + " " + value.List(c.args...).String()
			if (ferr == nil) != (rerr == nil) || ferr != nil && ferr.Error() != rerr.Error() {
				t.Errorf("%s: error %v, want %v", what, ferr, rerr)
			}
			if !value.Equal(fv, rv) || fv.String() != rv.String() {
				t.Errorf("%s = %s, want %s", what, fv, rv)
			}
			if fast.allocs != ref.allocs {
				t.Errorf("%s charged %d allocations, want %d", what, fast.allocs, ref.allocs)
			}
			// Results are fresh: no cons of an argument's spine is reused,
			// except the last argument of append, which is shared.
			got := consesOf(fv)
			if c.name == "append" && len(c.args) > 0 {
				for cc := range consesOf(c.args[len(c.args)-1]) {
					delete(got, cc)
				}
			}
			for k, a := range c.args {
				for cc := range consesOf(a) {
					if got[cc] {
						t.Errorf("%s shares a cons of argument %d", what, k)
					}
				}
			}
		}
	}
}
