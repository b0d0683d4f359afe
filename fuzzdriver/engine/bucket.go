package engine

import (
	"encoding/binary"
	"unsafe"
)

// Hit counts are coarsened into AFL's eight buckets so that a loop running
// 17 instead of 16 times is not "new", but 1, 2, 3, 4-7, 8-15, 16-31,
// 32-127 and 128+ are. Each bucket is one bit, so the set of buckets a
// counter has shown is a single byte and "new" is one AND-NOT.
var bucketBit = func() (t [256]uint8) {
	for c := 1; c < 256; c++ {
		switch {
		case c == 1:
			t[c] = 1
		case c == 2:
			t[c] = 2
		case c == 3:
			t[c] = 4
		case c <= 7:
			t[c] = 8
		case c <= 15:
			t[c] = 16
		case c <= 31:
			t[c] = 32
		case c <= 127:
			t[c] = 64
		default:
			t[c] = 128
		}
	}
	return t
}()

// Coverage is the set of (counter index, hit-count bucket) pairs seen so far:
// one byte per counter, one bit per bucket. The zero value is empty and grows
// as needed. It is not safe for concurrent use.
type Coverage struct {
	bits []uint8
	// cover[i] is coverMask[bits[i]], what the AVX2 scan tests counter i
	// against first (see anyNew). Merge and copyFrom keep it beside bits.
	cover    []uint8
	features int // number of set bits
	counters int // number of non-zero bytes
}

// coverMask[s] is a set of bits m such that a count whose bits are all in
// m (c &^ m == 0) is 0 or falls in a bucket of s: it is not new against
// s. One AND-NOT of a block of counters with their masks then clears a
// block that is not new in most runs, without classifying the counts.
// The mask is built bit by bit from the lowest, so a counter that has
// shown the bucket of 1 has bit 0 in its mask: counts of 0 and 1 (most of
// a run's) always pass when they are not new. Counts above 1 often fail
// it (a 5 against the bucket 4-7 does), and their block goes to the exact
// test.
var coverMask = func() (t [256]uint8) {
	for s := range 256 {
		m := 0
		for b := range 8 {
			// The counts m|1<<b adds are those with bit b and other bits
			// in m: d|1<<b for every subset d of m.
			ok := true
			for d := m; ; d = (d - 1) & m {
				if bucketBit[d|1<<b]&^uint8(s) != 0 {
					ok = false
					break
				}
				if d == 0 {
					break
				}
			}
			if ok {
				m |= 1 << b
			}
		}
		t[s] = uint8(m)
	}
	return t
}()

// HasNew reports whether counters reach a (counter, bucket) pair not yet in c.
// It runs once per exec, so it works on blocks of 64 counters where the
// processor has AVX2 and on 64-bit words of eight counters elsewhere, as
// AFL++'s has_new_bits does: a zero word is skipped, a non-zero word is
// classified into its eight bucket masks at once and tested against the
// word of c with one AND-NOT (see newWords). Counters beyond the end of c
// are new as soon as one is non-zero.
func (c *Coverage) HasNew(counters []uint8) bool {
	// A campaign's runs after the first: the map's length, which Merge
	// gave c, and at least a block. The scan is called directly, not
	// through hasNew and newWords (about 60 instructions a run less).
	if n := len(counters); haveAnyNew && n >= 64 && len(c.bits) == n {
		return anyNew(&counters[0], &c.bits[0], &c.cover[:n][0], n)
	}
	return c.hasNew(counters)
}

// hasNew is HasNew for any lengths.
func (c *Coverage) hasNew(counters []uint8) bool {
	n := min(len(c.bits), len(counters))
	if newWords(counters[:n], c.bits[:n], c.cover[:n]) {
		return true
	}
	for _, x := range counters[n:] {
		if x != 0 {
			return true
		}
	}
	return false
}

// newWords is HasNew for len(counters) == len(seen) == len(cover). A
// run's counters come in long zero stretches (the code it did not reach)
// and stretches of 1s (the straight-line code it ran once), so it takes 64
// counters at a time, as eight words read in place: a block of zeros costs
// eight loads and one test, a block of zeros and 1s sixteen loads and one
// test. Each word's counters are lanes that classify maps one by one, so
// the byte order of the words does not matter. Where the processor has
// AVX2, anyNew (scan_amd64.s) tests a block with two loads and two
// AND-NOTs against cover whatever its counters, and only the blocks that
// test leaves open (counts above 1, or new) are classified, 32 counters
// at a time by table lookups on their nibbles.
func newWords(counters, seen, cover []uint8) bool {
	return scanWords(counters, seen, cover, haveAnyNew)
}

