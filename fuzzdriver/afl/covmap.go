package afl

import (
	"errors"
	"fmt"
)

// CoverageMap writes the VM's flat counters into an AFL-style coverage map.
//
// Placement. An instrumented C target hashes (previous block, current block)
// into a 64 KiB map, and collisions are the price of a fixed-size map. The
// VM has no such problem: it already numbers every counter densely (one per
// instruction, then two per conditional jump), and AFL++ 4.04c lets a target
// announce the map size it needs in its fork-server hello (FS_OPT_MAPSIZE,
// up to 8 MiB). So whenever the map can hold all counters, counter i goes to
// byte i: no collisions at all, and the smallest map AFL has to clear and
// scan after each run, which keeps AFL's per-run work proportional to the
// plan rather than to a fixed 64 KiB.
//
// Only when the shared memory is smaller than the number of counters (AFL
// run with AFL_SKIP_BIN_CHECK and no AFL_MAP_SIZE gets 64 KiB, and never
// more than 8 MiB can be announced) do we fold: counter i goes to byte
// fold(i), a fixed integer hash reduced to the map size, and counters that
// share a byte add their counts, saturating at 255. A hash rather than
// i mod size because the layout is structured: with mod, the true/false
// pair of one jump would collide with the pair of another jump (or with a
// run of instructions) at a fixed stride, for every plan, and complementary
// counters summed into one byte hide exactly the information a branch
// fuzzer needs. A hash spreads collisions like AFL's own random block ids.
// The hash is fixed (no seed), so every worker, restart and resumed campaign
// places counters identically.
//
// Byte 0 is not a counter. AFL++'s instrumentation runtime sets map[0] = 1
// on every run ("write something into the bitmap so that our parent doesn't
// give up on us"), and afl-showmap 4.04c reads map[0] == 1 as "the target
// has coverage" and clears it before listing tuples. We follow suit: byte 0
// is always 1, counter i lives at byte 1+i (so afl-showmap's tuple k is
// counter k-1), and even a run whose counters are all zero shows AFL a
// non-empty map instead of failing its "No instrumentation detected" check.
//
// Counts are written as they are: AFL applies its own hit-count buckets
// (1, 2, 3, 4-7, ..., 128+) to the map after each run.
type CoverageMap struct {
	buf  []byte // the map itself (AFL's shared memory or a private buffer), len == size
	n    int    // number of counters the Executor produces
	fold bool   // true when 1+n > len(buf)
}

// NewCoverageMap lays out numCounters counters in mem, which is AFL's shared
// memory segment (or a private buffer) and bounds the map size. It uses the
// smallest multiple of 64 bytes that holds byte 0 and every counter, or,
// when mem is too small, all of mem (rounded down to 64 bytes, at most
// 8 MiB) with folding. The returned map never writes outside mem[:Size()].
func NewCoverageMap(mem []byte, numCounters int) (*CoverageMap, error) {
	if numCounters < 0 {
		return nil, fmt.Errorf("afl: negative counter count %d", numCounters)
	}
	capacity := min(len(mem), fsOptMaxMapSize)
	capacity -= capacity % mapAlign
	if capacity < mapAlign {
		return nil, fmt.Errorf("afl: coverage map of %d bytes is smaller than %d", len(mem), mapAlign)
	}
	need := mapSizeFor(numCounters)
	m := &CoverageMap{n: numCounters}
	if need <= capacity {
		m.buf = mem[:need]
	} else {
		m.buf = mem[:capacity]
		m.fold = true
	}
	return m, nil
}

// MapSizeFor returns the map size NewCoverageMap would choose for
// numCounters counters given a memory of unlimited size: the size to put in
// AFL_MAP_SIZE when AFL must be told up front (AFL_SKIP_BIN_CHECK).
func MapSizeFor(numCounters int) int {
	return min(mapSizeFor(numCounters), fsOptMaxMapSize)
}

// mapSizeFor is byte 0 plus one byte per counter, rounded up to 64.
func mapSizeFor(numCounters int) int {
	return (1 + max(numCounters, 0) + mapAlign - 1) / mapAlign * mapAlign
}

// Size is the map size in bytes announced to AFL.
func (m *CoverageMap) Size() int { return len(m.buf) }

// errCounterCount is returned when the Executor's counter slice changes
// length between runs: placement would silently change meaning.
var errCounterCount = errors.New("afl: executor returned a different number of counters than announced")

// Write replaces the map's contents with counters. AFL clears the map before
// each run, but Write does not rely on it, so the same map can be reused
// without AFL (a private buffer, afl-showmap). counters must have the length
// the map was made for.
func (m *CoverageMap) Write(counters []uint8) error {
	if len(counters) != m.n {
		return fmt.Errorf("%w: got %d, want %d", errCounterCount, len(counters), m.n)
	}
	if !m.fold {
		// Identity placement: one memmove, zeros included, then clear the
		// alignment tail.
		m.buf[0] = 1
		k := 1 + copy(m.buf[1:], counters)
		clear(m.buf[k:])
		return nil
	}
	clear(m.buf)
	m.buf[0] = 1
	slots := uint64(len(m.buf) - 1)
	for i, c := range counters {
		if c == 0 {
			continue
		}
		j := 1 + foldIndex(uint32(i), slots)
		if s := uint16(m.buf[j]) + uint16(c); s > 255 {
			m.buf[j] = 255
		} else {
			m.buf[j] = uint8(s)
		}
	}
	return nil
}

// foldIndex maps counter i to one of size slots: the
// murmur3 32-bit finalizer (a bijection with full avalanche, so neighbouring
// counters land far apart) followed by Lemire's multiply-shift reduction to
// [0, size), which is uniform without requiring a power-of-two size.
func foldIndex(i uint32, size uint64) uint64 {
	h := i
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return uint64(h) * size >> 32
}
