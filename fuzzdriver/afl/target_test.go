package afl_test

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"testing"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
)

// The test binary doubles as the AFL target: with roleEnv=target, TestMain
// runs afl.Main on the synthetic executor instead of the tests, exactly as
// `labelcov afl-target` will. The front re-executes the same binary as its
// worker, inheriting the environment.
const (
	roleEnv     = "AFLTEST_ROLE"
	countersEnv = "AFLTEST_COUNTERS" // total counters (padding), default synthInstrs+2*len(magic)
	tricksEnv   = "AFLTEST_TRICKS"   // "1": inputs may hang, panic or exit (protocol tests only)
	noSizerEnv  = "AFLTEST_NOSIZER"  // "1": hide NumCounters, so the worker probes
)

func TestMain(m *testing.M) {
	if os.Getenv(roleEnv) == "target" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
		err := afl.Main(ctx, afl.Config{Factory: synthFactory})
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "target:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func synthFactory(context.Context) (afl.Executor, error) {
	n := synthInstrs + 2*len(magic)
	if v := os.Getenv(countersEnv); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < n {
			return nil, fmt.Errorf("bad %s=%q", countersEnv, v)
		}
		n = k
	}
	s := newSynth(n, os.Getenv(tricksEnv) == "1")
	if os.Getenv(noSizerEnv) == "1" {
		return noSizer{s}, nil
	}
	return s, nil
}

// magic is what the synthetic plan checks byte by byte, nested: each level
// is reachable only when the previous bytes match, like a chain of nested
// conditionals in a plan. Matching all of it is the "finding".
const magic = "LaBeL!"

// synthInstrs is the number of "instruction" counters before the branch
// counters, mirroring the VM layout: instructions first, then two counters
// (true, false) per conditional jump.
const synthInstrs = 8

// synth simulates a compiled plan with nested byte comparisons.
type synth struct {
	counters []uint8
	tricks   bool
}

func newSynth(n int, tricks bool) *synth {
	return &synth{counters: make([]uint8, n), tricks: tricks}
}

func (s *synth) NumCounters() int { return len(s.counters) }

func (s *synth) Exec(ctx context.Context, input []byte) ([]uint8, bool, error) {
	if s.tricks {
		switch string(input) {
		case "hang":
			<-ctx.Done() // only AFL's kill (or cancellation) ends this
			return nil, false, ctx.Err()
		case "panic":
			panic("synthetic harness bug")
		case "exit":
			os.Exit(3)
		case "error":
			return nil, false, fmt.Errorf("synthetic harness error")
		}
	}
	c := s.counters
	clear(c)
	inc := func(i int) {
		if c[i] < 255 {
			c[i]++
		}
	}
	inc(0) // entry
	// A loop over the input: its hit count grows with the length, as a
	// plan's loop counters do, so AFL's hit-count buckets see it.
	for range input {
		inc(1)
	}
	depth := 0
	for depth < len(magic) {
		inc(2 + depth%(synthInstrs-2))
		br := synthInstrs + 2*depth
		if depth < len(input) && input[depth] == magic[depth] {
			inc(br) // test true
			depth++
			continue
		}
		inc(br + 1) // test false
		break
	}
	// Padding counters (large-map tests) light up at a spread of indices
	// determined by the first byte, so folding is exercised.
	if pad := len(c) - (synthInstrs + 2*len(magic)); pad > 0 && len(input) > 0 {
		base := synthInstrs + 2*len(magic)
		for k := 0; k < 4; k++ {
			inc(base + (int(input[0])*7919+k*104729)%pad)
		}
	}
	return c, depth == len(magic), nil
}

// noSizer hides NumCounters.
type noSizer struct{ s *synth }

func (n noSizer) Exec(ctx context.Context, in []byte) ([]uint8, bool, error) {
	return n.s.Exec(ctx, in)
}
