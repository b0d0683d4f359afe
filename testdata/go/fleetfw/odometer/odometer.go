// Package odometer reconciles the drive-motor encoder against the
// output-shaft encoder on the fleet's wheel modules. A healthy module keeps
// the two counters in a fixed gear relation; wheel slip and belt wear show up
// as drift between them.
package odometer

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// FrameSize is the size of an odometry telemetry frame: the motor-encoder
// count followed by the shaft-encoder count, both little-endian int64.
const FrameSize = 16

const (
	// GearRatio is the number of motor-encoder ticks per shaft-encoder tick.
	GearRatio = 3

	// HomingOffset is the number of shaft ticks consumed by the homing move
	// before the shaft counter is enabled.
	HomingOffset = 1000

	// WarmupTicks is the motor count below which drift is dominated by
	// gearbox backlash and is not evaluated.
	WarmupTicks = 50_000

	// MinTicksPerSlip is the smallest acceptable number of motor ticks per
	// tick of accumulated drift for a module to be reported healthy.
	MinTicksPerSlip = 200
)

// ErrShortFrame is returned when a frame is smaller than FrameSize.
var ErrShortFrame = errors.New("odometer: short frame")

// Reading is one pair of encoder counters sampled at the same instant.
type Reading struct {
	Motor int64 // drive-motor encoder ticks since power-up
	Shaft int64 // output-shaft encoder ticks since homing
}

// Report is the outcome of reconciling one Reading.
type Report struct {
	Settling     bool  // true while the module is still within WarmupTicks
	Drift        int64 // signed difference between expected and observed shaft ticks
	TicksPerSlip int64 // motor ticks per tick of drift
	Healthy      bool
}

// DecodeFrame decodes a telemetry frame. Bytes after the first FrameSize
// are reserved for future fields and ignored.
func DecodeFrame(b []byte) (Reading, error) {
	if len(b) < FrameSize {
		return Reading{}, fmt.Errorf("%w: %d bytes", ErrShortFrame, len(b))
	}
	return Reading{
		Motor: int64(binary.LittleEndian.Uint64(b[0:8])),
		Shaft: int64(binary.LittleEndian.Uint64(b[8:16])),
	}, nil
}

// EncodeFrame is the inverse of DecodeFrame.
func EncodeFrame(r Reading) []byte {
	b := make([]byte, FrameSize)
	binary.LittleEndian.PutUint64(b[0:8], uint64(r.Motor))
	binary.LittleEndian.PutUint64(b[8:16], uint64(r.Shaft))
	return b
}

// expectedShaft returns the shaft count a slip-free module would report
// for the given motor count.
func expectedShaft(motor int64) int64 {
	return GearRatio*motor - HomingOffset
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// Reconcile compares the two counters of r and grades the module.
func Reconcile(r Reading) Report {
	if r.Motor <= WarmupTicks {
		return Report{Settling: true}
	}
	drift := expectedShaft(r.Motor) - r.Shaft
	perSlip := r.Motor / abs64(drift)
	return Report{
		Drift:        drift,
		TicksPerSlip: perSlip,
		Healthy:      perSlip >= MinTicksPerSlip,
	}
}

// Check decodes a frame and reconciles it.
func Check(frame []byte) (Report, error) {
	r, err := DecodeFrame(frame)
	if err != nil {
		return Report{}, err
	}
	return Reconcile(r), nil
}
