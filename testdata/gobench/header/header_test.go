package header

import "testing"

func FuzzDecode(f *testing.F) {
	// A bundle of the sibling "bundle-lite" format: same vendor prefix in
	// the magic's top 16 bits, version 2.
	f.Add([]byte{0x9A, 0x3E, 0x10, 0x02, 2, 0, 0, 4, 'd', 'a', 't', 'a'})
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := Decode(data)
		if err == nil && len(h.Payload) > len(data) {
			t.Fatalf("payload longer than the input")
		}
	})
}
