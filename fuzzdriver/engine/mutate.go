package engine

import (
	"encoding/binary"
	"math/rand/v2"
)

// Values that tend to sit on boundaries of comparisons and sizes (AFL's
// "interesting" values, extended to 64 bits because plans without a world read
// their parameters as int64).
var (
	interesting8  = []int8{-128, -1, 0, 1, 16, 32, 64, 100, 127}
	interesting16 = []int16{-32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767}
	interesting32 = []int32{-2147483648, -100663046, -32769, 32768, 65535, 65536, 100663045, 2147483647}
	interesting64 = []int64{-9223372036854775808, -4294967297, 4294967295, 4294967296, 9223372036854775807}
)

// arithMax bounds the +/- step of arithmetic mutations, as in AFL.
const arithMax = 35

// Op names a mutation operator; it appears in queue file names (op:...).
type Op uint8

// Mutation operators. Havoc stacks several of the others.
const (
	OpFlipBit Op = iota
	OpRandomByte
	OpInteresting8
	OpInteresting16
	OpInteresting32
	OpInteresting64
	OpArith8
	OpArith16
	OpArith32
	OpInsert
	OpErase
	OpCopyBlock
	OpInsertCopy
	OpSpliceCopy // overwrite or insert a block taken from another corpus entry
	OpArithWord  // add a small step, scaled by 1, 256, 65536 or 2^24, to an aligned 64-bit word
	OpCopyWord   // copy one aligned 64-bit word onto another
	numByteOps
	OpSplice // crossover: head of one entry, tail of another, then havoc
	OpHavoc
)

var opNames = [...]string{
	OpFlipBit: "flip1", OpRandomByte: "rand8", OpInteresting8: "int8",
	OpInteresting16: "int16", OpInteresting32: "int32", OpInteresting64: "int64",
	OpArith8: "arith8", OpArith16: "arith16", OpArith32: "arith32",
	OpInsert: "insert", OpErase: "erase", OpCopyBlock: "copy",
	OpInsertCopy: "clone", OpSpliceCopy: "xcopy", OpArithWord: "arith64",
	OpCopyWord: "copy64", numByteOps: "?",
	OpSplice: "splice", OpHavoc: "havoc",
}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "?"
}

// Mutator makes new inputs from corpus entries. All choices come from its
// random source, so a Mutator seeded the same way mutates the same way.
// It is not safe for concurrent use; each worker owns one.
type Mutator struct {
	rng     *rand.Rand
	maxLen  int
	scratch []byte
	dict    [][]byte
}

// SetDict gives the mutator a dictionary: with one, one mutation in eight
// writes a token over the input (an 8-byte token at an aligned word, where
// a plan's int64 parameters are, half the time) or inserts it, as
// AFL++'s -x and libFuzzer's -dict do. Without one (nil or empty) the
// mutations are exactly those of a mutator that never had one.
func (m *Mutator) SetDict(dict [][]byte) {
	m.dict = nil
	for _, t := range dict {
		if len(t) > 0 && len(t) <= m.maxLen {
			m.dict = append(m.dict, t)
		}
	}
}

// dictOp writes or inserts a dictionary token.
func (m *Mutator) dictOp(b []byte) []byte {
	r := m.rng
	tok := m.dict[r.IntN(len(m.dict))]
	n, k := len(b), len(tok)
	switch {
	case k == 8 && n >= 8 && r.IntN(2) == 0:
		copy(b[8*r.IntN(n/8):], tok)
	case n >= k && (r.IntN(2) == 0 || n+k > m.maxLen):
		copy(b[r.IntN(n-k+1):], tok)
	case n+k <= m.maxLen:
		b = insertAt(b, r.IntN(n+1), tok)
	}
	return b
}

// insertAt inserts blk (which must not alias b) at position at of b.
func insertAt(b []byte, at int, blk []byte) []byte {
	n := len(b)
	b = append(b, make([]byte, len(blk))...)
	copy(b[at+len(blk):], b[at:n])
	copy(b[at:], blk)
	return b
}

