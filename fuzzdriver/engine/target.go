package engine

import (
	"context"
	"strings"

	"github.com/labelcov/labelcov/labels/srcpos"
)

// Target runs one input. Implementations need not be safe for concurrent use:
// the engine makes one Target per worker with Campaign.NewTarget.
//
// Run must return promptly when ctx is cancelled and must not hang on any
// input (the VM's step budget turns endless plans into a timeout Finding).
// A non-nil error means the Target itself is broken (not that the input found
// a bug); it stops the campaign.
type Target interface {
	Run(ctx context.Context, input []byte) (Outcome, error)
	// Counters returns the coverage counters of the last Run: one byte per
	// counter, saturating at 255, the same length on every run. The engine
	// reads the slice before the next Run and never keeps it.
	Counters() []uint8
}

// Outcome is what one run judged. The engine never uses it to decide what to
// keep in the corpus; it only collects Findings. Findings may share storage
// with the Target and is only valid until its next Run.
type Outcome struct {
	Findings []Finding
}

// Finding is one problem found by a run: an error category reported by a
// check or policy, a plan failure, or a timeout; for Go fuzz targets
// (gofuzz.Site), a failure of the original code.
type Finding struct {
	// Category is the error category (a check's symbol), or the failure kind
	// for plan failures ("object-unreachable", "timeout", ...).
	Category string `json:"category"`
	// Pos is the source position for plan failures and timeouts (in the
	// original plan); the zero Pos for check categories. Part of the key,
	// as FILE:LINE:COL (FILE:LINE without a column).
	Pos srcpos.Pos `json:"pos,omitzero"`
	// Detail is a human-readable message. Not part of the key.
	Detail string `json:"detail,omitempty"`
}

// Key groups findings: the first input of each key is saved and minimized.
func (f Finding) Key() string {
	if !f.Pos.IsValid() {
		return f.Category
	}
	return f.Category + "@" + f.Pos.String()
}

// HasKey reports whether o contains a finding with the given key.
func (o Outcome) HasKey(key string) bool {
	for _, f := range o.Findings {
		if f.Key() == key {
			return true
		}
	}
	return false
}

// Slug turns a finding key into something safe inside a file name.
func Slug(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			r == '-', r == '_', r == '.', r == '@':
			b.WriteRune(r)
		case r == ':':
			// AFL++ name fields are separated by ',' and use ':' inside
			// a field; positions "f.plan:3:4" become "f.plan-3-4".
			b.WriteByte('-')
		default:
			b.WriteByte('_')
		}
		if b.Len() >= 96 {
			break
		}
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}
