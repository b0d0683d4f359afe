package syntax

import (
	"runtime"
	"testing"
)

// allocPerByte returns the bytes Parse allocates per source byte of src.
func allocPerByte(t *testing.T, src []byte) float64 {
	t.Helper()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f, err := Parse("big.plan", src)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(f)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(len(src))
}

// TestParseMemoryIsLinear checks the reader's memory budget without
// timing anything: reading a generated 1 MB plan allocates at most
// maxAllocPerByte bytes per source byte (the tree itself included, the
// issue's budget is 30 B of RSS per byte), and a 4 MB plan costs no more
// per byte than the 1 MB one (within 10%), i.e. memory grows linearly.
func TestParseMemoryIsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 5 MB of generated plan")
	}
	const maxAllocPerByte = 24
	small := largePlan(24000) // a little over 1 MB
	if len(small) < 1<<20 {
		t.Fatalf("generated plan has only %d bytes", len(small))
	}
	big := append(append(append(append([]byte{}, small...), small...), small...), small...)
	s, b := allocPerByte(t, small), allocPerByte(t, big)
	t.Logf("allocated per source byte: %.1f B at %d bytes, %.1f B at %d bytes", s, len(small), b, len(big))
	if s > maxAllocPerByte || b > maxAllocPerByte {
		t.Errorf("Parse allocates %.1f B (%d bytes) and %.1f B (%d bytes) per source byte, budget %d", s, len(small), b, len(big), maxAllocPerByte)
	}
	if b > 1.1*s {
		t.Errorf("allocation per byte grows with size: %.1f B at %d bytes, %.1f B at %d bytes", s, len(small), b, len(big))
	}
}