// scanWords is newWords, with anyNew or without it (fast false).
func scanWords(counters, seen, cover []uint8, fast bool) bool {
	seen = seen[:len(counters)] // lets the compiler drop most bounds checks
	if fast {
		cover = cover[:len(counters)] // anyNew reads as many
		switch n := len(counters); {
		case n >= 64:
			return anyNew(&counters[0], &seen[0], &cover[0], n)
		case n == 0:
			return false
		default:
			// Fewer counters than a block: copied into one padded with
			// zeros (never new).
			var c, s, m [64]uint8
			copy(c[:], counters)
			copy(s[:], seen)
			copy(m[:], cover)
			return anyNew(&c[0], &s[0], &m[0], 64)
		}
	}
	i := 0
	blocks := len(counters) &^ 63
	for ; i < blocks; i += 64 {
		c := (*[8]uint64)(unsafe.Pointer(&counters[i]))
		all := c[0] | c[1] | c[2] | c[3] | c[4] | c[5] | c[6] | c[7]
		if all == 0 {
			continue
		}
		s := (*[8]uint64)(unsafe.Pointer(&seen[i]))
		if all&notZeroOrOne == 0 {
			// Zeros and 1s are their own bucket bits.
			if c[0]&^s[0]|c[1]&^s[1]|c[2]&^s[2]|c[3]&^s[3]|c[4]&^s[4]|c[5]&^s[5]|c[6]&^s[6]|c[7]&^s[7] != 0 {
				return true
			}
			continue
		}
		for k, w := range c {
			if classify(w)&^s[k] != 0 {
				return true
			}
		}
	}
	le := binary.LittleEndian
	for ; i+8 <= len(counters); i += 8 {
		w := le.Uint64(counters[i : i+8])
		if w != 0 && classify(w)&^le.Uint64(seen[i:i+8]) != 0 {
			return true
		}
	}
	for ; i < len(counters); i++ {
		if bucketBit[counters[i]]&^seen[i] != 0 {
			return true
		}
	}
	return false
}

// notZeroOrOne has the bits of a word of counters that are clear when each
// counter is 0 or 1.
const notZeroOrOne = 0xFEFEFEFEFEFEFEFE

// classify maps each byte of w, a little-endian word of counters, to its
// bucket bit. It is small enough to be inlined in the loops.
func classify(w uint64) uint64 {
	// Most non-zero counters are 1 (straight-line code runs once per run,
	// label counters are 0/1), and 0 and 1 are their own bucket bits.
	if w&notZeroOrOne == 0 {
		return w
	}
	return classifyBytes(w)
}

// classifyBytes is classify one byte at a time. Not inlined, so that
// classify is.
//
//go:noinline
func classifyBytes(w uint64) uint64 {
	return uint64(bucketBit[uint8(w)]) |
		uint64(bucketBit[uint8(w>>8)])<<8 |
		uint64(bucketBit[uint8(w>>16)])<<16 |
		uint64(bucketBit[uint8(w>>24)])<<24 |
		uint64(bucketBit[uint8(w>>32)])<<32 |
		uint64(bucketBit[uint8(w>>40)])<<40 |
		uint64(bucketBit[uint8(w>>48)])<<48 |
		uint64(bucketBit[uint8(w>>56)])<<56
}

// Merge adds the pairs reached by counters and reports how many pairs were new
// and how many counters were hit for the first time (AFL's "+cov").
func (c *Coverage) Merge(counters []uint8) (newPairs, newCounters int) {
	if len(counters) > len(c.bits) {
		c.bits = append(c.bits, make([]uint8, len(counters)-len(c.bits))...)
		c.cover = append(c.cover, make([]uint8, len(counters)-len(c.cover))...)
	}
	for i, n := range counters {
		if n == 0 {
			continue
		}
		old := c.bits[i]
		add := bucketBit[n] &^ old
		if add == 0 {
			continue
		}
		if old == 0 {
			newCounters++
		}
		c.bits[i] = old | add
		c.cover[i] = coverMask[old|add]
		newPairs++
	}
	c.features += newPairs
	c.counters += newCounters
	return newPairs, newCounters
}

// Features is the number of (counter, bucket) pairs seen.
func (c *Coverage) Features() int { return c.features }

// CountersHit is the number of counters seen non-zero at least once.
func (c *Coverage) CountersHit() int { return c.counters }

// Bits returns a copy of the per-counter bucket masks: a non-zero byte means
// the counter was hit by some kept input.
func (c *Coverage) Bits() []uint8 { return append([]uint8(nil), c.bits...) }

// copyFrom makes c equal to o, reusing c's storage.
func (c *Coverage) copyFrom(o *Coverage) {
	c.bits = append(c.bits[:0], o.bits...)
	c.cover = append(c.cover[:0], o.cover...)
	c.features, c.counters = o.features, o.counters
}
