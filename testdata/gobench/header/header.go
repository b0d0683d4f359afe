// Package header decodes the fixed header of a small binary container
// format (a "bundle"): magic, version, flags, an extension length and the
// payload that follows.
package header

import (
	"encoding/binary"
	"errors"
)

// Magic starts every bundle.
const Magic uint32 = 0x9A3E61C7

// Header is a decoded bundle header.
type Header struct {
	Version byte
	Flags   byte
	Ext     []byte // the extension block (version 3, FlagExt)
	Payload []byte
}

// FlagExt says that an extension block follows the header (version 3).
const FlagExt = 0x01

var (
	errShort   = errors.New("header: short input")
	errMagic   = errors.New("header: not a bundle")
	errVersion = errors.New("header: unsupported version")
)

// Decode reads a bundle: 4 bytes magic (big endian), version, flags, a
// 16-bit extension length (big endian), then the payload. Version 3 with
// FlagExt starts the payload with an extension block of that length, ended
// by a zero byte.
func Decode(data []byte) (*Header, error) {
	if len(data) < 8 {
		return nil, errShort
	}
	if binary.BigEndian.Uint32(data[0:4]) != Magic {
		return nil, errMagic
	}
	h := &Header{Version: data[4], Flags: data[5]}
	extLen := int(binary.BigEndian.Uint16(data[6:8]))
	body := data[8:]
	switch h.Version {
	case 1, 2:
		h.Payload = body
	case 3:
		if h.Flags&FlagExt != 0 {
			// BUG: the extension length is not checked against the body.
			if body[extLen] != 0 {
				return nil, errors.New("header: unterminated extension")
			}
			h.Ext, h.Payload = body[:extLen], body[extLen+1:]
		} else {
			h.Payload = body
		}
	default:
		return nil, errVersion
	}
	return h, nil
}
