package app

import (
	"testing"

	"example.com/dep"
)

func TestSum(t *testing.T) {
	if got := Sum([][]byte{{0x4c, 0x43, 1, 0, 0, 0, 7}, {0, 0}}); got != 7 {
		t.Fatalf("Sum = %d, want 7", got)
	}
}

// FuzzParse is the fuzz target; the code it exercises is the dependency's.
func FuzzParse(f *testing.F) {
	f.Add([]byte("hello, world"))
	f.Fuzz(func(t *testing.T, b []byte) {
		fr, err := dep.Parse(b)
		if err == nil && fr.Kind > 3 {
			t.Fatalf("kind %d accepted", fr.Kind)
		}
	})
}
