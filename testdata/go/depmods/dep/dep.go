// Package dep is the dependency of testdata/go/depmods/app: a decoder of
// frames, whose fuzz target lives in another module (see ../README.md).
package dep

import (
	"encoding/binary"
	"errors"
)

// Magic starts every frame.
const Magic = 0x4c43

// Frame is a decoded frame.
type Frame struct {
	Kind  byte
	Value uint32
}

// Parse decodes a frame: the magic, a kind, a 4-byte value.
func Parse(b []byte) (Frame, error) {
	if len(b) < 7 {
		return Frame{}, errors.New("short frame")
	}
	if binary.BigEndian.Uint16(b) != Magic {
		return Frame{}, errors.New("bad magic")
	}
	f := Frame{Kind: b[2], Value: binary.BigEndian.Uint32(b[3:])}
	if f.Kind > 3 {
		return Frame{}, errors.New("bad kind")
	}
	if f.Kind == 2 && f.Value > 1000 {
		return Frame{}, errors.New("value out of range")
	}
	return f, nil
}
