package significance

import (
	"math"
	"testing"
)

func TestHolmHandComputed(t *testing.T) {
	// m = 4: sorted 0.01, 0.02, 0.03, 0.04 times 4, 3, 2, 1 = 0.04, 0.06,
	// 0.06, 0.04 → running maximum 0.04, 0.06, 0.06, 0.06. Given unsorted.
	got := Holm([]float64{0.03, 0.01, 0.04, 0.02})
	want := []float64{0.06, 0.04, 0.06, 0.06}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
	// Textbook (Holm 1979 style): 0.01, 0.04, 0.03, 0.005 at α 0.05:
	// sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 → 0.06.
	got = Holm([]float64{0.01, 0.04, 0.03, 0.005})
	want = []float64{0.03, 0.06, 0.06, 0.02}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("Holm = %v, want %v", got, want)
		}
	}
	// Capped at 1.
	if got := Holm([]float64{0.5, 0.9, 0.6}); got[0] != 1 || got[1] != 1 || got[2] != 1 {
		t.Errorf("Holm = %v, want all 1", got)
	}
	if got := Holm(nil); len(got) != 0 {
		t.Errorf("Holm(nil) = %v", got)
	}
}

func TestHolmProperties(t *testing.T) {
	if got := Holm([]float64{0.037}); got[0] != 0.037 {
		t.Errorf("m = 1: Holm = %v, want identity", got)
	}
	p := []float64{0.2, 0.001, 0.049, 0.011, 0.011, 1, 0.0004, 0.3, 0.02}
	adj := Holm(p)
	for i := range p {
		if adj[i] < p[i] || adj[i] > 1 {
			t.Errorf("adj[%d] = %v, raw %v: want raw <= adj <= 1", i, adj[i], p[i])
		}
		for j := range p {
			if p[i] < p[j] && adj[i] > adj[j] {
				t.Errorf("order broken: p %v < %v but adj %v > %v", p[i], p[j], adj[i], adj[j])
			}
			if p[i] == p[j] && adj[i] != adj[j] {
				t.Errorf("ties adjusted differently: %v, %v", adj[i], adj[j])
			}
		}
	}
	// The smallest is multiplied by m: never looser than Bonferroni there.
	if want := 9 * 0.0004; math.Abs(adj[6]-want) > 1e-12 {
		t.Errorf("smallest adj = %v, want %v", adj[6], want)
	}
}
