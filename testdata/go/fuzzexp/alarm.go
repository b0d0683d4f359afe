// Package fuzzexp holds the fuzz experiment of docs/go.md: a crash hidden
// behind a compound, temperature-range style condition.
package fuzzexp

import "strconv"

// Reading is one sensor sample.
type Reading struct {
	Temp     int32 // hundredths of a degree
	Humidity int32 // percent
	Dust     int32 // micrograms per cubic metre
}

func btoi(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

// Alarm classifies a reading. Its bug: when the reading is hot, humid and
// dusty at once, the number of quiet sensors is zero and the rate divides
// by it. Each range alone is covered easily; the three together are what
// a branch-coverage fuzzer has no reason to look for, and what the MCC
// labels of the decision below reward step by step.
func Alarm(r Reading) string {
	hot := r.Temp > 500 && r.Temp < 530
	humid := r.Humidity > 80 && r.Humidity < 100
	dusty := r.Dust > 250 && r.Dust < 280
	if hot || humid || dusty {
		quiet := 3 - btoi(hot) - btoi(humid) - btoi(dusty)
		return "alarm, rate " + strconv.Itoa(int(100/quiet))
	}
	return "ok"
}
