package ledger

import "testing"

func FuzzSettle(f *testing.F) {
	f.Add(int64(250_000), int64(1_250))
	f.Fuzz(func(t *testing.T, amount, fee int64) {
		s, err := Settle(amount, fee)
		if err == nil && s.Net > amount {
			t.Fatalf("net %d above amount %d", s.Net, amount)
		}
	})
}
