package seedreach

import "testing"

func FuzzDecode(f *testing.F) {
	f.Add([]byte("name=value"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Decode(data)
	})
}
