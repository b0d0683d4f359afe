package engine

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

func TestBucketBoundaries(t *testing.T) {
	// AFL's classes: 1, 2, 3, 4-7, 8-15, 16-31, 32-127, 128+.
	want := map[uint8]uint8{0: 0, 1: 1, 2: 2, 3: 4, 4: 8, 7: 8, 8: 16, 15: 16, 16: 32, 31: 32, 32: 64, 127: 64, 128: 128, 255: 128}
	for c, b := range want {
		if got := bucketBit[c]; got != b {
			t.Errorf("Bucket(%d) = %d, want %d", c, got, b)
		}
	}
	// Monotone and one bit each.
	for c := 1; c < 256; c++ {
		b := bucketBit[uint8(c)]
		if b&(b-1) != 0 || b == 0 {
			t.Fatalf("Bucket(%d) = %08b, want exactly one bit", c, b)
		}
		if c > 1 && b < bucketBit[uint8(c-1)] {
			t.Fatalf("Bucket not monotone at %d", c)
		}
	}
}

func TestCoverageNewPairs(t *testing.T) {
	var c Coverage
	if !c.HasNew([]uint8{0, 1}) {
		t.Fatal("first hit must be new")
	}
	if p, n := c.Merge([]uint8{0, 1}); p != 1 || n != 1 {
		t.Fatalf("Merge = %d pairs %d counters, want 1 1", p, n)
	}
	if c.HasNew([]uint8{0, 1}) {
		t.Fatal("same counters are not new")
	}
	// 5 and 6 share the 4-7 bucket: the first is new, the second not.
	if !c.HasNew([]uint8{0, 5}) {
		t.Fatal("bucket 4-7 is new")
	}
	if p, n := c.Merge([]uint8{0, 5}); p != 1 || n != 0 {
		t.Fatalf("Merge = %d pairs %d counters, want 1 0 (new bucket of a known counter)", p, n)
	}
	if c.HasNew([]uint8{0, 6}) {
		t.Fatal("6 is in the bucket of 5")
	}
	// A lower bucket after a higher one is still a new pair (AFL semantics).
	if !c.HasNew([]uint8{0, 2}) {
		t.Fatal("bucket 2 after bucket 4-7 is new")
	}
	// Longer counter slices grow the map.
	if !c.HasNew([]uint8{0, 0, 0, 200}) {
		t.Fatal("new counter beyond the known length")
	}
	c.Merge([]uint8{0, 2, 0, 200})
	if c.Features() != 4 || c.CountersHit() != 2 {
		t.Fatalf("features %d counters %d, want 4 2", c.Features(), c.CountersHit())
	}
	if got := c.Bits(); got[1] != 1|2|8 || got[3] != 128 {
		t.Fatalf("bits %v", got)
	}
}

// refHasNew is HasNew written the obvious way, one counter at a time: the
// reference the word-at-a-time version must agree with.
func refHasNew(bits, counters []uint8) bool {
	for i, n := range counters {
		if n == 0 {
			continue
		}
		if i >= len(bits) || bucketBit[n]&^bits[i] != 0 {
			return true
		}
	}
	return false
}

// refMerge is Merge written the obvious way, on a copy of bits.
func refMerge(bits, counters []uint8) (out []uint8, newPairs, newCounters int) {
	out = append([]uint8(nil), bits...)
	for len(out) < len(counters) {
		out = append(out, 0)
	}
	for i, n := range counters {
		add := bucketBit[n] &^ out[i]
		if n == 0 || add == 0 {
			continue
		}
		if out[i] == 0 {
			newCounters++
		}
		out[i] |= add
		newPairs++
	}
	return out, newPairs, newCounters
}

