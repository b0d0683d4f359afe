package packet

import (
	"bytes"
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	frame := AppendHeader(nil, Header{Version: 3, Flags: FlagAck | FlagFragment, PayloadLen: 3})
	frame = append(frame, 0x00, 0x07, 0x00, 0x00, 0x01, 0x00) // frag id 7, offset 256
	frame = append(frame, 'h', 'i', '!')

	h, payload, err := Parse(frame)
	if err != nil {
		t.Fatal(err)
	}
	if h.Version != 3 || h.FragID != 7 || h.FragOffset != 256 || !bytes.Equal(payload, []byte("hi!")) {
		t.Fatalf("got %+v %q", h, payload)
	}

	frame[0] = 0
	if _, _, err := Parse(frame); !errors.Is(err, ErrBadMagic) {
		t.Fatalf("expected ErrBadMagic, got %v", err)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte{
		0xB0, 0x7F, 0x00, 0x01, // magic
		0x03,         // version
		FlagFragment, // flags
		0x00, 0x02,   // payload length
		0x00, 0x01, 0x00, 0x00, 0x00, 0x00, // fragment extension
		0xCA, 0xFE, // payload
	})
	f.Fuzz(func(t *testing.T, frame []byte) {
		h, payload, err := Parse(frame)
		if err != nil {
			return
		}
		if len(payload) != int(h.PayloadLen) {
			t.Fatalf("payload length %d, header says %d", len(payload), h.PayloadLen)
		}
	})
}
