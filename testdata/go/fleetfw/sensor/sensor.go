// Package sensor converts raw readings from the robots' sensor modules into
// calibrated values.
//
// Every module on a robot's sensor bus reports a 64-bit ID. Production
// modules are looked up in a calibration registry; the factory calibration
// rig, which can be plugged into the bus in place of a module, reports the
// reserved CalibrationRigID.
package sensor

import (
	"errors"
	"fmt"
)

// CalibrationRigID is the bus ID reported by the factory calibration rig.
const CalibrationRigID uint64 = 0xCA1B_0D6E_F1EE_7001

// ErrUnknownSensor is returned for IDs that are not in the registry.
var ErrUnknownSensor = errors.New("sensor: unknown sensor id")

// Calibration maps a module's raw counts to physical units:
// value = (raw - Offset) * Scale.
type Calibration struct {
	Name   string
	Offset int32
	Scale  float64
}

// RigProfile describes the reference signal of an attached calibration rig.
type RigProfile struct {
	Reference int32   // counts the rig should report on a nominal bus
	Gain      float64 // bus-gain units per count of deviation
}

// Registry holds the calibrations known to a robot.
type Registry struct {
	sensors map[uint64]Calibration
	rig     *RigProfile
}

// NewRegistry returns a registry preloaded with the standard modules fitted
// to every robot in the fleet.
func NewRegistry() *Registry {
	r := &Registry{sensors: make(map[uint64]Calibration)}
	for id, cal := range standardModules {
		r.sensors[id] = cal
	}
	return r
}

var standardModules = map[uint64]Calibration{
	1: {"battery-voltage", 0, 0.001},
	2: {"battery-current", 2048, 0.01},
	3: {"motor-temp-left", 400, 0.1},
	4: {"motor-temp-right", 400, 0.1},
	5: {"imu-accel-x", 0, 0.000598},
	6: {"imu-accel-y", 0, 0.000598},
	7: {"lidar-range", 12, 0.001},
	8: {"bumper-force", 100, 0.05},
}

// Register adds or replaces the calibration for id.
func (r *Registry) Register(id uint64, cal Calibration) {
	r.sensors[id] = cal
}

// AttachRig records the profile of a calibration rig plugged into the bus.
func (r *Registry) AttachRig(p *RigProfile) {
	r.rig = p
}

// Normalize converts a raw reading from sensor id into calibrated units.
// For the calibration rig the result is the bus-gain error.
func (r *Registry) Normalize(id uint64, raw int32) (float64, error) {
	if id == CalibrationRigID {
		return deviation(raw, r.rig.Reference) * r.rig.Gain, nil
	}
	cal, ok := r.sensors[id]
	if !ok {
		return 0, fmt.Errorf("%w: %#016x", ErrUnknownSensor, id)
	}
	return deviation(raw, cal.Offset) * cal.Scale, nil
}

// deviation returns raw - ref without overflowing int32.
func deviation(raw, ref int32) float64 {
	return float64(int64(raw) - int64(ref))
}
