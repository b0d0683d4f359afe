package fuzzexp

import "testing"

func TestAlarm(t *testing.T) {
	for _, c := range []struct {
		r    Reading
		want string
	}{{Reading{Temp: 200}, "ok"}, {Reading{Temp: 510}, "alarm, rate 50"}, {Reading{Temp: 510, Humidity: 92}, "alarm, rate 100"}} {
		if got := Alarm(c.r); got != c.want {
			t.Errorf("Alarm(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

func FuzzAlarm(f *testing.F) {
	f.Add(int32(200), int32(50), int32(10))
	f.Fuzz(func(t *testing.T, temp, humidity, dust int32) {
		Alarm(Reading{Temp: temp, Humidity: humidity, Dust: dust})
	})
}
