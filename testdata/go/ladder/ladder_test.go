package ladder

import "testing"

func FuzzBalance(f *testing.F) {
	f.Add(int64(51000), int64(151000))
	f.Fuzz(func(t *testing.T, l, r int64) {
		Balance(l, r)
	})
}

func FuzzHeader(f *testing.F) {
	f.Add([]byte{0xC0, 0xDE, 0x12, 0x34, 1, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		Header(data)
	})
}

func FuzzBucket(f *testing.F) {
	f.Add(uint32(999_000))
	f.Fuzz(func(t *testing.T, n uint32) {
		Bucket(n)
	})
}

func FuzzCommand(f *testing.F) {
	f.Add([]byte("status?\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Command(data)
	})
}

func FuzzReading(f *testing.F) {
	f.Add(uint64(7), 1)
	f.Fuzz(func(t *testing.T, id uint64, v int) {
		Reading(id, v)
	})
}

func FuzzEasy(f *testing.F) {
	f.Add([]byte("[]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Easy(data)
	})
}
