package afl_test

import (
	"context"
	"fmt"
	"os"

	"github.com/labelcov/labelcov/fuzzdriver/afl"
)

// planExecutor stands in for the plan VM: Exec decodes the input into an
// environment, runs the plan and the checks, and returns the VM's counters.
type planExecutor struct{ counters []uint8 }

func (p *planExecutor) NumCounters() int { return len(p.counters) }

func (p *planExecutor) Exec(ctx context.Context, input []byte) ([]uint8, bool, error) {
	clear(p.counters)
	p.counters[0] = 1
	return p.counters, false, nil
}

// The body of `labelcov afl-target PLAN --world W [@@]`: the same command
// line serves as the fork-server front (under afl-fuzz), as the worker the
// front re-executes, and as a one-shot run by hand.
func ExampleMain() {
	cfg := afl.Config{
		Factory: func(ctx context.Context) (afl.Executor, error) {
			// Parse the plan and load the world here, once per worker.
			return &planExecutor{counters: make([]uint8, 1000)}, nil
		},
	}
	if len(os.Args) > 2 { // the CLI would take this from its @@ argument
		cfg.InputPath = os.Args[2]
	}
	if err := afl.Main(context.Background(), cfg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
