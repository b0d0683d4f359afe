package guards

import "testing"

func FuzzF(f *testing.F) {
	f.Add(3, uint8(7), "xy")
	f.Fuzz(func(t *testing.T, n int, k uint8, s string) {
		F(n, k, s)
		G(n)
	})
}
