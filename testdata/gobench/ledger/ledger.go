// Package ledger settles transfers: an amount, a fee, and the share of the
// fee in the amount.
package ledger

import "errors"

// Large is the amount above which a transfer is settled on the bulk path.
const Large = 1_000_000

// Settlement is a settled transfer.
type Settlement struct {
	Net int64
	// Leverage is how many times the net amount covers the fee beyond
	// the standard rate of 40 fees per amount (bulk transfers only).
	Leverage int64
}

// Settle settles amount minus fee.
func Settle(amount, fee int64) (Settlement, error) {
	if amount <= 0 || fee < 0 {
		return Settlement{}, errors.New("ledger: bad transfer")
	}
	if fee >= amount {
		return Settlement{}, errors.New("ledger: fee exceeds amount")
	}
	s := Settlement{Net: amount - fee}
	if amount > Large && fee > 0 {
		// BUG: the bulk path divides by the excess over the standard
		// rate, which is zero when the fee is exactly 1/40 of the amount.
		s.Leverage = s.Net / (amount - 40*fee)
	}
	return s, nil
}
