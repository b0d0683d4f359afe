package afl

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func TestHelloWordMatchesAFL(t *testing.T) {
	for _, size := range []int{64, 128, 65536, 100_032, fsOptMaxMapSize} {
		w := helloWord(size)
		if w&fsOptEnabled != fsOptEnabled || w&fsOptMapSize != fsOptMapSize {
			t.Fatalf("hello(%d) = %#08x lacks the option bits", size, w)
		}
		if got := fsOptGetMapSize(w); got != size {
			t.Errorf("AFL decodes hello(%d) = %#08x as %d", size, w, got)
		}
		// The encoding must not touch the error pattern's bits.
		if w&fsOptError == fsOptError {
			t.Errorf("hello(%d) = %#08x reads as FS_OPT_ERROR", size, w)
		}
	}
	// Values from the 4.04c headers, spelled out.
	if got := helloWord(65536); got != 0x80000001|0x40000000|(65535<<1) {
		t.Errorf("hello(65536) = %#08x", got)
	}
	if fsOptSetMapSize(1) != 0 || fsOptSetMapSize(fsOptMaxMapSize+1) != 0 {
		t.Error("out-of-range sizes must encode as 0, as FS_OPT_SET_MAPSIZE does")
	}
	if got := errorHelloWord(fsErrorShmat); got != 0xf800008f|8<<8 {
		t.Errorf("error hello = %#08x", got)
	}
}

func TestCoverageMapIdentity(t *testing.T) {
	mem := bytes.Repeat([]byte{0xee}, 1024)
	m, err := NewCoverageMap(mem, 100)
	if err != nil {
		t.Fatal(err)
	}
	if m.Size() != 128 || m.fold {
		t.Fatalf("size %d folded %v, want 128 unfolded", m.Size(), m.fold)
	}
	c := make([]uint8, 100)
	c[0], c[42], c[99] = 1, 255, 7
	if err := m.Write(c); err != nil {
		t.Fatal(err)
	}
	if mem[0] != 1 {
		t.Fatal("byte 0 must be 1, as AFL++'s runtime sets it")
	}
	if !bytes.Equal(mem[1:101], c) {
		t.Fatal("counter i must land at byte 1+i")
	}
	if !bytes.Equal(mem[101:128], make([]byte, 27)) {
		t.Fatal("alignment tail not cleared")
	}
	if m2, _ := NewCoverageMap(mem, 127); m2.Size() != 128 {
		t.Fatalf("127 counters + byte 0: size %d, want 128", m2.Size())
	}
	if m2, _ := NewCoverageMap(mem, 128); m2.Size() != 192 {
		t.Fatalf("128 counters + byte 0: size %d, want 192", m2.Size())
	}
	if mem[128] != 0xee {
		t.Fatal("wrote past Size()")
	}
	if err := m.Write(make([]uint8, 99)); !errors.Is(err, errCounterCount) {
		t.Fatalf("short counters: %v, want errCounterCount", err)
	}
}

func TestCoverageMapFolds(t *testing.T) {
	const n, size = 10_000, 1024
	mem := make([]byte, size+64)
	mem[size] = 0xee
	m, err := NewCoverageMap(mem[:size+10], n) // capacity rounds down to 1024
	if err != nil {
		t.Fatal(err)
	}
	if m.Size() != size || !m.fold {
		t.Fatalf("size %d folded %v, want %d folded", m.Size(), m.fold, size)
	}
	c := make([]uint8, n)
	for i := range c {
		c[i] = 1
	}
	if err := m.Write(c); err != nil {
		t.Fatal(err)
	}
	if mem[0] != 1 {
		t.Fatal("byte 0 must be 1")
	}
	sum := 0
	for _, b := range mem[1:size] {
		sum += int(b)
	}
	if sum != n {
		t.Fatalf("folded counts sum to %d, want %d (no saturation expected)", sum, n)
	}
	if mem[size] != 0xee {
		t.Fatal("wrote past Size()")
	}
	// Saturation: every counter at 255 fills each used byte with 255.
	for i := range c {
		c[i] = 255
	}
	if err := m.Write(c); err != nil {
		t.Fatal(err)
	}
	for i, b := range mem[1:size] {
		if b != 0 && b != 255 {
			t.Fatalf("byte %d = %d, want saturation at 255", i, b)
		}
	}
	// Rewriting clears what the previous run left.
	clear(c)
	c[3] = 2
	if err := m.Write(c); err != nil {
		t.Fatal(err)
	}
	if mem[1+foldIndex(3, size-1)] != 2 {
		t.Fatal("counter 3 not at its folded index")
	}
	nz := 0
	for _, b := range mem[1:size] {
		if b != 0 {
			nz++
		}
	}
	if nz != 1 {
		t.Fatalf("%d non-zero bytes after a run with one counter", nz)
	}
}

