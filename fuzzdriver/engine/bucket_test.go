package engine

import "testing"

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
