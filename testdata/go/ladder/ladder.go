// Package ladder holds small bug shapes Go's fuzzer is weak on, one per
// fuzz target, each failing with a message of its own, and an easy
// control: the evidence of docs/go.md's advice on fuzzing with labels.
package ladder

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// Balance fails when two readings are in an exact relation far from
// small values.
func Balance(l, r int64) int64 {
	if 3*l == r+1000 && l > 50000 {
		panic("ladder: balance relation")
	}
	return l - r
}

// Magic is the header's magic number.
const Magic = 0xC0DEF00D

// Header reads a header: a 32-bit big-endian magic, a version byte and a
// length byte; version 3 trusts the length.
func Header(data []byte) (int, error) {
	if len(data) < 8 {
		return 0, errors.New("short header")
	}
	if binary.BigEndian.Uint32(data[0:4]) != Magic {
		return 0, errors.New("bad magic")
	}
	n := int(data[5])
	if data[4] == 3 {
		return int(data[8+n]), nil // ladder: header length trusted
	}
	if 8+n > len(data) {
		return 0, errors.New("short body")
	}
	return n, nil
}

var buckets [100]int

// Bucket counts n in one of 100 buckets of 10,000 below a million; the
// check was meant to be n >= 1_000_000.
func Bucket(n uint32) int {
	if n > 1_000_000 {
		return -1
	}
	buckets[n/10_000]++ // ladder: bucket index
	return int(n / 10_000)
}

// Command runs a command: "calibrate!" and a count byte.
func Command(data []byte) int {
	if bytes.HasPrefix(data, []byte("calibrate!")) && len(data) > 10 {
		steps := make([]int, 16)
		for i := 0; i < int(data[10]); i++ {
			steps[i] = i // ladder: calibrate count
		}
		return len(steps)
	}
	return 0
}

// SensorID is the one sensor with a calibration table.
const SensorID uint64 = 0x00C0FFEE5EED1234

var calibration map[uint64][]int

// Reading calibrates a reading of sensor id.
func Reading(id uint64, v int) int {
	if id == SensorID {
		return calibration[id][v&7] // ladder: sensor table is nil
	}
	return v
}

// Easy fails on inputs starting with "{}".
func Easy(data []byte) int {
	if len(data) >= 2 && data[0] == '{' && data[1] == '}' {
		var p *int
		return *p // ladder: easy control
	}
	return len(data)
}
