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

// BenchmarkAlarm measures the cost of labels per call (run it with and
// without the overlay).
func BenchmarkAlarm(b *testing.B) {
	rs := []Reading{{200, 50, 10}, {510, 50, 10}, {510, 90, 10}, {20000, 0, 0}, {-7, 85, 260}}
	for i := 0; i < b.N; i++ {
		Alarm(rs[i%len(rs)])
	}
}