// A jump's true/false pair (adjacent counters) must not systematically share
// a byte, which i mod size would guarantee at one stride or another.
func TestFoldIndexSpreads(t *testing.T) {
	const size = 65536
	used := make([]int, size)
	same := 0
	for i := uint32(0); i < 200_000; i++ {
		j := foldIndex(i, size)
		if j >= size {
			t.Fatalf("foldIndex(%d) = %d out of range", i, j)
		}
		used[j]++
		if i%2 == 1 && foldIndex(i-1, size) == j {
			same++
		}
	}
	empty := 0
	for _, u := range used {
		if u == 0 {
			empty++
		}
	}
	// 200k balls in 64k bins: e^-3.05 ≈ 4.7% empty for a uniform hash.
	if empty > size/10 {
		t.Errorf("%d of %d bytes unused: placement is not uniform", empty, size)
	}
	if same > 20 {
		t.Errorf("%d true/false pairs share a byte", same)
	}
}

func TestCoverageMapErrors(t *testing.T) {
	if _, err := NewCoverageMap(make([]byte, 63), 10); err == nil {
		t.Error("a map smaller than 64 bytes must be refused")
	}
	if _, err := NewCoverageMap(make([]byte, 64), -1); err == nil {
		t.Error("a negative counter count must be refused")
	}
	m, err := NewCoverageMap(make([]byte, 64), 0)
	if err != nil || m.Size() != 64 {
		t.Fatalf("zero counters: %v, size %v", err, m)
	}
	if got := MapSizeFor(1 << 30); got != fsOptMaxMapSize {
		t.Errorf("MapSizeFor(huge) = %d, want the 8 MiB protocol limit", got)
	}
}

func TestWorkerHelloRoundTrip(t *testing.T) {
	h := workerHello{numCounters: 123456, mapSize: 123456 + 64, fsError: fsErrorShmat}
	got, err := decodeWorkerHello(h.encode())
	if err != nil || got != h {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	if _, err := decodeWorkerHello([]byte("XXXX000000000000")); err == nil {
		t.Error("bad magic accepted")
	}
}

func TestExecutorFuncAndProbe(t *testing.T) {
	calls := 0
	ex := ExecutorFunc(func(ctx context.Context, in []byte) ([]uint8, bool, error) {
		calls++
		return make([]uint8, 77), len(in) > 0, nil
	})
	n, err := counterCount(context.Background(), ex)
	if err != nil || n != 77 || calls != 1 {
		t.Fatalf("probe: n=%d err=%v calls=%d, want 77 from one empty run", n, err, calls)
	}
	boom := ExecutorFunc(func(context.Context, []byte) ([]uint8, bool, error) { panic("boom") })
	if _, _, err := safeExec(context.Background(), boom, nil); err == nil {
		t.Fatal("a panicking executor must yield an error, not a panic")
	}
}

// fsOptGetMapSize is FS_OPT_GET_MAPSIZE, the inverse of fsOptSetMapSize; it
// is what afl-fuzz applies to our hello.
func fsOptGetMapSize(word uint32) int {
	return int((word&0x00fffffe)>>1) + 1
}