// NewMutator returns a mutator drawing from a PCG seeded with seed that never
// produces inputs longer than maxLen (at least 1).
func NewMutator(seed uint64, maxLen int) *Mutator {
	if maxLen < 1 {
		maxLen = 1
	}
	return &Mutator{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), maxLen: maxLen}
}

// Mutate writes a mutant of in into dst (reusing its storage) and returns it
// with the top-level operator used. other is a second corpus entry for
// splicing and may be nil. Mostly havoc: a stack of 1 to 16 operators, as in
// AFL's havoc stage, because single small edits are what find byte-by-byte
// comparisons and stacks are what leave local plateaus.
func (m *Mutator) Mutate(dst, in, other []byte) ([]byte, Op) {
	dst = append(dst[:0], in...)
	top := OpHavoc
	if len(other) > 0 && len(in) > 1 && m.rng.IntN(8) == 0 {
		dst = m.splice(dst, other)
		top = OpSplice
	}
	n := 1 << m.rng.IntN(5)
	if len(m.dict) == 0 {
		// Without a dictionary the stack is byte operators only: a loop
		// of its own, so that the common case tests nothing more per
		// operator (the draws are the same either way).
		for i := 0; i < n; i++ {
			dst = m.apply(dst, Op(m.rng.IntN(int(numByteOps))), other)
		}
	} else {
		for i := 0; i < n; i++ {
			if m.rng.IntN(8) == 0 {
				dst = m.dictOp(dst)
				continue
			}
			dst = m.apply(dst, Op(m.rng.IntN(int(numByteOps))), other)
		}
	}
	if len(dst) > m.maxLen {
		dst = dst[:m.maxLen]
	}
	return dst, top
}

// splice keeps a random head of dst and appends the tail of other from the
// same offset, like AFL's splicing stage.
func (m *Mutator) splice(dst, other []byte) []byte {
	limit := min(len(dst), len(other))
	if limit < 2 {
		return dst
	}
	cut := 1 + m.rng.IntN(limit-1)
	return append(dst[:cut], other[cut:]...)
}

// blockLen picks a block length favouring short blocks (most structure in
// environment bytes is a few bytes wide), up to limit.
func (m *Mutator) blockLen(limit int) int {
	if limit <= 1 {
		return 1
	}
	switch m.rng.IntN(4) {
	case 0, 1:
		return 1 + m.rng.IntN(min(limit, 4))
	case 2:
		return 1 + m.rng.IntN(min(limit, 32))
	default:
		return 1 + m.rng.IntN(limit)
	}
}