// checkAgainstRef compares HasNew and Merge with the references on one
// coverage state and one run, then checks the run is no longer new.
func checkAgainstRef(t *testing.T, bits, counters []uint8) {
	t.Helper()
	c := coverageWith(bits)
	if got, want := c.HasNew(counters), refHasNew(bits, counters); got != want {
		t.Fatalf("HasNew(bits %v, counters %v) = %v, want %v", bits, counters, got, want)
	}
	wantBits, wantPairs, wantCounters := refMerge(bits, counters)
	if p, n := c.Merge(counters); p != wantPairs || n != wantCounters {
		t.Fatalf("Merge(bits %v, counters %v) = %d pairs %d counters, want %d %d", bits, counters, p, n, wantPairs, wantCounters)
	}
	if !bytes.Equal(c.bits, wantBits) {
		t.Fatalf("Merge(bits %v, counters %v): bits %v, want %v", bits, counters, c.bits, wantBits)
	}
	if c.HasNew(counters) {
		t.Fatalf("counters %v still new after Merge", counters)
	}
	// The masks Merge kept are those of the merged bits: a run of 1s
	// (new wherever the bucket of 1 is missing) scans as the reference says.
	if got := coverageWith(c.bits).cover; !bytes.Equal(c.cover, got) {
		t.Fatalf("Merge(bits %v, counters %v): masks %v, want %v", bits, counters, c.cover, got)
	}
	ones := bytes.Repeat([]byte{1}, len(c.bits))
	if got, want := c.HasNew(ones), refHasNew(c.bits, ones); got != want {
		t.Fatalf("after Merge(bits %v, counters %v): HasNew(1s) = %v, want %v", bits, counters, got, want)
	}
}

// randomCounters draws n counters, zero with probability pZero, otherwise
// mostly small (where bucket boundaries are dense) but any byte value.
func randomCounters(r *rand.Rand, n int, pZero float64) []uint8 {
	out := make([]uint8, n)
	for i := range out {
		switch x := r.Float64(); {
		case x < pZero:
		case x < pZero+(1-pZero)/2:
			out[i] = 1
		case x < pZero+(1-pZero)*3/4:
			out[i] = uint8(2 + r.IntN(7))
		default:
			out[i] = uint8(r.IntN(256))
		}
	}
	return out
}

// coverageWith is a Coverage holding a copy of bits.
func coverageWith(bits []uint8) Coverage {
	c := Coverage{bits: append([]uint8(nil), bits...), cover: make([]uint8, len(bits))}
	for i, b := range bits {
		c.cover[i] = coverMask[b]
	}
	return c
}

// coverageOf merges runs into an empty Coverage and returns its bits.
func coverageOf(runs ...[]uint8) []uint8 {
	var c Coverage
	for _, r := range runs {
		c.Merge(r)
	}
	return c.bits
}

func TestHasNewMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := r.IntN(81) // lengths around and off multiples of 8 and 32
		counters := randomCounters(r, n, r.Float64())
		var bits []uint8
		switch r.IntN(3) {
		case 0: // unrelated bits, any length
			bits = make([]uint8, r.IntN(89))
			for i := range bits {
				bits[i] = uint8(r.IntN(256))
			}
		case 1: // the coverage of related runs: mostly not new, some near misses
			bits = coverageOf(randomCounters(r, r.IntN(81), 0.5), randomCounters(r, r.IntN(81), 0.5))
		default: // exactly the run, perhaps minus one bucket bit
			bits = coverageOf(counters)
			if len(bits) > 0 && r.IntN(2) == 0 {
				i := r.IntN(len(bits))
				bits[i] &= bits[i] - 1
			}
		}
		checkAgainstRef(t, bits, counters)
	}
}

