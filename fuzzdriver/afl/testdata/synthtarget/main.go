// Command synthtarget is the AFL++ adapter's test target: what
// `labelcov afl-target` does, with the synthetic executor in place of the
// plan VM. Environment (tests only): AFLTEST_COUNTERS sets the counter count,
// AFLTEST_TRICKS=1 enables misbehaving inputs, =2 hangs on a leading 'Z' and
// reports a finding on a leading 'Y', AFLTEST_NOSIZER=1 hides
// NumCounters, AFLTEST_RUN_TIMEOUT sets Config.RunTimeout. An optional
// argument is the @@ input file.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
	"github.com/labelcov/labelcov/fuzzdriver/afl/internal/synth"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	cfg := afl.Config{Factory: factory}
	if len(os.Args) > 1 {
		cfg.InputPath = os.Args[1]
	}
	if v := os.Getenv("AFLTEST_RUN_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			fmt.Fprintln(os.Stderr, "synthtarget:", err)
			os.Exit(1)
		}
		cfg.RunTimeout = d
	}
	err := afl.Main(ctx, cfg)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "synthtarget:", err)
		os.Exit(1)
	}
}

func factory(context.Context) (afl.Executor, error) {
	n := synth.MinCounters
	if v := os.Getenv("AFLTEST_COUNTERS"); v != "" {
		k, err := strconv.Atoi(v)
		if err != nil || k < n {
			return nil, fmt.Errorf("bad AFLTEST_COUNTERS=%q", v)
		}
		n = k
	}
	s := synth.New(n, os.Getenv("AFLTEST_TRICKS") == "1")
	if os.Getenv("AFLTEST_TRICKS") == "2" {
		s.WithByteTricks()
	}
	if os.Getenv("AFLTEST_NOSIZER") == "1" {
		return synth.NoSizer{S: s}, nil
	}
	return s, nil
}
