package easy

import "testing"

func FuzzFields(f *testing.F) {
	f.Add("unit=C;probe=2")
	f.Fuzz(func(t *testing.T, s string) {
		Fields(s)
	})
}