// TestScanWordsLongMaps compares newWords, with anyNew and without, with
// the reference on maps of many 64-counter blocks (the other tests' maps
// have one at most): zero blocks, blocks of zeros and 1s seen or not,
// and blocks with a loop's count, in any order, so that anyNew's first
// test passes and fails on every kind of block, its exact test clears
// some and not others, and the scan resumes after it; every length up to
// 1,100, so the last step overlaps the one before it by any amount.
func TestScanWordsLongMaps(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 5000 {
		n := r.IntN(1100)
		counters := make([]uint8, n)
		for at := 0; at < n; at += 64 {
			block := counters[at:min(at+64, n)]
			switch r.IntN(4) {
			case 0: // zero
			case 1: // zeros and 1s
				for i := range block {
					block[i] = uint8(r.IntN(2))
				}
			case 2: // a few counters, any value
				for range 1 + r.IntN(3) {
					block[r.IntN(len(block))] = uint8(r.IntN(256))
				}
			default:
				copy(block, randomCounters(r, len(block), r.Float64()))
			}
		}
		var bits []uint8
		switch r.IntN(3) {
		case 0: // the run itself, perhaps minus one bucket bit
			bits = coverageOf(counters)
			if len(bits) > 0 && r.IntN(2) == 0 {
				i := r.IntN(len(bits))
				bits[i] &= bits[i] - 1
			}
		case 1: // the run and others: usually not new
			bits = coverageOf(counters, randomCounters(r, n, 0.7))
			if len(bits) > 0 && r.IntN(2) == 0 {
				bits[r.IntN(len(bits))] = 0
			}
		default:
			bits = make([]uint8, n)
			for i := range bits {
				bits[i] = uint8(r.IntN(256))
			}
		}
		want := refHasNew(bits, counters)
		cover := coverageWith(bits).cover
		for _, fast := range []bool{false, haveAnyNew} {
			if got := scanWords(counters, bits, cover, fast); got != want {
				t.Fatalf("scanWords(fast %v) on %d counters = %v, want %v\ncounters %v\nbits %v", fast, n, got, want, counters, bits)
			}
		}
		checkAgainstRef(t, bits, counters)
	}
}

// A count passing coverMask's test is not new, for every coverage byte and
// count; and the test passes the counts that need no classifying (0, and 1
// once its bucket is seen).
func TestCoverMask(t *testing.T) {
	for s := range 256 {
		m := coverMask[s]
		for c := range 256 {
			if uint8(c)&^m == 0 && bucketBit[c]&^uint8(s) != 0 {
				t.Fatalf("coverMask[%08b] = %08b passes %d, whose bucket %08b is new", s, m, c, bucketBit[c])
			}
		}
		if s&1 != 0 && m&1 == 0 {
			t.Fatalf("coverMask[%08b] = %08b: a 1 is not new, yet fails the test", s, m)
		}
	}
	// Not only bit 0: counts of 4 pass once their bucket is seen.
	if coverMask[bucketBit[4]] != 4 || coverMask[bucketBit[1]|bucketBit[2]|bucketBit[3]] != 3 {
		t.Fatalf("coverMask[%08b] = %08b, coverMask[%08b] = %08b", bucketBit[4], coverMask[bucketBit[4]], 7, coverMask[7])
	}
}

// TestHasNewEachByteValue puts every byte value at every position of two
// 32-counter blocks, an 8-counter word and a tail, amid 1s, over coverage
// that has every bucket but its own: each must be new, and not new once its
// own bucket is there.
func TestHasNewEachByteValue(t *testing.T) {
	for v := 1; v < 256; v++ {
		for pos := range 75 {
			counters := make([]uint8, 75)
			for i := range counters {
				counters[i] = 1
			}
			counters[pos] = uint8(v)
			bits := coverageOf(counters)
			bits[pos] = 0xFF &^ bucketBit[v]
			checkAgainstRef(t, bits, counters)
			c := coverageWith(bits)
			if !c.HasNew(counters) {
				t.Fatalf("count %d at %d: bucket %08b missing from the coverage, yet not new", v, pos, bucketBit[v])
			}
		}
	}
}

func FuzzHasNew(f *testing.F) {
	ones := bytes.Repeat([]byte{1}, 16)
	twos := bytes.Repeat([]byte{2}, 16)
	f.Add(twos, ones)                                  // 2 is not 1
	f.Add(ones, twos)                                  // nor 1 2
	f.Add(ones, ones[:7])                              // coverage shorter than a word
	f.Add(ones[:9], ones)                              // a tail of one counter
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0, 3}, []byte{}) // new only in the tail
	f.Add([]byte{128, 255, 127, 32, 31, 16, 15, 8, 7}, []byte{64, 128, 64, 64, 32, 32, 16, 16, 8})
	f.Add([]byte{0x80, 0, 0, 0, 0, 0, 0, 0x01}, []byte{0x80, 0, 0, 0, 0, 0, 0, 1})
	f.Add(bytes.Repeat([]byte{255}, 17), bytes.Repeat([]byte{127}, 17))
	block := bytes.Repeat([]byte{1}, 41)
	block[31] = 2                                 // a 2 at the end of a 32-counter block of 1s
	f.Add(block, bytes.Repeat([]byte{1}, 41))     // is new
	f.Add(block, bytes.Repeat([]byte{1 | 2}, 40)) // is not, but the 41st counter, beyond the coverage, is
	f.Fuzz(func(t *testing.T, counters, bits []byte) {
		checkAgainstRef(t, bits, counters)
	})
}

