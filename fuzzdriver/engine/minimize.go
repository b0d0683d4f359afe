package engine

import (
	"context"
	"fmt"
)

// Size orders inputs for minimization: fewer objects first, then fewer bytes.
// Objects is whatever the caller's object-count function says (for
// environments: objects actually placed); without one it is 0.
type Size struct {
	Objects int `json:"objects"`
	Bytes   int `json:"bytes"`
}

// Less reports whether s is strictly smaller than o.
func (s Size) Less(o Size) bool {
	if s.Objects != o.Objects {
		return s.Objects < o.Objects
	}
	return s.Bytes < o.Bytes
}

// ObjectCount counts the objects an input describes (for example the objects
// an environment decoder places). It must be deterministic and cheap.
type ObjectCount func(input []byte) int

// SizeOf measures input with objects (nil: count no objects).
func SizeOf(input []byte, objects ObjectCount) Size {
	s := Size{Bytes: len(input)}
	if objects != nil {
		s.Objects = objects(input)
	}
	return s
}

// Minimize shrinks input while keep still holds (for findings: "the run still
// reports the same key"), preferring fewer objects, then fewer bytes. It
// tries removing blocks from half the input down to single bytes and, when
// objects is set, zeroing single bytes (which can remove an object without
// removing bytes), until a full pass makes no progress or maxRuns calls of
// keep were spent (maxRuns <= 0: no limit).
//
// A candidate is only run if it is strictly smaller, so the result is never
// larger than input. Cancelling ctx returns the smallest input found so far
// with a nil error; an error from keep is returned wrapped. The function is
// deterministic: same input, same keep, same result.
func Minimize(ctx context.Context, input []byte, keep func([]byte) (bool, error), objects ObjectCount, maxRuns int) (out []byte, runs int, err error) {
	best := append([]byte(nil), input...)
	bestSize := SizeOf(best, objects)
	cand := make([]byte, 0, len(input))
	exhausted := func() bool {
		return (maxRuns > 0 && runs >= maxRuns) || ctx.Err() != nil
	}
	// try runs keep on cand if it is smaller and adopts it when it holds.
	try := func() (bool, error) {
		sz := SizeOf(cand, objects)
		if !sz.Less(bestSize) {
			return false, nil
		}
		runs++
		ok, err := keep(cand)
		if err != nil {
			return false, fmt.Errorf("minimize: %w", err)
		}
		if ok {
			best = append(best[:0], cand...)
			bestSize = sz
		}
		return ok, nil
	}
	for progress := true; progress && !exhausted(); {
		progress = false
		for k := max(len(best)/2, 1); k >= 1 && !exhausted(); k /= 2 {
			for pos := 0; pos+k <= len(best) && !exhausted(); {
				cand = append(append(cand[:0], best[:pos]...), best[pos+k:]...)
				ok, err := try()
				if err != nil {
					return best, runs, err
				}
				if ok {
					progress = true
				} else {
					pos += k
				}
			}
		}
		if objects == nil {
			continue
		}
		for i := 0; i < len(best) && !exhausted(); i++ {
			if best[i] == 0 {
				continue
			}
			cand = append(cand[:0], best...)
			cand[i] = 0
			ok, err := try()
			if err != nil {
				return best, runs, err
			}
			progress = progress || ok
		}
	}
	return best, runs, nil
}
