// Package app reads frames with example.com/dep (see ../README.md).
package app

import "example.com/dep"

// Sum adds the values of the frames in bs that decode.
func Sum(bs [][]byte) uint64 {
	var s uint64
	for _, b := range bs {
		if f, err := dep.Parse(b); err == nil {
			s += uint64(f.Value)
		}
	}
	return s
}
