package vm

import (
	"context"
	"testing"

	"github.com/labelcov/labelcov/interp/value"
)

const benchFib = `
(defun fib (n)
  (if (< n 2)
      n
      (+ (fib (- n 1)) (fib (- n 2)))))
(def-plan main () (fib 30))`

const benchLoop = `
(def-plan main ()
  (let ((s 0))
    (dotimes (i 1000000)
      (setq s (+ s (* i 2))))
    s))`

// benchRun runs plan main of src b.N times with coverage counting on (it
// always is) and checks the result.
func benchRun(b *testing.B, src string, want int64) {
	p := compileSrc(b, src)
	m, err := New(p, Config{MaxSteps: 1 << 40})
	if err != nil {
		b.Fatal(err)
	}
	fn := p.Plan("main")
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.ResetCounters()
		r := m.Run(ctx, fn, nil)
		if r.Outcome != OutcomeOK || r.Value.Kind() != value.KInt || r.Value.Int() != want {
			b.Fatalf("got %v %v %v", r.Outcome, r.Value, r.Failure)
		}
	}
}

func BenchmarkFib30(b *testing.B)          { benchRun(b, benchFib, 832040) }
func BenchmarkDotimesLoop1e6(b *testing.B) { benchRun(b, benchLoop, 999999000000) }
