package sample

import "testing"

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		t, lo, hi int
		want      string
	}{{0, 5, 30, "cold"}, {40, 5, 30, "hot"}, {17, 5, 29, "mid"}, {20, 5, 30, "ok"}, {40, 5, 10, "ok"}} {
		if got := Classify(c.t, c.lo, c.hi); got != c.want {
			t.Errorf("Classify(%d, %d, %d) = %q, want %q", c.t, c.lo, c.hi, got, c.want)
		}
	}
}

func TestDrainCallsOnce(t *testing.T) {
	c := &Counter{}
	got := Drain(c, 5)
	if got != 10 || c.N != 6 {
		t.Fatalf("Drain = %d with %d calls, want 10 with 6", got, c.N)
	}
	c = &Counter{N: 10}
	got = Drain(c, 5)
	if got != 12 || c.N != 12 {
		t.Fatalf("Drain = %d with %d calls, want 12 with 12", got, c.N)
	}
	c = &Counter{N: 11}
	got = Drain(c, 5)
	if got != 13 || c.N != 14 {
		t.Fatalf("Drain = %d with %d calls, want 13 with 14", got, c.N)
	}
}

func TestPick(t *testing.T) {
	if Pick(nil, 3, nil) != 0 || Pick([]int{1, 9}, 1, nil) != 9 || Pick([]int{1}, -1, nil) != 0 {
		t.Fatal("Pick on slices")
	}
	p := &Counter{N: 1, Next: &Counter{N: -4}}
	if Pick(nil, 0, p) != 4 || Pick(nil, 0, &Counter{N: 1}) != 0 {
		t.Fatal("Pick on pointers")
	}
}

func TestRatio(t *testing.T) {
	if q, err := Ratio(7, 2); q != 4 || err != nil {
		t.Fatal(q, err)
	}
	if _, err := Ratio(1, 0); err == nil {
		t.Fatal("no error")
	}
}

func TestKind(t *testing.T) {
	for s, want := range map[string]string{"A": "ab", "c": "c", "z": "small"} {
		if got := Kind(s, 0); got != want {
			t.Errorf("Kind(%q) = %q", s, got)
		}
	}
	for n, want := range map[int]string{-20: "very negative", -1: "negative", 200: "big", 50: "big", 3: "small"} {
		if got := Kind("", n); got != want {
			t.Errorf("Kind(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSumWordsAny(t *testing.T) {
	if s, big := Sum([]float64{1, 2, 5}); s != 12 || !big {
		t.Fatal(s, big)
	}
	if Words("a bb #ccc dddd", 1) != 2 {
		t.Fatal("Words")
	}
	if !Any(1, 1) || Any([]int{}, 2) || !Any(nil, 3) {
		t.Fatal("Any")
	}
}

func TestRoute(t *testing.T) {
	c := &Counter{}
	if got := Route(c, "inc!"); got != "inc" || c.N != 2 {
		t.Fatalf("Route = %q, N = %d", got, c.N)
	}
	if got := Route(c, "ABC"); got != "upper!" || c.N != 4 {
		t.Fatalf("Route = %q, N = %d", got, c.N)
	}
	c.N = 200
	if got := Route(c, "XY"); got != "upper>5" || c.N != 202 {
		t.Fatalf("Route = %q, N = %d", got, c.N)
	}
	c.N = 1
	if got := Route(c, "x"); got != "other=3" || c.N != 3 {
		t.Fatalf("Route = %q, N = %d", got, c.N)
	}
}

func TestWeekday(t *testing.T) {
	for d, want := range map[int]string{0: "sun", 7: "sun", 1: "mon", 2: "tue", 3: "wed", 4: "thu", 5: "fri", 6: "sat", 9: "far", 11: "?"} {
		if got := Weekday(d); got != want {
			t.Errorf("Weekday(%d) = %q, want %q", d, got, want)
		}
	}
}
