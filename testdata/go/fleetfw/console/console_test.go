package console

import (
	"errors"
	"reflect"
	"testing"
)

func TestRun(t *testing.T) {
	c := &Console{Arm: Arm{Offsets: [NumJoints]int16{80, -40, 12}}}
	replies, err := c.Run([]byte("ping\x02 \r\nled\x10rehome-arm\x02~~status\x00"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"pong pong",
		"led 16",
		"rehomed in 2 passes",
		"ok stopped=false led=16 offsets=[60 -30 9]",
	}
	if !reflect.DeepEqual(replies, want) {
		t.Fatalf("replies = %q, want %q", replies, want)
	}
	if c.Noise != 5 {
		t.Errorf("noise = %d, want 5", c.Noise)
	}

	if _, err := c.Run([]byte("stop")); !errors.Is(err, ErrTruncated) {
		t.Errorf("expected ErrTruncated, got %v", err)
	}
}

func FuzzRun(f *testing.F) {
	f.Add([]byte("status\x01"))
	f.Fuzz(func(t *testing.T, stream []byte) {
		c := &Console{Arm: Arm{Offsets: [NumJoints]int16{80, -40, 12}}}
		replies, err := c.Run(stream)
		if err == nil && len(replies) == 0 && c.Noise != len(stream) {
			t.Fatalf("consumed %d bytes without a reply", len(stream)-c.Noise)
		}
	})
}
