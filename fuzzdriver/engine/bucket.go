package engine

import "encoding/binary"

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
	bits     []uint8
	features int // number of set bits
	counters int // number of non-zero bytes
}

// HasNew reports whether counters reach a (counter, bucket) pair not yet in c.
// It runs once per exec, so it works eight counters at a time, as AFL++'s
// has_new_bits does: a zero word is skipped, a non-zero word is classified
// into its eight bucket masks at once and tested against the word of c with
// one AND-NOT. Counters beyond the end of c are new as soon as one is
// non-zero.
func (c *Coverage) HasNew(counters []uint8) bool {
	n := min(len(c.bits), len(counters))
	if newWords(counters[:n], c.bits[:n]) {
		return true
	}
	for _, x := range counters[n:] {
		if x != 0 {
			return true
		}
	}
	return false
}

// newWords is HasNew for len(counters) == len(seen).
func newWords(counters, seen []uint8) bool {
	// Both lengths in the loop condition let the compiler drop the bounds
	// checks of the two loads.
	for len(counters) >= 8 && len(seen) >= 8 {
		w := binary.LittleEndian.Uint64(counters)
		if w != 0 && classify(w)&^binary.LittleEndian.Uint64(seen) != 0 {
			return true
		}
		counters, seen = counters[8:], seen[8:]
	}
	for i, n := range counters {
		if i < len(seen) && bucketBit[n]&^seen[i] != 0 {
			return true
		}
	}
	return false
}

// classify maps each byte of w, a little-endian word of counters, to its
// bucket bit.
func classify(w uint64) uint64 {
	// Most non-zero counters are 1 (straight-line code runs once per run,
	// label counters are 0/1), and 0 and 1 are their own bucket bits.
	const notZeroOrOne = 0xFEFEFEFEFEFEFEFE
	if w&notZeroOrOne == 0 {
		return w
	}
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
	c.features, c.counters = o.features, o.counters
}
