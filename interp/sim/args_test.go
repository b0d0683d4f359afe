package sim

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/compile"
	"github.com/labelcov/labelcov/interp/syntax"
	"github.com/labelcov/labelcov/interp/value"
)

func TestDecodeArgs(t *testing.T) {
	tests := []struct {
		in   []byte
		n    int
		want []int64
	}{
		{nil, 2, []int64{0, 0}},
		{[]byte{1}, 1, []int64{1}},
		{[]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 1, []int64{-1}},
		// Second parameter: only two bytes present, the rest read as zero.
		{[]byte{1, 0, 0, 0, 0, 0, 0, 0, 0x34, 0x12}, 3, []int64{1, 0x1234, 0}},
		// Extra bytes are ignored.
		{[]byte{2, 0, 0, 0, 0, 0, 0, 0, 9}, 1, []int64{2}},
		{[]byte{1, 2, 3}, 0, nil},
		{[]byte{0, 0, 0, 0, 0, 0, 0, 0x80}, 1, []int64{-1 << 63}},
	}
	for _, tc := range tests {
		if got := DecodeArgs(tc.in, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("DecodeArgs(%x, %d) = %v, want %v", tc.in, tc.n, got, tc.want)
		}
		// RunBytes decodes in place, over the last input's values.
		vs := make([]value.Value, tc.n)
		for i := range vs {
			vs[i] = value.Int(77)
		}
		decodeArgsInto(vs, tc.in)
		for i, v := range vs {
			if v != value.Int(tc.want[i]) {
				t.Errorf("decodeArgsInto(%x): parameter %d = %v, want %d", tc.in, i, v, tc.want[i])
			}
		}
	}
}

func TestEncodeArgsRoundTrip(t *testing.T) {
	for _, args := range [][]int64{nil, {0}, {533, 500, 22}, {-1, 1 << 62, -1 << 63}} {
		if got := DecodeArgs(EncodeArgs(args), len(args)); len(args) > 0 && !reflect.DeepEqual(got, args) {
			t.Errorf("DecodeArgs(EncodeArgs(%v)) = %v", args, got)
		}
	}
}

// ArgsFileInput gives the bytes that decode to the file's arguments, and
// names the offending literal otherwise.
func TestArgsFileInput(t *testing.T) {
	_, p := compileSrc(t, "(def-plan main (a b) (+ a b))")
	fn := p.Plan("main")
	data, err := ArgsFileInput("ok.args", []byte("533 ; first\n-22\n"), fn)
	if err != nil || !reflect.DeepEqual(DecodeArgs(data, 2), []int64{533, -22}) {
		t.Fatalf("ArgsFileInput: %x %v", data, err)
	}
	for text, want := range map[string]string{
		"1 \"x\"": "bad.args:1:3: argument 2 is \"x\": a fuzzer input gives plan main integers only",
		"1":       "bad.args:1:2: plan main takes 2 arguments (a b), the file gives 1",
		"1 2 3":   "bad.args:1:5: plan main takes 2 arguments (a b); this is argument 3",
	} {
		if _, err := ArgsFileInput("bad.args", []byte(text), fn); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %s", text, err, want)
		}
	}
}

func TestArgStrings(t *testing.T) {
	f, err := syntax.Parse("a.plan", []byte("(def-plan main (n xs) n)"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := compile.Compile(f)
	if err != nil {
		t.Fatal(err)
	}
	fn := p.Plan("main")
	args, err := ArgStrings(fn, []string{"-7", "(1 \"two\")"})
	if err != nil {
		t.Fatal(err)
	}
	if len(args) != 2 || args[0].Kind() != value.KInt || args[0].Int() != -7 || args[1].String() != `(1 "two")` {
		t.Errorf("args %v", args)
	}
	if _, err := ArgStrings(fn, []string{"1"}); err == nil || err.Error() != "plan main takes 2 arguments (n xs), got 1 --arg" {
		t.Errorf("one --arg: %v", err)
	}
	var serr *syntax.Error
	if _, err := ArgStrings(fn, []string{"1", "(2"}); !errors.As(err, &serr) || !strings.HasPrefix(err.Error(), "--arg 2:1:") {
		t.Errorf("unclosed --arg 2: %v", err)
	}
}