// scatteredRuns makes runs of docking's labelled size (1,890 counters) with
// 200–320 non-zero counters strewn over 80 words, a tenth of them loop
// counts: the worst case for HasNew, which skips zero stretches and counts
// of 1 fastest.
func scatteredRuns(r *rand.Rand) [][]uint8 {
	hot := r.Perm((dockingSize + 7) / 8)[:80] // the words a run touches
	var runs [][]uint8
	for range 64 {
		run := make([]uint8, dockingSize)
		for k := 200 + r.IntN(121); k > 0; k-- {
			i := min(hot[r.IntN(len(hot))]*8+r.IntN(8), dockingSize-1)
			if r.IntN(10) == 0 {
				run[i] = uint8(2 + r.IntN(40)) // a loop's count
			} else {
				run[i] = 1
			}
		}
		runs = append(runs, run)
	}
	return runs
}

// dockingSize is the number of counters of docking's plan with mcc,wm.
const dockingSize = 1890

// dockingRuns makes runs shaped as docking's labelled runs were seen to be
// (one counter per VM instruction, then the branch counters): about 25
// stretches of consecutive instructions, 200–360 counters in 60–100 words,
// almost all 1s and a few small loop counts. Runs are variations of a few
// paths, as the mutants of a campaign's entries are.
func dockingRuns(r *rand.Rand) [][]uint8 {
	type block struct{ at, n int }
	blocks := make([]block, 40)
	for i := range blocks {
		blocks[i] = block{at: r.IntN(dockingSize - 80), n: 4 + r.IntN(20)}
	}
	var runs [][]uint8
	for range 64 {
		run := make([]uint8, dockingSize)
		for _, k := range r.Perm(len(blocks))[:20+r.IntN(15)] {
			b := blocks[k]
			for i := b.at; i < b.at+b.n; i++ {
				run[i] = 1
			}
			if r.IntN(8) == 0 {
				run[b.at+r.IntN(b.n)] = uint8(2 + r.IntN(3)) // a loop's count
			}
		}
		runs = append(runs, run)
	}
	return runs
}

// BenchmarkHasNew compares HasNew with the version it replaced (kept below)
// on runs that add nothing to the coverage of all of them: the full scan
// almost every exec of a campaign pays.
func BenchmarkHasNew(b *testing.B) {
	for _, shape := range []struct {
		name string
		runs func(*rand.Rand) [][]uint8
	}{{"docking", dockingRuns}, {"scattered", scatteredRuns}} {
		runs := shape.runs(rand.New(rand.NewPCG(3, 4)))
		var cov Coverage
		for _, run := range runs {
			cov.Merge(run)
		}
		b.Run("shape="+shape.name+"/impl=word", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if cov.HasNew(runs[i%len(runs)]) {
					b.Fatal("new")
				}
			}
		})
		b.Run("shape="+shape.name+"/impl=go", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if scanWords(runs[i%len(runs)], cov.bits, cov.cover, false) {
					b.Fatal("new")
				}
			}
		})
		b.Run("shape="+shape.name+"/impl=byte", func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if oldHasNew(cov.bits, runs[i%len(runs)]) {
					b.Fatal("new")
				}
			}
		})
	}
}

// oldHasNew is HasNew as it was before the word-at-a-time version: zero
// words skipped, the rest walked one counter at a time. Kept to compare.
func oldHasNew(bits, counters []uint8) bool {
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
		if n != 0 && (i >= len(bits) || bucketBit[n]&^bits[i] != 0) {
			return true
		}
	}
	return false
}
