package engine

import (
	"bytes"
	"context"
	"errors"
	"testing"
)

func TestMinimizeFewestBytes(t *testing.T) {
	in := []byte("....X....X....")
	keep := func(b []byte) (bool, error) { return bytes.Count(b, []byte("X")) >= 2, nil }
	out, runs, err := Minimize(context.Background(), in, keep, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != "XX" {
		t.Fatalf("got %q, want XX", out)
	}
	if string(in) != "....X....X...." {
		t.Fatal("input modified")
	}
	if runs == 0 || runs > 200 {
		t.Fatalf("%d runs", runs)
	}
}

// Objects first: the bug needs byte 5 to be 'X', so six bytes is the floor;
// zeroing the other bytes still removes objects (non-zero bytes here).
func TestMinimizeFewestObjectsFirst(t *testing.T) {
	objects := func(b []byte) int { return len(b) - bytes.Count(b, []byte{0}) }
	keep := func(b []byte) (bool, error) { return len(b) > 5 && b[5] == 'X', nil }
	out, _, err := Minimize(context.Background(), []byte("abcdeXghij"), keep, objects, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(out, []byte{0, 0, 0, 0, 0, 'X'}) {
		t.Fatalf("got %q, want five zeros and X", out)
	}
	if s := SizeOf(out, objects); s != (Size{Objects: 1, Bytes: 6}) {
		t.Fatalf("size %+v", s)
	}
	// Fewer objects win over fewer bytes.
	if !(Size{Objects: 1, Bytes: 9}).Less(Size{Objects: 2, Bytes: 3}) {
		t.Fatal("Size order must compare objects first")
	}
}

func TestMinimizeBudgetAndErrors(t *testing.T) {
	calls := 0
	keep := func(b []byte) (bool, error) { calls++; return len(b) > 0, nil }
	out, runs, err := Minimize(context.Background(), bytes.Repeat([]byte("a"), 100), keep, nil, 3)
	if err != nil || runs != 3 || calls != 3 {
		t.Fatalf("runs %d calls %d err %v", runs, calls, err)
	}
	if len(out) >= 100 {
		t.Fatalf("no progress within budget: %d bytes", len(out))
	}
	boom := errors.New("boom")
	_, _, err = Minimize(context.Background(), []byte("abc"), func([]byte) (bool, error) { return false, boom }, nil, 0)
	if !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out, runs, err = Minimize(ctx, []byte("abc"), keep, nil, 0)
	if err != nil || runs != 0 || string(out) != "abc" {
		t.Fatalf("cancelled: %q %d %v", out, runs, err)
	}
}

// The engine minimizes findings with the campaign's object count and still
// reports the same key.
func TestEngineMinimizesFindingsByObjects(t *testing.T) {
	objects := func(b []byte) int { return len(b) - bytes.Count(b, []byte{0}) }
	c := mazeCampaign("\x00\x00\x00Q", 0, 2, 100_000)
	c.Objects = objects
	sum, err := c.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	f, ok := findingKeys(sum)["maze"]
	if !ok {
		t.Fatal("maze not found")
	}
	if !bytes.Equal(f.Data, []byte("\x00\x00\x00Q")) || f.Size != (Size{Objects: 1, Bytes: 4}) {
		t.Fatalf("saved %q size %+v (original %+v)", f.Data, f.Size, f.Original)
	}
	if f.Original.Less(f.Size) {
		t.Fatal("minimized input larger than the original")
	}
}
