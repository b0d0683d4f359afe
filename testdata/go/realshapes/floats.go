// Package realshapes holds shapes of real code in a module whose go.mod
// predates Go 1.13 (see README.md).
package realshapes

import (
	"math"
	"strconv"
)

// Result is a parsed JSON value, as in gjson.
type Result struct {
	Type int
	Raw  string
	Str  string
	Num  float64
}

// Bool reads r as a boolean.
func (r Result) Bool() bool {
	switch r.Type {
	case 1:
		return true
	case 2:
		b, _ := strconv.ParseBool(r.Str)
		return b
	case 3:
		return r.Num != 0
	}
	return false
}

// Less orders results; caseSensitive orders strings by bytes.
func (r Result) Less(token Result, caseSensitive bool) bool {
	if r.Type < token.Type {
		return true
	}
	if r.Type > token.Type {
		return false
	}
	if r.Type == 2 {
		if caseSensitive {
			return r.Str < token.Str
		}
		return len(r.Str) < len(token.Str)
	}
	if r.Type == 3 {
		return r.Num < token.Num
	}
	return r.Raw < token.Raw
}

// SafeInt converts f to an int when JSON numbers hold it exactly.
func SafeInt(f float64) (n int64, ok bool) {
	if f < -9007199254740991 || f > 9007199254740991 {
		return 0, false
	}
	return int64(f), true
}

// EqualFloat reports whether x and y are equal, NaNs being equal to each
// other, as protobuf's equalFloat.
func EqualFloat(x, y float64) bool {
	if math.IsNaN(x) || math.IsNaN(y) {
		return math.IsNaN(x) && math.IsNaN(y)
	}
	return x == y
}

// Near32 compares float32 values.
func Near32(a, b float32) bool {
	return a-b < 0.5 && b-a < 0.5
}
