// Package fraction holds labelcov's one covered/total pair. It imports only
// the standard library, so every package can use it without layering
// trouble: labels (as labels.Fraction), the VM, the simulator, measurement
// and both fuzzing engines.
package fraction

import "fmt"

// Fraction is covered out of total, for labels, branches, instructions,
// action buckets and statements alike.
// Types that say more (a percentage, a diversity, the buckets hit) embed it,
// so their JSON keeps "covered" and "total" at top level.
type Fraction struct {
	Covered int `json:"covered"`
	Total   int `json:"total"`
}

// String is "covered/total".
func (f Fraction) String() string { return fmt.Sprintf("%d/%d", f.Covered, f.Total) }

// Ratio is Covered/Total, or 1 when there is nothing to cover.
func (f Fraction) Ratio() float64 {
	if f.Total == 0 {
		return 1
	}
	return float64(f.Covered) / float64(f.Total)
}

// Add counts one more item, covered or not.
func (f *Fraction) Add(covered bool) {
	f.Total++
	if covered {
		f.Covered++
	}
}
