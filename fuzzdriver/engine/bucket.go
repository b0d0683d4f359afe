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
// It runs once per exec, so it skips zero counters eight at a time: most
// counters of a run are zero.
func (c *Coverage) HasNew(counters []uint8) bool {
	bits := c.bits
	i := 0
	for ; i+8 <= len(counters); i += 8 {
		if binary.LittleEndian.Uint64(counters[i:]) == 0 {
			continue
		}
		for j, n := range counters[i : i+8] {
			if n != 0 && (i+j >= len(bits) || bucketBit[n]&^bits[i+j] != 0) {
				return true
			}
		}
	}
	for ; i < len(counters); i++ {
		n := counters[i]
		if n == 0 {
			continue
		}
		if i >= len(bits) || bucketBit[n]&^bits[i] != 0 {
			return true
		}
	}
	return false
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
