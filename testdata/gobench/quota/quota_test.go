package quota

import "testing"

var table = NewTable()

func FuzzReserve(f *testing.F) {
	f.Add(uint32(4096))
	f.Fuzz(func(t *testing.T, n uint32) {
		if _, err := table.Reserve(n); err != nil && n < MaxSlots {
			t.Fatalf("slot %d refused: %v", n, err)
		}
	})
}
