// Package packet parses the binary frames robots exchange with the fleet
// gateway.
//
// Every frame starts with a fixed 8-byte header:
//
//	offset  size  field
//	0       4     magic (big-endian, always Magic)
//	4       1     protocol version
//	5       1     flags
//	6       2     payload length (big-endian)
//
// Fragmented frames (FlagFragment) carry a fragment extension between the
// header and the payload; its layout depends on the protocol version.
package packet

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Magic identifies a fleet frame.
const Magic uint32 = 0xB07F_1EE7

// HeaderLen is the size of the fixed header.
const HeaderLen = 8

// Protocol versions understood by this parser.
const (
	MinVersion = 1
	MaxVersion = 4
)

// Header flags.
const (
	FlagAck      = 1 << 0 // sender wants an acknowledgement
	FlagUrgent   = 1 << 1 // bypass the gateway's batching queue
	FlagFragment = 1 << 2 // frame is one fragment of a larger message
)

var (
	ErrShort      = errors.New("packet: frame too short")
	ErrBadMagic   = errors.New("packet: bad magic")
	ErrBadVersion = errors.New("packet: unsupported version")
)

// fragExtLen is the size of the fragment extension for each protocol
// version. Versions 1 and 2 use a 16-bit fragment offset, version 3 widened
// it to 32 bits.
var fragExtLen = [...]int{1: 4, 2: 4, 3: 6}

// Header is a decoded frame header.
type Header struct {
	Version    uint8
	Flags      uint8
	PayloadLen uint16

	// Set only for fragmented frames.
	FragID     uint16
	FragOffset uint32
}

// Fragmented reports whether the frame is a fragment.
func (h Header) Fragmented() bool { return h.Flags&FlagFragment != 0 }

// Parse decodes the header of frame and returns it together with the
// payload. Trailing bytes after the payload are ignored.
func Parse(frame []byte) (Header, []byte, error) {
	if len(frame) < HeaderLen {
		return Header{}, nil, ErrShort
	}
	if m := binary.BigEndian.Uint32(frame[0:4]); m != Magic {
		return Header{}, nil, fmt.Errorf("%w: %#08x", ErrBadMagic, m)
	}
	h := Header{
		Version:    frame[4],
		Flags:      frame[5],
		PayloadLen: binary.BigEndian.Uint16(frame[6:8]),
	}
	if h.Version < MinVersion || h.Version > MaxVersion {
		return Header{}, nil, fmt.Errorf("%w: %d", ErrBadVersion, h.Version)
	}

	rest := frame[HeaderLen:]
	if h.Fragmented() {
		n := fragExtLen[h.Version]
		if len(rest) < n {
			return Header{}, nil, ErrShort
		}
		parseFragExt(&h, rest[:n])
		rest = rest[n:]
	}

	if len(rest) < int(h.PayloadLen) {
		return Header{}, nil, ErrShort
	}
	return h, rest[:h.PayloadLen], nil
}

// parseFragExt fills the fragment fields of h from the extension bytes.
func parseFragExt(h *Header, ext []byte) {
	h.FragID = binary.BigEndian.Uint16(ext[0:2])
	if len(ext) >= 6 {
		h.FragOffset = binary.BigEndian.Uint32(ext[2:6])
	} else {
		h.FragOffset = uint32(binary.BigEndian.Uint16(ext[2:4]))
	}
}

// AppendHeader appends the wire form of h (without fragment extension) to b.
func AppendHeader(b []byte, h Header) []byte {
	b = binary.BigEndian.AppendUint32(b, Magic)
	b = append(b, h.Version, h.Flags)
	return binary.BigEndian.AppendUint16(b, h.PayloadLen)
}
