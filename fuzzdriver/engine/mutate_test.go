package engine

import (
	"bytes"
	"testing"
)

func TestMutatorBoundsAndDeterminism(t *testing.T) {
	const maxLen = 16
	a, b := NewMutator(42, maxLen), NewMutator(42, maxLen)
	in := []byte("abc")
	other := []byte("0123456789abcdefXYZ")
	var da, db []byte
	changed := 0
	for i := 0; i < 20000; i++ {
		src := in[:i%4] // lengths 0..3, including the empty input
		da, _ = a.Mutate(da, src, other)
		db, _ = b.Mutate(db, src, other)
		if !bytes.Equal(da, db) {
			t.Fatalf("step %d: same seed, different mutants %x %x", i, da, db)
		}
		if len(da) > maxLen {
			t.Fatalf("mutant of %d bytes exceeds max %d", len(da), maxLen)
		}
		if !bytes.Equal(da, src) {
			changed++
		}
	}
	if changed < 18000 {
		t.Fatalf("only %d of 20000 mutants differ from their parent", changed)
	}
	if bytes.Equal(in, []byte("abc")) == false {
		t.Fatal("Mutate modified its input")
	}
}

func TestEveryOperatorAtEveryLength(t *testing.T) {
	m := NewMutator(1, 12)
	for n := 0; n <= 12; n++ {
		for op := Op(0); op < numByteOps; op++ {
			for k := 0; k < 50; k++ {
				b := bytes.Repeat([]byte{7}, n)
				b = m.apply(b, op, []byte("spliced!"))
				if len(b) > 12 {
					t.Fatalf("%v on %d bytes gave %d bytes", op, n, len(b))
				}
			}
		}
	}
}

// The word operators act on whole aligned 64-bit words: arith64 changes the
// bytes of one word only, by a small step possibly scaled by a power of 256
// (carrying into the word's upper bytes); copy64 makes one word equal
// another.
func TestWordOperators(t *testing.T) {
	m := NewMutator(5, 64)
	in := make([]byte, 24)
	for i := range in {
		in[i] = byte(0x10 * (i/8 + 1)) // words 0x10.., 0x20.., 0x30..
	}
	carried := false
	for k := 0; k < 2000; k++ {
		b := m.apply(append([]byte(nil), in...), OpArithWord, nil)
		var changed []int
		for w := 0; w < 3; w++ {
			if !bytes.Equal(b[8*w:8*w+8], in[8*w:8*w+8]) {
				changed = append(changed, w)
			}
		}
		if len(b) != len(in) || len(changed) != 1 {
			t.Fatalf("arith64 changed words %v of %x", changed, b)
		}
		w := changed[0]
		for _, be := range []bool{false, true} {
			d := int64(byteOrder(be).Uint64(b[8*w:]) - byteOrder(be).Uint64(in[8*w:]))
			for d%256 == 0 && d != 0 {
				d /= 256
			}
			if d >= -arithMax && d <= arithMax {
				goto ok
			}
		}
		t.Fatalf("arith64 step from %x to %x is not a scaled small step", in[8*w:8*w+8], b[8*w:8*w+8])
	ok:
		// A step that changed more than one byte carried (or borrowed).
		n := 0
		for i := 8 * w; i < 8*w+8; i++ {
			if b[i] != in[i] {
				n++
			}
		}
		carried = carried || n > 1
	}
	if !carried {
		t.Error("arith64 never carried into a neighbouring byte")
	}
	for k := 0; k < 200; k++ {
		b := m.apply(append([]byte(nil), in...), OpCopyWord, nil)
		equal := bytes.Equal(b[0:8], b[8:16]) || bytes.Equal(b[8:16], b[16:24]) || bytes.Equal(b[0:8], b[16:24])
		if !equal || len(b) != len(in) {
			t.Fatalf("copy64 made no two words equal: %x", b)
		}
	}
	// Too short for a word: the byte-sized relatives stand in, the input
	// keeps its length.
	for k := 0; k < 200; k++ {
		if b := m.apply([]byte{1, 2, 3}, OpArithWord, nil); len(b) != 3 {
			t.Fatalf("arith64 on 3 bytes gave %x", b)
		}
		if b := m.apply([]byte{1, 2, 3}, OpCopyWord, nil); len(b) != 3 {
			t.Fatalf("copy64 on 3 bytes gave %x", b)
		}
	}
}

func TestInterestingValuesAppear(t *testing.T) {
	// A 32-bit interesting value lands in a 4-byte input within a few
	// thousand mutations: the mechanism that passes magic-number checks.
	m := NewMutator(3, 4)
	var d []byte
	for i := 0; i < 5000; i++ {
		d, _ = m.Mutate(d, []byte{1, 2, 3, 4}, nil)
		if bytes.Equal(d, []byte{0xff, 0xff, 0xff, 0x7f}) || bytes.Equal(d, []byte{0x7f, 0xff, 0xff, 0xff}) {
			return
		}
	}
	t.Fatal("MaxInt32 never produced")
}

// FuzzMutate: no input, partner or seed makes the mutator panic or exceed
// its bound.
func FuzzMutate(f *testing.F) {
	f.Add([]byte{}, []byte{}, uint64(0), uint8(1))
	f.Add([]byte("abcdefgh"), []byte("xyz"), uint64(7), uint8(5))
	f.Fuzz(func(t *testing.T, in, other []byte, seed uint64, maxLen uint8) {
		m := NewMutator(seed, int(maxLen))
		var d []byte
		for i := 0; i < 64; i++ {
			d, _ = m.Mutate(d, in, other)
			if len(d) > max(int(maxLen), 1) {
				t.Fatalf("%d bytes > %d", len(d), maxLen)
			}
		}
	})
}

// TestDictTokensAppear: with a dictionary, a 64-bit constant lands in an
// aligned word of a two-parameter input and a token at the start of an
// input within a few hundred mutations, never beyond the length bound; an
// empty dictionary changes no mutation.
func TestDictTokensAppear(t *testing.T) {
	word := []byte{0x34, 0x12, 0xed, 0x5e, 0xee, 0xff, 0xc0, 0x00}
	for _, c := range []struct {
		in, tok []byte
		at      int
	}{
		{make([]byte, 16), word, 8},
		{[]byte("status?!!!!!"), []byte("calibrate!"), 0},
	} {
		m := NewMutator(9, 16)
		m.SetDict([][]byte{c.tok, []byte("zz")})
		found := false
		var d []byte
		for i := 0; i < 2000 && !found; i++ {
			d, _ = m.Mutate(d, c.in, nil)
			if len(d) > 16 {
				t.Fatalf("%d bytes beyond the bound", len(d))
			}
			found = len(d) >= c.at+len(c.tok) && bytes.Equal(d[c.at:c.at+len(c.tok)], c.tok)
		}
		if !found {
			t.Errorf("token %q never at %d", c.tok, c.at)
		}
	}
	a, b := NewMutator(4, 32), NewMutator(4, 32)
	b.SetDict([][]byte{{}})
	var da, db []byte
	for i := 0; i < 500; i++ {
		da, _ = a.Mutate(da, []byte("abcdefgh12345678"), nil)
		db, _ = b.Mutate(db, []byte("abcdefgh12345678"), nil)
		if !bytes.Equal(da, db) {
			t.Fatalf("mutation %d differs with an empty dictionary", i)
		}
	}
}
