package sensor

import "testing"

func FuzzCalibrate(f *testing.F) {
	f.Add(uint64(7), int32(2150))
	f.Fuzz(func(t *testing.T, id uint64, raw int32) {
		Calibrate(id, raw)
	})
}
