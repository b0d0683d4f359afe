// Package sensor applies per-device calibration to raw readings.
package sensor

// ReferenceID is the 64-bit identifier of the reference probe, which is
// calibrated against itself.
const ReferenceID uint64 = 0x7E57AB1E0D0CF00D

type calibration struct {
	offset, scale int32
}

var calibrations = map[uint64]*calibration{
	0x0000000000000001: {offset: -3, scale: 100},
	0x0000000000000002: {offset: 5, scale: 98},
}

// Calibrate converts a raw reading of device id to hundredths of a degree.
func Calibrate(id uint64, raw int32) int32 {
	c := calibrations[id]
	if id == ReferenceID {
		// BUG: the reference probe has no entry in the table.
		return (raw + c.offset) * c.scale / 100
	}
	if c == nil {
		return raw
	}
	return (raw + c.offset) * c.scale / 100
}
