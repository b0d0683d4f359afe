package odometer

import "testing"

func TestReconcile(t *testing.T) {
	// Warm-up: never graded.
	if rep := Reconcile(Reading{Motor: 1200, Shaft: 2000}); !rep.Settling {
		t.Fatalf("expected settling report, got %+v", rep)
	}

	// 60,000 motor ticks with 100 ticks of slip on the shaft side.
	rep := Reconcile(Reading{Motor: 60_000, Shaft: 3*60_000 - 1000 - 100})
	if rep.Settling || rep.Drift != 100 || rep.TicksPerSlip != 600 || !rep.Healthy {
		t.Fatalf("unexpected report %+v", rep)
	}

	// Heavy slip.
	rep = Reconcile(Reading{Motor: 60_000, Shaft: 100_000})
	if rep.Healthy {
		t.Fatalf("expected unhealthy module, got %+v", rep)
	}

	if _, err := Check([]byte{1, 2, 3}); err == nil {
		t.Fatal("expected error for short frame")
	}
}

func FuzzCheck(f *testing.F) {
	f.Add(EncodeFrame(Reading{Motor: 50_400, Shaft: 149_200}))
	f.Fuzz(func(t *testing.T, frame []byte) {
		rep, err := Check(frame)
		if err != nil {
			return
		}
		if rep.Settling && (rep.Drift != 0 || rep.Healthy) {
			t.Fatalf("settling report carries a grade: %+v", rep)
		}
	})
}
