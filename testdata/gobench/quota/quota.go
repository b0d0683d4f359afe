// Package quota hands out numbered storage slots.
package quota

import "errors"

// MaxSlots is the number of slots.
const MaxSlots = 3_000_000

// Table records which slots are taken.
type Table struct {
	taken []bool
}

// NewTable makes an empty table of MaxSlots slots.
func NewTable() *Table { return &Table{taken: make([]bool, MaxSlots)} }

var errRange = errors.New("quota: no such slot")

// Reserve takes slot n and reports whether it was free.
func (t *Table) Reserve(n uint32) (bool, error) {
	// BUG: slots are numbered 0 .. MaxSlots-1; ">=" was meant.
	if n > MaxSlots {
		return false, errRange
	}
	free := !t.taken[n]
	t.taken[n] = true
	return free, nil
}
