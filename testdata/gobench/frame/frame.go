// Package frame decodes frames of a serial sensor protocol:
//
//	length (1 byte: the number of payload bytes)
//	kind   (1 byte)
//	payload
//	sum    (1 byte: the sum of length, kind and payload bytes, modulo 256)
//
// Kind 0x7E frames carry a table of (key, value) byte pairs.
package frame

import "errors"

// KindTable is the kind of frames that carry a table.
const KindTable = 0x7E

// Frame is a decoded frame.
type Frame struct {
	Kind    byte
	Payload []byte
	Table   map[byte]byte
}

var (
	errLength = errors.New("frame: length does not match")
	errSum    = errors.New("frame: bad checksum")
)

// Decode checks and decodes one frame.
func Decode(data []byte) (*Frame, error) {
	if len(data) < 3 || len(data) != int(data[0])+3 {
		return nil, errLength
	}
	var sum byte
	for _, b := range data[:len(data)-1] {
		sum += b
	}
	if sum != data[len(data)-1] {
		return nil, errSum
	}
	f := &Frame{Kind: data[1], Payload: data[2 : len(data)-1]}
	if f.Kind == KindTable {
		f.Table = map[byte]byte{}
		// BUG: an odd-length table reads past the payload's last pair.
		for i := 0; i < len(f.Payload); i += 2 {
			f.Table[f.Payload[i]] = f.Payload[i+1]
		}
	}
	return f, nil
}
