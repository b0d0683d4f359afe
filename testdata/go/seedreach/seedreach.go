// Package seedreach is a fixture of labelcov's dist seeds: a decoder whose
// fuzz target's seeds execute the text path (Decode, field) and never the
// binary one (wide), although both are reachable from the target by name.
// The integer constants of the code the seeds do not execute are not
// offered as seeds; string constants are.
package seedreach

import "encoding/binary"

// Decode reads "key=value" text, or a binary record after a 0x00 byte.
func Decode(data []byte) (string, bool) {
	if len(data) > 0 && data[0] == 0 {
		return "", wide(data[1:])
	}
	return field(data)
}

// field is the text path: a magic key.
func field(data []byte) (string, bool) {
	for i, b := range data {
		if b == '=' {
			key := string(data[:i])
			return key, key == "labelcov-magic-key"
		}
	}
	return "", false
}

// wide is the binary path: a 64-bit bound and a tag no seed reaches.
func wide(rest []byte) bool {
	if len(rest) < 8 {
		return false
	}
	return binary.BigEndian.Uint64(rest) > 0x7EEDC0DE5EED0001 || string(rest[8:]) == "labelcov-wide-tag"
}
