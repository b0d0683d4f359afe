// Package synth is a synthetic afl.Executor for the adapter's tests: it
// mimics a compiled plan's coverage layout (instruction counters, then a
// true/false pair per conditional jump) over nested byte comparisons, the
// classic shape a coverage-guided fuzzer must solve one level at a time.
package synth

import (
	"context"
	"errors"
	"os"
)

// Magic is checked byte by byte, nested: level k is reachable only when
// bytes 0..k-1 match, like a chain of nested conditionals. Matching all of
// it is the finding.
const Magic = "LaBeL!"

// Instrs is the number of instruction counters before the branch counters.
const Instrs = 8

// MinCounters is the smallest counter count: instructions plus one
// true/false pair per level.
const MinCounters = Instrs + 2*len(Magic)

// Synth simulates a compiled plan with nested byte comparisons.
type Synth struct {
	counters   []uint8
	tricks     bool
	byteTricks bool
}

// New returns an executor with n >= MinCounters counters; the ones beyond
// MinCounters are padding that lights up at spread indices, to exercise
// large and folded maps. With tricks, the inputs "hang", "panic", "exit"
// and "error" misbehave as their names say (protocol tests only: a fuzzer
// would find them).
func New(n int, tricks bool) *Synth {
	return &Synth{counters: make([]uint8, max(n, MinCounters)), tricks: tricks}
}

// WithByteTricks makes any input starting with 'Z' hang until killed and
// any input starting with 'Y' a finding, so that a real fuzzer meets
// timeouts and crashes within seconds.
func (s *Synth) WithByteTricks() *Synth {
	s.byteTricks = true
	return s
}

// NumCounters implements afl.CounterSizer.
func (s *Synth) NumCounters() int { return len(s.counters) }

// Exec implements afl.Executor.
func (s *Synth) Exec(ctx context.Context, input []byte) ([]uint8, bool, error) {
	if s.tricks {
		switch string(input) {
		case "hang":
			<-ctx.Done() // only a kill or cancellation ends this
			return nil, false, ctx.Err()
		case "panic":
			panic("synthetic harness bug")
		case "exit":
			os.Exit(3)
		case "error":
			return nil, false, errors.New("synthetic harness error")
		}
	}
	if s.byteTricks && len(input) > 0 && input[0] == 'Z' {
		<-ctx.Done()
		return nil, false, ctx.Err()
	}
	c := s.counters
	clear(c)
	inc := func(i int) {
		if c[i] < 255 {
			c[i]++
		}
	}
	inc(0) // entry
	// A loop over the input: its count grows with the length, as a plan's
	// loop counters do, so AFL's hit-count buckets see it.
	for range input {
		inc(1)
	}
	depth := 0
	for depth < len(Magic) {
		inc(2 + depth%(Instrs-2))
		br := Instrs + 2*depth
		if depth < len(input) && input[depth] == Magic[depth] {
			inc(br) // test true
			depth++
			continue
		}
		inc(br + 1) // test false
		break
	}
	if pad := len(c) - MinCounters; pad > 0 && len(input) > 0 {
		for k := range 4 {
			inc(MinCounters + (int(input[0])*7919+k*104729)%pad)
		}
	}
	found := depth == len(Magic) || (s.byteTricks && len(input) > 0 && input[0] == 'Y')
	return c, found, nil
}

// NoSizer hides NumCounters, so the worker has to probe.
type NoSizer struct{ S *Synth }

// Exec implements afl.Executor.
func (n NoSizer) Exec(ctx context.Context, in []byte) ([]uint8, bool, error) {
	return n.S.Exec(ctx, in)
}
