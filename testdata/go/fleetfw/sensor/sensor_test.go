package sensor

import (
	"errors"
	"math"
	"testing"
)

func TestNormalize(t *testing.T) {
	r := NewRegistry()
	v, err := r.Normalize(7, 1512)
	if err != nil || math.Abs(v-1.5) > 1e-9 {
		t.Fatalf("lidar-range: got %v, %v; want 1.5", v, err)
	}

	if _, err := r.Normalize(99, 0); !errors.Is(err, ErrUnknownSensor) {
		t.Fatalf("expected ErrUnknownSensor, got %v", err)
	}

	r.AttachRig(&RigProfile{Reference: 1000, Gain: 0.5})
	v, err = r.Normalize(CalibrationRigID, 1010)
	if err != nil || v != 5 {
		t.Fatalf("rig: got %v, %v; want 5", v, err)
	}
}

func FuzzNormalize(f *testing.F) {
	f.Add(uint64(7), int32(1200))
	f.Fuzz(func(t *testing.T, id uint64, raw int32) {
		r := NewRegistry()
		v, err := r.Normalize(id, raw)
		if err != nil {
			return
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("sensor %#x: raw %d normalised to %v", id, raw, v)
		}
	})
}
