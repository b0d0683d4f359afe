package sim

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/labelcov/labelcov/interp/syntax"
)

func TestEnvGolden(t *testing.T) {
	w := loadWorld(t, "warehouse")
	env, err := w.LoadEnv("../../testdata/envs/warehouse-three.env")
	if err != nil {
		t.Fatal(err)
	}
	want := []EnvObject{
		{Type: 0, Region: 2, Col: 3, Row: 14, Orientation: 0},
		{Type: 1, Region: 0, Col: 0, Row: 0, Orientation: 1},
		{Type: 2, Region: 3, Col: 15, Row: 15, Orientation: 3},
	}
	if !reflect.DeepEqual(env.Objects, want) {
		t.Fatalf("parsed %+v", env.Objects)
	}
	golden, err := os.ReadFile("../../testdata/envs/warehouse-three.bin")
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.EncodeEnv(env)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, golden) {
		t.Errorf("encoded % x, want % x", got, golden)
	}
	if dec := w.DecodeEnv(golden, 0); !reflect.DeepEqual(dec.Objects, want) {
		t.Errorf("decoded %+v", dec.Objects)
	}
	if names := w.Names(env); !reflect.DeepEqual(names, []string{"milk-1", "cereal-1", "bowl-1"}) {
		t.Errorf("names %v", names)
	}
}

func TestDecodeRules(t *testing.T) {
	w := loadWorld(t, "warehouse")
	// A trailing incomplete object is ignored.
	if env := w.DecodeEnv([]byte{0x0b, 0x8c, 0x10}, 0); len(env.Objects) != 1 {
		t.Errorf("trailing byte: %d objects", len(env.Objects))
	}
	// Values >= t·r·p·o wrap modulo 12288: 0x3000 + 2956 decodes as 2956.
	v := 0x3000 + 2956
	if env := w.DecodeEnv([]byte{byte(v >> 8), byte(v)}, 0); len(env.Objects) != 1 || env.Objects[0] != (EnvObject{Type: 0, Region: 2, Col: 3, Row: 14}) {
		t.Errorf("wrapped value decoded as %+v", env.Objects)
	}
	// An object overlapping an earlier one is dropped: the same cell twice,
	// and a neighbouring cell too close for a 7 cm carton (cells are 6.25 cm
	// wide on a board).
	next := 2956 + 4 // col 4, same row
	env := w.DecodeEnv([]byte{0x0b, 0x8c, 0x0b, 0x8c, byte(next >> 8), byte(next), 0x10, 0x01}, 0)
	if len(env.Objects) != 2 || env.Objects[1].Type != 1 {
		t.Errorf("overlap: %+v", env.Objects)
	}
	// The cap counts slots, not placed objects.
	data := bytes.Repeat([]byte{0x0b, 0x8c}, 3)
	data = append(data, 0x10, 0x01)
	if env := w.DecodeEnv(data, 3); len(env.Objects) != 1 {
		t.Errorf("cap 3: %+v", env.Objects)
	}
	if env := w.DecodeEnv(data, 4); len(env.Objects) != 2 {
		t.Errorf("cap 4: %+v", env.Objects)
	}
}

func TestCodecIdentity(t *testing.T) {
	for _, name := range []string{"warehouse", "kitchen"} {
		w := loadWorld(t, name)
		b := w.BytesPerObject()
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		canonical := 0
		for iter := range 5000 {
			n := rng.IntN(DefaultMaxObjects*b + 3)
			data := make([]byte, n)
			for i := range data {
				data[i] = byte(rng.UintN(256))
			}
			// Bias half the inputs towards canonical ones: small values.
			if rng.IntN(2) == 0 {
				for k := 0; k+b <= n; k += b {
					data[k] %= byte(max(1, w.ObjectSpace()>>(8*uint(b-1))))
				}
			}
			env := w.DecodeEnv(data, 0)
			enc, err := w.EncodeEnv(env)
			if err != nil {
				t.Fatalf("%s: encode(decode(% x)): %v", name, data, err)
			}
			env2 := w.DecodeEnv(enc, 0)
			if !reflect.DeepEqual(env.Objects, env2.Objects) && len(env.Objects) > 0 {
				t.Fatalf("%s: decode(encode(env)) != env for % x", name, data)
			}
			if isCanonical(w, data, env) {
				canonical++
				if !bytes.Equal(enc, data) {
					t.Fatalf("%s: canonical % x re-encoded as % x", name, data, enc)
				}
			}
			// .env text round trip (the reader is slower; sample it).
			if iter%25 != 0 {
				continue
			}
			text := w.FormatEnv(env)
			env3, err := w.ParseEnv("x.env", text)
			if err != nil {
				t.Fatalf("%s: parse(format(env)): %v\n%s", name, err, text)
			}
			if len(env.Objects) > 0 && !reflect.DeepEqual(env.Objects, env3.Objects) {
				t.Fatalf("%s: .env round trip differs:\n%s", name, text)
			}
		}
		if canonical < 500 {
			t.Errorf("%s: only %d canonical inputs exercised", name, canonical)
		}
	}
}

// isCanonical: whole objects only, each value below t·r·p·o, none dropped.
func isCanonical(w *World, data []byte, env *Env) bool {
	b := w.BytesPerObject()
	if len(data)%b != 0 || len(data)/b > DefaultMaxObjects || len(env.Objects) != len(data)/b {
		return false
	}
	for k := 0; k < len(data); k += b {
		var v uint64
		for _, c := range data[k : k+b] {
			v = v<<8 | uint64(c)
		}
		if v >= w.ObjectSpace() {
			return false
		}
	}
	return true
}