// apply performs one operator on b and returns the result. Operators that
// need bytes the input does not have fall back to inserting.
func (m *Mutator) apply(b []byte, op Op, other []byte) []byte {
	r := m.rng
	n := len(b)
	if n < op.minLen() {
		op = op.fallback(n)
	}
	bo := byteOrder(r.IntN(2) == 0) // multi-byte values go in either byte order
	switch op {
	case OpFlipBit:
		b[r.IntN(n)] ^= 1 << r.IntN(8)
	case OpRandomByte:
		// XOR with a non-zero value so the byte always changes.
		b[r.IntN(n)] ^= byte(1 + r.IntN(255))
	case OpInteresting8:
		b[r.IntN(n)] = byte(interesting8[r.IntN(len(interesting8))])
	case OpInteresting16:
		bo.PutUint16(b[r.IntN(n-1):], uint16(interesting16[r.IntN(len(interesting16))]))
	case OpInteresting32:
		bo.PutUint32(b[r.IntN(n-3):], uint32(interesting32[r.IntN(len(interesting32))]))
	case OpInteresting64:
		v := uint64(interesting64[r.IntN(len(interesting64))])
		if r.IntN(2) == 0 {
			v = uint64(int64(interesting32[r.IntN(len(interesting32))]))
		}
		bo.PutUint64(b[r.IntN(n-7):], v)
	case OpArith8:
		b[r.IntN(n)] += byte(m.delta())
	case OpArith16:
		p := b[r.IntN(n-1):]
		bo.PutUint16(p, bo.Uint16(p)+uint16(m.delta()))
	case OpArith32:
		p := b[r.IntN(n-3):]
		bo.PutUint32(p, bo.Uint32(p)+uint32(m.delta()))
	case OpInsert:
		if n >= m.maxLen {
			break
		}
		k := m.blockLen(m.maxLen - n)
		at := r.IntN(n + 1)
		b = append(b, make([]byte, k)...)
		copy(b[at+k:], b[at:n])
		if r.IntN(2) == 0 {
			fill := byte(r.IntN(256))
			for i := at; i < at+k; i++ {
				b[i] = fill
			}
		} else {
			for i := at; i < at+k; i++ {
				b[i] = byte(r.IntN(256))
			}
		}
	case OpErase:
		k := m.blockLen(n)
		at := r.IntN(n - k + 1)
		b = append(b[:at], b[at+k:]...)
	case OpCopyBlock:
		k := m.blockLen(n)
		from, to := r.IntN(n-k+1), r.IntN(n-k+1)
		copy(b[to:to+k], b[from:from+k])
	case OpInsertCopy:
		if n >= m.maxLen {
			break
		}
		k := m.blockLen(min(n, m.maxLen-n))
		from, at := r.IntN(n-k+1), r.IntN(n+1)
		m.scratch = append(m.scratch[:0], b[from:from+k]...)
		b = insertAt(b, at, m.scratch)
	case OpArithWord:
		// Inputs of fixed-width fields (a plan's int64 parameters) keep
		// their values in aligned words: stepping a whole word, with carry,
		// walks a value towards a constant it is compared with, and the
		// scaled steps close a distance byte by byte (AFL's arith stages
		// step 8 to 32 bits at any offset and never carry into a word's
		// upper bytes).
		p := b[8*r.IntN(n/8):]
		step := uint64(int64(m.delta()))
		if r.IntN(2) == 0 {
			step <<= 8 * r.IntN(4)
		}
		bo.PutUint64(p, bo.Uint64(p)+step)
	case OpCopyWord:
		// Equal fields are what exact relations between two of them need
		// (input-to-state in miniature: a value the input already holds).
		words := n / 8
		from, to := r.IntN(words), r.IntN(words)
		if from == to {
			to = (to + 1) % words
		}
		copy(b[8*to:8*to+8], b[8*from:8*from+8])
	case OpSpliceCopy:
		if len(other) == 0 {
			return m.apply(b, OpInsert, nil)
		}
		k := m.blockLen(len(other))
		from := r.IntN(len(other) - k + 1)
		if n >= k && r.IntN(2) == 0 {
			to := r.IntN(n - k + 1)
			copy(b[to:to+k], other[from:from+k])
		} else if n+k <= m.maxLen {
			at := r.IntN(n + 1)
			b = insertAt(b, at, other[from:from+k])
		}
	}
	return b
}

// delta is a non-zero step in [-arithMax, arithMax].
func (m *Mutator) delta() int {
	d := 1 + m.rng.IntN(arithMax)
	if m.rng.IntN(2) == 0 {
		return -d
	}
	return d
}

// fallback is the operator that stands in for o on an input of n bytes,
// too short for o: the byte-sized relative of a word operator, else an
// insertion (which grows the input towards what o needs).
func (o Op) fallback(n int) Op {
	switch o {
	case OpArithWord:
		if n >= OpArith8.minLen() {
			return OpArith8
		}
	case OpCopyWord:
		if n >= OpCopyBlock.minLen() {
			return OpCopyBlock
		}
	}
	return OpInsert
}

// minLen is the input length an operator needs to work in place.
func (o Op) minLen() int {
	switch o {
	case OpInsert, OpSpliceCopy:
		return 0
	case OpInteresting16, OpArith16:
		return 2
	case OpInteresting32, OpArith32:
		return 4
	case OpInteresting64, OpArithWord:
		return 8
	case OpCopyWord:
		return 16
	}
	return 1
}

// byteOrder is big-endian when be is set. The fuzzer does not know which
// byte order a decoder uses, so multi-byte operators pick one at random.
func byteOrder(be bool) binary.ByteOrder {
	if be {
		return binary.BigEndian
	}
	return binary.LittleEndian
}
