package quota

import (
	"errors"
	"testing"
)

func TestPrice(t *testing.T) {
	cases := []struct {
		count uint32
		want  uint64
	}{
		{0, 0},
		{1, 1},
		{1000, 1000},
		{250_000, 245_000},
		{1_999_999, 1_440_000},
	}
	for _, c := range cases {
		got, err := Price(Request{Robot: 4, Count: c.count})
		if err != nil || got != c.want {
			t.Errorf("Price(%d) = %d, %v; want %d", c.count, got, err, c.want)
		}
	}
	if _, err := Price(Request{Robot: 4, Count: 3_000_000}); !errors.Is(err, ErrOverQuota) {
		t.Errorf("expected ErrOverQuota, got %v", err)
	}
}

func FuzzQuote(f *testing.F) {
	f.Add(Encode(Request{Robot: 12, Count: 1_999_000}))
	f.Fuzz(func(t *testing.T, b []byte) {
		cost, err := Quote(b)
		if err != nil {
			return
		}
		if cost > Limit {
			t.Fatalf("cost %d exceeds one credit per request", cost)
		}
	})
}