func TestDecodeIntoDoesNotAllocate(t *testing.T) {
	w := loadWorld(t, "warehouse")
	data := []byte{0x0b, 0x8c, 0x10, 0x01, 0x2f, 0xff, 0x00, 0x00, 0x12, 0x34, 0x22, 0x22}
	env := &Env{}
	w.DecodeEnvInto(env, data, 0)
	if n := testing.AllocsPerRun(100, func() { w.DecodeEnvInto(env, data, 0) }); n != 0 {
		t.Errorf("DecodeEnvInto allocates %v times per run", n)
	}
}

func TestEnvErrors(t *testing.T) {
	w := loadWorld(t, "warehouse")
	cases := []struct{ src, want string }{
		{"(environment (object milc (region table) (cell 0 0) (orientation 0)))", "e.env:1:22: unknown object type"},
		{"(environment (object milk (region floor) (cell 0 0) (orientation 0)))", "e.env:1:27: expected (region NAME)"},
		{"(environment (object milk (region table) (cell 16 0) (orientation 0)))", "e.env:1:42: cell (16 0) is outside region table's 16x16 grid"},
		{"(environment (object milk (region table) (cell 0 0) (orientation 45)))", "e.env:1:53: expected (orientation DEG) with one of [0 90 180 270]"},
		{"(environment (object milk (region table) (cell 0 0)))", "e.env:1:14: object needs"},
		{"(environment (object milk (region table) (cell 0 0) (orientation 0)) (object milk (region table) (cell 0 0) (orientation 0)))", "e.env:1:70: object overlaps object 1 (milk-1)"},
		{"(environment (object milk (region table) (cell 0 0) (size 3)))", "e.env:1:54: unknown object property \"size\""},
		{"(env)", "e.env:1:1: expected a single (environment ...) form"},
		{"", "e.env:1:1: expected (environment"},
		{"(environment (object milk (region table) (cell 0 0) (orientation 0))", "e.env:1:1:"},
	}
	for _, c := range cases {
		_, err := w.ParseEnv("e.env", []byte(c.src))
		var serr *syntax.Error
		if err == nil || !errors.As(err, &serr) || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseEnv(%q) = %v, want %q...", c.src, err, c.want)
		}
	}
	if _, err := w.EncodeEnv(&Env{Objects: []EnvObject{{Type: 5}}}); err == nil {
		t.Error("encoding an out-of-range type succeeded")
	}
}

func TestReadEnv(t *testing.T) {
	w := loadWorld(t, "warehouse")
	a, err := w.ReadEnv("../../testdata/envs/warehouse-three.env", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.ReadEnv("", "../../testdata/envs/warehouse-three.bin", 0)
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Errorf(".env and .bin differ: %v %+v %+v", err, a, b)
	}
	if c, err := w.ReadEnv("", "../../testdata/envs/warehouse-three.bin", 2); err != nil || len(c.Objects) != 2 {
		t.Errorf("cap 2: %v %+v", err, c)
	}
	if e, err := w.ReadEnv("", "", 0); err != nil || len(e.Objects) != 0 {
		t.Errorf("no environment: %v %+v", err, e)
	}
	if _, err := w.ReadEnv("x.env", "x.bin", 0); err == nil {
		t.Error("both accepted")
	}
	if _, err := w.ReadEnv("", "missing.bin", 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestInvalidEnvObjectsDoNotPanic(t *testing.T) {
	w := loadWorld(t, "warehouse")
	env := &Env{Objects: []EnvObject{{Type: 9}, {Type: 0, Region: 0, Col: 1, Row: 1}, {Region: -1}, {Col: 99}}}
	if names := w.Names(env); names[1] != "milk-1" || names[0] != "invalid-1" {
		t.Errorf("names %v", names)
	}
	s := NewState(w)
	s.Reset(env)
	if s.NumObjects() != 1 || s.ObjectName(0) != "milk-1" {
		t.Errorf("reset kept %d objects", s.NumObjects())
	}
	if !strings.Contains(string(w.FormatEnv(env)), "; object 1 invalid: type index 9 out of range") {
		t.Errorf("FormatEnv:\n%s", w.FormatEnv(env))
	}
}

// TestObjectValues: every value of the object space is one object
// (ObjectOf), whose bytes (AppendObject) are that value, big-endian, and
// decode back to it; values past the space wrap around as bytes do.
func TestObjectValues(t *testing.T) {
	w := loadWorld(t, "warehouse")
	b := w.BytesPerObject()
	for v := range w.ObjectSpace() {
		o := w.ObjectOf(v)
		data := w.AppendObject(nil, o)
		var got uint64
		for _, c := range data {
			got = got<<8 | uint64(c)
		}
		if len(data) != b || got != v {
			t.Fatalf("value %d: object %+v is written % x", v, o, data)
		}
		if env := w.DecodeEnv(data, 0); len(env.Objects) != 1 || env.Objects[0] != o {
			t.Fatalf("value %d: % x decodes to %+v, want %+v", v, data, env.Objects, o)
		}
	}
	if w.ObjectOf(w.ObjectSpace()+5) != w.ObjectOf(5) {
		t.Error("ObjectOf does not reduce modulo the object space")
	}
}
