package labels

import (
	"fmt"
	"iter"
)

// The decision criteria as every front end applies them: CC asks each
// distinct atom of a decision to be true and to be false; MCC asks for
// each of the 2^n combinations of its n atoms, unless n is above the
// bound (Options.MCCMaxAtoms), where it falls back to CC labels with a
// warning.

// FallbackPrefix starts the operator of the CC labels MCC falls back to
// ("cc fallback: true").
const FallbackPrefix = "cc fallback: "

// CCOperator is the operator of the CC label that asks an atom to be v,
// after prefix ("" or FallbackPrefix).
func CCOperator(prefix string, v bool) string {
	if v {
		return prefix + "true"
	}
	return prefix + "false"
}

// MCCFallback returns the warning for a decision of n atoms on which MCC
// falls back to CC under the bound max, or "" when MCC labels it.
func MCCFallback(n, max int) string {
	if n <= max {
		return ""
	}
	return fmt.Sprintf("warning: decision has %d atoms, more than --mcc-max-atoms %d: MCC falls back to CC here", n, max)
}

// Combinations yields the 2^n MCC combinations of a decision with n
// atoms in label order, all true first: each as its operator (T or F per
// atom, "TFT") and the truth value it asks of each atom. The slice is
// reused from one combination to the next.
func Combinations(n int) iter.Seq2[string, []bool] {
	return func(yield func(string, []bool) bool) {
		vals := make([]bool, n)
		op := make([]byte, n)
		for m := 0; m < 1<<n; m++ {
			for i := range vals {
				vals[i] = m&(1<<(n-1-i)) == 0
				op[i] = 'F'
				if vals[i] {
					op[i] = 'T'
				}
			}
			if !yield(string(op), vals) {
				return
			}
		}
	}
}
