package frame

import "testing"

func FuzzDecode(f *testing.F) {
	// A temperature frame: kind 0x10, payload 0x01 0x2C, checksum.
	f.Add([]byte{0x02, 0x10, 0x01, 0x2C, 0x02 + 0x10 + 0x01 + 0x2C})
	f.Fuzz(func(t *testing.T, data []byte) {
		Decode(data)
	})
}
